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
- ``state.events``: the log (``Event`` below): every applied action's canonical text,
  the table's news (a deal, an opening, the end) and what chance decided;
- ``state.chance_outcomes()``: what chance has decided so far (``Chance``: the deal,
  Marriage's tiplu pick, a reshuffled stock), in order, so a wrapper that models
  chance (OpenSpiel) reads it instead of re-deriving the engine's dealing.

Actions are small immutable values with a stable text form, e.g. ``draw``,
``discard 7♣``, ``show 3♠ 4♠ 5♠``, ``add 8♥ @2`` (``@N`` names a table meld).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import (
    Generic,
    Literal,
    NotRequired,
    Protocol,
    TypedDict,
    TypeVar,
    runtime_checkable,
)

from rami.cards import Card, CardError, parse_card
from rami.errors import IllegalAction
from rami.views import GameView

__all__ = [
    "Action",
    "Chance",
    "ChanceKind",
    "ChanceReporting",
    "DealResult",
    "DealsFromOrder",
    "Event",
    "EventData",
    "GameState",
    "IllegalAction",
    "as_action",
    "chance_rng",
    "read_action",
]

ChanceKind = Literal["deal", "tiplu", "reshuffle"]


class Chance(TypedDict):
    """One outcome of chance in a deal (server side: it holds hidden cards).

    ``deal``: the whole shoe in the order it was dealt (see each game's
    ``dealt_seats`` for who got which position); ``tiplu``: the one card picked as
    Marriage's tiplu (M-7); ``reshuffle``: the new stock, next draw first (M-11, T-11).
    """

    kind: ChanceKind
    cards: list[str]


EventData = dict[str, int | str | bool | list[int] | None]
"""Public numbers of an event (a meld's index and value, an opening's threshold, ...)."""


class Event(TypedDict):
    """One entry of ``state.events``: an action, or the table's news, or both.

    ``action`` is the applied action's canonical text (``None`` for the table's own
    events: the deal, a seat seeing the tiplu, an opening, a reshuffle, the end);
    ``chance`` what chance decided at this step; ``card`` the card a ``draw`` or
    ``take`` got (a stock draw's card is the drawer's secret: views show it to that
    seat only); ``news`` names a table event (``deal``, ``position``, ``tiplu``, ``see``,
    ``open``, ``restock``, ``end``) and ``text`` says it in words. An action may be news
    too: Tunisian rami's last discard (``news`` ``farcha``, T-9) is thrown face down, so
    views name its card to its thrower only; a reader of raw events treats such an
    action as hidden from the other seats.
    """

    seat: int | None
    action: str | None
    chance: NotRequired[Chance]
    card: NotRequired[str]
    news: NotRequired[str]
    text: NotRequired[str]
    data: NotRequired[EventData]


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


@lru_cache(maxsize=16384)
def read_action(text: str) -> Action:
    """A move as the engines wrote it (a view's ``move``, an event's ``action``), read
    once and kept: whoever reads a history reads typed actions (cards as ``Card``),
    never the words. ``IllegalAction`` if it cannot be read."""
    return Action.parse(text)


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
    def events(self) -> Sequence[Event]: ...

    @property
    def num_players(self) -> int: ...

    def legal_actions(self) -> list[Action]: ...

    def apply(self, action: Action | str, seat: int | None = None) -> Action: ...

    def view(self, seat: int | None) -> GameView: ...


@runtime_checkable
class ChanceReporting(Protocol):
    """A state that reports its chance outcomes (both built-in games do)."""

    def chance_outcomes(self) -> list[Chance]: ...


RulesT = TypeVar("RulesT", contravariant=True)  # a game's own rules type


class DealsFromOrder(Protocol[RulesT]):
    """A game's deal class that deals a given shoe order (both built-in games' states).

    ``dealt_seats`` says who gets each position of the order (``None``: the rest, the
    stock); ``from_deal`` builds the deal ``new`` would build had the shuffle given
    that order. The ``deal`` chance outcome of a deal is that order.
    """

    def dealt_seats(self, rules: RulesT, seats: int, dealer: int = 0) -> list[int | None]: ...

    def from_deal(
        self, rules: RulesT, seats: int, order: Sequence[int], seed: int, dealer: int = 0
    ) -> GameState: ...


def chance_rng(seed: int, step: int, salt: str = "") -> random.Random:
    """A generator for the chance event numbered ``step`` of the deal seeded ``seed``.

    Deriving chance from ``(seed, step)`` instead of keeping a generator in the state
    keeps states cheap to clone and deals reproducible from ``(rules, seed, actions)``.
    """
    return random.Random(f"{seed}:{step}:{salt}")
