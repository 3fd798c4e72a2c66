"""Tunisian rami as the registry knows it (``rami.games``): the one object consumers use."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from rami.action_space import ActionSpace
from rami.engine import GameState
from rami.games import Game, Match
from rami.views import GameView, TypedView

if TYPE_CHECKING:
    from rami.bots.kit import BotKit
    from rami.cli.hooks import CliCommands
    from rami.play.hooks import TerminalHooks
    from rami.review.hooks import ReviewHooks
    from rami.rl.hooks import OpenSpielHooks
    from rami.rl.observation import Encoder
    from rami.server.hooks import WebHooks

__all__ = ["GAME"]


def _rules(spec: Any) -> Any:
    from rami.tunisian.rules import rules_from

    return rules_from(spec)


def _players(rules: Any) -> tuple[int, ...]:
    return (rules.players,)


def _new_match(rules: Any, players: int, seed: int) -> Match:
    from rami.tunisian.match import Match

    return Match(rules, seed)


def _load_match(doc: Mapping[str, object]) -> Match:
    from rami.tunisian.match import Match

    return Match.from_json(doc)


def _action_space(rules: Any) -> ActionSpace:
    from rami.tunisian.action_ids import action_space

    return action_space(rules)


def _owns(state: GameState) -> bool:
    from rami.tunisian.action_ids import owns

    return owns(state)


def _seat_view(state: Any, seat: int | None) -> TypedView:
    from rami.tunisian.view import seat_view

    return seat_view(state, seat)


def _view_from_json(doc: GameView) -> TypedView:
    from rami.tunisian.view import view_from_json

    return view_from_json(doc)


# --- bot hooks (part D)
@cache
def _bots() -> BotKit[Any, Any]:
    """The bots' kit (``rami.bots.kit``): the greedy player, its search hooks and the
    determinizer, imported on first use (they pull in the solvers)."""
    from rami.bots.kit import BotKit
    from rami.tunisian import greedy_bot as g
    from rami.tunisian.determinize import sample_state

    return BotKit(
        greedy=g.TunisianGreedy,
        easy_noise=16.0,
        observe=g.observe,
        observe_state=g.observe_state,
        decide=g.decide,
        candidates=g.candidates,
        tree_moves=g.tree_moves,
        sample=sample_state,
        policy=g.policy,
        leaf_value=g.leaf_value,
        tree_leaf=g.race_value,
        own_policy=g.own_policy,
        search_margin=0.0,
        tree_scale=10.0,
        play_step=g.play_step,
        hard_iterations=48,
        expert_iterations=160,
    )


def _new_deal(rules: Any, seats: int, seed: int, dealer: int) -> GameState:
    from rami.tunisian.game import new_deal

    return new_deal(rules, seats, seed, dealer)


def _default_preset(seats: int) -> str:
    return "1v1" if seats == 2 else "ffa"


def _progress(state: GameState) -> list[bool]:
    """Who opened in a finished deal (T-6)."""
    from rami.tunisian.game import TunisianState

    assert isinstance(state, TunisianState) and state.result is not None
    return list(state.result.details["opened"])


def _cli() -> CliCommands:
    from rami.tunisian.cli import COMMANDS

    return COMMANDS


def _terminal() -> TerminalHooks:
    from rami.tunisian.terminal import HOOKS

    return HOOKS


def _observation(players: int, rules: Mapping[str, object]) -> Encoder:
    from rami.tunisian.observation import encoder

    return encoder(players, rules)


def _openspiel() -> OpenSpielHooks:
    from rami.tunisian.explicit_chance import HOOKS

    return HOOKS


def _review() -> ReviewHooks:
    from rami.tunisian.review import HOOKS

    return HOOKS


def _web() -> WebHooks:
    from rami.tunisian.web import HOOKS

    return HOOKS


def _ledger(doc: Mapping[str, object]) -> dict[str, object]:
    from rami.tunisian.ledger import ledger

    return ledger(doc)


def _score_deal(doc: object) -> dict[str, object]:
    from rami.tunisian.calculator import score

    return score(doc)


def _option_help() -> Mapping[str, str]:
    from rami.tunisian.rules_help import OPTION_HELP

    return OPTION_HELP


def _match_deals(match: Any) -> list[dict[str, Any]]:
    return list(match.deal_docs())


def _load_deal(doc: Mapping[str, Any]) -> GameState:
    from rami.tunisian.game import TunisianState

    return TunisianState.from_json(doc)


GAME = Game(
    "tunisian",
    "Tunisian rami",
    ("1v1", "ffa", "2v2"),
    "mode",
    _rules,
    _players,
    _new_match,
    _load_match,
    _action_space,
    _owns,
    bots=_bots,
    seat_view=_seat_view,
    view_from_json=_view_from_json,
    new_deal=_new_deal,
    match_deals=_match_deals,
    load_deal=_load_deal,
    cli=_cli,
    terminal=_terminal,
    web=_web,
    review=_review,
    observation=_observation,
    openspiel=_openspiel,
    rl_default=True,
    reward_sign=-1.0,  # deal points are bad (T-10)
    ledger=_ledger,
    score_deal=_score_deal,
    option_help=_option_help,
    default_preset=_default_preset,
    turn_cap=400,  # T-11 max_turns for simulations
    whole_matches=True,  # whole games to elimination (T-13)
    progress_of=_progress,
    progress_label="openings",
    points_label="points",
    match_word="the game",
)
