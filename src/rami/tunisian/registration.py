"""Tunisian rami as the registry knows it (``rami.games``): the one object consumers use.

Each hook is a reference into the game's own modules (``lazy``), imported on first use,
so registering the game imports nothing but this file; what is written here is only
what no module of the game says by itself.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from rami.engine import GameState
from rami.games import Game, Match, lazy, lazy_value

if TYPE_CHECKING:
    from rami.bots.kit import BotKit

__all__ = ["GAME"]


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


def _match(rules: object, players: int, seed: int) -> Match:
    """A new game: the rules fix the seats (``players_for``)."""
    from rami.tunisian.match import Match as TunisianMatch

    return TunisianMatch(rules, seed)


def _default_preset(seats: int) -> str:
    return "1v1" if seats == 2 else "ffa"


def _progress(state: GameState) -> list[bool]:
    """Who opened in a finished deal (T-6)."""
    from rami.tunisian.game import TunisianState

    assert isinstance(state, TunisianState) and state.result is not None
    return list(state.result.details["opened"])


GAME = Game(
    name="tunisian",
    title="Tunisian rami",
    presets=("1v1", "ffa", "2v2"),
    preset_label="mode",
    rules_from=lazy("rami.tunisian.rules:rules_from"),
    make_match=_match,
    load_match=lazy("rami.tunisian.match:Match.from_json"),
    new_deal=lazy("rami.tunisian.game:new_deal"),
    load_deal=lazy("rami.tunisian.game:TunisianState.from_json"),
    action_space=lazy("rami.tunisian.action_ids:action_space"),
    bots=_bots,
    seat_view=lazy("rami.tunisian.view:seat_view"),
    view_from_json=lazy("rami.tunisian.view:view_from_json"),
    default_preset=_default_preset,
    turn_cap=400,  # T-11 max_turns for simulations
    whole_matches=True,  # whole games to elimination (T-13)
    progress_of=_progress,
    progress_label="openings",
    match_word="the game",
    ledger=lazy("rami.tunisian.ledger:ledger"),
    score_deal=lazy("rami.tunisian.calculator:score"),
    cli=lazy_value("rami.tunisian.cli:COMMANDS"),
    verbs=lazy_value("rami.tunisian.verbs:VERBS"),
    terminal=lazy_value("rami.tunisian.terminal:HOOKS"),
    web=lazy_value("rami.tunisian.web:HOOKS"),
    review=lazy_value("rami.tunisian.review:HOOKS"),
    option_help=lazy_value("rami.tunisian.rules_help:OPTION_HELP"),
    observation=lazy("rami.tunisian.observation:encoder"),
    reward_sign=-1.0,  # deal points are bad (T-10)
    openspiel=lazy_value("rami.tunisian.explicit_chance:HOOKS"),
    rl_default=True,
)
