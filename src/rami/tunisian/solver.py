"""Exact opening and going-out search for Tunisian rami (T-6, T-7, T-9).

Both searches work on a hand packed into one integer: two bits of count per natural
kind (bits ``2k``, ``2k+1``), the jokers above them. The search takes the lowest card
left and tries each thing it can become: a card kept in hand, or a part of one meld
that holds it (then every other card of that meld has a higher kind index, or is a
joker). Every disjoint choice of melds is reached exactly once, and results are
memoised on the packed hand, so the search is exact and fast. Cards that can belong
to no meld at all are set aside before the search.

>>> from rami.cards import counts, parse_cards
>>> best = best_opening(counts(parse_cards("10♥ J♥ Q♥ K♥ 7♠ 7♥ 7♦ JK 3♣ 9♦ 2♠")))
>>> best.value, [m.text() for m in best.melds]
(71, ['10♥ J♥ Q♥ K♥ JK', '7♠ 7♥ 7♦'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rami.cards import JOKER, KINDS
from rami.tunisian.melds import (
    POSITION_VALUE,
    Meld,
    _run_from_positions,
    _set_from,
    rank_value,
)

__all__ = ["Opening", "best_opening", "can_go_out", "clear_cache", "opening_reaches"]

_JSHIFT = 104  # joker count: bits 104-106
_J1 = 1 << _JSHIFT
_JMASK = 7 << _JSHIFT
# can_go_out's second joker pool, biased by _BIAS so that it may run into debt: bits 108-112
_SHIFT2 = 108
_J2 = 1 << _SHIFT2
_J2MASK = 31 << _SHIFT2
_BIAS = 8
_FLAG = 1 << 113  # a card is kept (best_opening) / the discard is chosen (can_go_out)
_NATMASK = _J1 - 1
_LOW = sum(1 << (2 * k) for k in range(52))
_NEG = -(10**9)

# _BIT[s][p]: the count unit of the card at run position p (1 … 14) of suit s.
_BIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(0 if p == 0 else 1 << (2 * (s * 13 + (0 if p == 14 else p - 1))) for p in range(16))
    for s in range(4)
)
# _PVS[low][high]: the value of a run on positions low … high (T-5).
_PVS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(POSITION_VALUE[lo : hi + 1]) for hi in range(15)) for lo in range(15)
)


@dataclass(frozen=True)
class Opening:
    """The melds of an opening (T-6) and their total value (T-5)."""

    value: int
    melds: tuple[Meld, ...]


def _pack(hand_counts: Sequence[int]) -> int:
    if len(hand_counts) != KINDS:
        raise ValueError(f"a count vector has {KINDS} entries, not {len(hand_counts)}")
    key = 0
    for k in range(52):
        n = hand_counts[k]
        if n:
            if not 0 < n <= 3:
                raise ValueError(f"count {n} for one card is out of range 0 … 3")
            key |= n << (2 * k)
    jokers = hand_counts[JOKER]
    if not 0 <= jokers <= 7:
        raise ValueError(f"joker count {jokers} is out of range 0 … 7")
    return key | jokers << _JSHIFT


def _count(key: int, k: int) -> int:
    return (key >> (2 * k)) & 3


# A candidate meld: (count delta without jokers, uses a joker, value, descriptor).
# Descriptors: (0, suit, low, high, joker position or 0) for a run,
# (1, rank, joker 0/1, suit, suit, …) for a set.
_Desc = tuple[int, ...]
_Cand = tuple[int, bool, int, _Desc]
_Choice = tuple[int, _Desc] | None


def _walk(
    key: int,
    pres: int,
    suit: int,
    anchor: int,
    step: int,
    behind: bool,
    jokers: bool,
    out: list[_Cand],
) -> None:
    """Runs holding the natural card at ``anchor`` and stretching away in ``step``.

    Positions on the other side of the anchor hold no natural card (they are lower
    kinds, already decided), so only a joker may stand there, and only right behind
    the anchor (``behind``). From an ace, the far ace is the same kind: it is held
    only if the hand has that ace twice.
    """
    bits = _BIT[suit]
    far = 15 - anchor if anchor in (1, 14) else 0
    far_held = far and _count(key, suit * 13) >= 2
    # the naturals in a row from the anchor: row[0] = anchor, row[1] …
    row = [anchor]
    mask = [bits[anchor]]
    p = anchor + step
    acc = mask[0]
    while 1 <= p <= 14 and (far_held if p == far else pres & bits[p]):
        acc += bits[p]
        row.append(p)
        mask.append(acc)
        p += step
    top = len(row) - 1
    if top < 1 and not jokers:
        return
    pvs = _PVS
    for k in range(2, top + 1):
        e = row[k]
        lo, hi = (anchor, e) if step == 1 else (e, anchor)
        out.append((mask[k], False, pvs[lo][hi], (0, suit, lo, hi, 0)))
    if not jokers:
        return
    back = anchor - step
    if behind and 1 <= back <= 14:
        for k in range(1, top + 1):
            e = row[k]
            lo, hi = (back, e) if step == 1 else (e, back)
            out.append((mask[k], True, pvs[lo][hi], (0, suit, lo, hi, back)))
    # the joker in place of a held natural ...
    for k in range(1, top + 1):
        q = row[k]
        bq = bits[q]
        for end in range(max(k, 2), top + 1):
            e = row[end]
            lo, hi = (anchor, e) if step == 1 else (e, anchor)
            out.append((mask[end] - bq, True, pvs[lo][hi], (0, suit, lo, hi, q)))
    # ... or in the first gap, with the naturals beyond it
    gap = p
    if 1 <= gap <= 14:
        acc = mask[top]
        if top >= 1:
            lo, hi = (anchor, gap) if step == 1 else (gap, anchor)
            out.append((acc, True, pvs[lo][hi], (0, suit, lo, hi, gap)))
        p = gap + step
        while 1 <= p <= 14 and (far_held if p == far else pres & bits[p]):
            acc += bits[p]
            lo, hi = (anchor, p) if step == 1 else (p, anchor)
            out.append((acc, True, pvs[lo][hi], (0, suit, lo, hi, gap)))
            p += step


def _candidates(key: int, i: int, jokers: bool) -> list[_Cand]:
    """Every meld holding card ``i`` whose other naturals are in ``key`` (all above i).

    Melds with a joker are included when ``jokers`` says one may be used.
    """
    pres = (key | key >> 1) & _LOW
    out: list[_Cand] = []
    suit, rank = divmod(i, 13)
    rank += 1
    if rank == 1:
        _walk(key, pres, suit, 1, 1, False, jokers, out)
        _walk(key, pres, suit, 14, -1, False, jokers, out)
    else:
        _walk(key, pres, suit, rank, 1, True, jokers, out)
    others = [s for s in range(suit + 1, 4) if pres >> (2 * (s * 13 + rank - 1)) & 1]
    if others:
        value = rank_value(rank)
        unit = 1 << (2 * i)
        bit = [1 << (2 * (s * 13 + rank - 1)) for s in range(4)]
        n = len(others)
        for a in range(n):
            sa = others[a]
            if jokers:
                out.append((unit + bit[sa], True, 3 * value, (1, rank, 1, suit, sa)))
            for b in range(a + 1, n):
                sb = others[b]
                d = unit + bit[sa] + bit[sb]
                out.append((d, False, 3 * value, (1, rank, 0, suit, sa, sb)))
                if jokers:
                    out.append((d, True, 4 * value, (1, rank, 1, suit, sa, sb)))
                for c in range(b + 1, n):
                    sc = others[c]
                    out.append(
                        (
                            d + bit[sc],
                            False,
                            4 * value,
                            (1, rank, 0, suit, sa, sb, sc),
                        )
                    )
    return out


def _live(key: int) -> int:
    """The naturals of ``key`` that might belong to some meld (a cheap superset)."""
    pres = (key | key >> 1) & _LOW
    jokers = bool(key & _JMASK)
    live = 0
    rest = pres
    while rest:
        low = rest & -rest
        rest ^= low
        k = (low.bit_length() - 1) >> 1
        suit, r = divmod(k, 13)
        rank = r + 1
        same_rank = sum(1 for s in range(4) if s != suit and pres >> (2 * (s * 13 + r)) & 1)
        if same_rank >= 2 or (same_rank and jokers):
            live |= low
            continue
        bits = _BIT[suit]
        near = [False] * 19  # near[p + 2] for positions -2 … 16
        for p in range(1, 15):
            near[p + 2] = bool(pres & bits[p])
        for pos in (1, 14) if rank == 1 else (rank,):
            a, b, c, d = near[pos], near[pos + 1], near[pos + 3], near[pos + 4]
            pairs = ((a, b), (b, c), (c, d))
            if any(x and y for x, y in pairs) or (jokers and any(x or y for x, y in pairs)):
                live |= low
                break
    return live


def _prune(key: int) -> int:
    """Set aside (as kept cards) the naturals that can belong to no meld."""
    while True:
        nat = key & _NATMASK
        live = _live(key)
        dead = ((nat | nat >> 1) & _LOW) & ~live
        if not dead:
            return key
        # remove every copy of each dead kind
        key = (key & ~(dead * 3)) | _FLAG


def _opening_search(start: int) -> tuple[int, dict[int, tuple[int, _Choice]]]:
    memo: dict[int, tuple[int, _Choice]] = {}

    def best(key: int) -> int:
        hit = memo.get(key)
        if hit is not None:
            return hit[0]
        nat = key & _NATMASK
        if not nat:
            value = 0 if key & (_FLAG | _JMASK) else _NEG
            memo[key] = (value, None)
            return value
        lowbit = nat & -nat
        i = (lowbit.bit_length() - 1) >> 1
        unit = 1 << (2 * i)
        result = best((key - unit) | _FLAG)
        choice: _Choice = None
        for delta, joker, value, desc in _candidates(key, i, bool(key & _JMASK)):
            if joker:
                delta += _J1
            v = best(key - delta) + value
            if v > result:
                result = v
                choice = (delta, desc)
        memo[key] = (result, choice)
        return result

    return best(start), memo


def _meld_of(desc: _Desc) -> Meld:
    if desc[0] == 0:
        return _run_from_positions(desc[1], desc[2], desc[3], desc[4])
    return _set_from(desc[1], desc[3:], bool(desc[2]))


@lru_cache(maxsize=4096)
def _best_opening_packed(start: int) -> Opening | None:
    key = _prune(start)
    value, memo = _opening_search(key)
    if value <= 0:
        return None
    melds: list[Meld] = []
    while True:
        entry = memo[key]
        if entry[1] is None:
            nat = key & _NATMASK
            if not nat:
                break
            lowbit = nat & -nat
            key = (key - (1 << (2 * ((lowbit.bit_length() - 1) >> 1)))) | _FLAG
            continue
        delta, desc = entry[1]
        melds.append(_meld_of(desc))
        key -= delta
    melds.sort(key=lambda m: (m.kind != "run", m.suit, m.span, m.rank))
    return Opening(value, tuple(melds))


def clear_cache() -> None:
    """Forget the openings remembered between calls (for timing cold searches)."""
    _best_opening_packed.cache_clear()


def best_opening(hand_counts: Sequence[int]) -> Opening | None:
    """The most valuable opening the hand holds (T-6), or ``None`` if it has no meld.

    Disjoint melds, at most one joker each, every ace and joker worth what its place
    gives (T-5), and at least one card left to discard (T-9). Exact.
    """
    return _best_opening_packed(_pack(hand_counts))


def _upper_bound(key: int) -> int:
    """An upper bound on any opening's value: every live card at its best value."""
    key = _prune(key)
    total = 10 * ((key >> _JSHIFT) & 7)
    nat = key & _NATMASK
    while nat:
        low = nat & -nat
        bitpos = low.bit_length() - 1
        k = bitpos >> 1
        n = (nat >> (2 * k)) & 3
        nat &= ~(3 << (2 * k))
        total += n * rank_value(k % 13 + 1)
    return total


def opening_reaches(hand_counts: Sequence[int], threshold: int) -> bool:
    """Whether the hand holds an opening worth at least ``threshold`` (T-6).

    A cheap upper bound (every card that could be in a meld, at its best value)
    rejects most hands without a search.
    """
    key = _pack(hand_counts)
    if threshold > 0 and _upper_bound(key) < threshold:
        return False
    best = _best_opening_packed(key)
    return best is not None and best.value >= threshold


# --- going out (T-9) -----------------------------------------------------------------
#
# The same lowest-card-first search, with the table in the state. Each natural card
# is the discard, part of a new meld, laid off on a table meld (with the cards that
# link it to the meld's end, and maybe a joker among them), or put in place of a table
# joker. Jokers are decided last: the discard, or one alone at the end of a table meld
# that holds none. Two facts of play need care because the search meets cards in kind
# order, not in the order they are played:
# - a joker won by a swap may serve in a meld met before the swapping card: the pool
#   of won jokers may run into debt, repaid by a later swap and settled at the end;
# - a lay-off may need a run's joker gone (to put a joker into the stretch laid off):
#   a combined move swaps that joker out with its real card from the hand.
# Table meld states: run (low, high, joker position or 0); set (suit bit mask, joker).

_TableState = tuple[tuple[int, ...], ...]


def _table_state(table: Sequence[Meld]) -> tuple[list[int], list[int], _TableState]:
    """Static facts (suit or rank per meld, kind 0 run / 1 set) and initial states."""
    fixed: list[int] = []
    kinds: list[int] = []
    states: list[tuple[int, ...]] = []
    for meld in table:
        if meld.kind == "run":
            low, high = meld.span
            at = low + meld.cards.index(JOKER) if meld.has_joker else 0
            fixed.append(meld.suit)
            kinds.append(0)
            states.append((low, high, at))
        else:
            mask = 0
            for c in meld.cards:
                if c != JOKER:
                    mask |= 1 << c.suit
            fixed.append(meld.rank)
            kinds.append(1)
            states.append((mask, int(meld.has_joker)))
    return fixed, kinds, tuple(states)


def _replace(tab: _TableState, idx: int, state: tuple[int, ...]) -> _TableState:
    return (*tab[:idx], state, *tab[idx + 1 :])


def can_go_out(
    hand_counts: Sequence[int], table: Sequence[Meld], opened: bool, threshold: int
) -> bool:
    """Whether the holder can lay down every card but one and discard that one (T-9).

    Exact over new melds (each at most one joker), lay-offs onto the table melds
    (several cards on one meld, a joker inside a laid-off stretch or alone at an end)
    and joker swaps (the joker won then serves in a new meld, a lay-off or as the
    discard). An unopened holder must open (T-6): new melds made from the hand before
    any swap, at least one, worth ``threshold`` or more; lay-offs and swaps follow.
    """
    start = _pack(hand_counts)
    need = max(threshold, 1)
    if not opened and _upper_bound(start) < need:
        return False
    if opened:  # one pool: every joker may go anywhere
        start = (start & ~_JMASK) + (((start >> _JSHIFT) & 7) << _SHIFT2)
    start += _BIAS << _SHIFT2
    fixed, kinds, states = _table_state(table)
    runs_of_suit: list[list[int]] = [[] for _ in range(4)]
    sets_of_rank: list[list[int]] = [[] for _ in range(14)]
    for idx, kind in enumerate(kinds):
        (runs_of_suit if kind == 0 else sets_of_rank)[fixed[idx]].append(idx)
    count_value = 0 if opened else 1
    memo: dict[tuple[int, _TableState], int] = {}

    def pool2(key: int) -> int:
        return ((key >> _SHIFT2) & 31) - _BIAS

    def table_jokers(tab: _TableState) -> int:
        return sum(1 for idx, st in enumerate(tab) if st[2 if kinds[idx] == 0 else 1])

    def takes_joker(idx: int, st: tuple[int, ...]) -> bool:
        if kinds[idx] == 0:
            return st[2] == 0 and (st[0] > 1 or st[1] < 14)
        return st[1] == 0 and bin(st[0]).count("1") == 3

    def finish(key: int, tab: _TableState) -> int:
        won = pool2(key)
        if won < 0:
            return _NEG  # a borrowed joker was never won
        jokers = ((key >> _JSHIFT) & 7) + won
        if not key & _FLAG:
            if not jokers:
                return _NEG
            jokers -= 1  # a joker is the discard
        if jokers == 0:
            return 0
        room = sum(1 for idx, st in enumerate(tab) if takes_joker(idx, st))
        return 0 if jokers <= room else _NEG

    # A lay-off's joker move, as the change it makes to the packed hand: none; a joker
    # from pool 1 or 2; a joker won by a swap; a swap whose joker goes straight into
    # the stretch laid off (net nothing), or that frees the run for a pool-1 joker.
    no_joker, from1, from2, won = 0, -_J1, -_J2, _J2

    def lay_offs(key: int, i: int, tab: _TableState) -> list[tuple[int, int, _TableState]]:
        """(hand delta, joker change, new table) for card i going onto the table."""
        out: list[tuple[int, int, _TableState]] = []
        suit, r = divmod(i, 13)
        rank = r + 1
        unit = 1 << (2 * i)
        pres = (key | key >> 1) & _LOW
        bits = _BIT[suit]
        spare = [
            c for c, ok in ((from1, key & _JMASK), (from2, pool2(key) > -table_jokers(tab))) if ok
        ]
        for idx in runs_of_suit[suit]:
            low, high, at = tab[idx]
            if at and (at == rank or (rank == 1 and at in (1, 14))):
                out.append((unit, won, _replace(tab, idx, (low, high, 0))))  # a swap
                continue
            # a joker for the stretch: the run holds none, or its real card comes too
            extra = 0
            changes = spare
            if at:
                if not pres & bits[at]:
                    changes = []
                else:
                    extra = bits[at]
                    changes = [c + won for c in (from1, from2) if c != from1 or key & _JMASK]
            for pos in (1, 14) if rank == 1 else (rank,):
                if pos < low:
                    between = range(pos + 1, low)
                    new = (pos, high)
                elif pos > high:
                    between = range(high + 1, pos)
                    new = (low, pos)
                else:
                    continue
                missing = [q for q in between if not pres & bits[q]]
                base = unit + sum(bits[q] for q in between if q not in missing)
                if not missing:
                    out.append((base, no_joker, _replace(tab, idx, (*new, at))))
                if not changes or len(missing) > 1:
                    continue
                for q in missing or list(between):
                    delta = base + extra - (0 if missing else bits[q])
                    for change in changes:
                        out.append((delta, change, _replace(tab, idx, (*new, q))))
        for idx in sets_of_rank[rank]:
            mask, joker = tab[idx]
            if mask >> suit & 1:
                continue
            if bin(mask).count("1") + joker < 4:
                out.append((unit, no_joker, _replace(tab, idx, (mask | 1 << suit, joker))))
            if joker:
                out.append((unit, won, _replace(tab, idx, (mask | 1 << suit, 0))))
        return out

    def search(key: int, tab: _TableState) -> int:
        memo_key = (key, tab)
        hit = memo.get(memo_key)
        if hit is not None:
            return hit
        nat = key & _NATMASK
        if not nat:
            result = finish(key, tab)
            memo[memo_key] = result
            return result
        lowbit = nat & -nat
        i = (lowbit.bit_length() - 1) >> 1
        unit = 1 << (2 * i)
        result = _NEG
        if not key & _FLAG:
            result = search((key - unit) | _FLAG, tab)
        orig = key & _JMASK
        can_borrow = pool2(key) > -table_jokers(tab)
        for delta, joker, value, _desc in _candidates(key, i, bool(orig) or can_borrow):
            if joker:
                if orig:
                    result = max(result, search(key - delta - _J1, tab) + value * count_value)
                if can_borrow:
                    result = max(result, search(key - delta - _J2, tab))
            else:
                result = max(result, search(key - delta, tab) + value * count_value)
        for delta, change, new_tab in lay_offs(key, i, tab):
            result = max(result, search(key - delta + change, new_tab))
        memo[memo_key] = result
        return result

    value = search(start, states)
    return value >= 0 if opened else value >= need
