"""Bots for server seats, made by ``rami.bots.make_bot``: a bot only ever receives its
seat's view. The levels are the bots package's one list (``rami.bots.LEVELS``).
"""

from __future__ import annotations

from typing import Protocol

from rami.engine import Action
from rami.views import GameView

__all__ = ["DEFAULT_LEVEL", "SeatBot", "bot_levels", "make_seat_bot"]

DEFAULT_LEVEL = "medium"


class SeatBot(Protocol):
    def act(self, view: GameView) -> Action: ...


def bot_levels() -> tuple[str, ...]:
    """The levels a table's bot seat may have (``rami.bots.LEVELS``)."""
    from rami.bots import LEVELS  # the bots and their kits load when first needed

    return LEVELS


def seat_bot_seed(match_seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` of a match seeded ``match_seed``: the server and
    the offline app's worker seed their bots alike, so a seeded table plays the same."""
    return (match_seed * 7919 + seat) % (1 << 48)


def make_seat_bot(game: str, level: str, seed: int) -> SeatBot:
    """``rami.bots.make_bot(game, level, seed)``: a bot that plays from a seat's view."""
    from rami.bots import make_bot

    bot: SeatBot = make_bot(game, level, seed)
    return bot
