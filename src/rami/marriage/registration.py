"""Marriage as the registry knows it (``rami.games``): the one object consumers use."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from rami.action_space import ActionSpace
from rami.engine import GameState
from rami.games import Game, Match
from rami.views import GameView

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
    from rami.marriage.rules import rules_from

    return rules_from(spec)


def _players(rules: Any) -> tuple[int, ...]:
    return tuple(range(rules.min_players, rules.max_players + 1))


def _new_match(rules: Any, players: int, seed: int) -> Match:
    from rami.marriage.match import Match as MarriageMatch

    return MarriageMatch(rules, players, seed)


def _load_match(doc: Mapping[str, object]) -> Match:
    from rami.marriage.match import Match as MarriageMatch

    return MarriageMatch.from_json(doc)


def _action_space(rules: Any) -> ActionSpace:
    from rami.marriage.action_ids import action_space

    return action_space(rules)


def _owns(state: GameState) -> bool:
    from rami.marriage.action_ids import owns

    return owns(state)


def _partial_view(state: Any, seat: int, keys: frozenset[str]) -> GameView:
    from rami.marriage.view import partial_view

    return partial_view(state, seat, keys)


# --- bot hooks (part D)
@cache
def _bots() -> BotKit[Any, Any]:
    """The bots' kit (``rami.bots.kit``): the greedy player, its search hooks and the
    determinizer, imported on first use (they pull in the solvers)."""
    from rami.bots.kit import BotKit
    from rami.marriage import greedy_bot as g
    from rami.marriage import value as v
    from rami.marriage.determinize import sample_state

    return BotKit(
        greedy=g.MarriageGreedy,
        easy_noise=6.0,
        observe=g.observe,
        observe_state=g.observe_state,
        decide=g.decide,
        candidates=g.candidates,
        tree_moves=g.tree_moves,
        sample=sample_state,
        policy=g.policy,
        leaf_value=g.leaf_value,
        tree_leaf=g.tree_leaf_value,
        turns_ahead=g.turns_ahead,
        search_margin=1.0,
        tree_scale=6.0,
        tree_settle=(0.5, 2.0),
        wilds=g.wilds_of_view,
        wild_knowers=g.wild_knowers,
        play_step=g.play_step,
        value_features=v.features,
        learned_leaf=v.tree_leaf,
        hard_iterations=48,
        expert_iterations=160,
    )


def _new_deal(rules: Any, seats: int, seed: int, dealer: int) -> GameState:
    from rami.marriage.game import new_deal

    return new_deal(rules, seats, seed, dealer)


def _progress(state: GameState) -> list[bool]:
    """Who showed (saw the tiplu) in a finished deal (M-6, M-7)."""
    from rami.marriage.game import MarriageState

    assert isinstance(state, MarriageState) and state.result is not None
    players = state.result.details["players"]
    return [p["seen"] for p in players] or [False] * len(state.result.scores)


def _cli() -> CliCommands:
    from rami.marriage.cli import COMMANDS

    return COMMANDS


def _terminal() -> TerminalHooks:
    from rami.marriage.terminal import HOOKS

    return HOOKS


def _observation(players: int, rules: Mapping[str, object]) -> Encoder:
    from rami.marriage.observation import encoder

    return encoder(players, rules)


def _openspiel() -> OpenSpielHooks:
    from rami.marriage.explicit_chance import HOOKS

    return HOOKS


def _review() -> ReviewHooks:
    from rami.marriage.review import HOOKS

    return HOOKS


def _web() -> WebHooks:
    from rami.marriage.web import HOOKS

    return HOOKS


def _ledger(doc: Mapping[str, object]) -> dict[str, object]:
    from rami.marriage.ledger import ledger

    return ledger(doc)


def _score_deal(doc: object) -> dict[str, object]:
    from rami.marriage.ledger import score_deal

    return score_deal(doc)


def _option_help() -> Mapping[str, str]:
    from rami.marriage.rules_help import OPTION_HELP

    return OPTION_HELP


def _option_choices() -> Mapping[str, tuple[object, ...]]:
    from rami.marriage.rules import CHOICES

    return CHOICES


def _match_deals(match: Any) -> list[dict[str, Any]]:
    return list(match.deal_docs())


def _load_deal(doc: Mapping[str, Any]) -> GameState:
    from rami.marriage.game import MarriageState

    return MarriageState.from_json(doc)


GAME = Game(
    "marriage",
    "Marriage",
    ("nepali", "indian"),
    "rules",
    _rules,
    _players,
    _new_match,
    _load_match,
    _action_space,
    _owns,
    bots=_bots,
    partial_view=_partial_view,
    new_deal=_new_deal,
    match_deals=_match_deals,
    load_deal=_load_deal,
    cli=_cli,
    terminal=_terminal,
    web=_web,
    review=_review,
    observation=_observation,
    openspiel=_openspiel,
    ledger=_ledger,
    score_deal=_score_deal,
    option_help=_option_help,
    option_choices=_option_choices,
    turn_cap=1000,  # M-11 max_turns for simulations
    progress_of=_progress,
    progress_label="shows",
    points_label="ledger",
    signed_points=True,
    match_word="the match",
)
