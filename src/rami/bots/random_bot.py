"""The baseline bot: a uniformly random legal action, for either game."""

from __future__ import annotations

from rami.bots.base import Bot, parse_action
from rami.engine import Action
from rami.views import GameView

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Picks uniformly among the legal actions listed in the view."""

    name = "random"

    def choose(self, view: GameView) -> Action:
        legal = list(view["legal_actions"])
        return parse_action(self.rng(view).choice(legal))
