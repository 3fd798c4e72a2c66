"""What every greedy bot shares: read the view once, choose, score the discards, add noise.

A game's greedy player (in its own package) subclasses ``GreedyBot`` with two functions:
``observe`` turns a view into the game's observation (what the seat knows), and
``decide`` picks the move from it. Discards are chosen the same way in every game: a
cost per card (``discard_scores``, lower is better), Gaussian noise on the costs for
``easy``, the cheapest card played; the ``search`` bot compares the cheapest few.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

from rami.bots.base import Bot
from rami.cards import CARDS
from rami.engine import Action
from rami.memo import rules_of
from rami.views import TypedView

__all__ = [
    "GreedyBot",
    "discard_candidates",
    "noisy_choice",
    "pick_discard",
    "rules_of",
]

ObsT = TypeVar("ObsT")
R = TypeVar("R")


def pick_discard(
    scores: Mapping[int, float],
    rng: random.Random | None,
    noise: float,
    tie: Callable[[int], int],
) -> Action:
    """Discard the card of lowest cost (``noise``: Gaussian blur of the costs; ``tie``
    orders cards of equal cost)."""
    if noise and rng is not None:
        scores = {c: v + rng.gauss(0.0, noise) for c, v in scores.items()}
    best = min(scores, key=lambda c: (scores[c], tie(c)))
    return Action("discard", (CARDS[best],))


def noisy_choice(
    legal: list[Action], rng: random.Random | None, noise: float, chance: float
) -> Action | None:
    """For ``easy``: with probability ``chance`` (when noisy) any legal move, else None."""
    if noise and rng is not None and rng.random() < chance:
        return rng.choice(legal)
    return None


def discard_candidates(
    first: Action,
    scores: Mapping[int, float],
    k: int,
    tie: Callable[[int], int],
    keep: Callable[[int], bool],
) -> list[Action]:
    """``first`` then the cheapest discards that ``keep`` allows, at most ``k`` moves."""
    ranked = sorted(scores, key=lambda c: (scores[c], tie(c)))
    out = [first]
    for c in ranked:
        a = Action("discard", (CARDS[c],))
        if a not in out and keep(c):
            out.append(a)
        if len(out) >= k:
            break
    return out


class GreedyBot(Bot, Generic[ObsT]):
    """``greedy`` (``medium``); with ``noise`` > 0 it is ``easy``."""

    def __init__(self, seed: int = 0, noise: float = 0.0) -> None:
        super().__init__(seed)
        self.noise = noise
        self.name = "easy" if noise else "greedy"

    @abstractmethod
    def observe(self, view: TypedView) -> ObsT:
        """What the seat of ``view`` knows, in the game's terms."""

    @abstractmethod
    def decide(self, obs: ObsT, rng: random.Random | None, noise: float) -> Action:
        """The move for ``obs`` (``rng`` and ``noise`` only for ``easy``)."""

    def choose(self, view: TypedView) -> Action:
        obs = self.observe(view)
        rng = self.rng(view) if self.noise else None
        return self.decide(obs, rng, self.noise)
