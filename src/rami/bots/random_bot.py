"""The baseline bot: a uniformly random legal action, for either game."""

from __future__ import annotations

import random

from rami.bots.base import Bot
from rami.engine import Action
from rami.views import TypedView

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Picks uniformly among the legal actions listed in the view."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        # one generator, seeded afresh per decision with ``rng``'s text: the same draw as
        # ``self.rng(view)`` without a new generator object per move
        self._gen = random.Random(0)

    def choose(self, view: TypedView) -> Action:
        gen = self._gen
        gen.seed(self.rng_text(view))
        return gen.choice(view.legal)
