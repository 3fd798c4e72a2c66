"""Bots for server seats, made through ``rami.bots.make_bot`` when it is available.

Until the bots package offers ``make_bot``, a stand-in plays a random legal action from
the view, behind the same call, so the server switches over by itself. Either way a bot
only ever receives its seat's view.
"""

from __future__ import annotations

import importlib
import random
from typing import Any, Protocol

from rami.engine import Action
from rami.views import GameView

__all__ = ["BOT_LEVELS", "DEFAULT_LEVEL", "SeatBot", "bot_levels", "make_seat_bot"]

BOT_LEVELS = ("random", "greedy", "search", "ismcts", "easy", "medium", "hard", "expert")
DEFAULT_LEVEL = "medium"


class SeatBot(Protocol):
    def act(self, view: GameView) -> Action: ...


class RandomStandIn:
    """A random legal action from the view (used only while ``make_bot`` is missing)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def act(self, view: GameView) -> Action:
        legal = list(view.get("legal_actions") or ())
        if not legal:
            raise ValueError("the view lists no legal action")
        key = f"{self.seed}:{len(view.get('history') or ())}:{'/'.join(legal)}"
        return Action.parse(random.Random(key).choice(legal))


def _bots_module() -> Any:
    try:
        return importlib.import_module("rami.bots")
    except ImportError:
        return None


def bot_levels() -> tuple[str, ...]:
    """The levels the bots package offers (its ``LEVELS`` if it names them)."""
    module = _bots_module()
    levels = getattr(module, "LEVELS", None) if module is not None else None
    if isinstance(levels, (tuple, list)) and levels:
        return tuple(str(x) for x in levels)
    return BOT_LEVELS


def make_seat_bot(game: str, level: str, seed: int) -> SeatBot:
    """``rami.bots.make_bot(game, level, seed)``, or the random stand-in."""
    module = _bots_module()
    make = getattr(module, "make_bot", None) if module is not None else None
    if make is None:
        return RandomStandIn(seed)
    bot: SeatBot = make(game, level, seed)
    return bot
