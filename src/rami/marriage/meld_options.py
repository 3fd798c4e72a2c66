"""The show and table-meld steps that ``MarriageState.legal_actions`` lists (M-6, M-10).

This is the hot part of legal-action generation (issue 12: Indian self-play spent a
quarter of its time here), kept apart from ``game.py`` so that the optional mypyc build
compiles it. The lists are exactly the ones the engine always listed, in the same order
(tests/test_marriage_meld_options.py compares them with the plain generation kept in
the test). What makes it cheap:

- the pure melds of a hand are generated once per call from per-suit bit masks;
- ``Action`` objects are immutable, so each one is built once and shared;
- what a table meld accepts (which added card keeps it a meld, and keeps it pure) is
  remembered per meld and wild-card set in a dictionary the state keeps for its deal.
"""

from __future__ import annotations

# rami: compiled with mypyc in the accelerated build
import itertools
from collections.abc import Sequence
from itertools import compress

from rami.cards import CARDS, Card
from rami.engine import Action
from rami.marriage.melds import (
    MAX_SEQUENCE,
    MAX_TRIAL,
    is_meld,
    is_pure_meld,
    pair_compatible,
    seq_span,
    trial_ok,
)
from rami.marriage.rules import MarriageRules
from rami.marriage.solver import show_meld_options
from rami.memo import GenerationMemo
from rami.runs import threes_held

__all__ = ["AddFacts", "MeldFacts", "listed", "meld_steps", "packs", "pure_melds", "show_steps"]

SHOW = "show"
MELD = "meld"
ADD = "add"
SHOW_MELDS = 3  # M-6: pure melds shown to see, and kept on the table (indian)


class MeldFacts:
    """What a table meld accepts (``meld_steps``), learnt as cards are offered to it:
    whether it is pure; ``learnt``, the kinds asked already (bits), those that keep it a
    meld and those that keep it pure, replaced whole (never updated in place: states
    of one deal share it, maybe across threads, and a reader sees one consistent
    triple); the kinds offered to it (``_offered``); its ``_shape``."""

    __slots__ = ("learnt", "offered", "pure", "shape")

    def __init__(self, pure: bool, offered: int, shape: tuple[int, ...]) -> None:
        self.pure = pure
        self.learnt = (0, 0, 0)
        self.offered = offered
        self.shape = shape


#: Per table meld (cards, wild kinds): its ``MeldFacts``. One dictionary per deal
#: (``MarriageState``): table melds live for the whole deal.
AddFacts = dict[tuple[tuple[Card, ...], frozenset[int]], MeldFacts]

_FACTS_BOUND = 4096
_BIT = tuple(1 << c for c in range(53))
_RANGE52 = range(52)
#: The shared ``Action`` of each show or meld step, by (verb, sorted kinds).
_ACTIONS: GenerationMemo[tuple[str, tuple[int, ...]], Action] = GenerationMemo(
    20_000, name="marriage.meld_actions"
)
_ADDS: list[list[Action]] = []


def _action(kind: str, cards: tuple[int, ...]) -> Action:
    """The shared ``Action(kind, cards)`` (``cards`` sorted: the canonical form)."""
    key = (kind, cards)
    got = _ACTIONS.table.get(key)
    if got is None:
        got = _ACTIONS.remember(key, Action(kind, tuple([CARDS[c] for c in cards])))
    return got


def _add_action(k: int, i: int) -> Action:
    while len(_ADDS) <= i:
        j = len(_ADDS)
        _ADDS.append([Action(ADD, (CARDS[c],), j) for c in range(52)])
    return _ADDS[i][k]


def listed(action: object, actions: list[Action]) -> bool:
    """Whether ``action`` is one of ``actions`` itself (identity, not equality): a move
    picked from the legal list is applied without checking it again."""
    for a in actions:  # noqa: SIM110 (a loop: any() over a generator is slower, every step)
        if a is action:
            return True
    return False


def pure_melds(hand: Sequence[int], rules: MarriageRules) -> list[tuple[int, ...]]:
    """``solver.show_meld_options`` as sorted kind tuples, in the same order.

    With melds of three or more and pure trials (the ``indian`` kinds) they are built
    here directly: every run of held positions (ace at both ends, 13 cards at most), then
    every three or four suits of a held rank; other rules ask the solver.
    """
    h: list[int] = hand if isinstance(hand, list) else list(hand)  # fast indexing compiled
    if rules.melds_at_least3 and rules.show_kinds == "sequence+trial":
        return _pure_of_mask(sum(map(_BIT.__getitem__, compress(_RANGE52, h))))
    if not rules.melds_at_least3 and rules.show_kinds == "sequence+tunnela":
        return _threes_of_hand(h)
    return [tuple(sorted(m)) for m in show_meld_options(hand, rules)]


def _threes_of_hand(h: list[int]) -> list[tuple[int, ...]]:
    """``pure_melds`` with melds of exactly three and tunnelas (the ``nepali`` kinds):
    each three held positions in a row (ace low or high), then each tunnela."""
    out: list[tuple[int, ...]] = []
    held = sum([_BIT[c] for c in range(52) if h[c]])
    threes_held([(held >> (13 * s)) & 0x1FFF for s in range(4)], out)
    for k in range(52):
        if h[k] >= 3:
            out.append((k, k, k))
    return out


def _pure_of_mask(held: int) -> list[tuple[int, ...]]:
    """``pure_melds`` (indian kinds) of a hand given as the bits of the kinds it holds:
    the runs of held positions are read from each suit's bits, the trials from the ranks
    held in three suits or more, in the order the plain loops listed them."""
    out: list[tuple[int, ...]] = []
    rows = (held & 0x1FFF, (held >> 13) & 0x1FFF, (held >> 26) & 0x1FFF, held >> 39)
    runs_of = _SUIT_RUNS.get
    for s in range(4):
        bits = rows[s]  # bit r: rank r held
        if _HAS_RUN[bits]:  # a run of three held positions
            key = s << 13 | bits
            runs = runs_of(key)
            if runs is None:
                if len(_SUIT_RUNS) >= _RUNS_BOUND:
                    _SUIT_RUNS.clear()
                runs = _SUIT_RUNS[key] = _runs_of(s, (bits << 1) | ((bits & 1) << 14))
            out.extend(runs)
    b0, b1, b2, b3 = rows
    trials = (b0 & b1 & (b2 | b3)) | (b2 & b3 & (b0 | b1))  # ranks held in 3 suits or more
    while trials:
        low = trials & -trials
        trials ^= low
        r = low.bit_length() - 1
        out.extend(_TRIALS[r][(held >> r) & _RANK_SPREAD])
    return out


def _has_run(bits: int) -> bool:
    """Whether a suit holding the ranks ``bits`` holds three positions in a row (ace at
    1 and 14)."""
    pos = (bits << 1) | ((bits & 1) << 14)  # bit p: position p held
    return bool(pos & (pos >> 1) & (pos >> 2) & 0x1FFE)


#: Per 13 bits of a suit's ranks held: whether they hold a run (``_has_run``).
_HAS_RUN = bytes(_has_run(bits) for bits in range(1 << 13))
#: The bit of rank 0 in each suit (``held >> r`` brings rank r there).
_RANK_SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39


def _trials_of(r: int, spread: int) -> tuple[tuple[int, ...], ...]:
    """The pure trials of rank ``r`` held in the suits whose bits are set in ``spread``
    (at 0, 13, 26, 39): each three suits, then all four, in suit order."""
    suits = [s for s in range(4) if (spread >> (13 * s)) & 1]
    out: list[tuple[int, ...]] = []
    for size in (3, 4):
        for combo in itertools.combinations(suits, size):
            out.append(tuple([s * 13 + r for s in combo]))
    return tuple(out)


#: Per rank, per suits holding it (``_RANK_SPREAD`` bits): ``_trials_of``.
_TRIALS: tuple[dict[int, tuple[tuple[int, ...], ...]], ...] = tuple(
    {
        sum(1 << (13 * s) for s in range(4) if (m >> s) & 1): _trials_of(
            r, sum(1 << (13 * s) for s in range(4) if (m >> s) & 1)
        )
        for m in range(16)
    }
    for r in range(13)
)


#: Per (suit, its 13 rank bits) holding a run of three: ``_runs_of`` (at most 4 × 2**13
#: keys; cleared at the bound all the same).
_SUIT_RUNS: dict[int, tuple[tuple[int, ...], ...]] = {}
_RUNS_BOUND = 1 << 15


def _runs_of(s: int, pos: int) -> tuple[tuple[int, ...], ...]:
    """The pure sequences of suit ``s`` whose held positions are the bits of ``pos``
    (1 … 14, the ace at both ends), in ``_pure_of_mask``'s order."""
    out: list[tuple[int, ...]] = []
    base = s * 13
    starts = pos & (pos >> 1) & (pos >> 2) & 0x1FFE  # runs of three from 1 … 12
    while starts:
        low = starts & -starts
        starts ^= low
        start = low.bit_length() - 1
        end = start + 2  # last held position of the run from ``start``
        while end < 14 and end - start < 12 and (pos >> (end + 1)) & 1:
            end += 1
        for last in range(start + 2, end + 1):
            if last == 14:  # the ace high: it sorts first
                out.append((base, *range(base + start - 1, base + 13)))
            else:
                out.append(tuple(range(base + start - 1, base + last)))
    return tuple(out)


def packs(rest: list[int], melds: list[tuple[int, ...]], k: int, start: int) -> bool:
    """Whether ``k`` disjoint melds of ``melds`` (from index ``start``) fit in ``rest``.

    Used on the show-meld list to keep a show completable (M-6); three-card melds
    suffice, since any longer pure meld holds a three-card one. ``rest`` is restored
    before returning.
    """
    if k == 0:
        return True
    for i in range(start, len(melds)):
        meld = melds[i]
        ok = True
        for c in meld:
            rest[c] -= 1
            if rest[c] < 0:
                ok = False
        found = ok and packs(rest, melds, k - 1, i)
        for c in meld:
            rest[c] += 1
        if found:
            return True
    return False


def _packs3(rest: list[int], threes: list[tuple[int, ...]], k: int, start: int) -> bool:
    """``packs`` of three-card melds (``k`` >= 1): the last meld is found by a scan
    that changes nothing (most calls ask for one meld: issue 27)."""
    if k == 1:
        for i in range(start, len(threes)):
            a, b, c = threes[i]
            if a < b < c:  # three kinds (a sequence, a trial)
                if rest[a] and rest[b] and rest[c]:
                    return True
            elif a == b == c:  # a tunnela
                if rest[a] >= 3:
                    return True
            else:
                rest[a] -= 1
                rest[b] -= 1
                rest[c] -= 1
                ok = rest[a] >= 0 and rest[b] >= 0 and rest[c] >= 0
                rest[a] += 1
                rest[b] += 1
                rest[c] += 1
                if ok:
                    return True
        return False
    for i in range(start, len(threes)):
        meld = threes[i]
        ok = True
        for c in meld:
            rest[c] -= 1
            if rest[c] < 0:
                ok = False
        found = ok and _packs3(rest, threes, k - 1, i)
        for c in meld:
            rest[c] += 1
        if found:
            return True
    return False


def show_steps(
    hand: Sequence[int], rules: MarriageRules, need: int, size: int, taken: int | None
) -> list[Action] | None:
    """The show steps (M-6) that keep a show of ``need`` more melds completable and
    leave a card to discard; ``None`` when the hand holds fewer than ``need`` disjoint
    show melds (the caller lowers its bound, ``MarriageState.show_ub``)."""
    if rules.melds_at_least3 and rules.show_kinds == "sequence+trial" and need <= SHOW_MELDS:
        return _show_steps_bits(hand, need, size, taken)  # no tunnela: distinct kinds
    options = pure_melds(hand, rules)
    threes: list[tuple[int, ...]] = [m for m in options if len(m) == 3]
    rest = list(hand)
    if need > 0 and not _packs3(rest, threes, need, 0):
        return None
    out: list[Action] = []
    left = need - 1
    spare_need = 3 * left + 1
    for meld in options:
        for c in meld:
            rest[c] -= 1
        spare = size - len(meld)
        if taken is not None:
            spare -= rest[taken]
        if spare >= spare_need and (not left or _packs3(rest, threes, left, 0)):
            out.append(_action(SHOW, meld))
        for c in meld:
            rest[c] += 1
    return out


def _show_steps_bits(
    hand: Sequence[int], need: int, size: int, taken: int | None
) -> list[Action] | None:
    """``show_steps`` with the indian show melds (pure sequences and trials: each holds
    distinct kinds): the melds as bit masks, the holding as the kinds held once or more,
    twice or more, three times or more, four times or more, and ``_fit_threes``
    instead of ``_packs3``; the same steps in the same order."""
    bit = _BIT
    m1 = m2 = m3 = m4 = 0
    for k in compress(_RANGE52, hand):
        b = bit[k]
        m1 |= b
        if hand[k] > 1:
            m2 |= b
            if hand[k] > 2:
                m3 |= b
                if hand[k] > 3:
                    m4 |= b
    options = _pure_of_mask(m1)
    masks: list[int] = []
    threes: list[int] = []
    for meld in options:
        mm = 0
        for c in meld:
            mm |= bit[c]
        masks.append(mm)
        if len(meld) == 3:
            threes.append(mm)
    if need > 0 and not _fit_threes(threes, m1, m2, m3, need):
        return None
    out: list[Action] = []
    left = need - 1
    spare_need = 3 * left + 1
    taken_held = hand[taken] if taken is not None else 0
    for i in range(len(options)):
        meld = options[i]
        mm = masks[i]
        spare = size - len(meld)
        if taken is not None:
            spare -= taken_held - ((mm >> taken) & 1)
        if spare < spare_need:
            continue
        # the kinds held once only leave m1, those held twice leave m2, …
        if not left or _fit_threes(
            threes, m1 & ~(mm & ~m2), m2 & ~(mm & ~m3), m3 & ~(mm & ~m4), left
        ):
            out.append(_action(SHOW, meld))
    return out


def _fit_threes(threes: list[int], m1: int, m2: int, m3: int, k: int) -> bool:
    """``_packs3`` of three-card melds of distinct kinds given as bit masks, ``k`` of
    1 … 3 of them (one meld may be taken more than once): a holding of the kinds ``m1``
    held once or more, ``m2`` twice or more, ``m3`` three times or more holds ``k``
    disjoint ones when each kind lies in no more of them than it is held."""
    fit = [b for b in threes if not b & ~m1]
    if k == 1 or not fit:
        return bool(fit)
    n = len(fit)
    for i in range(n):
        bi = fit[i]
        for j in range(i, n):
            bj = fit[j]
            both = bi & bj
            if both & ~m2:
                continue
            if k == 2:
                return True
            either = bi | bj
            for t in range(j, n):
                bt = fit[t]
                if not (either & bt & ~m2 or both & bt & ~m3):
                    return True
    return False


def _near(a: int, b: int) -> bool:
    """Two natural cards (a < b) that one wild card makes a meld: same suit within two
    ranks or the ace with Q/K (ace high), or the same rank (a trial)."""
    if a // 13 == b // 13:
        return b - a <= 2 or (a % 13 == 0 and b % 13 >= 11)
    return a % 13 == b % 13


#: Per natural kind ``a``: the kinds ``b > a`` that one wild card makes a meld with it
#: (``_near``), ascending: the pair walk of ``meld_steps`` reads these few instead of
#: testing every pair of held cards.
_PARTNERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b in range(a + 1, 52) if _near(a, b)) for a in range(52)
)

#: ``_PARTNERS`` as bit masks.
_PARTNER_BITS: tuple[int, ...] = tuple(sum(1 << b for b in bs) for bs in _PARTNERS)
#: Per wild-card set: its kinds below 52 as bits (``meld_steps``).
_WILD_MASKS: dict[frozenset[int], int] = {}


def meld_steps(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    size: int,
    taken: int | None,
    table: Sequence[tuple[Card, ...]],
    facts: AddFacts,
) -> list[Action]:
    """Indian table melding (M-10): a short canonical list of melds and additions.

    ``apply`` accepts any valid meld; this list offers every pure meld the hand holds,
    each pair of natural cards completed by one wild card (the lowest held), three wild
    cards, and every single card that extends one of the seat's own table melds
    (``table``), keeping three pure melds on the table (M-6). Each step leaves a card
    other than the ``taken`` one to discard; ``size`` is the hand's card count.
    """
    out: list[Action] = []
    h: list[int] = hand if isinstance(hand, list) else list(hand)  # fast indexing compiled
    held = list(compress(_RANGE52, h))
    mask = sum(map(_BIT.__getitem__, held))
    wmask = _WILD_MASKS.get(wilds)
    if wmask is None:
        if len(_WILD_MASKS) >= _FACTS_BOUND:
            _WILD_MASKS.clear()
        wmask = _WILD_MASKS[wilds] = sum(_BIT[c] for c in wilds if c < 52)
    wild_held = mask & wmask
    wild_in_hand = [c for c in held if (wild_held >> c) & 1] if wild_held else []
    if rules.melds_at_least3 and rules.show_kinds == "sequence+trial":
        candidates = _pure_of_mask(mask)
    else:
        candidates = pure_melds(h, rules)
    if wild_in_hand:
        w = wild_in_hand[0]
        natural = mask & ~wmask
        # each pair of held natural cards a < b with _near(a, b), a then b ascending
        for a in held:
            if not (natural >> a) & 1:
                continue
            bits = _PARTNER_BITS[a] & natural
            while bits:
                low = bits & -bits
                bits ^= low
                b = low.bit_length() - 1
                candidates.append((a, b, w) if w > b else (a, w, b) if w > a else (w, a, b))
        wild_total = 0
        for c in wild_in_hand:
            wild_total += h[c]
        if wild_total >= 3:
            three: list[int] = []
            for c in wild_in_hand:
                three.extend([c] * min(h[c], 3 - len(three)))
            candidates.append(tuple(three))
    at_least3 = rules.melds_at_least3
    in_hand_taken = h[taken] if taken is not None else 0
    seen: set[tuple[int, ...]] = set()
    for meld in candidates:
        if meld in seen:
            continue
        seen.add(meld)
        spare = size - len(meld)
        if taken is not None:
            spare -= in_hand_taken - meld.count(taken)
        if spare < 1:
            continue
        # with melds of three or more every candidate is a meld: pure melds, two
        # neighbours or a trial pair with a wild card, three wild cards
        if at_least3 or is_meld([CARDS[c] for c in meld], rules, wilds):
            out.append(_action(MELD, meld))
    if not table:
        return out
    # the held cards whose addition leaves a card other than the taken one to discard
    base = size - 1 - in_hand_taken
    if base >= 1:
        addable = mask
    elif base == 0 and taken is not None:
        addable = mask & _BIT[taken]  # only the taken card leaves another to discard
    else:
        addable = 0
    entries: list[MeldFacts] = []
    pure_total = 0
    for m in table:
        key = (m, wilds)
        entry = facts.get(key)
        if entry is None:
            if len(facts) >= _FACTS_BOUND:
                facts.clear()  # clones share it: a long search must not grow it for ever
            entry = MeldFacts(is_pure_meld(m, rules), _offered(m, wilds), _shape(m, wilds))
            facts[key] = entry
        entries.append(entry)
        if entry.pure:
            pure_total += 1
    keep_pure = pure_total - 1 < SHOW_MELDS
    _add_action(0, len(table) - 1)  # the add actions of every table index exist
    for i in range(len(table)):
        entry = entries[i]
        bits = addable & entry.offered  # the held cards it is offered
        learnt = entry.learnt
        if bits & ~learnt[0]:
            learnt = entry.learnt = _learn(entry, table[i], bits, learnt, rules, wilds)
        bits &= learnt[2] if entry.pure and keep_pure else learnt[1]
        if bits:
            adds = _ADDS[i]
            while bits:  # ascending
                low = bits & -bits
                bits ^= low
                out.append(adds[low.bit_length() - 1])
    return out


def _learn(
    entry: MeldFacts,
    m: tuple[Card, ...],
    kinds: int,
    learnt: tuple[int, int, int],
    rules: MarriageRules,
    wilds: frozenset[int],
) -> tuple[int, int, int]:
    """``learnt`` with the ``kinds`` (bits) not asked yet asked of table meld ``m``: 0
    ``k`` may not be added, 1 ``m + k`` is a meld, 2 a pure meld (``_shaped_status``,
    ``_add_status``)."""
    at_least3 = rules.melds_at_least3
    tun = rules.tunnela_melds
    known, fits, pure_fits = learnt
    kinds &= ~known
    known |= kinds
    while kinds:
        low = kinds & -kinds
        kinds ^= low
        k = low.bit_length() - 1
        if at_least3:
            st = _shaped_status(entry.shape, k, k in wilds, tun)
        else:
            st = _add_status(m, k, rules, wilds)
        if st:
            fits |= low
            if st == 2:
                pure_fits |= low
    return known, fits, pure_fits


#: Per suit, per rank: the bits of its 13 kinds, of its 4 kinds.
_SUIT_BITS = tuple(0x1FFF << (13 * t) for t in range(4))
_RANK_BITS = tuple(sum(1 << (t * 13 + r) for t in range(4)) for r in range(13))
_ALL_BITS = (1 << 52) - 1


def _offered(m: tuple[Card, ...], wilds: frozenset[int]) -> int:
    """The kinds (bits) ``_add_status`` offers to table meld ``m`` (any other is 0 there):
    wild cards; a trial's rank (and a lone natural card's suit); a sequence's suit;
    everything when ``m`` has no natural card or mixes suits and ranks."""
    naturals = [c for c in m if c not in wilds]
    if not naturals:
        return _ALL_BITS
    rank = naturals[0] % 13
    suit = naturals[0] // 13
    same_rank = all(c % 13 == rank for c in naturals)
    same_suit = all(c // 13 == suit for c in naturals)
    if same_rank:
        out = _RANK_BITS[rank] | (_SUIT_BITS[suit] if same_suit else 0)
    elif same_suit:
        out = _SUIT_BITS[suit]
    else:
        return _ALL_BITS
    for k in wilds:
        if k < 52:
            out |= _BIT[k]
    return out


def _add_status(m: tuple[Card, ...], k: int, rules: MarriageRules, wilds: frozenset[int]) -> int:
    """0: ``k`` is not offered for table meld ``m`` or does not fit it; 1: ``m + k`` is a
    meld; 2: a pure meld. A card is offered to a trial if of its rank, to a sequence if
    of its suit (wild cards always), to a meld of wild cards only whatever it is.

    ``is_meld`` and ``is_pure_meld`` of ``m + k``, worked out once: the pure test is
    the first step of ``is_meld``, and neither depends on the order of the cards."""
    naturals = [c for c in m if c not in wilds]
    k_wild = k in wilds
    if naturals and not k_wild:
        rank = naturals[0] % 13
        suit = naturals[0] // 13
        same_rank = all(c % 13 == rank for c in naturals)
        same_suit = all(c // 13 == suit for c in naturals)
        if same_rank:  # a trial (or one natural card: its suit or its rank)
            offered = k % 13 == rank or (same_suit and k // 13 == suit)
        elif same_suit:
            offered = k // 13 == suit
        else:
            offered = True
        if not offered:
            return 0
    size = len(m) + 1
    if not (size >= 3 if rules.melds_at_least3 else size == 3):
        return 0
    cards = [int(c) for c in m]
    cards.append(k)
    if is_pure_meld(cards, rules):
        return 2
    if not k_wild:
        naturals.append(CARDS[k])
    wild_count = size - len(naturals)
    if wild_count == 0:
        return 0
    if not rules.melds_at_least3:
        return 1 if wild_count >= 2 or pair_compatible(naturals[0], naturals[1]) else 0
    if size <= MAX_TRIAL and trial_ok(naturals):
        return 1
    span = seq_span(naturals)
    return 1 if span is not None and span <= size <= MAX_SEQUENCE else 0


def _mask_span(ranks: int) -> int:
    """``run_span`` of the rank indices in bit mask ``ranks`` (non-empty): the shortest
    window of positions holding them, the ace low or high."""
    if not ranks & 1:
        return ranks.bit_length() - (ranks & -ranks).bit_length() + 1
    others = ranks & ~1
    if not others:
        return 1
    return min(others.bit_length(), 14 - (others & -others).bit_length() + 1)


def _rank_suit_facts(cards: Sequence[int]) -> tuple[int, int, int, int]:
    """(their one suit or -1, their ranks as bits or -1 when a rank repeats or the suits
    differ, their one rank or -1, their suits as bits or -1 when a suit repeats or the
    ranks differ) of a list of cards; (4, 0, 4, 0) for none."""
    if not cards:
        return 4, 0, 4, 0
    suit = cards[0] // 13
    rank = cards[0] % 13
    ranks = suits = 0
    same_suit = same_rank = True
    for c in cards:
        cs, cr = divmod(int(c), 13)
        if cs != suit:
            same_suit = False
        if cr != rank:
            same_rank = False
        ranks = ranks | (1 << cr) if ranks >= 0 and not (ranks >> cr) & 1 else -1
        suits = suits | (1 << cs) if suits >= 0 and not (suits >> cs) & 1 else -1
    return (
        suit if same_suit else -1,
        ranks if same_suit else -1,
        rank if same_rank else -1,
        suits if same_rank else -1,
    )


def _shape(m: tuple[Card, ...], wilds: frozenset[int]) -> tuple[int, ...]:
    """What ``_shaped_status`` reads of table meld ``m``: its size, the kind of a pair of
    identical cards (or -1), ``_rank_suit_facts`` of all its cards (purity goes by card
    identity, M-6) and of its natural cards, and how many natural cards it holds."""
    naturals = [int(c) for c in m if c not in wilds]
    pair = int(m[0]) if len(m) == 2 and m[0] == m[1] else -1
    return (
        len(m),
        pair,
        *_rank_suit_facts([int(c) for c in m]),
        *_rank_suit_facts(naturals),
        len(naturals),
    )


def _shaped_status(shape: tuple[int, ...], k: int, k_wild: bool, tun: bool) -> int:
    """``_add_status`` with melds of three or more (``at_least3``), read from the meld's
    ``_shape``: the same tests on bit masks (tests/test_marriage_fast_legal.py)."""
    n, pair, i_suit, i_ranks, i_rank, i_suits, n_suit, n_ranks, n_rank, n_suits, nat = shape
    ks, kr = divmod(k, 13)
    if nat and not k_wild:  # the kinds offered (``_offered``)
        if n_rank >= 0:
            if kr != n_rank and ks != n_suit:
                return 0
        elif n_suit >= 0 and ks != n_suit:
            return 0
    size = n + 1
    if size < 3:
        return 0
    # pure, by card identity: a sequence, a trial, a tunnela
    if i_suit == ks and i_ranks >= 0 and not (i_ranks >> kr) & 1:
        span = _mask_span(i_ranks | (1 << kr))
        if span == size and span <= MAX_SEQUENCE:
            return 2
    if i_rank == kr and i_suits >= 0 and not (i_suits >> ks) & 1 and size <= MAX_TRIAL:
        return 2
    if tun and size == 3 and pair == k:
        return 2
    # a meld with a wild card: the natural cards (and k, if natural) as a trial or a
    # sequence (``trial_ok``, ``seq_span``)
    if k_wild:
        trial = nat == 0 or (n_rank >= 0 and n_suits >= 0)
        ranks = 0 if nat == 0 else n_ranks
    elif nat + 1 == size:
        return 0  # every card natural, and not pure
    elif nat == 0:
        trial = True
        ranks = 1 << kr
    else:
        trial = n_rank == kr and n_suits >= 0 and not (n_suits >> ks) & 1
        fits = n_suit == ks and n_ranks >= 0 and not (n_ranks >> kr) & 1
        ranks = n_ranks | (1 << kr) if fits else -1
    if size <= MAX_TRIAL and trial:
        return 1
    if ranks < 0:
        return 0
    span = _mask_span(ranks) if ranks else 0
    return 1 if span <= size <= MAX_SEQUENCE else 0
