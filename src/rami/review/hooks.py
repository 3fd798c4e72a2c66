"""What the move-by-move review (``rami.review``) asks of a game.

A game's ``Game.review`` returns one ``ReviewHooks``: how to read its saved deals and
matches as deal documents (which ``Game.load_deal`` replays), what its exact solvers
settle at a decision (``exact``: "you could finish now"), a one-line reason for a move
that fell short (``why``), and the label thresholds in its own points. The review itself
(determinizations, playouts, losses) is written once, against these hooks and the bot
kit (``rami.bots.kit``), and never names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rami.engine import Action
from rami.views import TypedView

__all__ = ["ReviewHooks", "Verdict"]


@dataclass(frozen=True)
class Verdict:
    """A decision the exact solvers settle: the move to play and why, in one line."""

    best: Action
    why: str


@dataclass(frozen=True)
class ReviewHooks:
    """One game's part of the review (see the module docstring).

    Every function that takes a view reads that seat's view only: the review never
    hands a game anything the seat could not see.
    """

    # A saved document (a deal in its ``to_json`` layout, or a saved match) -> the
    # deals it holds, each in the deal ``to_json`` layout (rules, seats, seed, dealer,
    # actions); ``None`` when the document is not one of this game's.
    deals_of: Callable[[Mapping[str, Any]], list[dict[str, Any]] | None]
    # The move the exact solvers settle at this decision, if they settle it.
    exact: Callable[[TypedView], Verdict | None]
    # Why ``taken`` falls short of ``best`` in one line, where the solvers can say it.
    why: Callable[[TypedView, Action, Action], str | None]
    # Expected points lost from which a move is an inaccuracy, a mistake, a blunder,
    # under the rules of a deal (its rules document: presets score on different scales).
    thresholds: Callable[[Mapping[str, Any]], tuple[float, float, float]]
    # Determinizations per decision by default: what the aims of docs/review.md allow
    # (one seat of a deal in 30 s of CPU for four Marriage players, 15 s for Tunisian 1v1).
    samples: int = 64
