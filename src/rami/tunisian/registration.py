"""Tunisian rami as the registry knows it (``rami.games``): the one object consumers use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rami.action_space import ActionSpace
from rami.engine import GameState
from rami.games import Game, Match

if TYPE_CHECKING:
    from rami.tunisian.rules import TunisianRules

__all__ = ["GAME"]


def _rules(spec: object) -> TunisianRules:
    from rami.tunisian.rules import rules_from

    return rules_from(spec)


def _players(rules: object) -> tuple[int, ...]:
    return (_rules(rules).players,)


def _new_match(rules: object, players: int, seed: int) -> Match:
    from rami.tunisian.match import TunisianMatch

    return TunisianMatch(rules, seed)


def _load_match(doc: Mapping[str, object]) -> Match:
    from rami.tunisian.match import TunisianMatch

    return TunisianMatch.from_json(doc)


def _action_space(rules: object) -> ActionSpace:
    from rami.tunisian.action_ids import action_space

    return action_space(rules)


def _owns(state: GameState) -> bool:
    from rami.tunisian.action_ids import owns

    return owns(state)


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
)
