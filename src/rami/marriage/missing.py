"""N-3: how many exchanges a Marriage holding is from finishing.

An exchange puts one card out and takes one in (any card the decks still hold). After
``k`` exchanges the holding keeps ``22 - k`` of its cards; it can then finish when some
21-card finishing set ``T`` (plus any discard) contains them. So the count is
``21 - max |H ∩ T|``: the fewest cards of a finishing set that the holding lacks.

Melds path (``exactly3``). ``T`` is seven melds. Each is built from kept cards plus
*jokers*, the cards taken in. Melds that show (M-6: pure sequence or tunnela, by card
identity) need their missing cards exactly; other melds need *wild-likes* for their
missing cards, filled by kept wild cards first and then by jokers (a joker can always
be a wild card or a natural completion, so those are always available). A tunnela
completed in a free meld needs the identical card. A depth-first search takes the
lowest card left and decides its fate: dropped, or the lowest kept card of a meld of
each possible shape; iterative deepening on the number of jokers ``K`` with two
bounds (jokers already committed; cards that can no longer fit must be dropped, and
drops are ``K + 1``) keeps near-finished holdings fast. Failed states are memoised
per ``K``. Exact joker cards are checked against the copies left in the decks at each
leaf (a tunnela needs its fourth copy, say); a failed check is not memoised.

Dublee path: ``T`` is eight pairs; a pair is kept whole, half (one copy held and one
more copy left in the decks) or not at all: a closed form.

``at_least3`` (``indian``) holdings are handled in ``solver_indian``.
"""

from __future__ import annotations

# rami: compiled with mypyc in the accelerated build
from collections.abc import Sequence
from dataclasses import dataclass

from rami.cards import KINDS, Card
from rami.marriage.melds import wild_kinds
from rami.marriage.rules import MarriageRules, dublees_to_finish, melds_to_finish
from rami.runs import ACE_HIGH_THREE, NEAR_ABOVE, kind_at, positions, three_windows

__all__ = [
    "HINT_WORK",
    "MissingCount",
    "copy_limits",
    "dublee_missing",
    "melds_missing",
    "missing_bound",
    "missing_count",
    "split_shown",
]

#: Search states a hint may spend on the ``indian`` count (under 100 ms of CPU here).
HINT_WORK = 3_000


@dataclass(frozen=True)
class MissingCount:
    """An N-3 count; ``exact`` False: the search stopped early, *at least* ``count``."""

    count: int
    exact: bool = True

    def text(self) -> str:
        cards = f"{self.count} card{'s' if self.count != 1 else ''}"
        return cards if self.exact else f"at least {cards}"


def copy_limits(rules: MarriageRules, tiplu: Card | None) -> list[int]:
    """Copies of each kind a holding may hold: the decks, one fewer for the tiplu (M-7)."""
    limit = [rules.decks] * KINDS
    limit[52] = 0
    if tiplu is not None:
        limit[tiplu] = rules.decks - 1
    return limit


def split_shown(
    hand: Sequence[int], rules: MarriageRules, shown: Sequence[Sequence[int]]
) -> list[int]:
    """The cards of ``hand`` not in ``shown``.

    ``hand`` may be the whole 22-card holding (shown cards included) or the rest only;
    the sizes tell which.
    """
    rest = list(hand)
    shown_cards = [c for group in shown for c in group]
    total = sum(hand)
    if shown_cards and total == rules.hand_size + 1:
        for c in shown_cards:
            rest[c] -= 1
            if rest[c] < 0:
                raise ValueError("the shown cards are not part of the holding")
    elif total + len(shown_cards) != rules.hand_size + 1:
        raise ValueError(
            f"a holding has {rules.hand_size + 1} cards: {total} in hand, {len(shown_cards)} shown"
        )
    return rest


def dublee_missing(rest: Sequence[int], need: int, limit: Sequence[int]) -> int:
    """Cards missing for ``need`` more dublees from the cards ``rest`` (M-9).

    ``limit``: how many copies of each kind the finished holding may hold in all
    (copies already shown taken off).
    """
    full = 0
    halves = 0
    for k in range(KINDS):
        n = rest[k]
        if n:
            full += n // 2
            if n % 2 and n + 1 <= limit[k]:
                halves += 1
    if full >= need:
        return 0
    short = need - full
    return short + max(0, short - halves)


# ---------------------------------------------------------------------------------------
# Melds path, exactly three cards


def _kind_tables() -> tuple[
    list[list[tuple[int, int]]], list[list[tuple[int, int]]], list[list[int]], list[list[int]]
]:
    """Per kind: the two other cards of each three-card window holding it (show melds),
    the sequences and pairs it starts (kinds above it), its trial partners above it."""
    windows: list[list[tuple[int, int]]] = []
    seq3: list[list[tuple[int, int]]] = []
    seq_pairs: list[list[int]] = []
    trial_partners: list[list[int]] = []
    for c in range(52):
        s, r = divmod(c, 13)
        wins = []
        for p in positions(r):
            for window in three_windows(p):
                ks = [kind_at(s, q) for q in window if q != p]
                wins.append((ks[0], ks[1]))
        windows.append(wins)
        seqs = []
        if r <= 10:
            seqs.append((c + 1, c + 2))
        if r == 0:
            seqs.append((s * 13 + ACE_HIGH_THREE[1], s * 13 + ACE_HIGH_THREE[2]))
        seq3.append(seqs)
        seq_pairs.append([s * 13 + p for p in NEAR_ABOVE[r]])
        trial_partners.append([t * 13 + r for t in range(s + 1, 4)])
    return windows, seq3, seq_pairs, trial_partners


_WINDOWS, _SEQ3, _SEQ_PAIRS, _TRIAL_PARTNERS = _kind_tables()


class _Search:
    """Iterative-deepening search for the fewest jokers (see the module docstring)."""

    def __init__(
        self,
        hand: Sequence[int],
        wilds: frozenset[int],
        limit: Sequence[int],
        rules: MarriageRules,
        shows: int,
        frees: int,
    ) -> None:
        self.hand = list(hand[:52])
        self.R = list(hand[:52])
        self.limit = list(limit[:52])
        self.wild = [k in wilds for k in range(52)]
        self.tun = rules.tunnela_melds
        self.show_tunnela = rules.show_kinds == "sequence+tunnela"
        self.shows = shows
        self.frees = frees
        self.dropped = [0] * 52
        self.pooled: list[int] = []
        self.demand: list[int] = []
        self.nat_left = sum(n for k, n in enumerate(self.R) if not self.wild[k])
        self.wild_left = sum(n for k, n in enumerate(self.R) if self.wild[k])
        self.rkey = sum(n << (4 * k) for k, n in enumerate(self.R))
        self.taint = 0
        self.K = 0
        self.failed: set[tuple[int, ...]] = set()
        self.windows = _WINDOWS
        self.seq3 = _SEQ3
        self.seq_pairs = _SEQ_PAIRS
        self.trial_partners = _TRIAL_PARTNERS

    # -- taking cards -------------------------------------------------------------------

    def _take(self, k: int) -> None:
        self.R[k] -= 1
        self.rkey -= 1 << (4 * k)
        if self.wild[k]:
            self.wild_left -= 1
        else:
            self.nat_left -= 1

    def _give(self, k: int) -> None:
        self.R[k] += 1
        self.rkey += 1 << (4 * k)
        if self.wild[k]:
            self.wild_left += 1
        else:
            self.nat_left += 1

    # -- search -------------------------------------------------------------------------

    def solve(self, cap: int = 22) -> int:
        for K in range(cap + 1):
            self.K = K
            self.failed = set()
            if self._dfs(0, self.shows, self.frees, 0, 0, 0, 0):
                return K
        return cap + 1

    def _dfs(
        self, idx: int, sl: int, fl: int, pool: int, need: int, jspec: int, drops: int
    ) -> bool:
        K = self.K
        if jspec + max(0, need - pool - self.wild_left) > K:
            return False
        room = 3 * (sl + fl) + need
        if drops + max(0, self.nat_left + self.wild_left + pool - room) > K + 1:
            return False
        R = self.R
        while idx < 52 and not R[idx]:
            idx += 1
        if idx == 52:
            return self._leaf(sl, fl, pool, need, jspec)
        key = (self.rkey, sl, fl, pool, need, jspec, drops)
        if key in self.failed:
            return False
        taint = self.taint
        if self._options(idx, sl, fl, pool, need, jspec, drops):
            return True
        if taint == self.taint:
            self.failed.add(key)
        return False

    def _options(
        self, c: int, sl: int, fl: int, pool: int, need: int, jspec: int, drops: int
    ) -> bool:
        R = self.R
        take = self._take
        give = self._give
        dfs = self._dfs
        demand = self.demand
        if self.wild[c]:
            # a wild card: into the pool of wild-likes, or as itself in a show meld
            take(c)
            self.pooled.append(c)
            ok = dfs(c, sl, fl, pool + 1, need, jspec, drops)
            self.pooled.pop()
            give(c)
            if ok:
                return True
        elif fl:
            take(c)
            # complete free melds
            for a, b in self.seq3[c]:
                if R[a] and R[b] and not self.wild[a] and not self.wild[b]:
                    take(a)
                    take(b)
                    ok = dfs(c, sl, fl - 1, pool, need, jspec, drops)
                    give(a)
                    give(b)
                    if ok:
                        give(c)
                        return True
            if self.tun and R[c] >= 2:
                take(c)
                take(c)
                ok = dfs(c, sl, fl - 1, pool, need, jspec, drops)
                give(c)
                give(c)
                if ok:
                    give(c)
                    return True
            tp = [t for t in self.trial_partners[c] if R[t] and not self.wild[t]]
            if len(tp) >= 2:
                for i in range(len(tp)):
                    for j in range(i + 1, len(tp)):
                        take(tp[i])
                        take(tp[j])
                        ok = dfs(c, sl, fl - 1, pool, need, jspec, drops)
                        give(tp[i])
                        give(tp[j])
                        if ok:
                            give(c)
                            return True
            # two naturals and a wild-like
            for p in self.seq_pairs[c]:
                if R[p] and not self.wild[p]:
                    take(p)
                    ok = dfs(c, sl, fl - 1, pool, need + 1, jspec, drops)
                    give(p)
                    if ok:
                        give(c)
                        return True
            for t in tp:
                take(t)
                ok = dfs(c, sl, fl - 1, pool, need + 1, jspec, drops)
                give(t)
                if ok:
                    give(c)
                    return True
            if self.tun and R[c] >= 1:
                # two identical cards and the third copy taken in
                take(c)
                demand.append(c)
                ok = dfs(c, sl, fl - 1, pool, need, jspec + 1, drops)
                demand.pop()
                give(c)
                if ok:
                    give(c)
                    return True
            # one natural and two wild-likes
            ok = dfs(c, sl, fl - 1, pool, need + 2, jspec, drops)
            give(c)
            if ok:
                return True
        if sl and self._show_options(c, sl, fl, pool, need, jspec, drops):
            return True
        if not self.wild[c] and drops <= self.K:
            take(c)
            self.dropped[c] += 1
            ok = dfs(c, sl, fl, pool, need, jspec, drops + 1)
            self.dropped[c] -= 1
            give(c)
            if ok:
                return True
        return False

    def _show_options(
        self, c: int, sl: int, fl: int, pool: int, need: int, jspec: int, drops: int
    ) -> bool:
        """``c`` as the lowest kept card of a show meld (kept cards as far as held)."""
        R = self.R
        take = self._take
        give = self._give
        demand = self.demand
        take(c)
        try:
            for a, b in self.windows[c]:
                got = []
                miss = []
                for q in (a, b):
                    if q > c and R[q]:
                        take(q)
                        got.append(q)
                    else:
                        miss.append(q)
                demand.extend(miss)
                ok = self._dfs(c, sl - 1, fl, pool, need, jspec + len(miss), drops)
                del demand[len(demand) - len(miss) :]
                for q in got:
                    give(q)
                if ok:
                    return True
            if self.show_tunnela:
                n = min(R[c], 2)
                for _ in range(n):
                    take(c)
                miss = [c] * (2 - n)
                demand.extend(miss)
                ok = self._dfs(c, sl - 1, fl, pool, need, jspec + len(miss), drops)
                del demand[len(demand) - len(miss) :]
                for _ in range(n):
                    give(c)
                if ok:
                    return True
            else:
                if self._show_trials(c, sl, fl, pool, need, jspec, drops):
                    return True
        finally:
            give(c)
        return False

    def _show_trials(
        self, c: int, sl: int, fl: int, pool: int, need: int, jspec: int, drops: int
    ) -> bool:
        """Pure trials as show melds (``sequence+trial`` with three-card melds)."""
        s, r = divmod(c, 13)
        held = [t * 13 + r for t in range(s + 1, 4) if self.R[t * 13 + r]]
        others = [t * 13 + r for t in range(4) if t != s]
        choices: list[tuple[list[int], list[int]]] = []
        if len(held) >= 2:
            for i in range(len(held)):
                for j in range(i + 1, len(held)):
                    choices.append(([held[i], held[j]], []))
        else:
            free = [o for o in others if o not in held]
            for i in range(len(free)):
                if len(held) == 1:
                    choices.append((held, [free[i]]))
                else:
                    for j in range(i + 1, len(free)):
                        choices.append(([], [free[i], free[j]]))
        for got, miss in choices:
            for q in got:
                self._take(q)
            self.demand.extend(miss)
            ok = self._dfs(c, sl - 1, fl, pool, need, jspec + len(miss), drops)
            del self.demand[len(self.demand) - len(miss) :]
            for q in got:
                self._give(q)
            if ok:
                return True
        return False

    # -- leaves -------------------------------------------------------------------------

    def _leaf(self, sl: int, fl: int, pool: int, need: int, jspec: int) -> bool:
        slots = need + 3 * fl
        used = min(pool, slots)
        jokers = jspec + 3 * sl + slots - used
        if jokers > self.K:
            return False
        if self._available(sl, used):
            return True
        self.taint += 1
        return False

    def _available(self, sl: int, used: int) -> bool:
        """Whether the exact cards taken in exist: copies left for each demanded card."""
        if not self.demand and not sl:
            return True
        T = [h - d for h, d in zip(self.hand, self.dropped, strict=True)]
        for k in self.pooled:
            T[k] -= 1
        for k in self.demand:
            T[k] += 1
        limit = self.limit
        # keep the pool's wild cards where copies are left; the others are dropped
        pool = sorted(self.pooled, key=lambda k: T[k] - limit[k])
        for k in pool[:used]:
            T[k] += 1
        if any(T[k] > limit[k] for k in range(52)):
            return False
        for _ in range(sl):
            placed = False
            for s in range(4):
                for lo in range(1, 13):
                    ks = [s * 13 + (q - 1) % 13 for q in (lo, lo + 1, lo + 2)]
                    if all(T[k] < limit[k] for k in ks):
                        for k in ks:
                            T[k] += 1
                        placed = True
                        break
                if placed:
                    break
            if not placed:
                return False
        return True


def melds_missing(
    rest: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    limit: Sequence[int],
    shows: int,
    frees: int,
    cap: int = 22,
) -> int:
    """Fewest jokers for ``shows`` show melds and ``frees`` other melds from ``rest``;
    ``cap + 1`` when more than ``cap`` are needed."""
    return _Search(rest, wilds, limit, rules, shows, frees).solve(cap)


def missing_bound(
    hand: Sequence[int],
    rules: MarriageRules,
    tiplu: Card,
    shown: Sequence[Sequence[int]],
    work: int | None = HINT_WORK,
) -> MissingCount:
    """``missing_count`` with a bound on the search (hints): ``indian`` holdings may
    answer "at least N" (``exact`` False) rather than search for seconds; the
    three-card solvers are fast enough to stay exact."""
    if rules.melds_at_least3:
        from rami.marriage.solver_indian import indian_missing_bound

        wilds, rest, limit = _prepare(hand, rules, tiplu, shown)
        count, exact = indian_missing_bound(rest, rules, wilds, limit, shown, work)
        return MissingCount(count, exact)
    return MissingCount(missing_count(hand, rules, tiplu, shown))


def _prepare(
    hand: Sequence[int], rules: MarriageRules, tiplu: Card, shown: Sequence[Sequence[int]]
) -> tuple[frozenset[int], list[int], list[int]]:
    if len(hand) != KINDS:
        raise ValueError(f"a hand is a count vector of length {KINDS}, not {len(hand)}")
    wilds = wild_kinds(tiplu)
    rest = split_shown(hand, rules, shown)
    limit = copy_limits(rules, tiplu)
    for group in shown:
        for c in group:
            limit[c] -= 1
    return wilds, rest, limit


def missing_count(
    hand: Sequence[int], rules: MarriageRules, tiplu: Card, shown: Sequence[Sequence[int]]
) -> int:
    """N-3 missing count of a seen player's 22-card holding (see the module docstring).

    ``hand``: the count vector of the holding, with or without the ``shown`` melds or
    dublees (told apart by size). With nothing shown, both paths are tried and the
    melds path includes showing three melds in the same turn.
    """
    wilds, rest, limit = _prepare(hand, rules, tiplu, shown)
    if rules.melds_at_least3:
        from rami.marriage.solver_indian import indian_missing

        return indian_missing(rest, rules, wilds, limit, shown)
    if shown and all(len(g) == 2 for g in shown):
        return dublee_missing(rest, dublees_to_finish(rules) - len(shown), limit)
    total = melds_to_finish(rules)
    if shown:
        return melds_missing(rest, rules, wilds, limit, 0, total - len(shown))
    cap = 22
    if rules.dublees:
        cap = dublee_missing(rest, dublees_to_finish(rules), limit)
        if cap == 0:
            return 0
    return min(cap, melds_missing(rest, rules, wilds, limit, 3, total - 3, cap - 1))
