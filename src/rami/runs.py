"""Where a card stands in a run: the ace low or high, written once for every game.

A run (a Marriage sequence, M-4; a Tunisian suite, T-4) is a window of consecutive
*positions* of one suit: position 1 is the low ace, 2 … 13 the ranks two to king, 14
the high ace. The ace has two positions, every other rank one; a window never wraps
round (K-A-2 is no run). Cards are rank *indices* here (``card % 13``: 0 is the ace,
12 the king), the form the solvers' count vectors use. Everything is a table lookup:
the solvers call these in their inner loops.
"""

from __future__ import annotations

# rami: compiled with mypyc in the accelerated build
from collections.abc import Iterable

__all__ = [
    "ACE_HIGH",
    "ACE_HIGH_THREE",
    "ACE_LOW",
    "NEAR_ABOVE",
    "POSITIONS",
    "RUN_KINDS",
    "kind_at",
    "positions",
    "rank_index_at",
    "run_span",
    "three_windows",
    "threes_held",
]

ACE_LOW = 1
ACE_HIGH = 14

# POSITIONS[r]: the run positions of rank index r, (1, 14) for the ace.
POSITIONS: tuple[tuple[int, ...], ...] = (
    (ACE_LOW, ACE_HIGH),
    *((r + 1,) for r in range(1, 13)),
)

# _INDEX[p]: the rank index at position p (0 … 14; 0 unused).
_INDEX: tuple[int, ...] = tuple((p - 1) % 13 for p in range(16))

# RUN_KINDS[suit][p]: the card kind at position p of the suit (hot loops index it).
RUN_KINDS: tuple[tuple[int, ...], ...] = tuple(tuple(s * 13 + i for i in _INDEX) for s in range(4))

# Q-K-A as rank indices, lowest first: the one three-card run with the ace high.
ACE_HIGH_THREE: tuple[int, int, int] = (0, 11, 12)

# NEAR_ABOVE[r]: rank indices above r that a run could join with r leaving at most one
# gap (one or two ranks up; the ace, low, also the queen and king it ends high with).
NEAR_ABOVE: tuple[tuple[int, ...], ...] = tuple(
    (*(p for p in (r + 1, r + 2) if p <= 12), *(ACE_HIGH_THREE[1:] if r == 0 else ()))
    for r in range(13)
)


def positions(rank_index: int) -> tuple[int, ...]:
    """The run positions of a rank index (``card % 13``): ``(1, 14)`` for the ace."""
    return POSITIONS[rank_index]


def rank_index_at(position: int) -> int:
    """The rank index (0 the ace … 12 the king) at run ``position`` 1 … 14."""
    return _INDEX[position]


def kind_at(suit: int, position: int) -> int:
    """The card kind (``suit * 13 + rank index``) at run ``position`` of ``suit``."""
    return suit * 13 + _INDEX[position]


def _windows(position: int) -> tuple[tuple[int, int, int], ...]:
    return tuple(
        (lo, lo + 1, lo + 2)
        for lo in (position - 2, position - 1, position)
        if lo >= ACE_LOW and lo + 2 <= ACE_HIGH
    )


_WINDOWS = tuple(_windows(p) for p in range(ACE_HIGH + 1))


def three_windows(position: int) -> tuple[tuple[int, int, int], ...]:
    """The three-card windows of positions that hold ``position`` (inside 1 … 14)."""
    return _WINDOWS[position] if 0 <= position <= ACE_HIGH else _windows(position)


def run_span(ranks: Iterable[int]) -> int:
    """The shortest window of positions holding these distinct ranks (1 … 13, the ace 1)
    of one suit, the ace placed low or high, whichever is shorter; 0 for none."""
    ranks = list(ranks)
    if not ranks:
        return 0
    others = [r for r in ranks if r != 1]
    if len(others) == len(ranks):
        return max(others) - min(others) + 1
    best = ACE_HIGH
    for ace in POSITIONS[0]:
        pos = [*others, ace]
        best = min(best, max(pos) - min(pos) + 1)
    return best


def threes_held(rows: list[int], out: list[tuple[int, ...]]) -> None:
    """Append each three held cards in a row, per suit: ``rows[s]`` has bit r set when
    rank index r of suit s is held; ace low first, Q K A last (listed ace first), as the
    plain loops over positions list them. Bits, not loops: the meld searches call this
    per holding."""
    for s in range(4):
        bits = rows[s]
        base = s * 13
        pos = (bits << 1) | ((bits & 1) << 14)  # bit p: position p held (ace at 1 and 14)
        starts = pos & (pos >> 1) & (pos >> 2) & 0x1FFE
        while starts:
            low = starts & -starts
            starts ^= low
            start = low.bit_length() - 1
            if start == 12:  # Q K A: the ace sorts first
                out.append((base, base + 11, base + 12))
            else:
                out.append((base + start - 1, base + start, base + start + 1))
