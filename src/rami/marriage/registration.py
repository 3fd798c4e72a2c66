"""Marriage as the registry knows it (``rami.games``): the one object consumers use."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from rami.action_space import ActionSpace
from rami.engine import GameState
from rami.games import Game, Match

if TYPE_CHECKING:
    from rami.bots.kit import BotKit

__all__ = ["GAME"]


def _rules(spec: Any) -> Any:
    from rami.marriage.rules import rules_from

    return rules_from(spec)


def _players(rules: Any) -> tuple[int, ...]:
    return tuple(range(rules.min_players, rules.max_players + 1))


def _new_match(rules: Any, players: int, seed: int) -> Match:
    from rami.marriage.match import Match as MarriageMatch

    return MarriageMatch(rules, players, seed)


def _load_match(doc: Mapping[str, Any]) -> Match:
    from rami.marriage.match import Match as MarriageMatch

    return MarriageMatch.from_json(doc)


def _action_space(rules: Any) -> ActionSpace:
    from rami.marriage.action_ids import action_space

    return action_space(rules)


def _owns(state: GameState) -> bool:
    from rami.marriage.action_ids import owns

    return owns(state)


# --- bot hooks (part D)
@cache
def _bots() -> BotKit[Any, Any]:
    """The bots' kit (``rami.bots.kit``): the greedy player, its search hooks and the
    determinizer, imported on first use (they pull in the solvers)."""
    from rami.bots.kit import BotKit
    from rami.marriage import greedy_bot as g
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
        turns_ahead=g.turns_ahead,
        search_margin=1.0,
        tree_scale=6.0,
        wilds=g.wilds_of_view,
        play_step=g.play_step,
        hard_iterations=48,
        expert_iterations=160,
    )


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
)
