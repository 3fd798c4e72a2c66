"""Exact opening and going-out search for Tunisian rami (T-6, T-7, T-9).

Both searches work on a hand packed into one integer: two bits of count per natural
kind (bits ``2k``, ``2k+1``), the jokers above them. The search takes the lowest card
left and tries each thing it can become: a card kept in hand, or a part of one meld
that holds it (then every other card of that meld has a higher kind index, or is a
joker). Every disjoint choice of melds is reached exactly once, so the search is
exact. Cards that can belong to no meld at all are set aside before the search.

The game asks ``opening_reaches`` on nearly every step of an unopened player, so the
opening side is built for speed, never at the cost of exactness:

- an upper bound that knows each joker serves one meld rejects most hands at once
  (the runs of each suit are read from tables of suit patterns, remembered);
- the search stops at the first opening good enough, and cuts a branch when its cards
  at their best value cannot reach what is still needed (``best_opening`` does the same
  as a branch and bound);
- what a search learns of a packed hand (bounds on its best value, and the choice that
  reaches the lower one) is kept between calls in tables emptied when they grow large,
  so long simulations stay flat in memory. One search at a time uses them (a lock).

>>> from rami.cards import counts, parse_cards
>>> best = best_opening(counts(parse_cards("10♥ J♥ Q♥ K♥ 7♠ 7♥ 7♦ JK 3♣ 9♦ 2♠")))
>>> best.value, [m.text() for m in best.melds]
(71, ['10♥ J♥ Q♥ K♥ JK', '7♠ 7♥ 7♦'])
"""

from __future__ import annotations

# rami: compiled with mypyc in the accelerated build
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from threading import Lock
from typing import Any

from rami.cards import JOKER, KINDS
from rami.memo import GenerationMemo, scaled
from rami.runs import ACE_HIGH, ACE_LOW, POSITIONS, RUN_KINDS, positions
from rami.tunisian.melds import (
    POSITION_VALUE,
    Meld,
    rank_value,
    run_from_positions,
    set_from,
)

__all__ = [
    "Opening",
    "best_opening",
    "can_go_out",
    "clear_cache",
    "opening_at_least",
    "opening_at_least_packed",
    "opening_bound",
    "opening_reaches",
    "opening_reaches_packed",
    "pack",
]

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
# Entries kept between calls before a table is emptied (a few tens of MB at most).
_MEMO_LIMIT = 50_000  # each search memo (100,000 bought no speed, and 15 MiB of RSS)
_TABLE_LIMIT = 20_000  # each table of suit patterns
_OPTIONS_LIMIT = 50_000  # the option tables together

# _BIT[s][p]: the count unit of the card at run position p (1 … 14) of suit s.
_BIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(0 if p in (0, 15) else 1 << (2 * RUN_KINDS[s][p]) for p in range(16)) for s in range(4)
)
# _PVS[low][high]: the value of a run on positions low … high (T-5).
_PVS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(POSITION_VALUE[lo : hi + 1]) for hi in range(15)) for lo in range(15)
)
# The most a natural kind can be worth in a meld (T-5: an ace 10).
_KIND_VALUE: tuple[int, ...] = tuple(rank_value(k % 13 + 1) for k in range(52))
_UNIT: tuple[int, ...] = tuple(1 << (2 * k) for k in range(52))  # one card of a kind


@dataclass(frozen=True)
class Opening:
    """The melds of an opening (T-6) and their total value (T-5)."""

    value: int
    melds: tuple[Meld, ...]


# Reading counts as base-4 digits packs them two bits each; any other count is no digit.
_DIGITS = bytes(48 + n if n < 4 else 120 for n in range(256))


def _pack(hand_counts: Sequence[int]) -> int:
    if len(hand_counts) != KINDS:
        raise ValueError(f"a count vector has {KINDS} entries, not {len(hand_counts)}")
    jokers = hand_counts[JOKER]
    try:
        if 0 <= jokers <= 7:
            return int(bytes(hand_counts[51::-1]).translate(_DIGITS), 4) | jokers << _JSHIFT
    except (ValueError, TypeError):
        pass
    for n in hand_counts[:52]:
        if not (isinstance(n, int) and 0 <= n <= 3):
            raise ValueError(f"count {n} for one card is out of range 0 … 3")
    raise ValueError(f"joker count {jokers} is out of range 0 … 7")


def pack(hand_counts: Sequence[int]) -> int:
    """A count vector packed as the searches read it: two bits per natural kind (bit
    ``2k``), the jokers from bit 104. One card of kind ``c`` is ``1 << 2 * c`` (the joker
    too), so a caller can keep a hand packed as it changes (rami.tunisian.game)."""
    return _pack(hand_counts)


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
    far = ACE_LOW + ACE_HIGH - anchor if anchor in POSITIONS[0] else 0
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


# --- which cards may be in a meld, and bounds on an opening ----------------------------
#
# Runs stay within a suit, so what a bound needs of a suit's runs is read from tables
# keyed by that suit's 26 bits of counts (a few thousand patterns in play, remembered);
# sets are worked out across the four suits with a handful of bit operations.

_CHUNK = (1 << 26) - 1  # one suit's counts, packed
_SUIT = sum(1 << (2 * r) for r in range(13))  # one suit's presence bits, packed
_HIGH_RANKS = sum(1 << (2 * r) for r in (0, 9, 10, 11, 12))  # A 10 J Q K: worth 10
# _PLANES[b]: the kinds whose value has bit b, as (count bit 0, count bit 1) masks.
_PLANES: tuple[tuple[int, int], ...] = tuple(
    (
        sum(1 << (2 * k) for k in range(52) if _KIND_VALUE[k] >> b & 1),
        sum(1 << (2 * k + 1) for k in range(52) if _KIND_VALUE[k] >> b & 1),
    )
    for b in range(4)
)


def _natural_value(nat: int) -> int:
    """The naturals of ``nat`` (counts, jokers excluded) at their best value (T-5)."""
    total = 0
    for b, (ones, twos) in enumerate(_PLANES):
        total += ((nat & ones).bit_count() + 2 * (nat & twos).bit_count()) << b
    return total


_CHUNK_VALUES: GenerationMemo[int, int] = GenerationMemo(
    _TABLE_LIMIT, name="tunisian.chunk_values", shared=True
)
_chunk_values = _CHUNK_VALUES.table  # read directly: the bounds' inner loop


def _chunk_value(chunk: int) -> int:
    """``_natural_value`` of one suit's counts (its ranks where the first suit's are)."""
    value = _chunk_values.get(chunk)
    if value is None:
        value = _natural_value(chunk)
        _CHUNK_VALUES.remember(chunk, value)
    return value


# 8192 patterns: never full
_RUN_GAINS: GenerationMemo[int, int] = GenerationMemo(1 << 14, name="tunisian.run_gains")
_run_gains = _RUN_GAINS.table


def _run_gain(suit_bits: int) -> int:
    """The most one joker run gains from the cards of a suit in no joker-free run.

    ``suit_bits``: a suit's presence bits (packed, ranks 1 … 13). A run with a joker
    spans held positions with at most one hole; the cards it holds that are in no run
    of three held in a row count once each, by their place (T-5). At most 8192
    patterns, remembered.
    """
    gain = _run_gains.get(suit_bits)
    if gain is not None:
        return gain
    # blocks of held positions in a row: (first, last, the value of its cards if the
    # block is one or two long; a longer one is a run already and gains nothing)
    blocks: list[tuple[int, int, int]] = []
    p = 1
    while p <= 14:
        if suit_bits >> (2 * ((p - 1) % 13)) & 1:
            q = p
            while q < 14 and suit_bits >> (2 * (q % 13)) & 1:
                q += 1
            blocks.append((p, q, _PVS[p][q] if q - p < 2 else 0))
            p = q + 1
        else:
            p += 1
    gain = max((b[2] for b in blocks), default=0)
    for (_, end, left), (start, _, right) in pairwise(blocks):
        if start == end + 2:  # one hole between: a joker fills it
            gain = max(gain, left + right)
    return _RUN_GAINS.remember(suit_bits, gain)


_Facts = tuple[int, int, int, int, int]
_SUIT_FACTS: GenerationMemo[int, _Facts] = GenerationMemo(
    _TABLE_LIMIT, name="tunisian.suit_facts", shared=True
)
_suit_facts = _SUIT_FACTS.table


def _facts(chunk: int) -> _Facts:
    """What the bounds need of one suit's counts, remembered.

    (presence bits; the cards in a run of three held in a row; their value; the cards
    one joker could put in a run, with one card within two places; ``_run_gain``).
    """
    facts = _suit_facts.get(chunk)
    if facts is not None:
        return facts
    pres = (chunk | chunk >> 1) & _SUIT
    row = pres | (pres & 1) << 26  # the ace again, at position 14
    up = row >> 2  # at p: the card at p + 1 is held
    down = row << 2  # at p: the card at p - 1 is held
    plain = (down & down << 2 | down & up | up & up >> 2) & row
    plain = (plain | plain >> 26) & pres
    joker = (up | up >> 2 | down | down << 2) & row
    joker = (joker | joker >> 26) & pres
    facts = (pres, plain, _chunk_value(chunk & plain * 3), joker, _run_gain(pres))
    return _SUIT_FACTS.remember(chunk, facts)


def _live(key: int) -> int:
    """The naturals of ``key`` that might belong to some meld (a cheap superset).

    A card is live when two others of its rank are held (one, with a joker), or two
    cards next to it in its suit make a run with it (with a joker: one card within two
    places). Returns presence bits (bit ``2k`` for kind ``k``).
    """
    k0 = key & _CHUNK
    k1 = key >> 26 & _CHUNK
    k2 = key >> 52 & _CHUNK
    k3 = key >> 78 & _CHUNK
    c0, r0, _, j0, _ = _suit_facts.get(k0) or _facts(k0)
    c1, r1, _, j1, _ = _suit_facts.get(k1) or _facts(k1)
    c2, r2, _, j2, _ = _suit_facts.get(k2) or _facts(k2)
    c3, r3, _, j3, _ = _suit_facts.get(k3) or _facts(k3)
    if key & _JMASK:
        same = c0 & (c1 | c2 | c3) | c1 & (c2 | c3) | c2 & c3  # two suits of the rank
        r0, r1, r2, r3 = j0, j1, j2, j3
    else:
        same = c0 & c1 & (c2 | c3) | c2 & c3 & (c0 | c1)  # three suits of the rank
    return (
        (r0 | c0 & same) | (r1 | c1 & same) << 26 | (r2 | c2 & same) << 52 | (r3 | c3 & same) << 78
    )


def _prune(key: int) -> int:
    """Set aside (as kept cards) the naturals that can belong to no meld.

    One pass: a card that only lost its place with the cards set aside stays in, which
    costs the search a little and never its exactness.
    """
    nat = key & _NATMASK
    dead = ((nat | nat >> 1) & _LOW) & ~_live(key)
    if not dead:
        return key
    return (key & ~(dead * 3)) | _FLAG  # every copy of each dead kind


def _upper_bound(key: int) -> int:
    """An upper bound on the value of any disjoint melds of ``key`` (T-4, T-5).

    Melds without a joker use only cards live without jokers: all of those count at
    their best value. Each joker (at most one a meld, worth at most 10) adds its meld's
    other cards that are live only with a joker: no more than the best single joker
    meld gains, and all of them together no more than those cards' total.
    """
    k0 = key & _CHUNK
    k1 = key >> 26 & _CHUNK
    k2 = key >> 52 & _CHUNK
    k3 = key >> 78 & _CHUNK
    c0, r0, total, j0, g0 = _suit_facts.get(k0) or _facts(k0)
    c1, r1, v, j1, g1 = _suit_facts.get(k1) or _facts(k1)
    total += v
    c2, r2, v, j2, g2 = _suit_facts.get(k2) or _facts(k2)
    total += v
    c3, r3, v, j3, g3 = _suit_facts.get(k3) or _facts(k3)
    total += v
    same = c0 & c1 & (c2 | c3) | c2 & c3 & (c0 | c1)  # three suits of the rank
    if same:  # the cards of plain sets that are in no plain run
        if same & ~r0 & c0:
            total += _chunk_value(k0 & (same & ~r0) * 3)
        if same & ~r1 & c1:
            total += _chunk_value(k1 & (same & ~r1) * 3)
        if same & ~r2 & c2:
            total += _chunk_value(k2 & (same & ~r2) * 3)
        if same & ~r3 & c3:
            total += _chunk_value(k3 & (same & ~r3) * 3)
    jokers = (key >> _JSHIFT) & 7
    if not jokers:
        return total
    pairs = c0 & (c1 | c2 | c3) | c1 & (c2 | c3) | c2 & c3  # two suits of the rank
    e0 = (j0 | pairs & c0) & ~(r0 | same)  # live only with a joker
    e1 = (j1 | pairs & c1) & ~(r1 | same)
    e2 = (j2 | pairs & c2) & ~(r2 | same)
    e3 = (j3 | pairs & c3) & ~(r3 | same)
    if not (e0 or e1 or e2 or e3):
        return total + 10 * jokers
    # a joker set holds at most two such cards (three suits held make a plain set)
    ranks = (e0 | e1 | e2 | e3) & pairs
    if ranks & _HIGH_RANKS:
        gain = 20
    elif ranks:
        gain = 2 * ((ranks.bit_length() + 1) >> 1)
    else:
        gain = 0
    spread = 0
    if e0:
        spread += _chunk_value(k0 & e0 * 3)
        gain = max(gain, g0)
    if e1:
        spread += _chunk_value(k1 & e1 * 3)
        gain = max(gain, g1)
    if e2:
        spread += _chunk_value(k2 & e2 * 3)
        gain = max(gain, g2)
    if e3:
        spread += _chunk_value(k3 & e3 * 3)
        gain = max(gain, g3)
    return total + min(10 * jokers + spread, jokers * (10 + gain))


# --- the opening search -----------------------------------------------------------------

# _LOCAL[i]: the bits a candidate meld of card i depends on: the kinds of its suit
# from i up (an ace reaches both ends), its rank in the suits above, and the jokers.
_LOCAL: tuple[int, ...] = tuple(
    sum(3 << (2 * k) for k in range(i, i - i % 13 + 13))
    | sum(3 << (2 * (s * 13 + i % 13)) for s in range(i // 13 + 1, 4))
    | _JMASK
    for i in range(52)
)
# (count delta, jokers included; value; the most its cards may be worth; descriptor)
_Option = tuple[int, int, int, _Desc]
# _option_tables[i][key & _LOCAL[i]]: the options of card i, the lowest card of key.
# One count bounds the 52 tables together (``_OPTIONS_LIMIT``); they start over together.
_OPTION_MEMOS: tuple[GenerationMemo[int, tuple[_Option, ...]], ...] = tuple(
    GenerationMemo(_OPTIONS_LIMIT, name=f"tunisian.options[{i}]", bound=-(-_OPTIONS_LIMIT // 52))
    for i in range(52)
)
_option_tables: tuple[dict[int, tuple[_Option, ...]], ...] = tuple(m.table for m in _OPTION_MEMOS)
_option_count = 0  # entries in all the option tables


def _options(key: int, i: int) -> tuple[_Option, ...]:
    """``_candidates`` for the opening search, remembered by the cards they depend on.

    The searches look the table up themselves and call this on a miss.
    """
    global _option_count
    table = _option_tables[i]
    local = key & _LOCAL[i]
    found = table.get(local)
    if found is None:
        found = tuple(
            (delta + _J1, value, _spent(value, desc), desc)
            if joker
            else (delta, value, _spent(value, desc), desc)
            for delta, joker, value, desc in _candidates(key, i, bool(key & _JMASK))
        )
        if _option_count >= _OPTION_MEMOS[0].size:  # _OPTIONS_LIMIT, scaled (rami.memo)
            for each in _OPTION_MEMOS:
                each.new_generation()
            _option_count = 0
        table[local] = found
        _option_count += 1
    return found


def _spent(value: int, desc: _Desc) -> int:
    """A meld's cards at their best value (a low ace 10, a joker 10), from its value."""
    if desc[0] == 0:
        _, _suit, low, _high, joker = desc
        if joker:
            value += 10 - POSITION_VALUE[joker]
        if low == 1 and joker != 1:
            value += 9
        return value
    return value + 10 - rank_value(desc[1]) if desc[2] else value


# _exact[key] = (best value, the choice that gives it); _bounds[key] = (low, high): what
# is known of the best value of a packed hand. Both are kept between calls, and one
# search at a time may use them (a server plays tables in threads): hold ``_searching``.
_searching = Lock()
# The three start a new generation together (``_check_size``): entries refer to each other.
_SEARCH_MEMOS: tuple[GenerationMemo[int, Any], ...] = tuple(
    GenerationMemo(_MEMO_LIMIT, name=f"tunisian.search[{i}]") for i in range(3)
)
_exact: dict[int, tuple[int, _Choice]] = _SEARCH_MEMOS[0].table
_bounds: dict[int, tuple[int, int]] = _SEARCH_MEMOS[1].table
# _chosen[key]: the choice that reaches the low bound in ``_bounds`` (None: keep the card).
_chosen: dict[int, _Choice] = _SEARCH_MEMOS[2].table


def _best(key: int, need: int, most: int) -> int:
    """The best value of ``key`` if it is ``need`` or more, else a bound below ``need``.

    Branch and bound: each branch must beat the best found so far, and a hand whose
    ``most`` (its naturals at their best value and 10 a joker) or known upper bound
    falls short is cut. Exact values and their choices go to ``_exact``.
    """
    hit = _exact.get(key)
    if hit is not None:
        return hit[0]
    known = _bounds.get(key)
    high = most if known is None else min(most, known[1])
    if high < need:
        return high
    nat = key & _NATMASK
    if not nat:
        value = 0 if key & (_FLAG | _JMASK) else _NEG
        _exact[key] = (value, None)
        return value
    lowbit = nat & -nat
    i = (lowbit.bit_length() - 1) >> 1
    target = need
    best = top = _NEG
    choice: _Choice = None
    options = _option_tables[i].get(key & _LOCAL[i])
    if options is None:
        options = _options(key, i)
    for delta, value, spent, desc in options:
        rest = most - spent
        if rest + value < target:  # cut without a call
            if rest + value > top:
                top = rest + value
            continue
        v = _best(key - delta, target - value, rest) + value
        if v >= target:
            best = v
            target = v + 1
            choice = (delta, desc)
        elif v > top:
            top = v
    rest = most - _KIND_VALUE[i]
    if rest < target:
        if rest > top:
            top = rest
    else:
        v = _best((key - _UNIT[i]) | _FLAG, target, rest)
        if v >= target:
            best = v
            choice = None
        elif v > top:
            top = v
    if best >= need:
        _exact[key] = (best, choice)
        _bounds[key] = (best, best)
        _chosen[key] = choice
        return best
    _bounds[key] = (_NEG if known is None else known[0], top)
    return top


def _reach(key: int, need: int, most: int) -> int:
    """A value ``v`` of ``key``: at most its best if ``v >= need``, else at least it.

    A search that stops at the first opening worth ``need`` and cuts hands whose
    ``most`` (its naturals at their best value and 10 a joker, a bound kept up
    cheaply) or known upper bound falls short; what it proves is kept in ``_bounds``.
    """
    hit = _bounds.get(key)
    if hit is not None:
        low, high = hit
        if low >= need:
            return low
        if high < need:
            return high
        if most < need:
            return most
    else:
        if most < need:
            return most
        low = _NEG
    nat = key & _NATMASK
    if not nat:
        value = 0 if key & (_FLAG | _JMASK) else _NEG
        _bounds[key] = (value, value)
        return value
    lowbit = nat & -nat
    i = (lowbit.bit_length() - 1) >> 1
    best = _NEG
    options = _option_tables[i].get(key & _LOCAL[i])
    if options is None:
        options = _options(key, i)
    for delta, value, spent, desc in options:
        rest = most - spent
        if rest + value < need:  # cut without a call
            if rest + value > best:
                best = rest + value
            continue
        v = _reach(key - delta, need - value, rest) + value
        if v >= need:
            _bounds[key] = (v, most if hit is None else min(most, hit[1]))
            _chosen[key] = (delta, desc)
            return v
        if v > best:
            best = v
    rest = most - _KIND_VALUE[i]
    if rest >= need:
        rest = _reach((key - _UNIT[i]) | _FLAG, need, rest)
        if rest >= need:
            _bounds[key] = (rest, most if hit is None else min(most, hit[1]))
            _chosen[key] = None
            return rest
    if rest > best:
        best = rest
    _bounds[key] = (low, best)
    return best


def _meld_of(desc: _Desc) -> Meld:
    if desc[0] == 0:
        return run_from_positions(desc[1], desc[2], desc[3], desc[4])
    return set_from(desc[1], desc[3:], bool(desc[2]))


def _most(key: int) -> int:
    """The naturals of ``key`` at their best value and 10 a joker: a bound on ``key``."""
    return _natural_value(key & _NATMASK) + 10 * ((key >> _JSHIFT) & 7)


def _check_size() -> None:
    """Empty the search memos when they grow large (only between searches)."""
    limit = _SEARCH_MEMOS[0].size  # _MEMO_LIMIT, scaled by the memory budget (rami.memo)
    if len(_bounds) >= limit or len(_exact) >= limit:
        for memo in _SEARCH_MEMOS:
            memo.new_generation()


def _reached(key: int, need: int) -> int | None:
    """The pruned root of ``key`` if it holds an opening worth ``need``, else None."""
    _check_size()
    key = _prune(key)
    hit = _bounds.get(key)
    if hit is not None and (hit[0] >= need or hit[1] < need):
        return key if hit[0] >= need else None
    return key if _reach(key, need, _most(key)) >= need else None


def _follow(key: int) -> Opening:
    """The opening ``_chosen`` records from ``key`` (a search just reached it)."""
    chosen: list[tuple[tuple[int, int, int, int], _Desc]] = []
    value = 0
    nat = key & _NATMASK
    while nat:
        choice = _chosen[key]
        if choice is None:
            lowbit = nat & -nat
            key = (key - (1 << (lowbit.bit_length() - 1))) | _FLAG
        else:
            delta, desc = choice
            # runs by suit and place, then sets by rank (the order of ``Meld`` fields)
            if desc[0] == 0:
                chosen.append(((0, desc[1], desc[2], desc[3]), desc))
                value += _PVS[desc[2]][desc[3]]
            else:
                chosen.append(((1, -1, desc[1], desc[1]), desc))
                value += rank_value(desc[1]) * (len(desc) - 3 + desc[2])
            key -= delta
        nat = key & _NATMASK
    chosen.sort()
    return Opening(value, tuple(_meld_of(desc) for _, desc in chosen))


#: ``best_opening`` per packed hand (a miss is ``_NO_OPENING``): a named memo, so the
#: memory budget bounds it with the other solver caches (it was an ``lru_cache``).
_BEST_OPENINGS: GenerationMemo[int, Opening | None] = GenerationMemo(
    4096, name="tunisian.best_opening"
)
_NO_OPENING = Opening(0, ())  # never stored: what a miss reads


def _best_opening_packed(start: int) -> Opening | None:
    found = _BEST_OPENINGS.table.get(start, _NO_OPENING)
    if found is not _NO_OPENING:
        return found
    _check_size()
    key = _prune(start)
    if _best(key, 1, _most(key)) <= 0:
        return _BEST_OPENINGS.remember(start, None)
    return _BEST_OPENINGS.remember(start, _follow(key))


def clear_cache() -> None:
    """Forget everything remembered between calls (for timing cold searches); the
    tables' bounds are read again from ``_TABLE_LIMIT``, ``_MEMO_LIMIT`` and
    ``_OPTIONS_LIMIT`` (scaled by the memory budget, ``rami.memo``)."""
    global _option_count
    with _searching:
        _BEST_OPENINGS.size = scaled(4096)
        _BEST_OPENINGS.new_generation()
        _SUIT_FACTS.size = _CHUNK_VALUES.size = scaled(_TABLE_LIMIT)  # the bounds read again
        for memo in (*_SEARCH_MEMOS, _RUN_GAINS, _SUIT_FACTS, _CHUNK_VALUES):
            if memo in _SEARCH_MEMOS:
                memo.size = scaled(_MEMO_LIMIT)
            memo.new_generation()
        for each in _OPTION_MEMOS:
            each.size = scaled(_OPTIONS_LIMIT)
            each.new_generation()
        _option_count = 0


def best_opening(hand_counts: Sequence[int]) -> Opening | None:
    """The most valuable opening the hand holds (T-6), or ``None`` if it has no meld.

    Disjoint melds, at most one joker each, every ace and joker worth what its place
    gives (T-5), and at least one card left to discard (T-9). Exact.
    """
    key = _pack(hand_counts)
    with _searching:
        return _best_opening_packed(key)


def opening_at_least(hand_counts: Sequence[int], threshold: int) -> Opening | None:
    """An opening worth ``threshold`` or more (T-6), not always the best; else ``None``.

    The same rules as ``best_opening`` (a card kept, T-9). Much cheaper: most hands
    fail an upper bound at once, and the search stops at the first opening good enough.
    """
    return opening_at_least_packed(_pack(hand_counts), threshold)


def opening_reaches(hand_counts: Sequence[int], threshold: int) -> bool:
    """Whether the hand holds an opening worth at least ``threshold`` (T-6). Exact.

    ``opening_at_least`` without building the melds.
    """
    return opening_reaches_packed(_pack(hand_counts), threshold)


def may_hold_meld(key: int) -> bool:
    """False when the packed hand holds no meld at all (T-4): a meld holds two naturals
    or more, each of them live (``_live``, a superset). Cheaper than listing melds,
    and most hands of an opened seat hold none."""
    return _live(key) != 0


def opening_bound(key: int) -> int:
    """An upper bound on the value of any disjoint melds of a packed hand (T-4, T-5):
    a hand whose bound is below a threshold holds no opening of it."""
    return _upper_bound(key)


def opening_reaches_packed(key: int, threshold: int) -> bool:
    """``opening_reaches`` of a hand already packed (``pack``): the game keeps its hands
    packed, so the question costs no packing."""
    need = max(threshold, 1)
    if _upper_bound(key) < need:
        return False
    with _searching:
        return _reached(key, need) is not None


def opening_searched_packed(key: int, threshold: int) -> bool:
    """``opening_reaches_packed`` for a hand whose ``opening_bound`` the caller has just
    found to reach ``threshold`` (the bound is not worked out twice)."""
    with _searching:
        return _reached(key, max(threshold, 1)) is not None


def opening_at_least_packed(key: int, threshold: int) -> Opening | None:
    """``opening_at_least`` of a hand already packed (``pack``)."""
    need = max(threshold, 1)  # an opening holds a meld
    if _upper_bound(key) < need:
        return None
    with _searching:
        root = _reached(key, need)
        return None if root is None else _follow(root)


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
            if at and at in positions(rank - 1):
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
            for pos in positions(rank - 1):
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

    try:
        value = search(start, states)
    finally:
        # ``search`` refers to itself (and to ``memo``) through its closure: a cycle
        # that only the cyclic collector would free, with thousands of memo entries,
        # at each bot decision; its passes stop a server's event loop (bench/server_load).
        # Emptying its own cell breaks the cycle: the memo goes by reference counting.
        # mypyc's compiled closures have no ``__closure__``: there the memo is emptied,
        # which leaves the collector only the nested functions' few objects.
        cells = getattr(search, "__closure__", None)
        if cells:
            cells[search.__code__.co_freevars.index("search")].cell_contents = None
        else:
            memo.clear()
    return value >= 0 if opened else value >= need
