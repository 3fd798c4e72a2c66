"""Marriage as the registry knows it (``rami.games``): the one object consumers use.

Each hook is a reference into the game's own modules (``lazy``), imported on first use,
so registering the game imports nothing but this file; what is written here is only
what no module of the game says by itself.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from rami.engine import GameState
from rami.games import Game, lazy, lazy_value

if TYPE_CHECKING:
    from rami.bots.kit import BotKit

__all__ = ["GAME"]


def _players(rules: Any) -> tuple[int, ...]:
    return tuple(range(rules.min_players, rules.max_players + 1))


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
        own_policy=g.own_policy,
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


def _progress(state: GameState) -> list[bool]:
    """Who showed (saw the tiplu) in a finished deal (M-6, M-7)."""
    from rami.marriage.game import MarriageState

    assert isinstance(state, MarriageState) and state.result is not None
    players = state.result.details["players"]
    return [p["seen"] for p in players] or [False] * len(state.result.scores)


GAME = Game(
    name="marriage",
    title="Marriage",
    presets=("nepali", "indian"),
    rules_from=lazy("rami.marriage.rules:rules_from"),
    players_for=_players,
    make_match=lazy("rami.marriage.match:Match"),
    load_match=lazy("rami.marriage.match:Match.from_json"),
    new_deal=lazy("rami.marriage.game:new_deal"),
    load_deal=lazy("rami.marriage.game:MarriageState.from_json"),
    action_space=lazy("rami.marriage.action_ids:action_space"),
    bots=_bots,
    seat_view=lazy("rami.marriage.view:seat_view"),
    view_from_json=lazy("rami.marriage.view:view_from_json"),
    turn_cap=1000,  # M-11 max_turns for simulations
    progress_of=_progress,
    progress_label="shows",
    points_label="ledger",
    signed_points=True,
    ledger=lazy("rami.marriage.ledger:ledger"),
    score_deal=lazy("rami.marriage.ledger:score_deal"),
    cli=lazy_value("rami.marriage.cli:COMMANDS"),
    verbs=lazy_value("rami.marriage.verbs:VERBS"),
    terminal=lazy_value("rami.marriage.terminal:HOOKS"),
    web=lazy_value("rami.marriage.web:HOOKS"),
    review=lazy_value("rami.marriage.review:HOOKS"),
    option_help=lazy_value("rami.marriage.rules_help:OPTION_HELP"),
    option_choices=lazy_value("rami.marriage.rules:CHOICES"),
    observation=lazy("rami.marriage.observation:encoder"),
    openspiel=lazy_value("rami.marriage.explicit_chance:HOOKS"),
)
