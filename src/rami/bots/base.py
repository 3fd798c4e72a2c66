"""The bot interface: a seeded player that sees one seat's view and nothing else.

A bot is given a seat's typed view (``rami.views.TypedView``: ``Game.typed_view(state,
seat)``; a JSON view ``state.view(seat)`` is read back into one), never the state, so it
cannot read hidden cards: the only path from a deal to a bot is a view. It reads cards
as ``Card`` and legal moves as ``Action`` there, never their texts. Its
randomness is derived from its seed and the view itself (``decision_rng``), so the same
seeded bot facing the same view always makes the same move, however it was reached and
whatever the cards it cannot see.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from rami.cards import CARDS, Card
from rami.engine import Action
from rami.errors import InputError
from rami.view_cache import action_of
from rami.views import Decision, GameView, TypedView, typed_view

__all__ = [
    "Bot",
    "card_of",
    "cards_of",
    "decision_key",
    "hand_counts",
    "legal_actions",
    "parse_action",
]

_CARD_BY_TEXT: dict[str, Card] = {str(c): c for c in CARDS}


def card_of(text: str) -> Card:
    """The card of a view's canonical card text (``10♣``, ``JK``)."""
    found = _CARD_BY_TEXT.get(text)
    if found is None:
        found = Card.parse(text)
    return found


def cards_of(texts: Sequence[str]) -> list[Card]:
    return [card_of(t) for t in texts]


def hand_counts(texts: Sequence[str]) -> list[int]:
    """The count vector (53 kinds) of a list of card texts."""
    vec = [0] * len(CARDS)
    for t in texts:
        vec[card_of(t)] += 1
    return vec


def parse_action(text: str) -> Action:
    """``Action.parse`` with a cache: views list the same few dozen action texts."""
    return action_of(text)


def legal_actions(view: TypedView | GameView) -> list[Action]:
    """The legal actions a view offers its seat (empty unless the seat is to move); of a
    JSON view, only its ``legal_actions`` are read (front ends hand partial views)."""
    if isinstance(view, dict):
        return [action_of(t) for t in view.get("legal_actions") or ()]
    return list(view.legal)


def decision_key(view: TypedView | Decision) -> str:
    """A text that names this decision point from what the view shows.

    It combines the seat, the length of the public history, the turn, the phase and the
    legal actions: two views that agree on these are the same decision for the bot. A
    view's ``Decision`` (``rami.views.Decision``) gives the same text.
    """
    if isinstance(view, Decision):
        history, hand = view.history_size, view.hand_size
    else:
        history, hand = len(view.history), len(view.hand or ())
    return f"{view.seat}|{history}|{view.turn}|{view.phase}|{hand}|{'/'.join(view.legal_texts)}"


class Bot(ABC):
    """A player: ``act(view)`` returns one of the view's legal actions.

    ``name`` identifies the bot in tables and results; ``seed`` fixes its randomness.
    """

    name: str = "bot"
    #: whether the bot reads nothing of a view but its decision point (``act_on``): a
    #: caller may then hand it ``Game.decision(state, seat)`` instead of the whole view
    #: (the same move, for a fraction of the view's cost)
    decision_only: ClassVar[bool] = False

    def __init__(self, seed: int = 0) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InputError("a bot's seed must be a whole number")
        self.seed = seed

    def rng(self, view: TypedView | Decision, salt: str = "") -> random.Random:
        """A generator that depends only on the seed and the view (never on hidden cards)."""
        return random.Random(self.rng_text(view, salt))

    def rng_text(self, view: TypedView | Decision, salt: str = "") -> str:
        """The text ``rng`` seeds its generator with (a bot that draws once per decision may
        seed a generator of its own with it: the same draws)."""
        return f"{self.name}:{self.seed}:{salt}:{decision_key(view)}"

    def act(self, view: TypedView | GameView) -> Action:
        """The move for ``view`` (typed, or JSON read back: the same move); ``InputError``
        if the view offers no legal action."""
        typed = typed_view(view)
        if not typed.legal:
            raise InputError("the bot was asked to move but its view lists no legal action")
        return self.choose(typed)

    @abstractmethod
    def choose(self, view: TypedView) -> Action:
        """Pick a move from a view that has legal actions."""

    def act_on(self, decision: Decision) -> Action:
        """The move at ``decision``, a view's decision point, for a bot that is
        ``decision_only`` (the move ``act`` gives for the whole view); ``InputError`` if
        it offers no legal action."""
        raise NotImplementedError(f"{type(self).__name__} reads more than the decision point")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"
