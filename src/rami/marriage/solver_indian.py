"""Exact solvers for melds of three or more cards (``at_least3``, the ``indian`` preset).

Validity. With melds of any size and any number of wild cards, a wild card can stand
for any missing card, so wild cards are a count (the *pool*). A meld is then judged by
its natural cards: a sequence needs ``max(3, span) - size`` pool cards (its gaps and
padding) and can take more up to 13 cards; a trial needs ``3 - size`` and holds at most
four. Left-over pool cards go into melds with room, or form an all-wild meld of three
or more.

Search. The natural cards are placed lowest kind first. The lowest card ``c`` is
dropped (exchange counting only), or starts a new meld, or joins one of the player's
table melds (M-10). A new or joined sequence is chosen as a window of ranks from ``c``
and takes every natural card held inside the window (one of each rank): a card inside
the window but used elsewhere could swap with the pool card filling its place, so this
loses nothing. Failed states are memoised.

Purity (M-6: three pure melds stay on the table). Pure melds are chosen first: three
of the player's pure table melds (*protected*: they only take cards that keep them
pure, wild cards as themselves included), or new pure melds from the hand. The rest is
searched as above; a check without purity rejects most holdings at once.

Exchange counting (N-3) adds *jokers*, cards taken in: they fill pool slots, or are the
exact cards a pure meld lacks. The copies left in the decks are not checked here: with
three or more decks the exact cards a holding near its finish lacks are available.
Pure melds from the hand are then *cores* (a window's held cards, the exact cards it
lacks taken in) laid as they are; the cores of the melds found without purity are
tried first, which spares the full enumeration of cores almost always.
"""

from __future__ import annotations

# rami: compiled with mypyc in the accelerated build
import itertools
import operator
from collections.abc import Iterator, Sequence
from itertools import compress

from rami.cards import CARDS, KINDS, Card
from rami.marriage.melds import MAX_SEQUENCE, MAX_TRIAL, is_pure_meld, seq_span
from rami.marriage.rules import MarriageRules
from rami.memo import BoundedMemo, GenerationMemo
from rami.runs import POSITIONS, RUN_KINDS, kind_at, positions, three_windows, threes_held

__all__ = ["arrange_indian", "indian_discards", "indian_finish", "indian_missing"]

PURE_ON_TABLE = 3  # M-6: melds that must stay pure on the table


#: Per kind k: its unit in ``_Search.rkey`` (four bits a kind).
_NIBBLE = tuple(1 << (4 * k) for k in range(52))
_KIND_RANGE52 = range(52)


class WorkSpent(Exception):
    """A bounded search used up its budget of states (``indian_missing_bound``)."""


def trial_ok(cards: Sequence[int]) -> bool:
    if not cards:
        return True
    rank = cards[0] % 13
    return all(c % 13 == rank for c in cards) and len({c // 13 for c in cards}) == len(cards)


def _dirty_facts(cards: Sequence[int], wild: Sequence[bool], tun: bool) -> tuple[int, int]:
    """(pool cards needed, pool cards it could take in all) for a meld; need -1: never."""
    size = len(cards)
    nat = [c for c in cards if not wild[c]]
    span = seq_span(nat)
    if span is not None and size <= MAX_SEQUENCE and span <= MAX_SEQUENCE:
        return max(0, max(3, span) - size), MAX_SEQUENCE - size
    if size <= MAX_TRIAL and trial_ok(nat):
        return max(0, 3 - size), MAX_TRIAL - size
    if tun and size == 3 and cards[0] == cards[1] == cards[2]:
        return 0, 0
    return -1, -1


#: Per (sorted meld, wild kinds as a bit mask, tunnelas allowed): ``_dirty_facts``. A
#: search asks it at every state for each table meld it may join, and for each way of
#: joining one. Keys of ints only: the cyclic GC stops tracking them.
_DIRTY_FACTS: GenerationMemo[tuple[tuple[int, ...], int, bool], tuple[int, int]] = GenerationMemo(
    100_000, name="indian.dirty_facts", shared=True
)

#: Per (table meld, wild mask): ``_shape_of``, what ``_Search._joins`` reads of a meld.
_SHAPES: GenerationMemo[tuple[tuple[int, ...], int], tuple[int, int, int, int]] = GenerationMemo(
    20_000, name="indian.join_shapes", shared=True
)

#: Per wild kinds: (kind -> is it wild, the kinds as a bit mask), read-only. A tiplu
#: gives one of 52 sets (and none): its own small bound.
_WILD_ROWS: GenerationMemo[frozenset[int], tuple[list[bool], int]] = GenerationMemo(
    64, name="indian.wild_rows"
)


def _wild_row(wilds: frozenset[int]) -> tuple[list[bool], int]:
    """``_WILD_ROWS`` of ``wilds``: the searches and the quick no read kinds by index."""
    got = _WILD_ROWS.table.get(wilds)
    if got is None:
        row = [k in wilds for k in range(KINDS)]
        got = _WILD_ROWS.remember(wilds, (row, sum(1 << k for k in wilds)))
    return got


#: Per wild kinds (bits): the nibbles of ``_Search.rkey`` of the natural kinds (every
#: kind below 52 but the wild ones), the kinds whose lowest held one ``_Search._dfs``
#: places next. A tiplu gives one of 52 sets: a small bound.
_NAT_NIBBLES: dict[int, int] = {}


def _nat_nibbles(wmask: int) -> int:
    got = _NAT_NIBBLES.get(wmask)
    if got is None:
        if len(_NAT_NIBBLES) >= 64:
            _NAT_NIBBLES.clear()
        got = _NAT_NIBBLES[wmask] = sum(0xF << (4 * k) for k in range(52) if not (wmask >> k) & 1)
    return got


def _shape_of(g: Sequence[int], wild: Sequence[bool]) -> tuple[int, int, int, int]:
    """(the rank of every natural card or -1, bit mask of their suits, their one suit, -1
    for several or 4 for none, bit mask of their ranks) of table meld ``g``."""
    rank = suit = -1
    suits = ranks = 0
    same_rank = same_suit = True
    for x in g:
        if wild[x]:
            continue
        xs, xr = divmod(x, 13)
        if suit == -1:
            suit, rank = xs, xr
        same_rank = same_rank and xr == rank
        same_suit = same_suit and xs == suit
        suits |= 1 << xs
        ranks |= 1 << xr
    if suit == -1:
        return -1, 0, 4, 0
    return (rank if same_rank else -1), suits, (suit if same_suit else -1), ranks


_PURE_FACTS: GenerationMemo[tuple[tuple[int, ...], bool], tuple[int, int]] = GenerationMemo(
    100_000, name="indian.pure_facts", shared=True
)


def _pure_facts(cards: tuple[int, ...], tun: bool) -> tuple[int, int]:
    """(exact cards missing, exact cards it could take in all) to be a pure meld.

    Remembered: the searches ask it for the same grown table melds again and again."""
    key = (cards, tun)
    got = _PURE_FACTS.table.get(key)
    if got is None:
        got = _PURE_FACTS.remember(key, _pure_facts_of(cards, tun))
    return got


def _pure_facts_of(cards: Sequence[int], tun: bool) -> tuple[int, int]:
    size = len(cards)
    span = seq_span(cards)
    if span is not None and span <= MAX_SEQUENCE and size <= MAX_SEQUENCE:
        return max(3, span) - size, MAX_SEQUENCE - size
    if size <= MAX_TRIAL and trial_ok(cards):
        return max(0, 3 - size), MAX_TRIAL - size
    if tun and size <= 3 and all(c == cards[0] for c in cards):
        return 3 - size, 3 - size
    return -1, -1


def _gap_dead(grown: tuple[int, ...], held: Sequence[int]) -> bool:
    """True when the pure sequence ``grown`` has a gap no card left can fill.

    Without jokers (a finish) a protected meld's gaps need held cards of those exact
    kinds; the search places the lowest kinds first, so a gap of a kind no longer
    held (placed, dropped, or never there) stays a gap.
    """
    gaps = _GAPS.table.get(grown)
    if gaps is None:
        gaps = _GAPS.remember(grown, _gap_kinds(grown))
    return not any(all(held[k] for k in kinds) for kinds in gaps)


#: Per grown pure sequence: the kinds filling its gaps, for each place of an ace.
_GAPS: GenerationMemo[tuple[int, ...], tuple[tuple[int, ...], ...]] = GenerationMemo(
    100_000, name="indian.gaps", shared=True
)


def _gap_kinds(grown: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    suit = grown[0] // 13
    ranks = [x % 13 + 1 for x in grown]
    aces = 1 in ranks
    others = {r for r in ranks if r != 1}
    out = []
    for ace_pos in POSITIONS[0] if aces else (0,):
        pos = others | {ace_pos} if aces else others
        out.append(tuple(kind_at(suit, p) for p in range(min(pos), max(pos) + 1) if p not in pos))
    return tuple(out)


class _Search:
    """Place the cards of ``hand`` among table melds and new melds (module docstring).

    ``table``: the player's table melds; ``protected``: indices of those that must stay
    pure. ``jokers`` and ``drops``: cards that may be taken in / left out. ``target``:
    hand cards plus jokers that the melds hold in the end. ``fixed_exact`` and
    ``fixed_kept``: exact jokers and hand cards already used by pure melds chosen
    outside; ``pure_room``: whether some pure meld could take exact cards beyond that.
    """

    def __init__(
        self,
        hand: Sequence[int],
        rules: MarriageRules,
        wilds: frozenset[int],
        table: Sequence[Sequence[int]],
        protected: frozenset[int],
        jokers: int,
        drops: int,
        target: int,
        fixed_exact: int = 0,
        fixed_kept: int = 0,
        pure_room: bool = False,
        failed: set[tuple[object, ...]] | None = None,
        skip: list[bool] | None = None,
        drop_wilds: bool = False,
        budget: list[int] | None = None,
        floors: Sequence[int] = (),
        arrange: bool = True,
        found: dict[int, tuple[tuple[int, ...], ...]] | None = None,
    ) -> None:
        self.rules = rules
        self.tun = rules.tunnela_melds
        self.wild, self.wmask = _wild_row(wilds)
        self.nat4 = _nat_nibbles(self.wmask)  # the natural kinds' nibbles of ``rkey``
        self.hand0 = list(hand[:52])
        R = self.R = list(hand[:52])
        rkey = wild_left = 0
        wild = self.wild
        for k in compress(_KIND_RANGE52, R):  # the kinds held
            n = R[k]
            rkey += n << (4 * k)
            if wild[k]:
                wild_left += n
        self.rkey = rkey
        self.wild_left = wild_left
        self.jokers = jokers
        self.drops = drops
        self.target = target
        self.fixed_exact = fixed_exact
        self.fixed_kept = fixed_kept
        self.pure_room = pure_room
        self.table0 = tuple(tuple(sorted(g)) for g in table)
        self.protected = protected
        # ``failed`` may be shared by searches of the same parameters (the states hold
        # everything else); ``skip`` marks kinds not to leave out (answered already: it
        # only grows, so the failures stay failures).
        self.failed: set[tuple[object, ...]] = set() if failed is None else failed
        self.skip = skip
        self.drop_wilds = drop_wilds
        self.arrange = arrange  # False: a success leaves ``result`` empty (not needed)
        # Collecting (``_collect``): a success adds its discard to ``found`` and bars it
        # (``skip``), and the search goes on from the frame that left the card out, as a
        # new search barring it would (module docstring of ``_collect``).
        self.found = found
        self.budget = budget  # [search states left]: ``WorkSpent`` when it runs out
        # Per table meld, ``_floor``: -1, or the bound below which a chosen core grows not.
        self.floors = tuple(floors) + (-1,) * (len(self.table0) - len(floors))
        self.drop_stack: list[int] = []
        self.dropped_card: int | None = None
        self.result: list[tuple[int, ...]] | None = None
        self.new_melds: tuple[tuple[int, ...], ...] = ()  # the hand's new melds, found
        spare = 0
        # A table meld is valid (M-10), so it needs no pool card: the leaf counts only the
        # pool cards of the melds the search grows or lays. One that does (no deal gives
        # it, a sample with an impossible tiplu did) has no finish: ``run`` says no, where
        # the leaf would pass and ``_groups`` run out of wild cards.
        self.invalid_table = False
        for i, g in enumerate(self.table0):
            if i not in protected:
                need, cap = self._dirty(g)
                spare += cap - need
                if need:
                    self.invalid_table = True
        self.spare0 = spare

    # -- helpers --------------------------------------------------------------------------

    def _dirty(self, g: tuple[int, ...]) -> tuple[int, int]:
        """``_dirty_facts`` of the sorted meld ``g``, remembered (``_DIRTY_FACTS``)."""
        key = (g, self.wmask, self.tun)
        got = _DIRTY_FACTS.table.get(key)
        if got is None:
            got = _DIRTY_FACTS.remember(key, _dirty_facts(g, self.wild, self.tun))
        return got

    def _below(self, t: int, c: int) -> bool:
        """Whether ``c`` would go below the chosen core ``t`` (``_floor``)."""
        return _under(self.floors[t], c)

    def _take(self, k: int) -> None:
        self.R[k] -= 1
        self.rkey -= 1 << (4 * k)
        if self.wild[k]:
            self.wild_left -= 1

    def _give(self, k: int) -> None:
        self.R[k] += 1
        self.rkey += 1 << (4 * k)
        if self.wild[k]:
            self.wild_left += 1

    def _window_cards(self, c: int, pos_c: int, hi: int, skip: int) -> list[int]:
        """Natural cards held at positions (pos_c, hi] of c's suit, one per rank, but the
        ranks of bit mask ``skip``."""
        row = RUN_KINDS[c // 13]
        R = self.R
        wild = self.wild
        out = []
        for p in range(pos_c + 1, hi + 1):
            k = row[p]
            if k != c and not (skip >> (k % 13)) & 1 and R[k] and not wild[k]:
                out.append(k)
        return out

    def _his(self, c: int, pos_c: int, start: int) -> list[int]:
        """Window ends worth trying: ``start`` and each held natural position above it."""
        row = RUN_KINDS[c // 13]
        R = self.R
        wild = self.wild
        his = [start]
        for p in range(start + 1, min(14, pos_c + MAX_SEQUENCE - 1) + 1):
            k = row[p]
            if k != c and R[k] and not wild[k]:
                his.append(p)
        return his

    # -- search ---------------------------------------------------------------------------

    def run(self) -> bool:
        if self.invalid_table:
            return False
        if self.budget is not None:
            self.budget[0] -= 8  # setting a search up costs about that many states
        opened = tuple(True for _ in self.table0)
        return self._dfs(0, self.table0, opened, (), 0, 0, 0, self.spare0, 0)

    def _dfs(
        self,
        idx: int,
        table: tuple[tuple[int, ...], ...],
        opened: tuple[bool, ...],
        new: tuple[tuple[int, ...], ...],
        pool: int,
        dropped: int,
        need: int,
        spare: int,
        kept: int,
    ) -> bool:
        # the lowest natural kind held from ``idx`` on (52: none), read from ``rkey``
        x = (self.rkey & self.nat4) >> (4 * idx)
        idx = idx + (((x & -x).bit_length() - 1) >> 2) if x else 52
        if need > pool + self.wild_left + self.jokers:
            return False
        low = spare if spare < 2 else 2  # min(spare, 2) without the call
        key = (self.rkey, table, opened, pool, dropped, need, low, kept, idx < 52)
        if key in self.failed:
            return False
        budget = self.budget
        if budget is not None:
            budget[0] -= 1
            if budget[0] < 0:
                raise WorkSpent
        if idx < 52:
            ok = self._natural(idx, table, opened, new, pool, dropped, need, spare, kept)
        else:
            ok = self._wild_phase(table, opened, new, pool, dropped, need, spare, kept)
        if not ok:
            self.failed.add(key)
        return ok

    def _natural(
        self,
        c: int,
        table: tuple[tuple[int, ...], ...],
        opened: tuple[bool, ...],
        new: tuple[tuple[int, ...], ...],
        pool: int,
        dropped: int,
        need: int,
        spare: int,
        kept: int,
    ) -> bool:
        """Place ``c``, the lowest natural card left. Every state below holds no natural
        card under ``c`` (the cards it takes with ``c`` are above it), so their scan for
        the next lowest starts at ``c``."""
        wild = self.wild
        tun = self.tun
        s, r = divmod(c, 13)
        self._take(c)
        avail = pool + self.wild_left + self.jokers  # pool cards the melds may still get
        try:
            # new sequences: windows of ranks from c's position up (the ace low), each
            # ending at c or at a natural card held above it and taking every natural
            # card held inside (``_window_cards``; ``_place`` gives back all it takes, so
            # the cards held are the same from one window to the next)
            row = RUN_KINDS[s]
            R = self.R
            pos_c = r + 1
            # the highest kind a window from c reaches: the king (13 ranks from c's
            # position at least; no natural card under c is held, so neither is the ace
            # of its suit but c itself)
            base = s * 13
            last = base + 12
            nat = self.rkey & self.nat4  # the natural cards held (``_place`` gives back)
            cards: list[int] = []  # the natural cards held in (pos_c, hi]
            hi = pos_c
            while True:
                span = hi - pos_c + 1
                n = 1 + len(cards)
                full = span if span > 3 else 3
                g_need = full - n
                if need + g_need <= avail:
                    g_spare = MAX_SEQUENCE - full
                    if self._place(
                        cards, c, table, opened, new, pool, dropped,
                        need + g_need, spare + g_spare, kept + n,
                    ):  # fmt: skip
                        return True
                    if n > 2 and self._place_variants(
                        cards[:-1], cards, c, table, opened, new, pool, dropped,
                        need + g_need + 1, spare + g_spare, kept + n - 1,
                    ):  # fmt: skip
                        return True
                elif span >= 3:
                    # ``_place`` would say no at once, and to every longer window: from
                    # three ranks on, each held card further adds a rank or more
                    break
                # the next natural card held above position hi (kind base + hi - 1)
                x = nat >> (4 * (base + hi))
                if not x:
                    break
                k = base + hi + (((x & -x).bit_length() - 1) >> 2)
                if k > last:
                    break
                hi = k - base + 1
                cards.append(k)
            if r == 0:
                # the ace high: windows [lo, 14] holding every natural card in them, lo
                # at 14 or at a natural card held (2 … 13)
                ups = [k for k in row[2:14] if R[k] and not wild[k]]
                ups.append(-1)  # the window of the ace alone (lo 14)
                for i, lo_k in enumerate(ups):
                    span = 14 - lo_k % 13 if lo_k >= 0 else 1  # lo_k at position lo_k % 13 + 1
                    cards = ups[i:-1]
                    n = 1 + len(cards)
                    full = span if span > 3 else 3
                    if need + full - n > avail:
                        continue  # ``_place`` would say no at once, and its variants
                    if self._place(
                        cards, c, table, opened, new, pool, dropped,
                        need + full - n, spare + MAX_SEQUENCE - full, kept + n,
                    ):  # fmt: skip
                        return True
                    if n > 2 and self._place_variants(
                        cards[1:], cards, c, table, opened, new, pool, dropped,
                        need + full - n + 1, spare + MAX_SEQUENCE - full, kept + n - 1,
                    ):  # fmt: skip
                        return True
            # new trials
            others = [
                t * 13 + r for t in range(s + 1, 4) if self.R[t * 13 + r] and not wild[t * 13 + r]
            ]
            for size in range(1, len(others) + 1):
                for combo in itertools.combinations(others, size):
                    n = 1 + size
                    if self._place(
                        list(combo),
                        c,
                        table,
                        opened,
                        new,
                        pool,
                        dropped,
                        need + max(0, 3 - n),
                        spare + MAX_TRIAL - max(3, n),
                        kept + n,
                    ):
                        return True
            if (
                tun
                and self.R[c] >= 2
                and self._place([c, c], c, table, opened, new, pool, dropped, need, spare, kept + 3)
            ):
                return True
            # join a table meld
            for t, g in enumerate(table):
                if not opened[t]:
                    continue
                if t in self.protected:
                    if (g and g[0] // 13 != s and g[0] % 13 != r) or self._below(t, c):
                        continue  # a pure meld takes its suit (a sequence) or rank (a trial)
                    grown = tuple(sorted((*g, c)))
                    p_need, _ = _pure_facts(grown, tun)
                    if p_need < 0 or (p_need and not self.jokers and _gap_dead(grown, self.R)):
                        continue
                    nt = (*table[:t], grown, *table[t + 1 :])
                    if self._dfs(c, nt, opened, new, pool, dropped, need, spare, kept + 1):
                        return True
                    continue
                shape = _SHAPES.table.get((g, self.wmask))
                if shape is not None:  # ``_joins`` would find no way (its first tests)
                    t_rank, suits, one_suit, ranks = shape
                    if not (t_rank == r and not (suits >> s) & 1) and (
                        (one_suit != s and one_suit != 4) or (ranks >> r) & 1
                    ):
                        continue
                joins = self._joins(c, g, dropped, table)
                if not joins:
                    continue
                old_need, old_cap = self._dirty(g)
                old_spare = old_cap - old_need
                for union, n, gone in joins:
                    grown = tuple(sorted(union))
                    g_need, g_cap = self._dirty(grown)
                    if g_need < 0:
                        continue
                    for k in union[len(g) + 1 :]:
                        self._take(k)
                    if gone >= 0:  # the discard, from inside the window
                        self._take(gone)
                        self.drop_stack.append(gone)
                    nt = (*table[:t], grown, *table[t + 1 :])
                    no = (*opened[:t], False, *opened[t + 1 :])
                    ok = self._dfs(
                        c,
                        nt,
                        no,
                        new,
                        pool,
                        dropped + (gone >= 0),
                        need + g_need,
                        spare - old_spare + g_cap - g_need,
                        kept + n,
                    )
                    if gone >= 0:
                        self.drop_stack.pop()
                        self._give(gone)
                        if ok and self.found is not None:
                            ok = False  # collected: the next way
                    for k in union[len(g) + 1 :]:
                        self._give(k)
                    if ok:
                        return True
            if dropped < self.drops and (self.skip is None or not self.skip[c]):
                self.drop_stack.append(c)
                ok = self._dfs(c, table, opened, new, pool, dropped + 1, need, spare, kept)
                self.drop_stack.pop()
                if ok and self.found is None:
                    return True
        finally:
            self._give(c)
        return False

    def _joins(
        self, c: int, g: tuple[int, ...], dropped: int, table: tuple[tuple[int, ...], ...]
    ) -> list[tuple[tuple[int, ...], int, int]]:
        """Ways for ``c`` to join table meld ``g``: (g + c + more cards, cards added, the
        card left out from inside the window or -1).

        A sequence window takes every natural card held inside it (a card used elsewhere
        could swap with the pool card filling its place), except: up to as many cards as
        ``g`` holds wild cards (a table card cannot swap: its wild cards fill those places
        for nothing), and the discard (``drops``; it cannot swap either). The ace high
        takes windows below it: the cards there are placed after it (M-4, M-10).
        A list, built at once: the search gives back every card it takes before it
        reads the next way, so the cards held are the same as when they were listed."""
        out: list[tuple[tuple[int, ...], int, int]] = []
        wild = self.wild
        s, r = divmod(c, 13)
        key = (g, self.wmask)
        shape = _SHAPES.table.get(key)
        if shape is None:
            shape = _SHAPES.remember(key, _shape_of(g, wild))
        t_rank, suits, one_suit, ranks = shape
        R = self.R
        if t_rank == r and not (suits >> s) & 1:
            # a trial: c and maybe other suits of its rank
            others = [
                t * 13 + r
                for t in range(s + 1, 4)
                if R[t * 13 + r] and not wild[t * 13 + r] and not (suits >> t) & 1
            ]
            for size in range(0, len(others) + 1):
                for combo in itertools.combinations(others, size):
                    if len(g) + 1 + size <= MAX_TRIAL:
                        out.append(((*g, c, *combo), 1 + size, -1))
        if one_suit != s and one_suit != 4:
            return out  # natural cards of another suit: no sequence with c
        if (ranks >> r) & 1:
            return out
        table_wilds = sum(1 for x in g if wild[x])
        may_drop = dropped < self.drops
        for pos_c in positions(r):
            windows: list[tuple[list[int], list[int]]] = []  # (cards, inner cards)
            for hi in self._his(c, pos_c, pos_c):
                cards = self._window_cards(c, pos_c, hi, ranks)
                windows.append((cards, cards[:-1]))
            if pos_c == 14:
                row = RUN_KINDS[s]
                for lo in range(2, 14):
                    k = row[lo]
                    if not R[k] or wild[k] or (ranks >> (k % 13)) & 1:
                        continue
                    cards = [
                        row[p]
                        for p in range(lo, 14)
                        if R[row[p]] and not wild[row[p]] and not (ranks >> (row[p] % 13)) & 1
                    ]
                    windows.append((cards, cards[1:]))
            for cards, inner in windows:
                if len(g) + 1 + len(cards) > MAX_SEQUENCE:
                    continue
                out.append(((*g, c, *cards), 1 + len(cards), -1))
                for cut in self._pure_cuts(s, inner, table):
                    kept_cards = [k for k in cards if k not in cut]
                    union = (*g, c, *kept_cards)
                    out.append((union, 1 + len(kept_cards), -1))
                    if may_drop:
                        for k in kept_cards[:-1]:
                            if self.skip is None or not self.skip[k]:
                                left_cards = [x for x in kept_cards if x != k]
                                out.append(((*g, c, *left_cards), 1 + len(left_cards), k))
                most = min(len(inner), table_wilds + (1 if may_drop else 0))
                for size in range(1, most + 1):
                    for left in itertools.combinations(inner, size):
                        kept_cards = [k for k in cards if k not in left]
                        union = (*g, c, *kept_cards)
                        if size <= table_wilds:
                            out.append((union, 1 + len(kept_cards), -1))
                        if may_drop:
                            for k in dict.fromkeys(left):
                                if size - 1 <= table_wilds and (
                                    self.skip is None or not self.skip[k]
                                ):
                                    out.append((union, 1 + len(kept_cards), k))
        return out

    def _pure_cuts(
        self, s: int, inner: Sequence[int], table: tuple[tuple[int, ...], ...]
    ) -> list[list[int]]:
        """Sets of ``inner`` cards (of suit ``s``, inside a sequence window) that a protected
        pure meld could take instead: a run of positions next to an end of a protected
        sequence of the suit, or the missing suit of a protected trial. Such a card cannot
        swap with the pool card filling its place (the meld must stay pure: M-6)."""
        if not self.protected or not inner:
            return []
        held = set(inner)
        out: list[list[int]] = []
        for t in self.protected:
            g = table[t]
            if not g:
                continue
            if g[0] % 13 == g[-1] % 13 and g[0] != g[-1]:  # a trial: its missing suit
                k = s * 13 + g[0] % 13
                if k in held and all(x // 13 != s for x in g) and len(g) < MAX_TRIAL:
                    out.append([k])
                continue
            if any(x // 13 != s for x in g):
                continue
            ranks = [x % 13 + 1 for x in g]
            for ace in (1, 14) if 1 in ranks else (0,):
                pos = sorted(ace if r == 1 else r for r in ranks)
                for step, edge in ((-1, pos[0]), (1, pos[-1])):
                    run: list[int] = []
                    p = edge + step
                    while 1 <= p <= 14 and kind_at(s, p) in held:
                        run.append(kind_at(s, p))
                        out.append(list(run))
                        p += step
        return out

    def _place_variants(
        self,
        inner: list[int],
        cards: list[int],
        c: int,
        table: tuple[tuple[int, ...], ...],
        opened: tuple[bool, ...],
        new: tuple[tuple[int, ...], ...],
        pool: int,
        dropped: int,
        need: int,
        spare: int,
        kept: int,
    ) -> bool:
        """``_place`` of a new sequence's window ``cards`` but some of its ``inner`` cards:
        cards a protected pure meld takes instead (``_pure_cuts``), and the discard (M-8):
        neither can swap with the pool card filling its place. ``need`` and ``kept`` are
        for the window less one card."""
        cuts: list[list[int]] = [[]]
        cuts += self._pure_cuts(c // 13, inner, table)
        may_drop = dropped < self.drops
        for cut in cuts:
            rest = [k for k in cards if k not in cut]
            more = len(cut) - 1  # ``need`` and ``kept`` count one card left out already
            if cut and self._place(
                rest, c, table, opened, new, pool, dropped, need + more, spare, kept - more
            ):
                return True
            if not may_drop:
                continue
            for k in dict.fromkeys(x for x in inner if x not in cut):
                if self.skip is not None and self.skip[k]:
                    continue
                left = list(rest)
                left.remove(k)
                self._take(k)
                self.drop_stack.append(k)
                ok = self._place(
                    left, c, table, opened, new, pool, dropped + 1, need + len(cut), spare,
                    kept - len(cut),
                )  # fmt: skip
                self.drop_stack.pop()
                self._give(k)
                if ok and self.found is None:
                    return True
        return False

    def _place(
        self,
        cards: list[int],
        c: int,
        table: tuple[tuple[int, ...], ...],
        opened: tuple[bool, ...],
        new: tuple[tuple[int, ...], ...],
        pool: int,
        dropped: int,
        need: int,
        spare: int,
        kept: int,
    ) -> bool:
        if need > pool + self.wild_left + self.jokers:
            return False  # ``_dfs``'s first test, before any work (``cards`` are natural)
        R = self.R
        delta = 0
        for k in cards:  # ``_take`` inlined: natural cards
            R[k] -= 1
            delta += _NIBBLE[k]
        self.rkey -= delta
        group = tuple(sorted((c, *cards)))
        nn = (*new, group)  # sorted at the leaf (``_leaf``): no state key holds it
        ok = self._dfs(c, table, opened, nn, pool, dropped, need, spare, kept)
        for k in cards:
            R[k] += 1
        self.rkey += delta
        return ok

    def _wild_phase(
        self,
        table: tuple[tuple[int, ...], ...],
        opened: tuple[bool, ...],
        new: tuple[tuple[int, ...], ...],
        pool: int,
        dropped: int,
        need: int,
        spare: int,
        kept: int,
    ) -> bool:
        x = self.rkey  # only wild cards are held now: the lowest held is the next
        if not x:
            return self._leaf(table, new, pool, need, spare, kept)
        w = ((x & -x).bit_length() - 1) >> 2
        self._take(w)
        try:
            if self._dfs(52, table, opened, new, pool + 1, dropped, need, spare, kept):
                return True
            for t in self.protected:
                if self._below(t, w):
                    continue
                grown = tuple(sorted((*table[t], w)))
                p_need = _pure_facts(grown, self.tun)[0]
                if p_need < 0 or (p_need and not self.jokers and _gap_dead(grown, self.R)):
                    continue
                nt = (*table[:t], grown, *table[t + 1 :])
                if self._dfs(52, nt, opened, new, pool, dropped, need, spare, kept + 1):
                    return True
            if self.drop_wilds and dropped < self.drops and (self.skip is None or not self.skip[w]):
                self.drop_stack.append(w)
                ok = self._dfs(52, table, opened, new, pool, dropped + 1, need, spare, kept)
                self.drop_stack.pop()
                if ok and self.found is None:
                    return True
        finally:
            self._give(w)
        return False

    def _leaf(
        self,
        table: tuple[tuple[int, ...], ...],
        new: tuple[tuple[int, ...], ...],
        pool: int,
        need: int,
        spare: int,
        kept: int,
    ) -> bool:
        exact = self.fixed_exact
        room = self.pure_room
        for t in self.protected:
            p_need, p_cap = _pure_facts(table[t], self.tun)
            if p_need < 0:
                return False
            exact += p_need
            if p_cap > p_need:
                room = True
        if exact > self.jokers:
            return False
        slots = self.target - kept - self.fixed_kept
        if self.drop_wilds and slots < pool:
            return False  # a wild card left out is dropped by name (``_wild_phase``)
        extra = slots - need - exact
        if extra < 0:
            return False
        if extra in (1, 2) and spare < extra:
            if not (self.jokers and room):
                return False
            exact += extra  # exact cards lengthen a pure meld
        if max(exact, slots - pool) > self.jokers:
            return False
        new = tuple(sorted(new))
        self.new_melds = new
        self.dropped_card = self.drop_stack[-1] if self.drop_stack else None
        self.result = self._groups(table, new, pool, need, extra, spare) if self.arrange else []
        found = self.found
        if found is not None:
            d = self.dropped_card
            assert d is not None and self.skip is not None
            found[d] = tuple(self.result)
            self.skip[d] = True
        return True

    def _groups(
        self,
        table: tuple[tuple[int, ...], ...],
        new: tuple[tuple[int, ...], ...],
        pool: int,
        need: int,
        extra: int,
        spare: int,
    ) -> list[tuple[int, ...]]:
        """The melds of a finish (no jokers): pool cards dealt where needed."""
        if self.jokers:
            return []
        placed = [c for g in (*table, *new) for c in g]
        for g in self.table0:
            for c in g:
                placed.remove(c)
        wilds = [k for k in range(52) if self.wild[k] for _ in range(self.hand0[k])]
        for c in (*placed, *self.drop_stack):
            if self.wild[c]:
                wilds.remove(c)
        assert len(wilds) == pool
        melds = [list(m) for m in (*table, *new)]
        caps = []
        for i, meld in enumerate(melds):
            if i < len(table) and i in self.protected:
                caps.append(0)
                continue
            m_need, m_cap = _dirty_facts(meld, self.wild, self.tun)
            for _ in range(m_need):
                meld.append(wilds.pop())
            caps.append(m_cap - m_need)
        if len(wilds) >= 3:
            melds.append(wilds)
        else:
            for i, meld in enumerate(melds):
                while caps[i] and wilds:
                    meld.append(wilds.pop())
                    caps[i] -= 1
        return [tuple(m) for m in melds]


def _pure_options(hand: Sequence[int], rules: MarriageRules) -> list[tuple[int, ...]]:
    """Every pure meld (by card identity) the count vector ``hand`` holds."""
    out: list[tuple[int, ...]] = []
    for s in range(4):
        for lo in range(1, 13):
            run: list[int] = []
            for p in range(lo, min(14, lo + MAX_SEQUENCE - 1) + 1):
                k = kind_at(s, p)
                if not hand[k] or k in run:
                    break
                run.append(k)
                if len(run) >= 3:
                    out.append(tuple(sorted(run)))
    for r in range(13):
        suits = [t for t in range(4) if hand[t * 13 + r]]
        for size in (3, 4):
            for combo in itertools.combinations(suits, size):
                out.append(tuple(t * 13 + r for t in combo))
    if rules.tunnela_melds:
        out.extend((k, k, k) for k in range(52) if hand[k] >= 3)
    return [m for m in dict.fromkeys(out) if is_pure_meld(list(m), rules)]


def _disjoint_choices(
    hand: Sequence[int], options: Sequence[tuple[int, ...]], count: int
) -> Iterator[tuple[tuple[int, ...], ...]]:
    yield from _walk_choices(list(hand), options, count, 0, [])


def _walk_choices(
    left: list[int],
    options: Sequence[tuple[int, ...]],
    count: int,
    start: int,
    chosen: list[tuple[int, ...]],
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """``_disjoint_choices`` from ``options[start:]``, ``chosen`` taken out of ``left``
    already (a module function: a recursive closure is a reference cycle)."""
    if len(chosen) == count:
        yield tuple(chosen)
        return
    for i in range(start, len(options)):
        meld = options[i]
        for c in meld:
            left[c] -= 1
        if min(left[c] for c in meld) >= 0:
            chosen.append(meld)
            yield from _walk_choices(left, options, count, i, chosen)
            chosen.pop()
        for c in meld:
            left[c] += 1


def _finish_search(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    table: Sequence[Sequence[int]],
    pure_needed: int,
) -> list[tuple[int, ...]] | None:
    total = sum(hand)
    relaxed = _Search(hand, rules, wilds, table, frozenset(), 0, 0, total)
    if not relaxed.run():
        return None
    if pure_needed == 0:
        return relaxed.result
    pure_table = [i for i, g in enumerate(table) if is_pure_meld(list(g), rules)]
    options = _pure_options(hand, rules)
    for j in range(min(pure_needed, len(pure_table)), -1, -1):
        for protected in itertools.combinations(pure_table, j):
            for chosen in _disjoint_choices(hand, options, pure_needed - j):
                rest = list(hand)
                for m in chosen:
                    for c in m:
                        rest[c] -= 1
                groups = [*table, *chosen]
                search = _Search(
                    rest,
                    rules,
                    wilds,
                    groups,
                    frozenset(protected) | frozenset(range(len(table), len(groups))),
                    0,
                    0,
                    sum(rest),
                )
                if search.run():
                    return search.result
    return None


def arrange_indian(
    hand: Sequence[int], rules: MarriageRules, wilds: frozenset[int]
) -> list[tuple[Card, ...]] | None:
    """Partition every card of ``hand`` into melds of three or more, or ``None``."""
    groups = _finish_search(hand, rules, wilds, (), 0)
    if groups is None:
        return None
    return [tuple(CARDS[c] for c in g) for g in groups]


def indian_finish(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    table: Sequence[Sequence[int]],
) -> list[tuple[Card, ...]] | None:
    """M-8 ``indian``: lay every card of ``hand`` on the table, as new melds or added to
    the player's table melds ``table``, all valid, three of them pure. Returns the
    table melds (each with its additions, in order) then the new ones; or ``None``."""
    if sum(hand) == 0:
        pure = sum(1 for g in table if is_pure_meld(list(g), rules))
        return [tuple(CARDS[c] for c in g) for g in table] if pure >= PURE_ON_TABLE else None
    groups = _finish_search(hand, rules, wilds, table, PURE_ON_TABLE)
    if groups is None:
        return None
    return [tuple(CARDS[c] for c in g) for g in groups]


_TRIAL_FLOOR = 100  # ``_floor`` of a trial: this plus the highest suit of its core


def _floor(core: Sequence[int]) -> int:
    """What a chosen three-card pure core may not grow below, so each pure meld of a
    finish is reached from one core only: its lowest three cards.

    A sequence core takes no card ranked below its lowest position (an ace may always
    come, high); a trial core takes no suit below its highest suit.
    """
    if core[0] // 13 == core[-1] // 13 and core[0] != core[-1]:
        ranks = [c % 13 for c in core]
        if 0 in ranks:
            return 12 if 12 in ranks else 1
        return min(ranks) + 1
    if core[0] == core[-1]:
        return -1  # a tunnela holds no more
    return _TRIAL_FLOOR + max(c // 13 for c in core)


def _under(floor: int, c: int) -> bool:
    """Whether card ``c`` is below ``floor`` (a ``_floor``; -1: nothing is)."""
    if floor < 0:
        return False
    if floor >= _TRIAL_FLOOR:
        return c // 13 < floor - _TRIAL_FLOOR
    r = c % 13
    return r != 0 and r + 1 < floor


def _pure_cores(hand: Sequence[int], rules: MarriageRules) -> list[tuple[int, ...]]:
    """The three-card pure melds ``hand`` holds: every pure meld holds one, and the
    search grows a protected meld with the cards that keep it pure, so choosing the
    pure melds of a finish among these loses nothing."""
    return [m for m in _pure_options(hand, rules) if len(m) == 3]


def _three_cores(hand: Sequence[int], tun: bool) -> list[tuple[int, ...]]:
    """``_pure_cores``, in its order, read from bits: per suit each three held positions
    in a row (ace low, then up to Q K A), per rank each three of the suits holding it,
    then (``tun``) each kind held three times. Equal to it: test_marriage_finish_shares."""
    out: list[tuple[int, ...]] = []
    rows = [0, 0, 0, 0]  # per suit, bit r: rank r held
    for k in compress(_KIND_RANGE52, hand):
        rows[k // 13] |= 1 << (k % 13)
    threes_held(rows, out)
    b0, b1, b2, b3 = rows
    trials = (b0 & b1 & (b2 | b3)) | (b2 & b3 & (b0 | b1))  # ranks held in 3 suits or more
    while trials:
        low = trials & -trials
        trials ^= low
        r = low.bit_length() - 1
        suits = [t for t in range(4) if (rows[t] >> r) & 1]
        for combo in itertools.combinations(suits, 3):
            out.append((combo[0] * 13 + r, combo[1] * 13 + r, combo[2] * 13 + r))
    if tun:
        out.extend((k, k, k) for k in range(52) if hand[k] >= 3)
    return out


#: Finishing discards per holding: (hand, wild kinds, table, rules) -> {discard: melds}.
_DROPS_MEMO: BoundedMemo[tuple[object, ...], dict[int, tuple[tuple[int, ...], ...]]] = BoundedMemo(
    2048, name="indian.drops"
)


class _RulesKey:
    """Rules in a memo key, hashed once: ``MarriageRules`` hashes all its fields at each
    lookup. Equal when the rules are equal."""

    __slots__ = ("h", "rules")

    def __init__(self, rules: MarriageRules) -> None:
        self.rules = rules
        self.h = hash(rules)

    def __hash__(self) -> int:
        return self.h

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _RulesKey):
            return NotImplemented
        return other.rules is self.rules or other.rules == self.rules


#: The last rules seen and their key (a deal asks with the same rules object each time).
_LAST_RULES: list[_RulesKey] = []


def _rules_key(rules: MarriageRules) -> _RulesKey:
    for last in _LAST_RULES[-1:]:  # read once: another thread may replace it
        if last.rules is rules:
            return last
    got = _RulesKey(rules)
    _LAST_RULES[:] = [got]
    return got


def finishing_discards(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    table: Sequence[Sequence[int]],
    arrange: bool = True,
) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Every discard after which ``hand`` goes to the table (M-8, M-10), with one
    arrangement each (the table melds with their additions, then the new melds); with
    ``arrange`` False each discard's arrangement may be left empty (the legal lists
    need the discards only: ``indian_discards``). The search is the same either way, so
    an arrangement asked later is the one it would have kept.

    One search answers all discards: the card left out is chosen inside the search,
    and after each success that card is barred and the search goes on from the frame
    that left it out (``_collect``; barring more drops only removes successes). Two
    quick nos come
    first (``_too_few_wilds``, ``_too_many_loners``). Purity (M-6) comes after a pass
    without it, which names the only candidates (no arrangements kept); then each choice
    of protected table melds and three-card pure cores from the hand
    (``_pure_choices``). With one choice only, it is searched at once. A discard's
    arrangement is the first the search reaches with it left out, whatever else is
    barred, so these shortcuts give the same arrangements
    (tests/test_marriage_finish_shares.py).
    """
    if sum(hand) > 1 and _quick_no(hand, rules, wilds, table):
        return {}  # before the memo: most holdings, each asked once a turn
    key = (bytes(hand), wilds, tuple(tuple(g) for g in table), _rules_key(rules))
    got = _DROPS_MEMO.get(key)
    # a finish holds a meld at least: an empty arrangement is one not kept
    if got is None or (arrange and got and not next(iter(got.values()))):
        got = _finishing_discards(hand, rules, wilds, table, quick=False, arrange=arrange)
        _DROPS_MEMO.put(key, got)
    return got


def finishing_arrangement(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    table: Sequence[Sequence[int]],
    discard: int,
) -> tuple[tuple[int, ...], ...] | None:
    """``finishing_discards(...)[discard]`` or None, the very arrangement: when the legal
    list's search kept the discards only, a search leaving out ``discard`` alone, each
    choice of pure melds in turn, stops at its first success, which is the one the
    search of every discard reaches for it (``_collect``: whatever else is barred)."""
    if sum(hand) > 1 and _quick_no(hand, rules, wilds, table):
        return None
    key = (bytes(hand), wilds, tuple(tuple(g) for g in table), _rules_key(rules))
    got = _DROPS_MEMO.get(key)
    if got is not None and discard not in got:
        return None
    if got is not None and got[discard]:
        return got[discard]
    if got is None or sum(hand) <= 1:
        got = finishing_discards(hand, rules, wilds, table)
        return got.get(discard)
    tun = rules.tunnela_melds
    pure_table = [i for i, g in enumerate(table) if not _pure_facts(tuple(g), tun)[0]]
    skip = [k != discard for k in range(KINDS)]
    for choice in _pure_choices(hand, pure_table, _three_cores(hand, tun)):
        found = _finish_with(hand, rules, wilds, table, choice, skip)
        if found:
            return found[discard]
    return None  # not reached: the discard finishes


def _quick_no(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    table: Sequence[Sequence[int]],
) -> bool:
    """The two quick nos of ``finishing_discards``, the one that refuses more first
    (seeded random play: 97 % of the holdings without a finish, against 79 %).

    The second is asked of holdings of ``_LONERS_FROM`` cards or more only: in seeded
    random play it refused 12 of the 1,967 smaller holdings the first let through, and
    costs more than their searches saved (issue 27); a larger holding's search is the
    long one (the bench's worst-hand classes hold 22 cards). Either way the answer is
    the search's: a quick no only spares it."""
    tun = rules.tunnela_melds
    if _too_few_wilds(hand, wilds, 1, table, tun):
        return True
    return sum(hand) >= _LONERS_FROM and _too_many_loners(hand, wilds, 1, table, tun)


#: The least holding ``_quick_no`` asks ``_too_many_loners`` about.
_LONERS_FROM = 14


def _collect(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    groups: Sequence[Sequence[int]],
    protected: frozenset[int],
    failed: set[tuple[object, ...]],
    skip: list[bool],
    found: dict[int, tuple[tuple[int, ...], ...]],
    floors: Sequence[int] = (),
    arrange: bool = True,
) -> None:
    """Add to ``found`` each card not ``skip``ped whose drop lets ``hand`` finish (with
    its arrangement, or with none when not ``arrange``).

    One search: a success records its discard ``d`` and bars it (``skip``), the frames
    below the one that left ``d`` out return at once (not remembered as failed), and
    that frame goes on with its next way. This is the search restarted from the root
    with ``d`` barred, without walking its path again: every state before the success
    failed already, and the frames of the path continue where they stood. So the
    discards come in the same order with the same arrangements (the first success
    leaving each out); a success always leaves one card out (``drops`` 1, wild cards
    left over dropped by name)."""
    target = sum(hand) - 1
    search = _Search(
        hand, rules, wilds, groups, protected, 0, 1, target,
        failed=failed, skip=skip, drop_wilds=True, floors=floors, arrange=arrange, found=found,
    )  # fmt: skip
    search.run()


def _too_many_loners(
    hand: Sequence[int],
    wilds: frozenset[int],
    drops: int,
    table: Sequence[Sequence[int]] = (),
    tun: bool = True,
) -> bool:
    """A quick no: more *loners* than the wild cards can carry.

    A loner is a natural card with no natural partner: no other suit of its rank, and
    no card of its suit within two ranks. Its meld needs two wild cards, and loners
    sharing one sequence sit three or more ranks apart, so ``m`` of them need at least
    ``max(2, 2m - 2) >= m`` wild cards. ``drops`` loners may be left out.
    With table melds (M-10), a card that one of them might take is no loner: a card of
    a trial's rank and of a suit it lacks (while it holds fewer than four), or a rank of
    a sequence's suit that the sequence lacks and could reach, stretched by its own wild
    cards and every wild card of the hand (ace low or high). A table meld without a
    natural card could take anything, so the test gives up: it must never say no
    wrongly. A natural meld of three needs three suits of a rank (a trial) or three
    identical cards (a tunnela, when ``tun``), or a run.
    """
    wild, wmask = _wild_row(wilds)
    h: list[int] = hand if isinstance(hand, list) else list(hand)
    wild_count = 0
    naturals: list[int] = []  # the natural kinds held, ascending (the loops read only these)
    for k in [k for k in range(len(h)) if h[k]]:
        if k >= 52 or wild[k]:
            wild_count += h[k]
        else:
            naturals.append(k)
    held = [0, 0, 0, 0]  # per suit, bit p (1..14, ace 1 and 14): a natural card there
    rank_suits = [0] * 13  # suits holding a natural card of each rank
    for c in naturals:
        r = c % 13
        held[c // 13] |= _BITS[r]
        rank_suits[r] += 1
    ranks = [0, 0, 0, 0]  # per suit, bit r: a trial of the table may take that card
    reach = [0, 0, 0, 0]  # per suit, bit p: a sequence of the table may take it
    for g in table:
        key = (tuple(g), wmask)
        facts = _TABLE_FACTS.table.get(key)
        if facts is None:
            facts = _TABLE_FACTS.remember(key, _table_facts(g, wild))
        trial_takes, suit, slack0, spans, occupied = facts
        if suit < 0:
            return False  # no natural card: it could take anything
        for t in range(4):
            ranks[t] |= trial_takes[t]
        if not spans:
            continue
        mask = held[suit]
        slack = slack0 + wild_count + 1
        for lo, hi in spans:
            # chain through the hand's cards of the suit: the lowest held position within
            # ``slack`` below, the highest within ``slack`` above, until none is left
            while True:
                near = mask & ((1 << lo) - (1 << max(1, lo - slack)))
                if not near:
                    break
                lo = (near & -near).bit_length() - 1
            while True:
                near = mask & ((2 << min(14, hi + slack)) - (2 << hi))
                if not near:
                    break
                hi = near.bit_length() - 1
            a, b = max(1, lo - slack), min(14, hi + slack)
            reach[suit] |= (((1 << (b - a + 1)) - 1) << a) & ~occupied
    loners = needy = 0
    lonely = [0, 0, 0, 0]  # per suit, bit r: a card needing a wild card (or a drop)
    for c in naturals:
        s = c // 13
        r = c % 13
        n = h[c]
        if (ranks[s] >> r) & 1 or reach[s] & _BITS[r]:
            continue
        if not (rank_suits[r] > 1 or held[s] & ~_BITS[r] & _NEAR_RANK[r]):
            loners += n  # no partner
            lonely[s] |= 1 << r
        elif rank_suits[r] < 3 and not (tun and n >= 3):
            run = False  # a natural run of three through it?
            for lo in _RANK_RUN_STARTS[r]:
                if (held[s] >> lo) & 7 == 7:
                    run = True
                    break
            if not run:
                needy += n  # its meld holds a wild card: no natural meld holds it
                lonely[s] |= 1 << r
    if not wild_count:
        return loners + needy > drops  # every meld is natural
    left = max(0, loners - drops)
    if (2 if left == 1 else left) > wild_count:
        return True
    # Each meld holding such a card holds a wild card, and its natural cards share a
    # suit (a sequence) or a rank (a trial): the melds cover the cards as vertices of
    # a suit-rank graph cover its edges, so they are at least a maximum matching.
    return _matching(lonely) - drops > wild_count


#: Per (table meld, wild kinds): ``_table_facts``, read by ``_too_many_loners``.
_TABLE_FACTS: GenerationMemo[
    tuple[tuple[int, ...], int],
    tuple[tuple[int, ...], int, int, tuple[tuple[int, int], ...], int],
] = GenerationMemo(20_000, name="indian.table_facts", shared=True)


def _table_facts(
    g: Sequence[int], wild: Sequence[bool]
) -> tuple[tuple[int, ...], int, int, tuple[tuple[int, int], ...], int]:
    """What ``_too_many_loners`` reads of a table meld: per suit, the ranks (bits) of
    the cards its trial could take; the suit of its first natural card (-1: none); its
    wild cards; the (low, high) positions of its natural cards, ace low and ace high,
    when they share a suit (else none); the positions of its ranks (bits)."""
    naturals = [c for c in g if c < 52 and not wild[c]]
    if not naturals:
        return (0, 0, 0, 0), -1, 0, (), 0
    suit = naturals[0] // 13
    rank = naturals[0] % 13
    takes = [0, 0, 0, 0]
    if all(c % 13 == rank for c in naturals) and len(g) < MAX_TRIAL:
        for t in range(4):
            if all(c // 13 != t for c in naturals):
                takes[t] = 1 << rank
    spans: list[tuple[int, int]] = []
    occupied = 0
    if all(c // 13 == suit for c in naturals):
        for c in naturals:
            occupied |= _BITS[c % 13]
        for high in (False, True):
            pos = [14 if high and c % 13 == 0 else c % 13 + 1 for c in naturals]
            spans.append((min(pos), max(pos)))
    trial = (takes[0], takes[1], takes[2], takes[3])
    return trial, suit, len(g) - len(naturals), tuple(spans), occupied


#: Per rank (0 = ace): its positions in a sequence, and their bits.
_BITS = tuple(sum(1 << p for p in ps) for ps in POSITIONS)
#: Per position p: the bits of positions within two of p (1..14).
_NEAR = tuple(sum(1 << q for q in range(max(1, p - 2), min(14, p + 2) + 1)) for p in range(15))
#: Per position p: the starts of the three-card runs through p.
_RUN_STARTS = tuple(tuple(w[0] for w in three_windows(p)) for p in range(15))
#: Per rank: the positions near it (``_NEAR`` of each of its positions), and the starts
#: of the three-card runs through it (ace low and high).
_NEAR_RANK = tuple(_NEAR[ps[0]] | _NEAR[ps[-1]] for ps in POSITIONS)
_RANK_RUN_STARTS = tuple(tuple(lo for p in ps for lo in _RUN_STARTS[p]) for ps in POSITIONS)


def _matching(edges: list[int]) -> int:
    """Size of a maximum matching between suits and ranks (bit r of ``edges[s]``)."""
    owner = [-1] * 13
    return sum(_augment(edges, owner, s, [False] * 13) for s in range(4) if edges[s])


def _augment(edges: list[int], owner: list[int], s: int, seen: list[bool]) -> bool:
    """An augmenting path from suit ``s`` (``_matching``). A module function, not a
    closure: a recursive closure is a reference cycle, left to the cyclic GC."""
    for r in range(13):
        if (edges[s] >> r) & 1 and not seen[r]:
            seen[r] = True
            if owner[r] < 0 or _augment(edges, owner, owner[r], seen):
                owner[r] = s
                return True
    return False


#: Shares are counted in units of 1/360360 of a wild card: 360360 is the least common
#: multiple of 1 … 13, so a meld's wild cards split among up to 13 natural cards exactly.
_SHARE_UNIT = 360360
_KIND_RANGE = range(KINDS)
#: A card whose meld is its own: two wild cards.
_ALONE = 2 * _SHARE_UNIT


def _run_positions(ranks: int) -> list[int]:
    """The positions (1 … 14, the ace at both ends) of the rank indices in bit mask ``ranks``."""
    out = [1] if ranks & 1 else []
    out.extend(r + 1 for r in range(1, 13) if (ranks >> r) & 1)
    if ranks & 1:
        out.append(14)
    return out


def _suit_shares_of(ranks: int) -> tuple[int, ...]:
    """Per rank index held in ``ranks`` (one suit's natural cards): the least share of
    wild cards a new sequence holding it asks of each of its natural cards.

    A sequence whose natural cards span the window [a, b] holds at most the ``n`` ranks
    held there and asks ``max(3, b - a + 1) - n`` wild cards: ``(max(3, span) - n) / n``
    each, which only falls as ``n`` grows, so the windows between two held positions,
    taking every rank held in them, give the least share (M-4, ``at_least3``)."""
    best = [_ALONE] * 13
    pos = _run_positions(ranks)
    for i in range(len(pos)):
        for j in range(i, len(pos)):
            span = pos[j] - pos[i] + 1
            if span > MAX_SEQUENCE:
                break
            n = j - i + 1
            share = ((span if span > 3 else 3) - n) * _SHARE_UNIT // n
            for p in pos[i : j + 1]:
                r = (p - 1) % 13
                if share < best[r]:
                    best[r] = share
    return tuple(best)


#: Per 13-bit mask of one suit's natural ranks: ``_suit_shares_of``.
_SUIT_SHARES: GenerationMemo[int, tuple[int, ...]] = GenerationMemo(8192, name="indian.suit_shares")


def _joined_shares_of(ranks: int, lo: int, hi: int, size: int) -> tuple[tuple[int, int], ...]:
    """(rank index, least share) for the natural cards ``ranks`` of a suit joining a
    table sequence of ``size`` cards whose natural cards span positions [lo, hi]: the
    grown meld asks ``max(0, max(3, span) - size - n)`` wild cards of its ``n`` new
    natural cards, least with every held rank of the window (M-10)."""
    pos = _run_positions(ranks)
    best: dict[int, int] = {}
    lows = [lo, *(p for p in pos if p < lo)]
    highs = [hi, *(p for p in pos if p > hi)]
    for a in lows:
        for b in highs:
            span = b - a + 1
            if span > MAX_SEQUENCE:
                continue
            inside = [p for p in pos if a <= p <= b]
            if not inside:
                continue
            need = (span if span > 3 else 3) - size - len(inside)
            share = need * _SHARE_UNIT // len(inside) if need > 0 else 0
            for p in inside:
                r = (p - 1) % 13
                if share < best.get(r, _ALONE):
                    best[r] = share
    return tuple(sorted(best.items()))


#: Per (ranks held, span of the table sequence, its size): ``_joined_shares_of``.
_JOINED_SHARES: GenerationMemo[tuple[int, int, int, int], tuple[tuple[int, int], ...]] = (
    GenerationMemo(20_000, name="indian.joined_shares", shared=True)
)


#: Per (table meld, wild kinds): ``_share_facts``, read by ``_too_few_wilds``.
_SHARE_FACTS: GenerationMemo[
    tuple[tuple[int, ...], int], tuple[bool, tuple[int, ...], int, int, tuple[int, ...]]
] = GenerationMemo(20_000, name="indian.share_facts", shared=True)


def _share_facts(
    g: Sequence[int], wild: Sequence[bool]
) -> tuple[bool, tuple[int, ...], int, int, tuple[int, ...]]:
    """What ``_too_few_wilds`` reads of a table meld: whether it holds no natural card;
    the kinds its trial could take (a rank's missing suits while it holds fewer than
    four); the suit of its natural cards when they share one (else -1), their ranks
    (bits), and the (low, high) positions they span, ace low then ace high."""
    nat = [c for c in g if c < 52 and not wild[c]]
    if not nat:
        return True, (), -1, 0, ()
    rank = nat[0] % 13
    suit = nat[0] // 13
    takes: tuple[int, ...] = ()
    if len(g) < MAX_TRIAL and all(c % 13 == rank for c in nat):
        takes = tuple(t * 13 + rank for t in range(4) if all(c // 13 != t for c in nat))
    if not all(c // 13 == suit for c in nat):
        return False, takes, -1, 0, ()
    occupied = 0
    for c in nat:
        occupied |= 1 << (c % 13)
    spans: list[int] = []
    for high in (False, True):
        pos = [14 if high and c % 13 == 0 else c % 13 + 1 for c in nat]
        spans.extend((min(pos), max(pos)))
    return False, takes, suit, occupied, tuple(spans)


def _too_few_wilds(
    hand: Sequence[int],
    wilds: frozenset[int],
    drops: int,
    table: Sequence[Sequence[int]] = (),
    tun: bool = True,
) -> bool:
    """A second quick no, by shares: the natural cards ask more wild cards than held.

    Split each meld's wild cards evenly among its natural cards from the hand: a card's
    share is at least the least over the melds that could hold it, a new sequence
    (``_suit_shares_of``), a trial of the suits of its rank held (``(3 - n) / n``),
    three identical cards (``tun``: none), or one of the player's table melds (M-10: a
    trial with room takes a suit it lacks for nothing, a sequence as
    ``_joined_shares_of`` counts, a meld of wild cards only takes one suit's or one
    rank's cards for nothing). The shares add up to at most the wild cards held, the
    ``drops`` largest left out (M-8: the discard). Exact arithmetic (``_SHARE_UNIT``),
    so it never says no wrongly; it refuses holdings whose cards each have partners,
    too few of them (``_too_many_loners`` counts cards without any).
    """
    h: list[int] = hand if isinstance(hand, list) else list(hand)
    if drops == 1:
        got1 = _one_drop_shares(h, wilds, table, tun)
        if got1 is not None:
            return got1
    return _shares_no(h, wilds, drops, table, tun)


def _shares_no(
    h: list[int], wilds: frozenset[int], drops: int, table: Sequence[Sequence[int]], tun: bool
) -> bool:
    """``_too_few_wilds`` by the per-kind share list (any ``drops``, table melds of
    wild cards only counted)."""
    got = _least_shares(h, wilds, table, tun)
    if got is None:
        return False
    naturals, share, free, budget, joins = got
    if joins:
        # first as if the cards a table sequence could take cost nothing: that refuses
        # most holdings (85 % in random play) without the windows of the sequences
        first = share[:]
        for suit, ranks, _, _ in joins:
            while ranks:
                low = ranks & -ranks
                ranks ^= low
                first[suit * 13 + low.bit_length() - 1] = 0
        if _share_total(h, naturals, first, free, drops) > budget:
            return True
        _join_shares(share, joins)
    return _share_total(h, naturals, share, free, drops) > budget


#: Per count of a rank's suits held (1, 2): a trial's share of its wild card (M-4).
_TRIAL_SHARE = (0, 2 * _SHARE_UNIT, _SHARE_UNIT // 2, 0, 0)


#: Per (table melds, wild kinds): ``_table_shares``.
_TABLE_SHARES: GenerationMemo[
    tuple[tuple[tuple[int, ...], ...], int],
    tuple[int, tuple[tuple[int, int, tuple[int, ...], int], ...]],
] = GenerationMemo(20_000, name="indian.table_shares", shared=True)


def _table_shares(
    table: Sequence[Sequence[int]], wild: Sequence[bool], wmask: int
) -> tuple[int, tuple[tuple[int, int, tuple[int, ...], int], ...]]:
    """What ``_one_drop_shares`` reads of the table melds together (``_share_facts`` of
    each): the kinds a trial takes for nothing (bits), and the (suit, ranks held, spans,
    size) of each meld whose natural cards share a suit; (-1, ()) when a meld holds no
    natural card."""
    zero = 0
    sequences = []
    for g in table:
        key = (tuple(g), wmask)
        facts = _SHARE_FACTS.table.get(key)
        if facts is None:
            facts = _SHARE_FACTS.remember(key, _share_facts(g, wild))
        no_natural, takes, suit, occupied, spans = facts
        if no_natural:
            return -1, ()
        for k in takes:
            zero |= 1 << k
        if suit >= 0:
            sequences.append((suit, occupied, spans, len(g)))
    return zero, tuple(sequences)


def _one_drop_shares(
    h: list[int], wilds: frozenset[int], table: Sequence[Sequence[int]], tun: bool
) -> bool | None:
    """``_too_few_wilds`` with one card dropped, in one pass and without the per-kind
    share list (the finish check's quick no, asked once a turn: issue 27); ``None``
    when a table meld holds no natural card (the general path counts those)."""
    wild, wmask = _wild_row(wilds)
    wild_count = 0
    suit_ranks = [0, 0, 0, 0]
    rank_suits = [0] * 13
    naturals: list[int] = []
    for k in compress(_KIND_RANGE, h):
        if k >= 52 or wild[k]:
            wild_count += h[k]
        else:
            naturals.append(k)
            suit_ranks[k // 13] |= 1 << (k % 13)
            rank_suits[k % 13] += 1
    if not naturals:
        return False
    tkey = (tuple([tuple(g) for g in table]), wmask)
    tab = _TABLE_SHARES.table.get(tkey)
    if tab is None:
        tab = _TABLE_SHARES.remember(tkey, _table_shares(table, wild, wmask))
    if tab[0] < 0:
        return None  # a table meld of wild cards only
    zero, sequences = tab  # kinds a table trial takes for nothing (bits); its sequences
    joined = 0  # kinds a table sequence could take (bits): free in the first pass
    joins: list[tuple[int, int, tuple[int, ...], int]] = []
    for suit, occupied, spans, size in sequences:
        ranks = suit_ranks[suit] & ~occupied
        if ranks:
            joins.append((suit, ranks, spans, size))
            joined |= ranks << (13 * suit)
    suit_rows = _SUIT_SHARES.table
    rows: list[tuple[int, ...]] = []
    for ranks in suit_ranks:
        row = suit_rows.get(ranks)
        if row is None:
            row = _SUIT_SHARES.remember(ranks, _suit_shares_of(ranks))
        rows.append(row)
    budget = wild_count * _SHARE_UNIT
    total = most = 0
    shares: list[int] = []
    for k in naturals:
        n = h[k]
        if (zero >> k) & 1 or (tun and n >= 3):
            got = 0
        else:
            r = k % 13
            got = rows[k // 13][r]
            trial = _TRIAL_SHARE[rank_suits[r]]
            if trial < got:
                got = trial
        shares.append(got)
        if (joined >> k) & 1:
            continue  # the first pass: free through a table sequence
        total += n * got
        if got > most:
            most = got
    if total - most > budget:
        return True
    if not joins:
        return False
    share = [_ALONE] * 52
    for k, got in zip(naturals, shares, strict=True):
        share[k] = got
    _join_shares(share, joins)
    total = most = 0
    for k in naturals:
        got = share[k]
        total += h[k] * got
        if got > most:
            most = got
    return total - most > budget


def _least_shares(
    h: list[int], wilds: frozenset[int], table: Sequence[Sequence[int]], tun: bool
) -> tuple[list[int], list[int], int, int, list[tuple[int, int, tuple[int, ...], int]]] | None:
    """The shares of ``_too_few_wilds`` but those through table sequences: (the natural
    kinds held, per kind its least share, the table melds of wild cards only, the wild
    cards held in ``_SHARE_UNIT``, the table sequences the hand has cards for as (suit,
    ranks, spans, size)); None without a natural card."""
    wild, wmask = _wild_row(wilds)
    wild_count = 0
    suit_ranks = [0, 0, 0, 0]
    rank_suits = [0] * 13
    naturals: list[int] = []
    for k in [k for k in range(len(h)) if h[k]]:
        if k >= 52 or wild[k]:
            wild_count += h[k]
        else:
            naturals.append(k)
            suit_ranks[k // 13] |= 1 << (k % 13)
            rank_suits[k % 13] += 1
    if not naturals:
        return None
    share = [_ALONE] * 52
    rows: list[tuple[int, ...]] = []
    for s in range(4):
        ranks = suit_ranks[s]
        row = _SUIT_SHARES.table.get(ranks)
        if row is None:
            row = _SUIT_SHARES.remember(ranks, _suit_shares_of(ranks))
        rows.append(row)
    for k in naturals:
        r = k % 13
        n = rank_suits[r]
        trial = (3 - n) * _SHARE_UNIT // n if n < 3 else 0
        seq = rows[k // 13][r]
        share[k] = seq if seq < trial else trial
    free = 0  # table melds without a natural card
    joins: list[tuple[int, int, tuple[int, ...], int]] = []
    for g in table:
        key = (tuple(g), wmask)
        facts = _SHARE_FACTS.table.get(key)
        if facts is None:
            facts = _SHARE_FACTS.remember(key, _share_facts(g, wild))
        no_natural, takes, suit, occupied, spans = facts
        if no_natural:
            free += 1
            continue
        for k in takes:
            share[k] = 0
        if suit >= 0 and suit_ranks[suit] & ~occupied:
            joins.append((suit, suit_ranks[suit] & ~occupied, spans, len(g)))
    if tun:
        for k in naturals:
            if h[k] >= 3:
                share[k] = 0
    return naturals, share, free, wild_count * _SHARE_UNIT, joins


def _join_shares(share: list[int], joins: list[tuple[int, int, tuple[int, ...], int]]) -> None:
    """Lower ``share`` to what joining each table sequence of ``joins`` asks."""
    for suit, ranks, spans, size in joins:
        base = suit * 13
        for i in (0, 2):
            jkey = (ranks, spans[i], spans[i + 1], size)
            joined = _JOINED_SHARES.table.get(jkey)
            if joined is None:
                joined = _JOINED_SHARES.remember(jkey, _joined_shares_of(*jkey))
            for r, got in joined:
                if got < share[base + r]:
                    share[base + r] = got


def _share_total(h: list[int], naturals: list[int], share: list[int], free: int, drops: int) -> int:
    """The least wild cards (in ``_SHARE_UNIT``) the natural cards ask in all, given
    each card's least ``share``: ``free`` melds of wild cards only on the table and
    ``drops`` cards left out take theirs (``_too_few_wilds``)."""
    total = 0
    for k in naturals:
        total += h[k] * share[k]
    if free:
        # a table meld of wild cards only grows into one suit's sequence or one rank's
        # trial, for no more wild cards: it takes at most the shares of the ``free``
        # largest groups (suits, ranks) of the hand
        groups = [0] * 17
        for k in naturals:
            part = h[k] * share[k]
            groups[k // 13] += part
            groups[4 + k % 13] += part
        groups.sort(reverse=True)
        total -= sum(groups[:free])
    if drops == 1:
        total -= max([share[k] for k in naturals])
    elif drops:
        shares = sorted([share[k] for k in naturals for _ in range(h[k])], reverse=True)
        total -= sum(shares[:drops])
    return total


def _finishing_discards(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    table: Sequence[Sequence[int]],
    quick: bool = True,
    arrange: bool = True,
) -> dict[int, tuple[tuple[int, ...], ...]]:
    """``finishing_discards`` unremembered (``quick``: its quick nos first; ``arrange``
    False: the arrangements left empty)."""
    total = sum(hand)
    if total <= 1:
        out: dict[int, tuple[tuple[int, ...], ...]] = {}
        for k in range(KINDS):
            if hand[k]:
                left = list(hand)
                left[k] -= 1
                groups = indian_finish(left, rules, wilds, table)
                if groups is not None:
                    out[k] = tuple(tuple(int(c) for c in g) for g in groups)
        return out
    if quick and _quick_no(hand, rules, wilds, table):
        return {}
    tun = rules.tunnela_melds
    # ``is_pure_meld`` of each table meld (of three cards or more): none missing
    pure_table = [i for i, g in enumerate(table) if not _pure_facts(tuple(g), tun)[0]]
    choices = _pure_choices(hand, pure_table, _three_cores(hand, tun))
    first = next(choices, None)
    if first is None:
        return {}  # no three pure melds to keep on the table (M-6)
    second = next(choices, None)
    if second is None:
        # one choice of pure melds only: the pass without purity would name candidates
        # for this one search to try (a finish is one with these pure melds)
        skip = list(map(operator.not_, hand))  # per kind: not held
        return _finish_with(hand, rules, wilds, table, first, skip, arrange)
    skip = list(map(operator.not_, hand))
    relaxed: dict[int, tuple[tuple[int, ...], ...]] = {}
    # the pass without purity only names the candidates: no arrangements
    _collect(hand, rules, wilds, table, frozenset(), set(), skip, relaxed, arrange=False)
    if not relaxed:
        return {}
    skip = [True] * KINDS  # the candidates only
    for k in relaxed:
        skip[k] = False
    found: dict[int, tuple[tuple[int, ...], ...]] = {}
    memos: dict[frozenset[int], set[tuple[object, ...]]] = {}
    for choice in itertools.chain((first, second), choices):
        protected, chosen = choice
        rest = list(hand)
        for m in chosen:
            for c in m:
                rest[c] -= 1
        if sum(rest) == 0:
            continue  # a discard is needed
        for k in relaxed:
            if not skip[k] and rest[k]:
                break
        else:
            continue  # every discard still open is inside the chosen cores
        melds: list[Sequence[int]] = [*table, *chosen]
        prot = frozenset(protected) | frozenset(range(len(table), len(melds)))
        failed = memos.setdefault(prot, set())
        floors = [-1] * len(table) + [_floor(m) for m in chosen]
        _collect(rest, rules, wilds, melds, prot, failed, skip, found, floors, arrange)
        if len(found) == len(relaxed):
            return found
    return found


def _pure_choices(
    hand: Sequence[int], pure_table: Sequence[int], cores: Sequence[tuple[int, ...]]
) -> Iterator[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]]:
    """The choices of the three pure melds a finish keeps on the table (M-6), in the
    order tried: (indices of protected pure table melds, disjoint three-card pure cores
    from the hand), the most table melds first."""
    for j in range(min(PURE_ON_TABLE, len(pure_table)), -1, -1):
        if j < PURE_ON_TABLE and not cores:
            return  # no pure meld from the hand: only three protected table melds
        for protected in itertools.combinations(pure_table, j):
            for chosen in _disjoint_choices(hand, cores, PURE_ON_TABLE - j):
                yield protected, chosen


def _finish_with(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    table: Sequence[Sequence[int]],
    choice: tuple[tuple[int, ...], tuple[tuple[int, ...], ...]],
    skip: list[bool],
    arrange: bool = True,
) -> dict[int, tuple[tuple[int, ...], ...]]:
    """The finishing discards (and arrangements) of ``hand`` keeping the pure melds of
    ``choice`` (``_pure_choices``), the discards of ``skip`` aside."""
    protected, chosen = choice
    rest = list(hand)
    for m in chosen:
        for c in m:
            rest[c] -= 1
    found: dict[int, tuple[tuple[int, ...], ...]] = {}
    if sum(rest) == 0:
        return found  # a discard is needed
    melds: list[Sequence[int]] = [*table, *chosen]
    prot = frozenset(protected) | frozenset(range(len(table), len(melds)))
    floors = [-1] * len(table) + [_floor(m) for m in chosen]
    _collect(rest, rules, wilds, melds, prot, set(), skip, found, floors, arrange)
    return found


def indian_discards(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    table: Sequence[Sequence[int]],
) -> list[Card]:
    """The distinct discards after which ``indian_finish`` succeeds (one search)."""
    return [CARDS[k] for k in sorted(finishing_discards(hand, rules, wilds, table, False))]


def indian_discards_plain(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    table: Sequence[Sequence[int]],
) -> list[Card]:
    """``indian_discards`` by one ``indian_finish`` per discard (the reference)."""
    total = sum(hand)
    if total > 1 and not _Search(hand, rules, wilds, table, frozenset(), 0, 1, total - 1).run():
        return []  # even without purity no card can be left out
    out = []
    for k in range(KINDS):
        if hand[k]:
            left = list(hand)
            left[k] -= 1
            if indian_finish(left, rules, wilds, table) is not None:
                out.append(CARDS[k])
    return out


def indian_missing_bound(
    rest: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    limit: Sequence[int],
    table: Sequence[Sequence[int]],
    work: int | None,
) -> tuple[int, bool]:
    """``indian_missing`` within ``work`` search states (None: no bound).

    Returns (count, exact). The exchanges are tried fewest first, so when the budget
    runs out at ``k`` every smaller count has been ruled out: (k, False) means *at
    least* k missing. A hint answers at once that way instead of searching seconds.
    """
    budget = None if work is None else [work]
    try:
        return indian_missing(rest, rules, wilds, limit, table, _budget=budget), True
    except WorkSpent as spent:
        return int(spent.args[0]), False


def indian_missing(
    rest: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    limit: Sequence[int],
    table: Sequence[Sequence[int]],
    _budget: list[int] | None = None,
) -> int:
    """N-3 for ``at_least3``: the fewest exchanges before the 22-card holding (table
    melds ``table`` and the cards ``rest``) can lay every card but one on the table.

    Iterative deepening on the exchanges ``k``: a search without purity first (a quick
    no), then each choice of pure melds: protected table melds, and pure *cores* from
    the hand (a window's held cards, the exact cards it lacks taken in), fewest taken
    in first. A core already holds every card of its window, and every window is a
    choice, so cores are laid as they are (``fixed_exact``, ``fixed_kept``) rather
    than grown during the search. ``limit`` (copies left) is not used: see the module
    docstring.
    """
    del limit
    target = rules.hand_size - sum(len(g) for g in table)
    pure_table = [i for i, g in enumerate(table) if is_pure_meld(list(g), rules)]
    for k in range(target + 2):
        try:
            found = _missing_at(rest, rules, wilds, table, pure_table, target, k, _budget)
        except WorkSpent:
            raise WorkSpent(k) from None
        if found:
            return k
    return target + 1


def _missing_at(
    rest: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    table: Sequence[Sequence[int]],
    pure_table: Sequence[int],
    target: int,
    k: int,
    budget: list[int] | None,
) -> bool:
    """Can the holding finish after ``k`` exchanges? (``indian_missing``)."""
    relaxed = _Search(rest, rules, wilds, table, frozenset(), k, k + 1, target, budget=budget)
    if not relaxed.run():
        return False
    # Searches of the same parameters share their failed states (a state holds
    # everything else): different core choices often leave the same cards.
    memos: dict[tuple[object, ...], set[tuple[object, ...]]] = {}
    hints = _pure_hints(relaxed.new_melds, k)
    for j in range(min(PURE_ON_TABLE, len(pure_table)), -1, -1):
        for protected in itertools.combinations(pure_table, j):
            choices = _partial_pures(rest, rules, PURE_ON_TABLE - j, k)
            if j == 0:  # first the cores of the melds the relaxation found
                choices = itertools.chain(hints, choices)
            for chosen, lack, room in choices:
                left = list(rest)
                kept = 0
                for m in chosen:
                    for c in m:
                        left[c] -= 1
                        kept += 1
                prot = frozenset(protected)
                search = _Search(
                    left,
                    rules,
                    wilds,
                    table,
                    prot,
                    k,
                    k + 1,
                    target,
                    lack,
                    kept,
                    room,
                    failed=memos.setdefault((prot, lack, kept, room), set()),
                    budget=budget,
                )
                if search.run():
                    return True
    return False


def _pure_hints(
    melds: Sequence[tuple[int, ...]], budget: int
) -> list[tuple[tuple[tuple[int, ...], ...], int, bool]]:
    """Sets of three pure cores taken from ``melds`` (the new melds of a solution
    without purity): each meld's cards as a pure sequence or trial, the cards it lacks
    taken in exactly, fewest lacking first. Tried before the full enumeration of
    ``_partial_pures``: the jokers that filled those melds may as well be the exact
    cards, so one of these usually succeeds."""
    cores: list[tuple[tuple[int, ...], int, bool]] = []  # (core, lacking, room)
    for meld in melds:
        span = seq_span(meld)
        if span is not None and span <= MAX_SEQUENCE:
            cores.append((meld, max(3, span) - len(meld), max(3, span) < MAX_SEQUENCE))
        elif len(meld) <= MAX_TRIAL and trial_ok(meld):
            cores.append((meld, max(0, 3 - len(meld)), max(3, len(meld)) < MAX_TRIAL))
    out = []
    for trio in itertools.combinations(cores, PURE_ON_TABLE):
        lack = sum(c[1] for c in trio)
        if lack <= budget:
            out.append((tuple(c[0] for c in trio), lack, any(c[2] for c in trio)))
    out.sort(key=lambda o: o[1])
    return out


def _partial_pures(
    hand: Sequence[int], rules: MarriageRules, count: int, budget: int
) -> Iterator[tuple[tuple[tuple[int, ...], ...], int, bool]]:
    """Sets of ``count`` pure meld *cores* (held cards of a pure meld whose other cards
    would be taken in) lacking at most ``budget`` exact cards in all, as (cores, exact
    cards lacking, whether some core's meld could take one more exact card), fewest
    lacking first. A core takes every held card of its window: a card inside a pure
    meld's window is never better elsewhere (its place would need that exact card)."""
    options: list[tuple[tuple[int, ...], int, bool]] = [((), 3, True)]
    for s in range(4):
        for lo in range(1, 13):
            for hi in range(lo + 2, min(14, lo + MAX_SEQUENCE - 1) + 1):
                held = tuple(k for p in range(lo, hi + 1) if hand[(k := kind_at(s, p))])
                lack = hi - lo + 1 - len(held)
                if held and lack <= budget and len(set(held)) == len(held):
                    options.append((tuple(sorted(held)), lack, hi - lo + 1 < MAX_SEQUENCE))
    for r in range(13):
        suits = [t for t in range(4) if hand[t * 13 + r]]
        for size in range(1, min(4, len(suits)) + 1):
            for combo in itertools.combinations(suits, size):
                lack = max(0, 3 - size)
                if lack <= budget:
                    options.append(
                        (tuple(t * 13 + r for t in combo), lack, size + lack < MAX_TRIAL)
                    )
    if rules.tunnela_melds:
        for k in range(52):
            for n in (1, 2, 3):
                if hand[k] >= n and 3 - n <= budget:
                    options.append(((k,) * n, 3 - n, False))
    options = sorted(dict.fromkeys(options), key=lambda o: (o[1], -len(o[0])))
    left = list(hand)
    for total in range(budget + 1):
        yield from _walk_partials(left, options, count, 0, [], 0, False, total)


def _walk_partials(
    left: list[int],
    options: Sequence[tuple[tuple[int, ...], int, bool]],
    count: int,
    start: int,
    chosen: list[tuple[int, ...]],
    spent: int,
    room: bool,
    total: int,
) -> Iterator[tuple[tuple[tuple[int, ...], ...], int, bool]]:
    """The choices of ``_partial_pures`` lacking exactly ``total`` (a module function:
    a recursive closure is a reference cycle)."""
    if len(chosen) == count:
        if spent == total:
            yield tuple(chosen), spent, room
        return
    for i in range(start, len(options)):
        meld, lack, more = options[i]
        if spent + lack > total:
            break  # options come fewest lacking first
        for c in meld:
            left[c] -= 1
        if not meld or min(left[c] for c in meld) >= 0:
            chosen.append(meld)
            yield from _walk_partials(
                left, options, count, i, chosen, spent + lack, room or more, total
            )
            chosen.pop()
        for c in meld:
            left[c] += 1
