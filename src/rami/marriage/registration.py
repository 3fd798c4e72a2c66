"""Marriage as the registry knows it (``rami.games``): the one object consumers use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rami.action_space import ActionSpace
from rami.engine import GameState
from rami.games import Game, Match

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
)
