"""The baseline bot: a uniformly random legal action, for either game."""

from __future__ import annotations

import random

from rami.bots.base import Bot
from rami.engine import Action
from rami.errors import InputError
from rami.views import Decision, TypedView

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Picks uniformly among the legal actions listed in the view."""

    name = "random"
    decision_only = True  # it reads the decision point alone

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        # one generator, seeded afresh per decision with ``rng``'s text: the same draw as
        # ``self.rng(view)`` without a new generator object per move
        self._gen = random.Random(0)

    def choose(self, view: TypedView) -> Action:
        gen = self._gen
        gen.seed(self.rng_text(view))
        return gen.choice(view.legal)

    def act_on(self, decision: Decision) -> Action:
        legal = decision.legal
        if not legal:
            raise InputError("the bot was asked to move but its view lists no legal action")
        gen = self._gen
        gen.seed(self.rng_text(decision))
        return gen.choice(legal)
