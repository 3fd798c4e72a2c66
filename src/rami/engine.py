"""The engine protocol shared by every game (see docs/architecture.md).

Bots, the simulator, the terminal, the web server and the RL environment are written
once against this protocol, never against one game's internals:

- ``state.to_move`` (the seat to act, ``None`` once over), ``state.is_over``,
  ``state.result``;
- ``state.legal_actions()``: every legal action at this decision point (small steps,
  so the list stays short);
- ``state.apply(action, seat=None)``: all-or-nothing; raises ``IllegalAction`` with a
  reason a person understands and then has changed nothing; ``seat`` (who is acting)
  is checked here and only here; returns the canonical ``Action`` it applied, whose
  text is what every log stores;
- ``state.view(seat)``: a JSON-ready dict of what that seat may know (``None`` for a
  spectator); the only thing a bot or a client ever receives;
- ``state.events``: the log of applied actions, which replays to the identical state.

Actions are small immutable values with a stable text form, e.g. ``draw``,
``discard 7♣``, ``show 3♠ 4♠ 5♠``, ``add 8♥ @2`` (``@N`` names a table meld).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, runtime_checkable

from rami.cards import Card, CardError, parse_card
from rami.errors import IllegalAction
from rami.views import GameView

__all__ = [
    "Action",
    "DealResult",
    "GameState",
    "IllegalAction",
    "as_action",
    "chance_rng",
]


@dataclass(frozen=True, slots=True)
class Action:
    """One step of a turn: a verb, the cards it names, and maybe a table meld index.

    >>> str(Action("discard", (Card.parse("7c"),)))
    'discard 7♣'
    >>> Action.parse("add 8h @2")
    Action(kind='add', cards=(Card('8♥'),), target=2)
    """

    kind: str
    cards: tuple[Card, ...] = ()
    target: int | None = None

    def text(self, ascii: bool = False) -> str:
        parts = [self.kind, *(c.text(ascii) for c in self.cards)]
        if self.target is not None:
            parts.append(f"@{self.target}")
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text()

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action's text form; raise ``IllegalAction`` if it cannot be read."""
        if not isinstance(text, str):
            raise IllegalAction(f"an action must be text, not {type(text).__name__}")
        words = text.replace(",", " ").split()
        if not words:
            raise IllegalAction("empty action")
        kind = words[0].lower()
        if not kind.isalpha():
            raise IllegalAction(f"unknown action '{words[0]}'")
        cards: list[Card] = []
        target: int | None = None
        for pos, word in enumerate(words[1:], start=1):
            if word.startswith("@"):
                if target is not None or not word[1:].isdigit():
                    raise IllegalAction(f"bad meld reference '{word}': write @0, @1, …")
                target = int(word[1:])
                continue
            try:
                cards.append(parse_card(word, pos))
            except CardError as exc:
                raise IllegalAction(str(exc)) from None
        return cls(kind, tuple(cards), target)


def as_action(action: Action | str) -> Action:
    """Accept an ``Action`` or its text form."""
    if isinstance(action, Action):
        return action
    return Action.parse(action)


#: A game's ``DealResult.details`` type (a TypedDict of its own, e.g. ``MarriageDetails``).
DetailsT = TypeVar("DetailsT", bound=Mapping[str, object], covariant=True)


@dataclass(frozen=True)
class DealResult(Generic[DetailsT]):
    """How a deal ended.

    ``scores`` is per seat: the ledger nets for Marriage (they sum to zero), the deal
    points for Tunisian rami (bad points). ``winner`` is the finishing seat or ``None``.
    ``details`` holds the game's own explanation (maal items, hands, ...), JSON-ready and
    typed by the game (``DealResult[MarriageDetails]``); code for any game reads a
    ``DealResult[Mapping[str, object]]``.
    """

    scores: tuple[int, ...]
    winner: int | None
    details: DetailsT


@runtime_checkable
class GameState(Protocol):
    """What every game's deal state offers (see the module docstring)."""

    @property
    def to_move(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def result(self) -> DealResult[Mapping[str, object]] | None: ...

    @property
    def events(self) -> Sequence[Mapping[str, object]]: ...

    @property
    def num_players(self) -> int: ...

    def legal_actions(self) -> list[Action]: ...

    def apply(self, action: Action | str, seat: int | None = None) -> Action: ...

    def view(self, seat: int | None) -> GameView: ...


def chance_rng(seed: int, step: int, salt: str = "") -> random.Random:
    """A generator for the chance event numbered ``step`` of the deal seeded ``seed``.

    Deriving chance from ``(seed, step)`` instead of keeping a generator in the state
    keeps states cheap to clone and deals reproducible from ``(rules, seed, actions)``.
    """
    return random.Random(f"{seed}:{step}:{salt}")
