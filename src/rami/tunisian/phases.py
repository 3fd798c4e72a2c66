"""The phases of a Tunisian rami deal and the verbs of a turn, as closed sets of names.

They live apart from ``rami.tunisian.game`` so that the view and the game both read
them without importing each other. The names shared with Marriage (``draw``,
``play``, ``over``; ``draw``, ``take``, ``meld``, ``add``, ``discard``) mean the same
thing in both games.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Phase", "Verb"]


class Phase(StrEnum):
    """Turn steps: the dealer's discard-only first turn (T-2), drawing, laying/discarding."""

    FIRST_DISCARD = "first_discard"  # T-2: the dealer holds 15 cards and only discards
    DRAW = "draw"  # draw from the stock or take the discard (T-3, T-8)
    PLAY = "play"  # meld, add, swap; discard ends the turn (T-5 … T-9)
    OVER = "over"


class Verb(StrEnum):
    """The verbs of ``Action.kind``."""

    DRAW = "draw"
    TAKE = "take"
    MELD = "meld"
    ADD = "add"
    SWAP = "swap"
    DISCARD = "discard"
