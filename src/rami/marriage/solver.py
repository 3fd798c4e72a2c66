"""Exact Marriage finish solvers (M-6, M-8, M-9) on count vectors: the public API.

Hands are count vectors (``rami.cards.counts``, 53 long). Three-card melds
(``nepali``) are solved in ``cover``, melds of three or more (``indian``) in
``solver_indian``, the N-3 exchange count in ``missing``; this module holds show
melds, dublees and the entry points the engine and the calculators call. The modules
import downwards only: ``missing`` needs nothing from here (the finish counts live in
``rules``).
"""

from __future__ import annotations

# rami: compiled with mypyc in the accelerated build
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rami.cards import CARDS, KINDS, Card
from rami.marriage import missing as missing_search
from rami.marriage.cover import arrange3, discards3, show_discards3
from rami.marriage.melds import is_show_meld
from rami.marriage.rules import MarriageRules, dublees_to_finish, melds_to_finish
from rami.runs import ACE_HIGH, ACE_LOW, RUN_KINDS

__all__ = [
    "Finish",
    "arrange",
    "dublee_count",
    "dublees_to_finish",
    "find_finish",
    "finish_discards",
    "max_show_melds",
    "melds_to_finish",
    "missing",
    "missing_at_least",
    "show_and_finish",
    "show_choices",
    "show_finish_discards",
    "show_meld_options",
]


@dataclass(frozen=True)
class Finish:
    """One way to finish: the melds (or dublees) laid down and the final discard.

    ``nepali`` melds: the melds made of the hand's cards (shown melds not included).
    Dublees: the pairs needed on top of those already shown. ``indian``: the player's
    table melds with their additions (in the order given), then the new melds.
    """

    kind: str  # "melds" | "dublees"
    groups: tuple[tuple[Card, ...], ...]
    discard: Card

    def __reduce__(self) -> tuple[object, ...]:
        """Copied and pickled as a call with its fields: compiled (the accelerated build), a
        frozen dataclass's default rebuild assigns its fields one by one and is refused."""
        return (Finish, (self.kind, self.groups, self.discard))


# --------------------------------------------------------------------------------------
# Show melds (M-6)


def show_meld_options(hand: Sequence[int], rules: MarriageRules) -> list[tuple[Card, ...]]:
    """The distinct show melds (``is_show_meld``) that the count vector ``hand`` holds.

    ``exactly3``: three-card sequences and tunnelas. ``at_least3``: every pure sequence
    of three or more and every pure trial of three or four cards.
    """
    out: list[tuple[Card, ...]] = []
    longer = rules.melds_at_least3
    for s in range(4):
        kinds = RUN_KINDS[s]  # positions 1..14 (ace at both ends)
        held = [False] + [hand[kinds[p]] > 0 for p in range(ACE_LOW, ACE_HIGH + 1)]
        for start in range(1, 13):
            length = 0
            while start + length <= 14 and held[start + length] and length < 13:
                length += 1
                if length >= 3 and (longer or length == 3):
                    out.append(tuple(CARDS[kinds[p]] for p in range(start, start + length)))
                if length == 3 and not longer:
                    break
    if rules.show_kinds == "sequence+tunnela":
        for k in range(52):
            if hand[k] >= 3:
                out.append((CARDS[k],) * 3)
    else:
        for r in range(13):
            suits = [s for s in range(4) if hand[s * 13 + r]]
            sizes = (3, 4) if longer else (3,)
            for size in sizes:
                for combo in itertools.combinations(suits, size):
                    out.append(tuple(CARDS[s * 13 + r] for s in combo))
    return [m for m in out if is_show_meld(m, rules)]


def max_show_melds(hand: Sequence[int], rules: MarriageRules, limit: int) -> int:
    """The most disjoint show melds in ``hand`` (three-card ones suffice), up to ``limit``."""
    options = [m for m in show_meld_options(hand, rules) if len(m) == 3]
    if not options or limit <= 0:
        return 0
    kinds = sorted({c for m in options for c in m})
    index = {k: i for i, k in enumerate(kinds)}
    opts = [tuple(index[c] for c in m) for m in options]
    by_low: dict[int, list[tuple[int, ...]]] = {}
    for o in opts:
        by_low.setdefault(min(o), []).append(o)
    memo: dict[tuple[int, ...], int] = {}

    def best(counts: tuple[int, ...]) -> int:
        got = memo.get(counts)
        if got is not None:
            return got
        low = next((i for i, n in enumerate(counts) if n), None)
        if low is None:
            return 0
        rest = list(counts)
        rest[low] = 0
        result = best(tuple(rest))  # the lowest kind is in no meld at all
        for o in by_low.get(low, ()):
            if result >= limit:
                break
            left = list(counts)
            ok = True
            for i in o:
                left[i] -= 1
                if left[i] < 0:
                    ok = False
            if ok:
                result = max(result, 1 + best(tuple(left)))
        result = min(result, limit)
        memo[counts] = result
        return result

    return best(tuple(hand[k] for k in kinds))


# --------------------------------------------------------------------------------------
# Dublees (M-9)


def dublee_count(hand: Sequence[int]) -> int:
    """Disjoint pairs of identical cards in the count vector ``hand``."""
    return sum([n >> 1 for n in hand])  # n // 2; a list is summed faster than a generator


def _dublee_need(hand: Sequence[int], rules: MarriageRules, shown: int) -> int:
    """Dublees still to find in ``hand`` (shown dublees in ``hand`` or not, by its size)."""
    total = sum(hand)
    need = dublees_to_finish(rules)
    if total == rules.hand_size + 1:
        return need
    if total != rules.hand_size + 1 - 2 * shown:
        raise ValueError(f"dublee finish: {total} cards in hand does not fit {shown} shown dublees")
    return need - shown


def _dublee_pairs(hand: Sequence[int], need: int, discard: int) -> tuple[tuple[Card, ...], ...]:
    left = list(hand)
    left[discard] -= 1
    pairs: list[tuple[Card, ...]] = []
    for k in range(KINDS):
        for _ in range(left[k] // 2):
            if len(pairs) < need:
                pairs.append((CARDS[k], CARDS[k]))
    return tuple(pairs)


# --------------------------------------------------------------------------------------
# Finishing (M-8, M-9)


def _check_vector(hand: Sequence[int]) -> None:
    if len(hand) != KINDS:
        raise ValueError(f"a hand is a count vector of length {KINDS}, not {len(hand)}")


def _melds_needed(hand: Sequence[int], rules: MarriageRules, shown_melds: int) -> int:
    need = melds_to_finish(rules) - shown_melds
    total = sum(hand)
    if total != 3 * need + 1:
        raise ValueError(
            f"meld finish: {total} cards in hand does not fit {shown_melds} shown melds"
        )
    return need


def arrange(
    hand: Sequence[int], rules: MarriageRules, wilds: frozenset[int]
) -> list[tuple[Card, ...]] | None:
    """Partition every card of ``hand`` into valid melds (``is_meld``), or ``None``.

    ``exactly3``: three-card melds; ``at_least3``: melds of any size from three.
    """
    _check_vector(hand)
    if rules.melds_at_least3:
        from rami.marriage.solver_indian import arrange_indian

        return arrange_indian(hand, rules, wilds)
    return arrange3(hand, wilds, rules.tunnela_melds)


def finish_discards(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    shown_melds: int,
    path: str,
    extra_melds: Sequence[Sequence[int]] = (),
) -> list[Card]:
    """The distinct cards whose discard lets the holder of ``hand`` finish now.

    ``path == "melds"``, ``exactly3`` (M-8): ``hand`` holds the cards not shown;
    without the discard they must make ``7 - shown_melds`` three-card melds. The caller
    checks that the player has shown (``shown_melds`` counts melds already shown).
    ``at_least3``: every card of ``hand`` but the discard goes to the table, as new
    melds or added to the player's own table melds ``extra_melds``, all valid, with
    three pure melds on the table afterwards.
    ``path == "dublees"`` (M-9): eight dublees among the cards without the discard;
    ``hand`` may hold the ``shown_melds`` shown dublees (22 cards) or not.
    """
    _check_vector(hand)
    if path == "dublees":
        need = _dublee_need(hand, rules, shown_melds)
        have = dublee_count(hand)
        return [
            CARDS[k]
            for k in range(KINDS)
            if hand[k] and have - (1 if hand[k] % 2 == 0 else 0) >= need
        ]
    if path != "melds":
        raise ValueError(f"unknown finish path {path!r}")
    if rules.melds_at_least3:
        from rami.marriage.solver_indian import indian_discards

        return indian_discards(hand, rules, wilds, extra_melds)
    _melds_needed(hand, rules, shown_melds)
    return discards3(hand, wilds, rules.tunnela_melds)


def find_finish(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    shown_melds: int,
    path: str,
    discard: Card,
    extra_melds: Sequence[Sequence[int]] = (),
) -> Finish | None:
    """One arrangement that finishes with ``discard`` (see ``finish_discards``)."""
    _check_vector(hand)
    if not hand[discard]:
        return None
    if path == "dublees":
        need = _dublee_need(hand, rules, shown_melds)
        left = list(hand)
        left[discard] -= 1
        if dublee_count(left) < need:
            return None
        return Finish("dublees", _dublee_pairs(hand, need, discard), CARDS[discard])
    if path != "melds":
        raise ValueError(f"unknown finish path {path!r}")
    left = list(hand)
    left[discard] -= 1
    if rules.melds_at_least3:
        from rami.marriage.solver_indian import finishing_arrangement

        # the arrangement the search that answers ``finish_discards`` reaches first
        got = finishing_arrangement(hand, rules, wilds, extra_melds, int(discard))
        if got is None:
            return None
        groups = tuple(tuple(CARDS[c] for c in g) for g in got)
        return Finish("melds", groups, CARDS[discard])
    _melds_needed(hand, rules, shown_melds)
    melds = arrange3(left, wilds, rules.tunnela_melds)
    if melds is None:
        return None
    return Finish("melds", tuple(melds), CARDS[discard])


def show_choices(
    hand: Sequence[int], rules: MarriageRules, count: int = 3
) -> Iterator[tuple[tuple[tuple[Card, ...], ...], list[int]]]:
    """Each distinct way to take ``count`` disjoint three-card show melds from ``hand``.

    Yields (the show melds, the count vector left). Ways leaving the same cards are
    given once.
    """
    options = [m for m in show_meld_options(hand, rules) if len(m) == 3]
    seen: set[tuple[int, ...]] = set()
    left = list(hand)

    def walk(
        start: int, chosen: list[tuple[Card, ...]]
    ) -> Iterator[tuple[tuple[tuple[Card, ...], ...], list[int]]]:
        if len(chosen) == count:
            key = tuple(left)
            if key not in seen:
                seen.add(key)
                yield tuple(chosen), list(left)
            return
        for i in range(start, len(options)):
            meld = options[i]
            for c in meld:
                left[c] -= 1
            if min(left[c] for c in meld) >= 0:
                chosen.append(meld)
                yield from walk(i, chosen)
                chosen.pop()
            for c in meld:
                left[c] += 1

    yield from walk(0, [])


def show_finish_discards(
    hand: Sequence[int], rules: MarriageRules, wilds: frozenset[int]
) -> list[Card]:
    """M-8 in one turn (``exactly3``): the discards after which the 22 cards of ``hand``
    show three melds (M-6) and finish with the rest (wild cards allowed)."""
    _check_vector(hand)
    if rules.melds_at_least3 or rules.show_kinds != "sequence+tunnela" or not rules.tunnela_melds:
        return [f.discard for _, f in show_and_finish(hand, rules, wilds)]
    _melds_needed(hand, rules, 0)
    return show_discards3(hand, wilds, rules.tunnela_melds)


def show_and_finish(
    hand: Sequence[int], rules: MarriageRules, wilds: frozenset[int]
) -> list[tuple[tuple[tuple[Card, ...], ...], Finish]]:
    """M-8 in one turn (``exactly3``): show three melds, then finish with the rest.

    ``hand`` is the whole 22-card holding with nothing shown. One entry per distinct
    discard: (the show melds, the finish). Slower than ``show_finish_discards``: it
    tries the ways to show one by one.
    """
    _check_vector(hand)
    found: dict[int, tuple[tuple[tuple[Card, ...], ...], Finish]] = {}
    for shows, left in show_choices(hand, rules):
        for d in discards3(left, wilds, rules.tunnela_melds):
            if d not in found:
                rest = list(left)
                rest[d] -= 1
                melds = arrange3(rest, wilds, rules.tunnela_melds)
                assert melds is not None
                found[d] = (shows, Finish("melds", tuple(melds), CARDS[d]))
    return [found[d] for d in sorted(found)]


def missing(
    hand: Sequence[int], rules: MarriageRules, tiplu: Card, shown: Sequence[Sequence[int]]
) -> int:
    """N-3: the fewest exchanges (one card out, one in) before the holding can finish.

    See ``rami.marriage.missing`` for the method and the conventions.
    """
    return missing_search.missing_count(hand, rules, tiplu, shown)


def missing_at_least(
    hand: Sequence[int],
    rules: MarriageRules,
    tiplu: Card,
    shown: Sequence[Sequence[int]],
    work: int | None = None,
) -> tuple[int, bool]:
    """``missing`` within a bound on search work, for hints: (count, exact).

    ``exact`` False means the search stopped early and *at least* ``count`` cards are
    missing. ``work`` None uses ``rami.marriage.missing.HINT_WORK``.
    """
    limit = missing_search.HINT_WORK if work is None else work  # read now: tests change it
    got = missing_search.missing_bound(hand, rules, tiplu, shown, limit)
    return got.count, got.exact
