"""Hints for the ``?`` command: what the solvers say about the player's own cards.

Only the seat's view is read (its hand, its shown melds, the tiplu once it has seen,
the public table), typed (``rami.views.TypedView``: cards as ``Card``, moves as
``Action``), so a hint can never reveal anything the player may not know. The
game's ``TerminalHooks.hint_lines`` words it (Marriage: whether the hand can show or
finish, how many cards it misses, its maal; Tunisian rami: the best opening).
"""

from __future__ import annotations

from rami.games import get_game
from rami.play.hooks import TerminalHooks
from rami.views import GameView, TypedView, typed_view

__all__ = ["hint_lines"]


def hint_lines(view: TypedView | GameView) -> list[str]:
    """One to three lines of advice for the seat of ``view``; never raises."""
    try:
        typed = typed_view(view)
        terminal = get_game(typed.game).terminal
        hooks = terminal() if terminal is not None else TerminalHooks()
        return hooks.hint_lines(typed) or ["no hint for this game"]
    except Exception as exc:  # a hint must never end the game
        return [f"no hint available ({type(exc).__name__})"]
