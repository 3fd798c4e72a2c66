"""A toy rummy that exists only in the tests: the worked example of adding a game.

``GAME`` is all rami needs: ``register(GAME)`` in a test, ``RAMI_GAMES=tests.toy_game:GAME``
for a subprocess, or an entry point in the ``rami.games`` group for a real plug-in.
Nothing outside this package names it: simulate, the terminal and the server find it
through the registry (docs/architecture.md, "The registry and how to add a game").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rami.action_space import ActionSpace
from rami.engine import Action, GameState
from rami.games import Game, Match

from .game import ToyState, new_deal
from .match import ToyMatch
from .rules import PRESETS, ToyRules, rules_from

__all__ = ["GAME", "ToyMatch", "ToyRules", "ToyState", "new_deal"]


def _players(rules: Any) -> tuple[int, ...]:
    return (rules.players,)


def _new_match(rules: Any, players: int, seed: int) -> Match:
    return ToyMatch(rules, players, seed)


def _load_match(doc: Mapping[str, Any]) -> Match:
    return ToyMatch.from_json(doc)


def _action_space(rules: Any) -> ActionSpace:
    shoe = rules_from(rules).shoe()
    return ActionSpace(
        "toy",
        [
            ("draw", "draw from the stock", [Action("draw")]),
            ("take", "take the top discard", [Action("take")]),
            ("discard", "discard a card, by kind", [Action("discard", (c,)) for c in shoe]),
            ("knock", "discard a card and go out", [Action("knock", (c,)) for c in shoe]),
        ],
    )


def _owns(state: GameState) -> bool:
    return isinstance(state, ToyState)


def _new_deal(rules: Any, seats: int, seed: int, dealer: int) -> GameState:
    return new_deal(rules, seats, seed, dealer)


GAME = Game(
    "toy",
    "Toy rummy",
    tuple(PRESETS),
    "rules",
    rules_from,
    _players,
    _new_match,
    _load_match,
    _action_space,
    _owns,
    new_deal=_new_deal,
    turn_cap=60,
)
