"""The cheapest cover of natural cards by three-card melds (``exactly3``, M-4, M-8).

Any three cards of which two are wild form a meld, and a wild card never makes a
tunnela, so wild cards are interchangeable: only their number matters. What is left is
to cover the natural cards with *pieces*: a pure meld (costs no wild card), two
compatible naturals (a sequence or trial missing one card, costs one wild card) or a
single natural (costs two). The cards arrange into melds exactly when the cheapest
cover costs at most the wild cards held; the number of cards then makes the remaining
wild cards fall into whole melds of three.

Decomposition, so that the same small problems recur and are memoised:

- a suit is a 104-bit *key*, one byte per rank (A … K), costed by a search on its
  lowest rank;
- a suit splits into *clusters*: ranks two or more empty ranks apart never share a
  meld (the ace joins Q and K). Clusters other than the ace's are shifted to start at
  the 2, so one memo entry serves every position;
- trials join suits only at a rank held in two suits or more (a *cross* rank). The
  trial choices at those ranks are enumerated, cheapest first and within the wild
  cards held (a trial pair costs one); each choice leaves four suit keys whose costs,
  and costs without each card (the discard), come from the memo tables: one search
  per cluster gives both (``_drops``), and a bound without search
  (``_cover_floor``) drops most choices before any suit is searched (the cold path).

Showing in the same turn (M-8) needs three of the melds to be natural sequences or
tunnelas (M-6). Costs then become vectors indexed by the show melds a part must hold
(0 … 3), and wild cards stay in their suits: each is *released* to the pool (cost -1)
or used as itself in a show meld; any other use of a wild card as itself is no better
than releasing it. A holding finishes when some cover costs at most 0 in all. The
plain search over every trial choice (``_show_discards_exact``) is kept as the
reference of a faster one (``_show_fast``): a relaxation without the show, searched by
branch and bound over the cross ranks, whose discards come with certificates.
"""

from __future__ import annotations

# rami: compiled with mypyc in the accelerated build
import itertools
from collections.abc import Iterator, Sequence
from typing import Any, Final, NamedTuple

from rami.cards import CARDS, KINDS, Card
from rami.memo import GenerationMemo, scaled
from rami.runs import ACE_HIGH_THREE, NEAR_ABOVE

__all__ = ["arrange3", "discards3", "show_discards3"]

# imported names as C statics in the compiled build (a global is a dict lookup there)
_NEAR: Final = NEAR_ABOVE
_ACE_HIGH_THREE: Final = ACE_HIGH_THREE
_CARDS: Final = CARDS
_KINDS: Final = KINDS
_UNIT: Final = tuple(1 << (8 * r) for r in range(13))
_QKA: Final = sum(_UNIT[r] for r in _ACE_HIGH_THREE)  # Q-K-A, the ace high
_MEMO_LIMIT = 100_000  # entries per table; a full table starts a new generation
_WILD_SHIFT: Final = 8 * 13  # a suit *code*: the key, and the wild-rank mask above it
_CARD_BITS: Final = (1 << _WILD_SHIFT) - 1
_INF: Final = 99

Vec = tuple[int, int, int, int]
_ZERO_VEC: Final[Vec] = (0, _INF, _INF, _INF)


def _remember(memo: dict[Any, Any], key: Any, value: object) -> None:
    """Store in a memo table through its ``rami.memo.GenerationMemo``: bounded, thread-safe,
    a full table starts a new generation (its base entries kept: the recursions end on
    them). Hot loops read the plain dicts directly."""
    _GENERATIONS[id(memo)].remember(key, value)


#: Each memo table's generations, by the table's ``id`` (filled at the end).
_GENERATIONS: dict[int, GenerationMemo[Any, Any]] = {}


# ---------------------------------------------------------------------------------------
# Clusters


_CLUSTER_MEMO: Final[dict[int, tuple[tuple[int, int, int], ...]]] = {}


_NONZERO: Final = bytes([48] + [49] * 255)  # count byte -> "0" / "1"
_THREE_PLUS: Final = bytes([48] * 3 + [49] * 253)


def _held_mask(key: int) -> int:
    """The ranks (bits 0 … 12) a suit key holds."""
    return int(key.to_bytes(13, "little").translate(_NONZERO)[::-1], 2)


_KEY_CLUSTERS: Final[dict[int, tuple[tuple[int, int, int], ...]]] = {}


def _clusters(key: int) -> tuple[tuple[int, int, int], ...]:
    """(byte mask, shift in ranks, rank mask) of each cluster of a suit key."""
    got = _KEY_CLUSTERS.get(key)
    if got is None:
        got = _mask_clusters(_held_mask(key))
        _remember(_KEY_CLUSTERS, key, got)
    return got


def _spread8(bits: int) -> tuple[int, ...]:
    """Each rank mask (``bits`` ranks) with every rank widened to a byte of ones."""
    out = [0]
    for r in range(bits):
        out += [f | (255 << (8 * r)) for f in out]
    return tuple(out)


_BYTES: Final = _spread8(13)  # rank mask -> byte mask: built once (a few ms), never reset


def _mask_clusters(mask: int) -> tuple[tuple[int, int, int], ...]:
    """``_clusters`` of a rank mask, by bit operations: a cluster starts at each held
    rank whose two ranks below are empty (the ace's cluster takes the last one when it
    reaches the Q or K)."""
    got = _CLUSTER_MEMO.get(mask)
    if got is not None:
        return got
    starts = mask & ~(mask << 1) & ~(mask << 2)
    groups = []
    while starts:
        low = starts & -starts
        starts ^= low
        groups.append(mask & ((starts & -starts) - 1 if starts else mask) & -low)
    if len(groups) > 1 and groups[0] & 1 and groups[-1] >> 11:
        groups[0] |= groups.pop()
    result = tuple((_BYTES[g], 0 if g & 1 else (g & -g).bit_length() - 2, g) for g in groups)
    _remember(_CLUSTER_MEMO, mask, result)
    return result


# ---------------------------------------------------------------------------------------
# One suit, wild cards as a count


_SOLVE_MEMO: Final[tuple[dict[int, tuple[int, tuple[int, ...]]], ...]] = (
    {0: (0, ())},
    {0: (0, ())},
)
_COST_MEMO: Final[tuple[dict[int, int], ...]] = ({0: 0}, {0: 0})
_NO_DROPS: Final = (_INF,) * 13
_ENTRY_MEMO: Final[tuple[dict[int, tuple[int, tuple[int, ...]]], ...]] = (
    {0: (0, _NO_DROPS)},
    {0: (0, _NO_DROPS)},
)


def _solve(key: int, tun: bool) -> tuple[int, tuple[int, ...]]:
    """Cheapest cover of a suit's naturals and the first piece (rank indices) of one.

    Search on the lowest rank held: it is a single, in a tunnela, a sequence, or a pair
    with a card one or two ranks up (the ace also with Q and K).
    """
    memo = _SOLVE_MEMO[tun]
    got = memo.get(key)
    if got is not None:
        return got
    low = ((key & -key).bit_length() - 1) >> 3
    unit = _UNIT[low]
    best = _solve(key - unit, tun)[0] + 2
    piece: tuple[int, ...] = (low,)
    if tun and (key >> (8 * low)) & 255 >= 3:
        c = _solve(key - 3 * unit, tun)[0]
        if c < best:
            best, piece = c, (low, low, low)
    if best and low <= 10 and (key >> (8 * low + 8)) & 255 and (key >> (8 * low + 16)) & 255:
        c = _solve(key - unit - (unit << 8) - (unit << 16), tun)[0]
        if c < best:
            best, piece = c, (low, low + 1, low + 2)
    if best and low == 0 and (key >> 88) & 255 and (key >> 96) & 255:
        c = _solve(key - _QKA, tun)[0]
        if c < best:
            best, piece = c, _ACE_HIGH_THREE
    if best > 1:
        for p in _NEAR[low]:
            if (key >> (8 * p)) & 255:
                c = _solve(key - unit - _UNIT[p], tun)[0] + 1
                if c < best:
                    best, piece = c, (low, p)
    result = (best, piece)
    _remember(memo, key, result)
    return result


def suit_cost(key: int, tun: bool) -> int:
    """Cheapest cover of one suit's naturals, in wild cards: the sum over its clusters."""
    memo = _COST_MEMO[tun]
    got = memo.get(key)
    if got is not None:
        return got
    total = 0
    for bytes_, shift, _ in _clusters(key):
        total += _solve((key & bytes_) >> (8 * shift), tun)[0]
    _remember(memo, key, total)
    return total


def _drops(key: int, tun: bool) -> tuple[int, tuple[int, ...]]:
    """(cheapest cover of a suit key, its cost without one card of each rank: ``_INF``
    or more at ranks not held), in one search on the lowest rank (``_solve``'s pieces, each
    tried): without a card of rank r, the best over the pieces that leave one at r of
    the piece's cost plus the rest's cost without it. One recursion gives a cluster's
    whole entry, where a search per rank would solve each reduced key anew (cold)."""
    low = ((key & -key).bit_length() - 1) >> 3
    if low >= 2:  # shifted to start at the 2: one entry serves every position
        down = low - 1
        cost, shifted = _drops(key >> (8 * down), tun)
        return cost, _NO_DROPS[:down] + shifted[: 13 - down]
    memo = _ENTRY_MEMO[tun]
    got = memo.get(key)
    if got is not None:
        return got
    unit = _UNIT[low]
    n = (key >> (8 * low)) & 255
    # the lowest card alone (two wild cards), then each piece that holds it, folded in
    c, d = _drops(key - unit, tun)
    cost = c + 2
    drops = [x + 2 for x in d]
    if n == 1:
        drops[low] = c
    if tun and n >= 3:
        c, d = _drops(key - 3 * unit, tun)
        cost = min(cost, c)
        _fold(drops, d, 0, low)
    if low <= 10 and (key >> (8 * low + 8)) & 255 and (key >> (8 * low + 16)) & 255:
        c, d = _drops(key - unit - (unit << 8) - (unit << 16), tun)
        cost = min(cost, c)
        _fold(drops, d, 0, low)
    if low == 0 and (key >> 88) & 255 and (key >> 96) & 255:
        c, d = _drops(key - _QKA, tun)
        cost = min(cost, c)
        _fold(drops, d, 0, low)
    for p in _NEAR[low]:
        if (key >> (8 * p)) & 255:
            c, d = _drops(key - unit - _UNIT[p], tun)
            cost = min(cost, c + 1)
            _fold(drops, d, 1, low)
    result = (cost, tuple(drops))
    _remember(memo, key, result)
    return result


def _fold(drops: list[int], d: tuple[int, ...], extra: int, low: int) -> None:
    """``drops`` at each rank from ``low``: the better of it and ``d`` plus ``extra``."""
    for r in range(low, 13):
        v = d[r] + extra
        if v < drops[r]:
            drops[r] = v


_SPAN: Final = 7  # a card's removal changes a suit's cost by -2 … +4 (a tunnela left as a pair)
_NO_RANKS: Final = (0,) * _SPAN
_SUIT_ENTRY: Final[tuple[dict[int, tuple[int, tuple[int, ...]]], ...]] = (
    {0: (0, _NO_RANKS)},
    {0: (0, _NO_RANKS)},
)


def suit_entry(key: int, tun: bool) -> tuple[int, tuple[int, ...]]:
    """(cost of a suit, the ranks whose one card less leaves a cost of at most the cost
    + i - 2, as a rank mask for each i in 0 … 6), from its clusters' ``_drops``.

    One card less saves at most two wild cards (it could be a single) and costs at most
    four more (a tunnela left as two singles; a sequence or a pair loses one card and
    stays a pair or a single), so seven masks say it all: a search asks for the ranks
    within a number of wild cards with one index and ORs the answer in."""
    memo = _SUIT_ENTRY[tun]
    got = memo.get(key)
    if got is not None:
        return got
    drops_memo = _ENTRY_MEMO[tun]
    entries = []
    total = 0
    for bytes_, shift, ranks in _clusters(key):
        part = (key & bytes_) >> (8 * shift)
        cost, drops = drops_memo.get(part) or _drops(part, tun)
        total += cost
        entries.append((cost, drops, shift, ranks))
    at = [0, 0, 0, 0, 0, 0, 0]  # the ranks whose change is exactly i - 2
    for cost, drops, shift, ranks in entries:
        low = 2 - cost  # index of a cost without the card: its change, plus 2
        while ranks:
            bit = ranks & -ranks
            ranks ^= bit
            i = low + drops[bit.bit_length() - 1 - shift]
            assert 0 <= i < _SPAN, "one card changes a suit's cost by -2 … +4"
            at[i] |= bit
    m0, m1, m2, m3, m4, m5, m6 = at
    m1 |= m0
    m2 |= m1
    m3 |= m2
    m4 |= m3
    m5 |= m4
    m6 |= m5
    got = (total, (m0, m1, m2, m3, m4, m5, m6))  # ints only: the cyclic GC skips them
    _remember(memo, key, got)
    return got


_BYTE_SUM: Final = sum(_UNIT)  # (x * _BYTE_SUM) >> 96 & 255: the sum of a key's 13 counts


def _cover_floor(key: int, clusters: tuple[tuple[int, int, int], ...]) -> int:
    """A lower bound on ``suit_cost`` without a search: a piece stays in one cluster and
    holds at most three cards, so a cluster of n naturals costs at least -n mod 3 (and
    2n when it is one rank held under three times: singles only). ``clusters``: those
    of a key holding ``key`` (the suit before trials took cards: they only split)."""
    total = 0
    for bytes_, _, ranks in clusters:
        n = ((key & bytes_) * _BYTE_SUM >> 96) & 255
        if n < 3 and not ranks & (ranks - 1):
            total += 2 * n
        else:
            total += -n % 3
    return total


def _suit_pieces(key: int, tun: bool) -> list[tuple[int, ...]]:
    """The pieces (rank indices) of one cheapest cover of a suit."""
    pieces = []
    for bytes_, shift, _ in _clusters(key):
        part = (key & bytes_) >> (8 * shift)
        while part:
            _, piece = _solve(part, tun)
            pieces.append(tuple(r + shift for r in piece))
            for r in piece:
                part -= _UNIT[r]
    return pieces


# ---------------------------------------------------------------------------------------
# Trials across suits and components

_PAIRS: Final = tuple(itertools.combinations(range(4), 2))
_TRIPLES: Final = tuple(itertools.combinations(range(4), 3))
CrossOption = tuple[tuple[int, int, int, int], int, tuple[tuple[int, ...], ...]]
_CROSS_MEMO: Final[dict[tuple[int, ...], tuple[CrossOption, ...]]] = {}


def _cross_options(held: tuple[int, ...]) -> tuple[CrossOption, ...]:
    """Ways to take trials (cost 0) and trial pairs (cost 1) at one rank, given the
    rank's count in each suit: (cards taken per suit, wild cost, groups as suit tuples).
    Of options taking the same cards only the cheapest is kept; cheapest first."""
    got = _CROSS_MEMO.get(held)
    if got is not None:
        return got
    groups = [(t, 0) for t in _TRIPLES] + [(p, 1) for p in _PAIRS]
    found: dict[tuple[int, int, int, int], tuple[int, tuple[tuple[int, ...], ...]]] = {}

    def walk(start: int, left: list[int], cost: int, chosen: list[tuple[int, ...]]) -> None:
        taken = (held[0] - left[0], held[1] - left[1], held[2] - left[2], held[3] - left[3])
        old = found.get(taken)
        if old is None or cost < old[0]:
            found[taken] = (cost, tuple(chosen))
        for i in range(start, len(groups)):
            suits, c = groups[i]
            if all(left[s] for s in suits):
                for s in suits:
                    left[s] -= 1
                chosen.append(suits)
                walk(i, left, cost + c, chosen)
                chosen.pop()
                for s in suits:
                    left[s] += 1

    walk(0, list(held), 0, [])
    result = tuple(sorted(((t, c, g) for t, (c, g) in found.items()), key=lambda o: o[1]))
    _remember(_CROSS_MEMO, held, result)
    return result


def split_hand(hand: Sequence[int], wilds: frozenset[int]) -> tuple[list[int], int]:
    """Suit keys of the natural cards and the number of wild cards."""
    whole = int.from_bytes(bytes(hand[:52]), "little")  # one conversion, four cuts
    keys = [
        whole & _CARD_BITS,
        (whole >> 104) & _CARD_BITS,
        (whole >> 208) & _CARD_BITS,
        whole >> 312,
    ]
    w = 0
    for k in wilds:
        n = hand[k]
        if n:
            w += n
            keys[k // 13] -= n << (8 * (k % 13))
    return keys, w


_Component = tuple[tuple[int, int, int, int], tuple[int, ...]]


def components(keys: Sequence[int], naturals: Sequence[int] | None = None) -> list[_Component]:
    """The independent parts of a hand: (suit keys restricted to it, its cross ranks).

    Clusters of ``keys`` in different suits are joined at each rank where two suits or
    more hold natural cards (``naturals``: the natural part of ``keys``, default all).
    """
    nat = keys if naturals is None else naturals
    nodes: list[tuple[int, int, int]] = []  # suit, byte mask, natural rank mask
    for s in range(4):
        if keys[s]:
            held = _held_mask(nat[s]) if nat[s] else 0
            for bytes_, _, ranks in _clusters(keys[s]):
                nodes.append((s, bytes_, ranks & held))
    n = len(nodes)
    if n <= 1:
        if not n:
            return []
        s = nodes[0][0]
        only = [0, 0, 0, 0]
        only[s] = keys[s]
        return [((only[0], only[1], only[2], only[3]), ())]
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    rank_nodes: dict[int, list[int]] = {}
    for i, (_, _, ranks) in enumerate(nodes):
        while ranks:
            low = ranks & -ranks
            rank_nodes.setdefault(low.bit_length() - 1, []).append(i)
            ranks ^= low
    cross = [r for r, ids in rank_nodes.items() if len(ids) >= 2]
    for r in cross:
        ids = rank_nodes[r]
        root = find(ids[0])
        for i in ids[1:]:
            parent[find(i)] = root
    parts: dict[int, tuple[list[int], list[int]]] = {}
    for i, (s, bytes_, _) in enumerate(nodes):
        sub, _ = parts.setdefault(find(i), ([0, 0, 0, 0], []))
        sub[s] |= keys[s] & bytes_
    for r in cross:
        parts[find(rank_nodes[r][0])][1].append(r)
    return [((sub[0], sub[1], sub[2], sub[3]), tuple(sorted(rs))) for sub, rs in parts.values()]


def _cross_states(
    keys: Sequence[int], cross: Sequence[int], budget: int = _INF
) -> Iterator[tuple[list[int], int, tuple[CrossOption, ...]]]:
    """Every choice of trials over ``cross`` costing at most ``budget`` wild cards:
    (suit keys left, cost, options chosen)."""
    per_rank = []
    for r in cross:
        sh = 8 * r
        held = tuple((k >> sh) & 255 for k in keys)
        per_rank.append(_cross_options(held))
    for choice in itertools.product(*per_rank):
        cost = 0
        for opt in choice:
            cost += opt[1]
        if cost > budget:
            continue
        ks = list(keys)
        for r, (taken, _, _) in zip(cross, choice, strict=True):
            for s in range(4):
                if taken[s]:
                    ks[s] -= taken[s] * _UNIT[r]
        yield ks, cost, choice


_LONE_MEMO: Final[dict[int, tuple[int, int]]] = {0: (0, 0)}
_POP13: Final = bytes(bin(m).count("1") for m in range(1 << 13))


def _suit_lone(key: int) -> tuple[int, int]:
    """(ranks held, ranks held alone: nothing within two ranks, under three copies)."""
    got = _LONE_MEMO.get(key)
    if got is None:
        held = _held_mask(key)
        near = (held << 1) | (held >> 1) | (held << 2) | (held >> 2)
        if held & 1:
            near |= 0b1100000000000  # the ace partners Q and K
        if held & 0b1100000000000:
            near |= 1
        alone = held & ~near & 0x1FFF
        if alone:
            alone &= ~int(key.to_bytes(13, "little").translate(_THREE_PLUS)[::-1], 2)
        got = (held, alone)
        _remember(_LONE_MEMO, key, got)
    return got


def _isolated(masks: Sequence[tuple[int, int]]) -> int:
    """Wild cards surely needed: two for each natural kind with no possible partner
    (nothing within two ranks in its suit, its rank in no other suit, under three
    copies). A lower bound on the cheapest cover, for a quick no.

    ``masks``: ``_suit_lone`` of each suit."""
    (h0, a0), (h1, a1), (h2, a2), (h3, a3) = masks
    return 2 * (
        _POP13[a0 & ~(h1 | h2 | h3)]
        + _POP13[a1 & ~(h0 | h2 | h3)]
        + _POP13[a2 & ~(h0 | h1 | h3)]
        + _POP13[a3 & ~(h0 | h1 | h2)]
    )


_SHIFTED_MEMO: Final[dict[tuple[int, ...], tuple[tuple[int, int, int, int, int], ...]]] = {}


def _trial_cost_table() -> tuple[int, ...]:
    """The fewest wild cards to take ``t`` cards per suit at one rank as trials (cost 0)
    and trial pairs (cost 1), or ``_INF``: index ``t0 + 4 t1 + 16 t2 + 64 t3``, counts
    up to 3. Built once (256 entries), never reset: ``_cross_options`` without the
    groups, for the searches that only need the costs."""
    groups = [(t, 0) for t in _TRIPLES] + [(p, 1) for p in _PAIRS]
    steps = [(sum(4**s for s in suits), cost) for suits, cost in groups]
    table = [_INF] * 256
    table[0] = 0
    for t in range(1, 256):
        digits = (t & 3, (t >> 2) & 3, (t >> 4) & 3, t >> 6)
        best = _INF
        for (suits, _), (step, cost) in zip(groups, steps, strict=True):
            if all(digits[s] for s in suits):
                c = table[t - step] + cost
                if c < best:
                    best = c
        table[t] = best
    return tuple(table)


_TRIAL_COST: Final = _trial_cost_table()


def _shifted_options(keys: Sequence[int], r: int) -> tuple[tuple[int, int, int, int, int], ...]:
    """``_cross_options`` at rank ``r`` as suit-key decrements and cost (any counts;
    ``_trial_options`` serves counts up to 3)."""
    sh = 8 * r
    held = (
        (keys[0] >> sh) & 255,
        (keys[1] >> sh) & 255,
        (keys[2] >> sh) & 255,
        (keys[3] >> sh) & 255,
    )
    memo_key = (*held, r)
    got = _SHIFTED_MEMO.get(memo_key)
    if got is None:
        unit = _UNIT[r]
        got = tuple(
            (t[0] * unit, t[1] * unit, t[2] * unit, t[3] * unit, c)
            for t, c, _ in _cross_options(held)
        )
        _remember(_SHIFTED_MEMO, memo_key, got)
    return got


Taken = tuple[int, int, int, int, int]  # cards taken per suit at one rank, wild cost
#: The trial options at one rank by its four counts (``t0 + 4 t1 + 16 t2 + 64 t3``, up
#: to 3 each), cheapest first: a table of the rules, not of hands (256 entries at most),
#: so it is filled once per process and kept, never reset.
_TRIAL_OPTIONS: Final[list[tuple[Taken, ...] | None]] = [None] * 256


def _trial_options(index: int) -> tuple[Taken, ...]:
    """``_TRIAL_OPTIONS[index]``, made: every take within the counts that trials and
    trial pairs can make (``_TRIAL_COST``), cheapest first (the order of equal costs is
    free: the searches take the union of what they find)."""
    h0, h1, h2, h3 = index & 3, (index >> 2) & 3, (index >> 4) & 3, index >> 6
    by_cost: list[list[Taken]] = [[], [], [], [], [], [], []]
    for t3 in range(h3 + 1):
        for t2 in range(h2 + 1):
            for t1 in range(h1 + 1):
                i = 64 * t3 + 16 * t2 + 4 * t1
                for t0 in range(h0 + 1):
                    c = _TRIAL_COST[i + t0]
                    if c < _INF:
                        by_cost[c].append((t0, t1, t2, t3, c))
    got = tuple(o for level in by_cost for o in level)
    _TRIAL_OPTIONS[index] = got
    return got


def discards3(hand: Sequence[int], wilds: frozenset[int], tun: bool) -> list[Card]:
    """Cards whose discard leaves the rest of ``hand`` in three-card melds.

    For 13 cards the trial choices over the whole hand are few, so they are enumerated
    directly (cheapest first, at most ``w`` wild cards) rather than by component.
    """
    keys, w = split_hand(hand, wilds)
    masks = [_suit_lone(k) for k in keys]
    if _isolated(masks) > w + 2:
        return []
    prefix, last, m = _trial_prefix(keys, masks, w)
    held = masks[0][0] | masks[1][0] << 13 | masks[2][0] << 26 | masks[3][0] << 39
    memo = _SUIT_ENTRY[tun]
    found = 0  # kinds, one bit each
    floors: dict[int, int] = {}  # this call's bounds (the suits' keys repeat)
    q0, q1, q2, q3 = [_clusters(k) for k in keys]  # a bound's clusters
    wild_ok = False
    # each suit's key, entry (None: not known yet) and bound (-1: not made yet) in the
    # last choice: consecutive choices differ at the last ranks, most suits stay as
    # they were, and their lookups with them
    k0, k1, k2, k3 = -1, -1, -1, -1
    e0 = e1 = e2 = e3 = None
    f0 = f1 = f2 = f3 = -1
    done = False
    for a0, b0, c0, d0, cost0 in prefix:
        for t0, t1, t2, t3, oc in last:  # the last rank folded in: no list of choices
            cost = cost0 + oc
            if cost > w:
                break  # the options come cheapest first
            a = a0 - m[t0] if t0 else a0
            b = b0 - m[t1] if t1 else b0
            c = c0 - m[t2] if t2 else c0
            d = d0 - m[t3] if t3 else d0
            if a != k0:
                k0, e0, f0 = a, memo.get(a), -1
            if b != k1:
                k1, e1, f1 = b, memo.get(b), -1
            if c != k2:
                k2, e2, f2 = c, memo.get(c), -1
            if d != k3:
                k3, e3, f3 = d, memo.get(d), -1
            if e0 is None or e1 is None or e2 is None or e3 is None:
                # most trial choices fail: on bounds, before any suit is searched
                floor = cost - 2 - w
                floor += 0 if e0 is None else e0[0]
                floor += 0 if e1 is None else e1[0]
                floor += 0 if e2 is None else e2[0]
                floor += 0 if e3 is None else e3[0]
                if floor > 0:
                    continue
                if e0 is None:
                    if f0 < 0:
                        f0 = _floor(a, floors, q0)
                    floor += f0
                if e1 is None:
                    if f1 < 0:
                        f1 = _floor(b, floors, q1)
                    floor += f1
                if e2 is None:
                    if f2 < 0:
                        f2 = _floor(c, floors, q2)
                    floor += f2
                if e3 is None:
                    if f3 < 0:
                        f3 = _floor(d, floors, q3)
                    floor += f3
                if floor > 0:
                    continue
                if e0 is None:
                    e0 = suit_entry(a, tun)
                if e1 is None:
                    e1 = suit_entry(b, tun)
                if e2 is None:
                    e2 = suit_entry(c, tun)
                if e3 is None:
                    e3 = suit_entry(d, tun)
            base = cost + e0[0] + e1[0] + e2[0] + e3[0]
            if base - 2 > w:
                continue  # one card less saves at most two wild cards
            if base < w:
                wild_ok = True
            # a card of suit s can go when its suit's cost without it is at most w - base
            # more than the suit's cost: index w - base + 2 of each suit's masks
            i = min(w - base + 2, _SPAN - 1)
            found |= e0[1][i] | e1[1][i] << 13 | e2[1][i] << 26 | e3[1][i] << 39
            if found == held and (wild_ok or not w):
                done = True
                break
        if done:
            break
    out = []
    while found:
        low = found & -found
        out.append(low.bit_length() - 1)
        found ^= low
    if wild_ok:
        out.extend(k for k in wilds if k < _KINDS and hand[k])
        out.sort()
    return [_CARDS[k] for k in out]


def _floor(key: int, floors: dict[int, int], clusters: tuple[tuple[int, int, int], ...]) -> int:
    """``_cover_floor`` of a suit key, kept in ``floors`` (one search's own table)."""
    f = floors.get(key)
    if f is None:
        f = floors[key] = _cover_floor(key, clusters)
    return f


def arrange3(
    hand: Sequence[int], wilds: frozenset[int], tun: bool
) -> list[tuple[Card, ...]] | None:
    """Partition ``hand`` into three-card melds, or ``None``."""
    if sum(hand) % 3:
        return None
    keys, w = split_hand(hand, wilds)
    pieces: list[list[Card]] = []
    total = 0
    for sub, cross in components(keys):
        best: tuple[int, list[int], tuple[CrossOption, ...]] | None = None
        for ks, cost, choice in _cross_states(sub, cross, w):
            cost += sum(suit_cost(k, tun) for k in ks if k)
            if best is None or cost < best[0]:
                best = (cost, ks, choice)
        assert best is not None
        cost, ks, choice = best
        total += cost
        if total > w:
            return None
        for r, (_, _, groups) in zip(cross, choice, strict=True):
            for suits in groups:
                pieces.append([_CARDS[s * 13 + r] for s in suits])
        for s in range(4):
            if ks[s]:
                for ranks in _suit_pieces(ks[s], tun):
                    pieces.append([_CARDS[s * 13 + r] for r in ranks])
    wild_cards = [_CARDS[k] for k in sorted(wilds) if k < _KINDS for _ in range(hand[k])]
    melds: list[tuple[Card, ...]] = []
    for piece in pieces:
        while len(piece) < 3:
            piece.append(wild_cards.pop())
        melds.append(tuple(piece))
    while wild_cards:
        melds.append((wild_cards.pop(), wild_cards.pop(), wild_cards.pop()))
    return melds


# ---------------------------------------------------------------------------------------
# Showing in the same turn: cost vectors by the number of show melds held


_CLUSTER_VEC: Final[dict[int, Vec]] = {}
_VEC_MEMO: Final[dict[int, Vec]] = {}
_VEC_TABLE_MEMO: Final[dict[int, tuple[tuple[int, Vec], ...]]] = {}


def conv(u: Vec, v: Vec) -> Vec:
    """Two parts side by side: the cheapest with at least 0 … 3 show melds in all."""
    u0, u1, u2, u3 = u
    v0, v1, v2, v3 = v
    return (
        u0 + v0,
        min(u0 + v1, u1 + v0),
        min(u0 + v2, u1 + v1, u2 + v0),
        min(u0 + v3, u1 + v2, u2 + v1, u3 + v0),
    )


def _split_code(code: int) -> list[tuple[int, int]]:
    """(cluster code, shift) of each cluster of a suit code."""
    key = code & _CARD_BITS
    wmask = code >> _WILD_SHIFT
    return [
        (((key & bytes_) >> (8 * shift)) | (((wmask & ranks) >> shift) << _WILD_SHIFT), shift)
        for bytes_, shift, ranks in _clusters(key)
    ]


def _cluster_vec(code: int) -> Vec:
    """Cheapest net cover of a suit code holding at least 0, 1, 2, 3 show melds.

    Codes are shifted to start at the 2 unless they hold an ace, so one memo entry
    serves every position."""
    got = _CLUSTER_VEC.get(code)
    if got is not None:
        return got
    key = code & _CARD_BITS
    if not key:
        return _ZERO_VEC
    wmask = code >> _WILD_SHIFT
    low = ((key & -key).bit_length() - 1) >> 3
    if low >= 2:
        down = low - 1
        got = _cluster_vec((key >> (8 * down)) | ((wmask >> down) << _WILD_SHIFT))
        _remember(_CLUSTER_VEC, code, got)
        return got
    unit = _UNIT[low]
    wild = (wmask >> low) & 1
    # the lowest card alone: released (a wild card) or completed by two wild cards
    b0, b1, b2, b3 = _cluster_vec(code - unit)
    add = -1 if wild else 2
    b0 += add
    b1 += add
    b2 += add
    b3 += add
    shows = []  # show melds from the lowest card: tunnela, sequence, Q-K-A
    if (key >> (8 * low)) & 255 >= 3:
        shows.append(_cluster_vec(code - 3 * unit))
    if low <= 10 and (key >> (8 * low + 8)) & 255 and (key >> (8 * low + 16)) & 255:
        shows.append(_cluster_vec(code - unit - (unit << 8) - (unit << 16)))
    if low == 0 and (key >> 88) & 255 and (key >> 96) & 255:
        shows.append(_cluster_vec(code - _QKA))
    for c0, c1, c2, _ in shows:
        b0 = min(b0, c0)
        b1 = min(b1, c0)
        b2 = min(b2, c1)
        b3 = min(b3, c2)
    if not wild:  # a natural pair and a wild card
        for p in _NEAR[low]:
            if (key >> (8 * p)) & 255 and not (wmask >> p) & 1:
                c0, c1, c2, c3 = _cluster_vec(code - unit - _UNIT[p])
                b0 = min(b0, c0 + 1)
                b1 = min(b1, c1 + 1)
                b2 = min(b2, c2 + 1)
                b3 = min(b3, c3 + 1)
    result = (b0, b1, b2, b3)
    _remember(_CLUSTER_VEC, code, result)
    return result


def suit_vec(code: int) -> Vec:
    """``_cluster_vec`` of a whole suit code: its clusters side by side."""
    got = _VEC_MEMO.get(code)
    if got is not None:
        return got
    vec = _ZERO_VEC
    for part, _ in _split_code(code):
        vec = conv(vec, _cluster_vec(part))
    _remember(_VEC_MEMO, code, vec)
    return vec


def _vec_table(code: int) -> tuple[tuple[int, Vec], ...]:
    """(rank, ``suit_vec`` without one card of that rank) for each rank of a suit code."""
    got = _VEC_TABLE_MEMO.get(code)
    if got is not None:
        return got
    parts = [(_cluster_vec(part), part, shift) for part, shift in _split_code(code)]
    out = []
    for i, (_, part, shift) in enumerate(parts):
        others = _ZERO_VEC
        for j, (vec, _, _) in enumerate(parts):
            if j != i:
                others = conv(others, vec)
        for r in range(13):
            if (part >> (8 * r)) & 255:
                out.append((r + shift, conv(suit_vec(part - _UNIT[r]), others)))
    result = tuple(out)
    _remember(_VEC_TABLE_MEMO, code, result)
    return result


_NO_TAKE: Final[tuple[Taken, ...]] = ((0, 0, 0, 0, 0),)
_NO_UNITS: Final = (0, 0, 0, 0)
State = tuple[int, int, int, int, int]  # suit keys left, wild cost


def _trial_prefix(
    keys: Sequence[int], masks: Sequence[tuple[int, int]], budget: int
) -> tuple[list[State], tuple[Taken, ...], tuple[int, int, int, int]]:
    """``_trial_states`` but for the last cross rank, left to the caller to fold in: (the
    choices over the others, the last rank's options, the multiples of its unit)."""
    (p0, _), (p1, _), (p2, _), (p3, _) = masks
    many = (p0 & (p1 | p2 | p3)) | (p1 & (p2 | p3)) | (p2 & p3)
    states = [(keys[0], keys[1], keys[2], keys[3], 0)]
    while many:
        low = many & -many
        many ^= low
        r = low.bit_length() - 1
        sh = 8 * r
        h0 = (keys[0] >> sh) & 255
        h1 = (keys[1] >> sh) & 255
        h2 = (keys[2] >> sh) & 255
        h3 = (keys[3] >> sh) & 255
        if h0 > 3 or h1 > 3 or h2 > 3 or h3 > 3:
            states = [
                (a - d0, b - d1, c - d2, d - d3, cost + oc)
                for a, b, c, d, cost in states
                for d0, d1, d2, d3, oc in _shifted_options(keys, r)
                if cost + oc <= budget
            ]
            continue
        index = h0 + 4 * h1 + 16 * h2 + 64 * h3
        opts = _TRIAL_OPTIONS[index] or _trial_options(index)
        u = _UNIT[r]
        m = (0, u, 2 * u, 3 * u)  # shared ints: no product per state
        if not many:
            return states, opts, m
        states = [
            (
                a - m[t0] if t0 else a,  # most options leave most suits as they are
                b - m[t1] if t1 else b,
                c - m[t2] if t2 else c,
                d - m[t3] if t3 else d,
                cost + oc,
            )
            for a, b, c, d, cost in states
            for t0, t1, t2, t3, oc in opts
            if cost + oc <= budget
        ]
    return states, _NO_TAKE, _NO_UNITS


def _trial_states(
    keys: Sequence[int], masks: Sequence[tuple[int, int]], budget: int
) -> list[State]:
    """Every choice of trials over the hand costing at most ``budget`` wild cards, as
    (suit keys left …, cost); enumerated rank by rank, cheapest options first."""
    states, opts, m = _trial_prefix(keys, masks, budget)
    return [
        (
            a - m[t0] if t0 else a,
            b - m[t1] if t1 else b,
            c - m[t2] if t2 else c,
            d - m[t3] if t3 else d,
            cost + oc,
        )
        for a, b, c, d, cost in states
        for t0, t1, t2, t3, oc in opts
        if cost + oc <= budget
    ]


def _show_discards_exact(hand: Sequence[int], wilds: frozenset[int], tun: bool = True) -> list[int]:
    """``show_discards3`` the thorough way (kinds): every trial choice within the wild
    cards, costed first without the show (a cheap bound), then with each suit's cost
    vector. Used when the certified fast path (``_show_fast``) cannot decide."""
    keys, w = split_hand(hand, wilds)
    masks = [_suit_lone(k) for k in keys]
    if _isolated(masks) > w + 2:
        return []
    extra = [0, 0, 0, 0]  # each suit's wild cards and wild-rank mask
    for k in wilds:
        s, r = divmod(k, 13)
        extra[s] += (hand[k] << (8 * r)) | (1 << (_WILD_SHIFT + r))
    found: set[int] = set()
    held = sum(1 for k in range(52) if hand[k])
    costs = _COST_MEMO[tun]
    vec_memo = _VEC_MEMO
    for nat in _trial_states(keys, masks, w):
        cost = nat[4]
        lower = cost - w  # the naturals alone, every wild card released
        for s in range(4):
            got = costs.get(nat[s])
            lower += got if got is not None else suit_cost(nat[s], tun)
        if lower > 2:
            continue
        codes = (nat[0] + extra[0], nat[1] + extra[1], nat[2] + extra[2], nat[3] + extra[3])
        v0, v1, v2, v3 = [vec_memo.get(c) or suit_vec(c) for c in codes]
        if cost + v0[0] + v1[0] + v2[0] + v3[0] > 2:
            continue
        c01 = conv(v0, v1)
        c23 = conv(v2, v3)
        if cost + conv(c01, c23)[3] > 2:
            continue  # one card less saves at most two
        room = -cost
        for s, others in enumerate((conv(v1, c23), conv(v0, c23), conv(c01, v3), conv(c01, v2))):
            if not codes[s] & _CARD_BITS:
                continue
            o0, o1, o2, o3 = others
            base = 13 * s
            for r, dv in _vec_table(codes[s]):
                kind = base + r
                if kind not in found and (
                    dv[0] + o3 <= room
                    or dv[1] + o2 <= room
                    or dv[2] + o1 <= room
                    or dv[3] + o0 <= room
                ):
                    found.add(kind)
        if len(found) == held:
            break
    return sorted(found)


# ---------------------------------------------------------------------------------------
# Showing in the same turn, fast path: a relaxation with certificates
#
# Every show-and-finish arrangement is also one of the *relaxed* problem: trials at the
# cross ranks and each suit covered at its cheapest natural cost, wild cards released
# (using a wild card as itself in a show meld never costs less). The trial choices
# whose relaxed cost, before the discard, exceeds the wild cards by at most 2 (what a
# discard saves at most) are found by a branch and bound over the cross ranks, bounded
# by each suit's exact minimum over the exports still open: they are exactly the
# choices the exact search above costs in full, found without enumerating the others.
# The relaxation tells which discards could work at all. Costs are valued
# lexicographically, ``_SHOWS * cost - natural sequences and tunnelas``, so most of
# those discards come with a certificate: a choice where the rest fits the wild cards
# and holds three melds to show. The others are decided by the suits' cost vectors on
# every choice (wild cards as themselves included). Memo tables are per cluster,
# shifted, so they serve many holdings; each is bounded (cleared when full).

_SHOWS: Final = 32  # a value is _SHOWS * cost - show melds (a hand holds far fewer than 32)
_LEX: Final[dict[int, int]] = {0: 0}
_LEX_ENTRY: Final[dict[int, tuple[int, tuple[tuple[int, int], ...]]]] = {}
ExportTable = tuple[list[int], list[list[int]], list[int]]
_EXPORT_TABLE: Final[dict[int, ExportTable]] = {}
ExportSuit = tuple[
    list[int],  # value by export pattern (the clusters with exports)
    list[list[int]],  # their _levels
    dict[int, int],  # stride of each export rank
    tuple[tuple[int, int, int], ...],  # digits: (rank, radix, stride), in rank order
    int,  # value of the clusters without exports
    tuple[tuple[int, int, int], ...],  # those clusters: (key, shift, value)
    tuple[tuple[ExportTable, int], ...],  # the clusters with exports: (table, shift)
    list[tuple[int, ...]] | None,  # their pattern indices by suit pattern (several)
]
CrossSuit = tuple[  # ExportSuit without the clusters that export nothing
    list[int],
    list[list[int]],
    dict[int, int],
    tuple[tuple[int, int, int], ...],
    tuple[tuple[ExportTable, int], ...],
    list[tuple[int, ...]] | None,
]
_EXPORT_SUIT: Final[dict[int, CrossSuit]] = {}
Options = tuple[tuple[int, int, int, int, int], ...]
_COLUMN: Final[dict[int, tuple[Options, tuple[int, int, int, int]]]] = {}


def _spread(bits: int) -> tuple[int, ...]:
    """Each rank mask (``bits`` ranks) with every rank widened to a two-bit field."""
    out = [0]
    for r in range(bits):
        out += [f | (3 << (2 * r)) for f in out]
    return tuple(out)


_FIELDS: Final = _spread(13)


def _lex(key: int) -> int:
    """``_SHOWS * cost - sequences and tunnelas`` of the best cover of a natural suit
    key: the cheapest (``suit_cost``), then the most melds that could be shown. Keys
    are shifted to start at the 2 unless they hold an ace."""
    got = _LEX.get(key)
    if got is not None:
        return got
    low = ((key & -key).bit_length() - 1) >> 3
    if low >= 2:
        got = _lex(key >> (8 * (low - 1)))
        _remember(_LEX, key, got)
        return got
    unit = _UNIT[low]
    best = _lex(key - unit) + 2 * _SHOWS
    if (key >> (8 * low)) & 255 >= 3:
        c = _lex(key - 3 * unit) - 1
        if c < best:
            best = c
    if low <= 10 and (key >> (8 * low + 8)) & 255 and (key >> (8 * low + 16)) & 255:
        c = _lex(key - unit - (unit << 8) - (unit << 16)) - 1
        if c < best:
            best = c
    if low == 0 and (key >> 88) & 255 and (key >> 96) & 255:
        c = _lex(key - _QKA) - 1
        if c < best:
            best = c
    for p in _NEAR[low]:
        if (key >> (8 * p)) & 255:
            c = _lex(key - unit - _UNIT[p]) + _SHOWS
            if c < best:
                best = c
    _remember(_LEX, key, best)
    return best


def _lex_entry(part: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """(the least of them, (rank, ``_lex`` without one card of that rank) per rank) of a
    shifted cluster key (the rest may split into clusters: ``_lex`` covers any key)."""
    got = _LEX_ENTRY.get(part)
    if got is None:
        out = []
        key = part
        r = 0
        while key:
            if key & 255:
                out.append((r, _lex(part - _UNIT[r])))
            key >>= 8
            r += 1
        got = (min((v for _, v in out), default=0), tuple(out))
        _remember(_LEX_ENTRY, part, got)
    return got


def _levels(values: list[int], digits: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Exact minima of ``values`` (mixed radix, ``digits`` = (radix, stride), lowest
    first) over the later digits: level ``i`` has the first ``i`` digits fixed."""
    levels = [values]
    cur = values
    for radix, stride in reversed(digits):
        if radix == 2:
            cur = [a if a < b else b for a, b in zip(cur[:stride], cur[stride:], strict=True)]
        else:
            cur = list(map(min, *(cur[y * stride : (y + 1) * stride] for y in range(radix))))
        levels.append(cur)
    levels.reverse()
    return levels


def _export_table(part: int, spec: int) -> ExportTable:
    """``_lex`` of a shifted cluster key after each export pattern of ``spec`` (two bits
    per rank: the most copies trials may take there), their ``_levels`` and the keys
    left. Pattern index: mixed radix, lowest rank fastest."""
    memo_key = part | spec << _WILD_SHIFT
    got = _EXPORT_TABLE.get(memo_key)
    if got is not None:
        return got
    residuals = [part]
    digits = []
    stride = 1
    r = 0
    while spec:
        most = spec & 3
        if most:
            unit = _UNIT[r]
            residuals = [x - y * unit for y in range(most + 1) for x in residuals]
            digits.append((most + 1, stride))
            stride *= most + 1
        spec >>= 2
        r += 1
    values = [_lex(x) for x in residuals]
    got = (values, _levels(values, digits), residuals)
    _remember(_EXPORT_TABLE, memo_key, got)
    return got


def _in_blocks(specs: Sequence[int]) -> bool:
    """Whether each spec's ranks all come before the next one's (sorted by lowest)."""
    for i in range(len(specs) - 1):
        after = specs[i + 1]
        if specs[i].bit_length() > (after & -after).bit_length():
            return False
    return True


def _export_suit(key: int, spec: int) -> ExportSuit:
    """One suit for ``_show_fast`` (see ``ExportSuit``): its clusters with exports
    combined in rank order (``_export_cross``, memoised on those clusters alone), and
    the others."""
    const = 0
    consts = []
    cross_key = 0
    for bytes_, shift, ranks in _clusters(key):
        if spec & _FIELDS[ranks]:
            cross_key |= key & bytes_
        else:
            part = (key & bytes_) >> (8 * shift)
            v = _LEX.get(part)
            if v is None:
                v = _lex(part)
            const += v
            consts.append((part, shift, v))
    values, levels, strides, order, tables, combos = _EXPORT_SUIT.get(
        cross_key | spec << _WILD_SHIFT
    ) or _export_cross(cross_key, spec)
    return values, levels, strides, order, const, tuple(consts), tables, combos


def _export_cross(key: int, spec: int) -> CrossSuit:
    """``_export_suit`` of a suit holding only clusters with exports: their tables from
    ``_export_table``, combined in rank order."""
    cross = []
    for bytes_, shift, ranks in _clusters(key):
        part = (key & bytes_) >> (8 * shift)
        mine = spec & _FIELDS[ranks]
        cross.append((_export_table(part, mine >> (2 * shift)), shift, mine))
    cross.sort(key=lambda c: c[2] & -c[2])
    digits = []  # (rank, radix, cluster, stride within the cluster)
    for c, (_, _, mine) in enumerate(cross):
        stride = 1
        r = 0
        while mine:
            most = mine & 3
            if most:
                digits.append((r, most + 1, c, stride))
                stride *= most + 1
            mine >>= 2
            r += 1
    digits.sort()
    strides = {}
    order = []
    stride = 1
    for r, radix, _, _ in digits:
        strides[r] = stride
        order.append((r, radix, stride))
        stride *= radix
    combos: list[tuple[int, ...]] | None = None
    if not cross:
        values, levels = [0], [[0]]
    elif len(cross) == 1:
        values, levels = cross[0][0][0], cross[0][0][1]
    elif _in_blocks([mine for _, _, mine in cross]):
        # clusters one after another in rank order: each cluster's digits in a block
        mins = [min(t[0]) for t, _, _ in cross]
        levels = []
        prefix = [0]
        for c, (table, _, _) in enumerate(cross):
            rest = sum(mins[c + 1 :])
            for level in table[1][0 if c == 0 else 1 :]:
                levels.append([a + b + rest for b in level for a in prefix])
            prefix = [a + b for b in table[0] for a in prefix]
        values = prefix
    else:  # the ace cluster around another: indices built digit by digit
        combos = [(0,) * len(cross)]
        for _, radix, c, cstride in digits:
            combos = [
                (*combo[:c], combo[c] + y * cstride, *combo[c + 1 :])
                for y in range(radix)
                for combo in combos
            ]
        tables = [t[0] for t, _, _ in cross]
        values = [sum(t[i] for t, i in zip(tables, combo, strict=True)) for combo in combos]
        levels = _levels(values, [(radix, st) for _, radix, st in order])
    got = (
        values,
        levels,
        strides,
        tuple(order),
        tuple((t, shift) for t, shift, _ in cross),
        combos,
    )
    _remember(_EXPORT_SUIT, key | spec << _WILD_SHIFT, got)
    return got


def _column(col: int) -> tuple[Options, tuple[int, int, int, int]]:
    """Trial options at one rank from its four natural counts (a byte each): (cards
    taken per suit, ``_SHOWS`` * wild cost), cheapest first, and the most each suit
    gives."""
    got = _COLUMN.get(col)
    if got is None:
        held = (col & 255, (col >> 8) & 255, (col >> 16) & 255, col >> 24)
        options = tuple((*taken, _SHOWS * cost) for taken, cost, _ in _cross_options(held))
        most = (
            max(o[0] for o in options),
            max(o[1] for o in options),
            max(o[2] for o in options),
            max(o[3] for o in options),
        )
        got = (options, most)
        _remember(_COLUMN, col, got)
    return got


Leaf = tuple[int, int, int, int, int]  # pattern index per suit, trial cost


class Relaxed(NamedTuple):
    """The trial choices ``_relaxed`` kept, for ``_show_vectors``."""

    choices: list[Leaf]
    totals: list[int]  # each choice's value
    suits: list[ExportSuit]
    routes: dict[int, list[tuple[int, int, int]]]  # kind -> (suit, pattern or -1, change)
    limit: int  # the most a value may be after the discard


def _relaxed(
    hand: Sequence[int], wilds: frozenset[int], keys: list[int], w: int, held: list[int]
) -> tuple[dict[int, int], set[int], Relaxed] | None:
    """The relaxation (see the section comment): (each discard it allows, with a trial
    choice that allows it; those certified for a show too; the choices kept and what
    tells on which of them each discard could work). ``None`` when no choice comes
    within two wild cards. ``keys``, ``w``: ``split_hand``; ``held``: each suit's
    natural ranks. With nothing to show, the allowed discards are the finishing ones."""
    k0, k1, k2, k3 = keys
    h0, h1, h2, h3 = held
    many = (h0 & (h1 | h2 | h3)) | (h1 & (h2 | h3)) | (h2 & h3)
    ranks = []
    options = []
    spec0 = spec1 = spec2 = spec3 = 0
    while many:
        low = many & -many
        many ^= low
        r = low.bit_length() - 1
        sh = 8 * r
        col = (
            ((k0 >> sh) & 255)
            | ((k1 >> sh) & 255) << 8
            | ((k2 >> sh) & 255) << 16
            | ((k3 >> sh) & 255) << 24
        )
        opts, (m0, m1, m2, m3) = _COLUMN.get(col) or _column(col)
        ranks.append(r)
        options.append(opts)
        f = 2 * r
        spec0 |= m0 << f
        spec1 |= m1 << f
        spec2 |= m2 << f
        spec3 |= m3 << f
    suits = [
        _export_suit(k, spec) for k, spec in ((k0, spec0), (k1, spec1), (k2, spec2), (k3, spec3))
    ]
    g0, l0, s0, _, c0 = suits[0][:5]
    g1, l1, s1, _, c1 = suits[1][:5]
    g2, l2, s2, _, c2 = suits[2][:5]
    g3, l3, s3, _, c3 = suits[3][:5]
    base = c0 + c1 + c2 + c3
    # kept: cost at most w + 2 (a discard saves at most two wild cards); a value v has
    # cost at most c exactly when v <= _SHOWS * c
    bound = _SHOWS * (w + 2) - base
    if l0[0][0] + l1[0][0] + l2[0][0] + l3[0][0] > bound:
        return None
    room = _SHOWS * w  # trial pairs never cost more than the wild cards held
    v0 = v1 = v2 = v3 = 0
    frontier = [(0, 0, 0, 0, 0)]
    for r, opts in zip(ranks, options, strict=True):
        a0, a1, a2, a3 = s0.get(r, 0), s1.get(r, 0), s2.get(r, 0), s3.get(r, 0)
        v0 += a0 > 0
        v1 += a1 > 0
        v2 += a2 > 0
        v3 += a3 > 0
        t0, t1, t2, t3 = l0[v0], l1[v1], l2[v2], l3[v3]
        steps = [(x0 * a0, x1 * a1, x2 * a2, x3 * a3, c) for x0, x1, x2, x3, c in opts if c <= room]
        frontier = [
            (i0 + d0, i1 + d1, i2 + d2, i3 + d3, t + dt)
            for i0, i1, i2, i3, t in frontier
            for d0, d1, d2, d3, dt in steps
            if t + dt <= room
            and t + dt + t0[i0 + d0] + t1[i1 + d1] + t2[i2 + d2] + t3[i3 + d3] <= bound
        ]
        if not frontier:
            return None
    # the best total over the choices with each pattern of each suit
    best: list[dict[int, tuple[int, int]]] = [{}, {}, {}, {}]
    b0, b1, b2, b3 = best
    none = (1 << 30, 0)
    totals = []
    for n, (i0, i1, i2, i3, t) in enumerate(frontier):
        total = t + g0[i0] + g1[i1] + g2[i2] + g3[i3] + base
        totals.append(total)
        if total < b0.get(i0, none)[0]:
            b0[i0] = (total, n)
        if total < b1.get(i1, none)[0]:
            b1[i1] = (total, n)
        if total < b2.get(i2, none)[0]:
            b2[i2] = (total, n)
        if total < b3.get(i3, none)[0]:
            b3[i3] = (total, n)
    top, top_n = min(b0.values())
    # each cluster against the best total with its pattern: allowed (the cost fits)
    # and certified (three melds to show as well); a route says where else to look
    limit = _SHOWS * w
    allowed: dict[int, int] = {}
    found: set[int] = set()
    routes: dict[int, list[tuple[int, int, int]]] = {}  # kind -> (suit, pattern, change)
    for s in range(4):
        _, _, _, _, _, consts, tables, combos = suits[s]
        checks = [(top, v, part, shift, top_n, -1) for part, shift, v in consts]
        if tables:
            for pattern, (total, n) in best[s].items():
                if combos:
                    for (table, shift), j in zip(tables, combos[pattern], strict=True):
                        checks.append((total, table[0][j], table[2][j], shift, n, pattern))
                    continue
                i = pattern
                for table, shift in tables:
                    i, j = divmod(i, len(table[0]))
                    checks.append((total, table[0][j], table[2][j], shift, n, pattern))
        first = 13 * s
        for total, value, part, shift, n, pattern in checks:
            least, entry = _LEX_ENTRY.get(part) or _lex_entry(part)
            others = total - value
            if others + least > limit:
                continue
            for r, v in entry:
                v += others
                if v <= limit:
                    kind = first + shift + r
                    allowed.setdefault(kind, n)
                    routes.setdefault(kind, []).append((s, pattern, v - total))
                    if -v % _SHOWS >= 3:
                        found.add(kind)
    if top <= limit - _SHOWS:  # a wild card's discard costs one more
        for k in wilds:
            if k < _KINDS and hand[k]:
                allowed.setdefault(k, top_n)
                routes.setdefault(k, []).append((0, -1, _SHOWS))
                if -top % _SHOWS >= 3:
                    found.add(k)
    return allowed, found, Relaxed(frontier, totals, suits, routes, limit)


def _show_fast(
    hand: Sequence[int], wilds: frozenset[int], keys: list[int], w: int, held: list[int]
) -> list[int]:
    """The kinds ``show_discards3`` returns: the relaxation's certified discards, and
    those of the others that the cost vectors confirm (see the section comment)."""
    got = _relaxed(hand, wilds, keys, w, held)
    if got is None:
        return []
    allowed, found, relaxed = got
    if len(found) < len(allowed):
        _show_vectors(hand, wilds, keys, allowed, found, relaxed)
    return sorted(found)


def _show_vectors(
    hand: Sequence[int],
    wilds: frozenset[int],
    keys: list[int],
    allowed: dict[int, int],
    found: set[int],
    relaxed: Relaxed,
) -> None:
    """Decide the discards ``allowed`` but not yet ``found`` with the suits' cost
    vectors (exact, wild cards as themselves included): on the trial choice that
    allowed each, then on every choice where the relaxation allows it. Adds the good
    ones to ``found``."""
    frontier, totals, suits, routes, limit = relaxed
    extra = [0, 0, 0, 0]
    for k in wilds:
        if hand[k]:
            extra[k // 13] += (hand[k] << (8 * (k % 13))) | (1 << (_WILD_SHIFT + k % 13))

    def check(n: int, kinds: Sequence[int]) -> None:
        leaf = frontier[n]
        codes = []
        vecs = []
        for s in range(4):
            code = keys[s] + extra[s]
            i = leaf[s]
            for r, radix, stride in suits[s][3]:
                code -= (i // stride % radix) * _UNIT[r]
            codes.append(code)
            vecs.append(_VEC_MEMO.get(code) or suit_vec(code))
        for s in range(4):
            first = 13 * s
            mine = [k - first for k in kinds if first <= k < first + 13 and k not in found]
            if not mine:
                continue
            others = (leaf[4] // _SHOWS, _INF, _INF, _INF)
            for j in range(4):
                if j != s:
                    others = conv(others, vecs[j])
            parts = _split_code(codes[s])
            cvecs = [_cluster_vec(part) for part, _ in parts]
            for c, (part, shift) in enumerate(parts):
                here = [
                    r - shift
                    for r in mine
                    if 0 <= r - shift < 13 and (part >> (8 * (r - shift))) & 255
                ]
                if not here:
                    continue
                o = others
                for d, vec in enumerate(cvecs):
                    if d != c:
                        o = conv(o, vec)
                o0, o1, o2, o3 = o
                for r in here:
                    d0, d1, d2, d3 = suit_vec(part - _UNIT[r])
                    if d0 + o3 <= 0 or d1 + o2 <= 0 or d2 + o1 <= 0 or d3 + o0 <= 0:
                        found.add(first + shift + r)

    by_choice: dict[int, list[int]] = {}
    for k, n in allowed.items():
        if k not in found:
            by_choice.setdefault(n, []).append(k)
    for n, kinds in by_choice.items():
        check(n, kinds)
    # the others: every choice where the relaxation allows them, cheapest first
    by_choice = {}
    for k in allowed:
        if k not in found:
            for s, pattern, change in routes[k]:
                for n, leaf in enumerate(frontier):
                    if (pattern < 0 or leaf[s] == pattern) and totals[n] + change <= limit:
                        by_choice.setdefault(n, []).append(k)
    for n in sorted(by_choice, key=totals.__getitem__):
        left = [k for k in by_choice[n] if k not in found]
        if left:
            check(n, left)


def show_discards3(hand: Sequence[int], wilds: frozenset[int], tun: bool) -> list[Card]:
    """Cards whose discard lets the rest show three natural sequences or tunnelas
    (M-6) and make three-card melds of everything (M-8), in one turn.

    ``_show_fast`` (a relaxation with certificates, cost vectors for the rest)
    decides; ``_show_discards_exact`` is the plain search it replaces, kept as its
    reference and used for rules without tunnelas or more than three copies of a card.
    Tunnelas are melds and show melds here (``nepali``).
    """
    if not tun or max(hand) > 3:  # the fast path packs export counts in two bits
        return [_CARDS[k] for k in _show_discards_exact(hand, wilds, tun)]
    keys, w = split_hand(hand, wilds)
    masks = [_LONE_MEMO.get(k) or _suit_lone(k) for k in keys]
    if _isolated(masks) > w + 2:
        return []
    return [_CARDS[k] for k in _show_fast(hand, wilds, keys, w, [m[0] for m in masks])]


def _memo_tables() -> list[dict[Any, Any]]:
    return [
        _CLUSTER_MEMO, _KEY_CLUSTERS, *_SOLVE_MEMO, *_COST_MEMO, *_ENTRY_MEMO, *_SUIT_ENTRY,
        _CROSS_MEMO, _LONE_MEMO, _SHIFTED_MEMO, _CLUSTER_VEC, _VEC_MEMO, _VEC_TABLE_MEMO,
        _LEX, _LEX_ENTRY, _EXPORT_TABLE, _EXPORT_SUIT, _COLUMN,
    ]  # fmt: skip


_FINITE_SIZE = 1 << 15  # room for a finite table's every key: it never starts over


def _finite_tables() -> list[dict[Any, Any]]:
    """Memo tables that never start over: their keys are few by construction (a 13-bit
    rank mask, a column of four per-suit counts, with the rank): at most ~12,000."""
    return [_CLUSTER_MEMO, _CROSS_MEMO, _SHIFTED_MEMO, _COLUMN]


def _size(table: dict[Any, Any]) -> int:
    if any(table is t for t in _finite_tables()):
        return _FINITE_SIZE
    if table is _EXPORT_TABLE or table is _EXPORT_SUIT:
        return max(1, _MEMO_LIMIT // 8)  # their entries hold lists: fewer of them
    return _MEMO_LIMIT


def _table_names() -> dict[int, str]:
    """The memo registry's name of each table (``rami.memo.registered``)."""
    named: list[tuple[str, dict[Any, Any]]] = [
        ("clusters", _CLUSTER_MEMO), ("key_clusters", _KEY_CLUSTERS),
        ("solve", _SOLVE_MEMO[0]), ("solve_tun", _SOLVE_MEMO[1]),
        ("cost", _COST_MEMO[0]), ("cost_tun", _COST_MEMO[1]),
        ("entry", _ENTRY_MEMO[0]), ("entry_tun", _ENTRY_MEMO[1]),
        ("suit_entry", _SUIT_ENTRY[0]), ("suit_entry_tun", _SUIT_ENTRY[1]),
        ("cross", _CROSS_MEMO), ("lone", _LONE_MEMO), ("shifted", _SHIFTED_MEMO),
        ("cluster_vec", _CLUSTER_VEC), ("vec", _VEC_MEMO), ("vec_table", _VEC_TABLE_MEMO),
        ("lex", _LEX), ("lex_entry", _LEX_ENTRY), ("export_table", _EXPORT_TABLE),
        ("export_suit", _EXPORT_SUIT), ("column", _COLUMN),
    ]  # fmt: skip
    return {id(table): name for name, table in named}


_NAMES = _table_names()
# Every table draws on the one solver budget (``rami.memo.BUDGET``): reads go through
# ``dict.get`` and a miss computes the entry again, so any table may start over.
for _table in _memo_tables():
    _GENERATIONS[id(_table)] = GenerationMemo.over(
        _table,
        _size(_table),
        name="cover." + _NAMES.get(id(_table), str(len(_GENERATIONS))),
        shared=True,
    )


def reset_memos() -> None:
    """Empty every memo table (their base entries kept): the cold path, for benches.
    The bounds are read again from ``_MEMO_LIMIT``."""
    for table in _memo_tables():
        memo = _GENERATIONS[id(table)]
        memo.size = scaled(_size(table))
        memo.new_generation()


def memo_entries() -> int:
    """Entries held by the memo tables (the memory bench prints it)."""
    return sum(len(t) for t in _memo_tables())
