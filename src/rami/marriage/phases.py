"""The phases of a Marriage deal and the verbs of a turn, as closed sets of names.

They live apart from ``rami.marriage.game`` so that the view, the action vocabulary
and the game all read them without importing each other. The names shared with
Tunisian rami (``draw``, ``play``, ``over``; ``draw``, ``take``, ``meld``, ``add``,
``discard``) mean the same thing in both games.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Phase", "Verb"]


class Phase(StrEnum):
    """Where a deal stands: tunnelas exposed after the deal (M-3), drawing, playing."""

    EXPOSE = "expose"  # M-3: seats expose tunnelas or pass, before the first draw
    DRAW = "draw"  # M-5: draw from the stock or take the latest discard
    PLAY = "play"  # show, meld, finish or discard after drawing
    OVER = "over"


class Verb(StrEnum):
    """The verbs of ``Action.kind`` (texts in ``rami.marriage.actions``)."""

    EXPOSE = "expose"
    PASS = "pass"
    DRAW = "draw"
    TAKE = "take"
    SHOW = "show"
    DUBLEE = "dublee"
    SEE = "see"
    MELD = "meld"
    ADD = "add"
    TAKEBACK = "takeback"  # M-10: this turn's laid cards back to the hand (Indian)
    FINISH = "finish"
    DISCARD = "discard"
