"""Hints for a player who asks: built from that seat's own view, never from the state.

A hint is a move a bot would play from the same view, plus notes on the seat's own
cards from the game's solvers (``WebHooks.notes``: how close a hand is to finishing
(N-3) or to showing (M-6), the best opening against the threshold (T-6)…). Because
only the view goes in, a hint can never tell a player anything hidden from its seat
(M-7).

Notes are ``{"key": …, …values}`` so that the page words them in the player's language.
"""

from __future__ import annotations

import logging
from typing import TypedDict

from rami.errors import IllegalAction, InputError
from rami.games import get_game
from rami.server.bots import make_seat_bot
from rami.views import GameView

__all__ = ["Hint", "hint_for"]

log = logging.getLogger(__name__)

# Solvers that other parts of the project are still completing may raise this.
_SOLVER_ERRORS = (NotImplementedError, ValueError, KeyError, TypeError, IndexError)


class Hint(TypedDict):
    """A hint as the clients get it (``protocol.HintResponse``): a move's text, and the
    game's notes on the seat's cards (``WebHooks.notes``)."""

    suggestion: str | None
    notes: list[dict[str, object]]


def hint_for(game: str, view: GameView, level: str, seed: int) -> Hint:
    """A suggested move and notes for the seat whose ``view`` this is."""
    suggestion: str | None = None
    if view.get("legal_actions"):
        try:
            suggestion = str(make_seat_bot(game, level, seed).act(view))
        except (*_SOLVER_ERRORS, IllegalAction, InputError) as exc:
            log.warning("hint bot failed: %s", exc)
    notes: list[dict[str, object]] = []
    try:
        hooks = get_game(game).web
        analyse = hooks().notes if hooks is not None else None
        if analyse is not None:
            notes = analyse(view)
    except _SOLVER_ERRORS as exc:
        log.warning("hint analysis failed: %s", exc)
    return {"suggestion": suggestion, "notes": notes}
