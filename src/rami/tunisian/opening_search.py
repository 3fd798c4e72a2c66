"""The packed-hand opening search behind the Tunisian legal lists (T-6, T-8).

Hands are also kept packed, as ``rami.tunisian.solver.pack`` lays them out: two bits per
natural kind, the jokers from bit 104. One card of kind ``c`` is ``UNIT[c]``, a meld's
cards one subtraction, and the packed hand is the memo key and what the solver reads, so
an opening question costs no packing. The deal (``rami.tunisian.game``) keeps each seat's
packed hand, and its verbs (``rami.tunisian.verbs``) ask the questions here: does the
hand hold an opening worth so much (``reaches``), one through the card just drawn
(``reaches_through``, ``opening_through``), can a staged opening still be completed
(``completable``), and the quick exact refusal of a card that fits no meld
(``fits_no_meld``). Pure functions over ints, memoised in bounded shared memos.
"""

from __future__ import annotations

from collections.abc import Sequence

from rami.cards import JOKER, KINDS, Card
from rami.memo import GenerationMemo
from rami.runs import ACE_HIGH, ACE_LOW, RUN_KINDS, positions
from rami.tunisian.melds import Meld, MeldEntry, meld_options_packed, melds_holding
from rami.tunisian.solver import (
    best_opening,
    opening_at_least_packed,
    opening_bound,
    opening_searched_packed,
)

__all__ = [
    "JOKER_SHIFT",
    "UNIT",
    "best_value",
    "completable",
    "fits_no_meld",
    "hand_melds",
    "holds",
    "in_no_meld",
    "keeps_other",
    "opening_through",
    "packed",
    "packed_size",
    "reach_value",
    "reaches",
    "reaches_through",
    "unpack",
]

_JOKER_INDEX = int(JOKER)
_CACHE_LIMIT = 20_000

UNIT = tuple(1 << (2 * c) for c in range(KINDS))
JOKER_SHIFT = 2 * _JOKER_INDEX  # the joker count's bits (jokers <= 7, T-1)
_PRESENT = sum(1 << (2 * k) for k in range(52))  # the low bit of each natural's count
_TWOS = _PRESENT << 1
_VALUE_SHIFT = JOKER_SHIFT + 3  # a memo key: the packed hand, the value above it

# Memo tables keyed by a packed hand; the solver is pure.
_best_cache: dict[int, int] = {}
_options_cache: dict[int, tuple[MeldEntry, ...]] = {}
_reach_cache: dict[int, bool] = {}
# Each is bounded through the solvers' memory budget (rami.memo: ``RAMI_MEMO_MB``).
_BEST = GenerationMemo.over(_best_cache, _CACHE_LIMIT, name="tunisian.game.best", shared=True)
_OPTIONS = GenerationMemo.over(
    _options_cache, _CACHE_LIMIT, name="tunisian.game.options", shared=True
)
_REACH = GenerationMemo.over(_reach_cache, _CACHE_LIMIT, name="tunisian.game.reach", shared=True)


def unpack(key: int) -> list[int]:
    """The count vector of a packed hand."""
    return [(key >> (2 * k)) & 3 for k in range(52)] + [key >> JOKER_SHIFT]


def packed_size(key: int) -> int:
    """How many cards a packed hand holds."""
    return (key & _PRESENT).bit_count() + 2 * (key & _TWOS).bit_count() + (key >> JOKER_SHIFT)


# Bits where one count field of a packed hand ends and the next begins: subtracting
# packed cards borrows across one of them exactly when some count would go negative.
_BORROWS = sum(1 << (2 * k) for k in range(1, KINDS))


def holds(key: int, cards: int) -> bool:
    """Does the packed hand ``key`` hold the packed ``cards`` (no count goes negative)?"""
    rest = key - cards
    return rest >= 0 and not (rest ^ key ^ cards) & _BORROWS


def packed(cards: Sequence[int]) -> int:
    """``cards`` packed (what laying them takes from a packed hand)."""
    total = 0
    for c in cards:
        total += UNIT[c]
    return total


def best_value(key: int) -> int:
    """Value of the best opening the packed hand holds (keeping one card), 0 if none."""
    value = _best_cache.get(key)
    if value is None:
        opening = best_opening(unpack(key))
        value = opening.value if opening is not None else 0
        _BEST.remember(key, value)
    return value


def reaches(key: int, value: int) -> bool:
    """Does the packed hand hold an opening worth ``value`` or more (keeping a card)?"""
    if value <= 0:
        return key != 0
    memo = key | value << _VALUE_SHIFT
    found = _reach_cache.get(memo)
    if found is None:
        # the bound refuses most hands: not remembered (cheaper again than a store)
        if opening_bound(key) < value:
            return False
        found = opening_searched_packed(key, value)
        _REACH.remember(memo, found)
    return found


def reaches_through(key: int, size: int, c: int, value: int) -> bool:
    """``reaches(key, value)`` for a packed hand of ``size`` cards whose every opening
    worth ``value`` holds the card ``c``: the hand without that card is known to hold no
    melds worth it (T-6), so an opening is a meld with ``c`` and an opening of the rest
    worth what the meld leaves. Memoised with ``reaches``."""
    if value <= 0:
        return key != 0
    memo = key | value << _VALUE_SHIFT
    found = _reach_cache.get(memo)
    if found is None:
        # the bound first: it refuses most hands, and is cheaper than listing the melds
        # (a refusal is not remembered: working it out again costs less than a store)
        if opening_bound(key) < value:
            return False
        found = any(
            len(m.cards) < size and reaches(key - delta, value - v)
            for m, delta, v in melds_holding(key, c)
        )
        _REACH.remember(memo, found)
    return found


def opening_through(key: int, size: int, c: int, value: int) -> tuple[Meld, ...] | None:
    """The melds of an opening worth ``value`` (> 0) or more of the packed hand, or None,
    under ``reaches_through``'s premise (every such opening holds the card ``c``).

    The same search as ``reaches_through`` (whose memo it fills), keeping the opening
    it finds: the staged-meld listing needs one, and searching the whole hand again
    for it costs more than the search that proved it exists."""
    memo = key | value << _VALUE_SHIFT
    if _reach_cache.get(memo) is False or opening_bound(key) < value:
        return None  # a bound refusal is not remembered (as in ``reaches_through``)
    melds: tuple[Meld, ...] | None = None
    for m, delta, v in melds_holding(key, c):
        if len(m.cards) >= size:
            continue
        if v >= value:  # the rest holds a card to keep
            melds = (m,)
            break
        if reaches(key - delta, value - v):  # remembered, like ``reaches_through``
            other = opening_at_least_packed(key - delta, value - v)
            assert other is not None
            melds = (m, *other.melds)
            break
    _REACH.remember(memo, melds is not None)
    return melds


def completable(
    key: int,
    size: int,
    staged: int,
    need: Card | None,
    threshold: int,
    through: Card | None = None,
) -> bool:
    """Can the packed hand of ``size`` cards (a card kept) bring ``staged`` to ``threshold``?

    With ``need`` (option ``taken_card_in_opening``, T-8) one of the melds must hold it;
    ``through``: every opening of the hand holds that card (``reaches_through``).
    """
    if need is None:
        if through is not None:
            return reaches_through(key, size, through, threshold - staged)
        return reaches(key, threshold - staged)
    return any(
        need in m.cards and len(m.cards) < size and reaches(key - delta, threshold - staged - value)
        for m, delta, value in hand_melds(key)
    )


def reach_value(key: int, size: int, staged: int, need: Card | None) -> int:
    """The most a staged opening can reach from the packed hand (for error messages)."""
    if need is None:
        return staged + best_value(key)
    best = staged
    for m, delta, value in hand_melds(key):
        if need in m.cards and len(m.cards) < size:
            best = max(best, staged + value + best_value(key - delta))
    return best


def hand_melds(key: int) -> tuple[MeldEntry, ...]:
    """Every meld the packed hand can lay (``meld_options``) with its packed cards and
    value, memoised."""
    found = _options_cache.get(key)
    if found is None:
        found = tuple(meld_options_packed(key))
        _OPTIONS.remember(key, found)
    return found


_NO_PAIR = 1 << 2 * KINDS  # a bit no hand holds: a pair that never makes a run
_NoMeldMasks = tuple[int, int, int, int, int, int, int, int]


def _no_meld_masks(c: int) -> _NoMeldMasks:
    """What ``fits_no_meld`` reads for the natural ``c``, as presence bits: the other
    suits of its rank; every card of its suit within two places; each pair of
    neighbours that makes a run with it (one place apart each side, or two on one side;
    at most six, for an ace, filled up with ``_NO_PAIR``)."""
    suit, r = divmod(c, 13)
    others = sum(UNIT[s * 13 + r] for s in range(4) if s != suit)
    kinds = RUN_KINDS[suit]

    def bit(p: int) -> int:
        return UNIT[kinds[p]] if ACE_LOW <= p <= ACE_HIGH else 0

    pairs: list[int] = []
    near = 0
    for p in positions(r):
        a, b, d, e = bit(p - 2), bit(p - 1), bit(p + 1), bit(p + 2)
        pairs.extend(x | y for x, y in ((a, b), (b, d), (d, e)) if x and y)
        near |= a | b | d | e
    p0, p1, p2, p3, p4, p5 = pairs + [_NO_PAIR] * (6 - len(pairs))
    return others, near, p0, p1, p2, p3, p4, p5


_NO_MELD = tuple(_no_meld_masks(c) for c in range(52))


def fits_no_meld(key: int, c: int) -> bool:
    """True when no meld of the packed hand ``key`` (which holds ``c``) can hold ``c``.

    A cheap exact-enough test (it may say False for a card that fits nowhere, never
    True for one that fits): a brelan needs two other suits of the rank, or one and a
    joker; a sequence with at most one joker has another natural of the suit within
    two places, and without a joker two naturals next to it (T-4).
    """
    if c == _JOKER_INDEX:
        return False
    present = (key | key >> 1) & _PRESENT
    others, near, p0, p1, p2, p3, p4, p5 = _NO_MELD[c]
    if key >> JOKER_SHIFT:  # a joker: one other card of the rank, or of the run, will do
        return not (present & others or present & near)
    if (present & others).bit_count() >= 2:
        return False
    missing = ~present  # each pair lacks a card
    return bool(
        p0 & missing
        and p1 & missing
        and p2 & missing
        and p3 & missing
        and p4 & missing
        and p5 & missing
    )


def in_no_meld(hand: Sequence[int], c: int) -> bool:
    """``fits_no_meld`` of a count vector (tests)."""
    return fits_no_meld(packed([k for k in range(KINDS) for _ in range(hand[k])]), c)


def keeps_other(hand: Sequence[int], size: int, cards: Sequence[int], banned: int | None) -> bool:
    """After laying ``cards``, does the hand still hold a card other than ``banned`` (T-3)?"""
    if banned is None:
        return True
    left = hand[banned] - sum(1 for c in cards if c == banned)
    return size - len(cards) > left
