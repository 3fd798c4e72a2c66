"""A brute-force reference for the Indian finish (M-6, M-8, M-10): every route of steps.

A finish by discarding ``d`` is legal exactly when some route of this turn's legal
steps ends with ``d`` as the last card discarded (M-10). The steps, as the engine
checks them: ``show`` a pure meld (M-6; three shown make the player seen), ``meld``
any valid meld (M-4) keeping a card to discard, ``add`` a card to one's own table meld
keeping it valid and three pure melds on the table (M-6, M-10), ``discard`` the last
card. Marriage has no joker swap: a wild card stays in its meld and is re-read (as
itself or as another card) at every step. Taking back this turn's cards returns to
the start of the turn, so it reaches nothing new from there.

Every sub-multiset of the hand is tried as a meld at every state; states are
remembered. Small hands only (up to about ten cards).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

from rami.marriage.melds import is_meld, is_pure_meld, is_show_meld
from rami.marriage.rules import INDIAN

__all__ = ["route_finishes"]

PURE_KEPT = 3  # M-6


def route_finishes(
    hand: Sequence[int], table: Sequence[Sequence[int]], wilds: frozenset[int]
) -> set[int]:
    """The kinds ``d`` such that a route of steps from (``hand``, own ``table`` melds)
    ends by discarding ``d`` as the last card. Seen when three melds are on the table."""

    @cache
    def explore(cards: tuple[int, ...], melds: tuple[tuple[int, ...], ...]) -> frozenset[int]:
        seen = len(melds) >= PURE_KEPT
        out: set[int] = set()
        if seen and len(cards) == 1:
            out.add(cards[0])  # discard the last card: the deal ends (M-8)
        # show (unseen) or meld (seen): any sub-multiset of three or more, one card kept
        for size in range(3, len(cards)):
            for combo in set(itertools.combinations(cards, size)):
                ok = is_meld(combo, INDIAN, wilds) if seen else is_show_meld(combo, INDIAN)
                if ok:
                    rest = list(cards)
                    for c in combo:
                        rest.remove(c)
                    out |= explore(tuple(rest), tuple(sorted((*melds, combo))))
        if seen:
            pure = sum(is_pure_meld(m, INDIAN) for m in melds)
            for c in set(cards):
                if len(cards) < 2:
                    break
                for i, m in enumerate(melds):
                    grown = tuple(sorted((*m, c)))
                    if not is_meld(grown, INDIAN, wilds):
                        continue
                    lost = is_pure_meld(m, INDIAN) and not is_pure_meld(grown, INDIAN)
                    if lost and pure - 1 < PURE_KEPT:
                        continue  # three pure melds stay on the table (M-6)
                    rest = list(cards)
                    rest.remove(c)
                    out |= explore(tuple(rest), tuple(sorted((*melds[:i], grown, *melds[i + 1 :]))))
        return frozenset(out)

    start = tuple(sorted(tuple(sorted(m)) for m in table))
    return set(explore(tuple(sorted(hand)), start))
