"""The share quick no of the ``indian`` finish check (``_too_few_wilds``) never says no
wrongly, and the finish check with it gives the plain search's answers (M-8, M-10).

Each meld's wild cards, split among its natural cards from the hand, give every card a
share; the least share a card can have is read from the melds that could hold it, and
shares adding up to more than the wild cards held mean no finish. Checked against the
brute force of tests/test_marriage_finish_prefilter.py (every way to lay the cards down,
purity ignored) on random small holdings beside random table melds, dirty and all-wild
ones included; and in seeded random play against ``indian_discards_plain`` (one plain
``indian_finish`` per discard), the discards and the arrangement each one finishes with.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from test_marriage_fast_legal import dense_hand
from test_marriage_finish_prefilter import brute_lay_down, random_meld

from rami.cards import CARDS, counts
from rami.marriage.game import new_deal
from rami.marriage.melds import is_meld, is_pure_meld, wild_kinds
from rami.marriage.rules import INDIAN, NEPALI, MarriageRules
from rami.marriage.solver import find_finish
from rami.marriage.solver_indian import (
    _DROPS_MEMO,
    _SHARE_UNIT,
    PURE_ON_TABLE,
    _disjoint_choices,
    _finishing_discards,
    _floor,
    _joined_shares_of,
    _pure_cores,
    _Search,
    _suit_shares_of,
    _three_cores,
    _too_few_wilds,
    _too_many_loners,
    finishing_arrangement,
    finishing_discards,
    indian_discards,
    indian_discards_plain,
    indian_finish,
)


def table_meld(rng: random.Random, wl: list[int]) -> list[int]:
    """A valid table meld: natural, dirty, or (one time in five) wild cards only."""
    if rng.random() < 0.2:
        cards = [rng.choice(wl) for _ in range(rng.choice([3, 3, 4]))]
        assert is_meld(cards, INDIAN, frozenset(wl))
        return cards
    return random_meld(rng, wl)


def test_M8_M10_share_no_matches_the_brute_force_on_random_holdings() -> None:
    rng = random.Random(2026)
    said_no = 0
    for _ in range(700):
        tiplu = CARDS[rng.randrange(52)]
        wilds = wild_kinds(tiplu)
        wl = sorted(wilds)
        table = [table_meld(rng, wl) for _ in range(rng.randint(0, 3))]
        suits = rng.sample(range(4), 2)
        cards = [rng.choice(wl) for _ in range(rng.choice([0, 0, 1, 2, 3]))]
        while len(cards) < rng.randint(3, 7):
            s = suits[0] if rng.random() < 0.7 else suits[1]
            cards.append(s * 13 + rng.randrange(13))
        if not _too_few_wilds(counts(cards), wilds, 1, table, INDIAN.tunnela_melds):
            continue
        said_no += 1
        for d in set(cards):
            rest = list(cards)
            rest.remove(d)
            assert not brute_lay_down(rest, table, wilds), (cards, table, str(tiplu), d)
    assert said_no > 150  # the check is exercised


def test_M4_suit_shares_are_the_least_over_every_window() -> None:
    """M-4 (``at_least3``): the share table against every window of positions, ace low
    and high, taking every held rank in it; and a card joining a table sequence."""
    rng = random.Random(7)
    for _ in range(300):
        ranks = rng.randrange(1 << 13)
        got = _suit_shares_of(ranks)
        held = [r for r in range(13) if (ranks >> r) & 1]
        for r in held:
            best = 2 * _SHARE_UNIT
            for a in range(1, 15):
                for b in range(a, min(14, a + 12) + 1):
                    inside = {p for p in range(a, b + 1) if (ranks >> ((p - 1) % 13)) & 1}
                    if r + 1 not in inside and not (r == 0 and 14 in inside):
                        continue
                    n = len(inside)
                    best = min(best, (max(3, b - a + 1) - n) * _SHARE_UNIT // n)
            assert got[r] == best, (bin(ranks), r)
    # 4♠ 5♠ 6♠ on the table (positions 4 … 6): 8♠ alone asks one wild card (for 7♠),
    # with 7♠ none, with 9♠ one for the two
    assert dict(_joined_shares_of(1 << 7, 4, 6, 3)) == {7: _SHARE_UNIT}
    assert dict(_joined_shares_of((1 << 6) | (1 << 7), 4, 6, 3)) == {6: 0, 7: 0}
    assert dict(_joined_shares_of((1 << 7) | (1 << 8), 4, 6, 3)) == {
        7: _SHARE_UNIT // 2,
        8: _SHARE_UNIT // 2,
    }


def _collect_restarting(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    groups: Sequence[Sequence[int]],
    protected: frozenset[int],
    failed: set[tuple[object, ...]],
    skip: list[bool],
    found: dict[int, tuple[tuple[int, ...], ...]],
    floors: Sequence[int] = (),
) -> None:
    """``_collect`` as it was before issue 27: a new search from the root after each
    success, its discard barred (the one search of ``_collect`` goes on instead)."""
    target = sum(hand) - 1
    while True:
        search = _Search(
            hand, rules, wilds, groups, protected, 0, 1, target,
            failed=failed, skip=skip, drop_wilds=True, floors=floors,
        )  # fmt: skip
        if not search.run():
            return
        d = search.dropped_card
        assert d is not None and search.result is not None
        found[d] = tuple(search.result)
        skip[d] = True


def _finishing_reference(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    table: Sequence[Sequence[int]],
) -> dict[int, tuple[tuple[int, ...], ...]]:
    """``_finishing_discards`` as it was before the share no (issue 11): the loner no, a
    pass without purity naming the candidates (with arrangements), then every choice of
    pure melds. Holdings of two cards or more."""
    if _too_many_loners(hand, wilds, 1, table, rules.tunnela_melds):
        return {}
    skip = [not hand[k] for k in range(52)]
    relaxed: dict[int, tuple[tuple[int, ...], ...]] = {}
    _collect_restarting(hand, rules, wilds, table, frozenset(), set(), skip, relaxed)
    if not relaxed:
        return {}
    skip = [k not in relaxed for k in range(52)]
    found: dict[int, tuple[tuple[int, ...], ...]] = {}
    memos: dict[frozenset[int], set[tuple[object, ...]]] = {}
    pure_table = [i for i, g in enumerate(table) if is_pure_meld(list(g), rules)]
    options = _pure_cores(hand, rules)
    for j in range(min(PURE_ON_TABLE, len(pure_table)), -1, -1):
        for protected in itertools.combinations(pure_table, j):
            for chosen in _disjoint_choices(hand, options, PURE_ON_TABLE - j):
                rest = list(hand)
                for m in chosen:
                    for c in m:
                        rest[c] -= 1
                if sum(rest) == 0 or all(skip[k] or not rest[k] for k in relaxed):
                    continue
                melds: list[Sequence[int]] = [*table, *chosen]
                prot = frozenset(protected) | frozenset(range(len(table), len(melds)))
                failed = memos.setdefault(prot, set())
                floors = [-1] * len(table) + [_floor(m) for m in chosen]
                _collect_restarting(rest, rules, wilds, melds, prot, failed, skip, found, floors)
                if len(found) == len(relaxed):
                    return found
    return found


def test_M8_M10_finish_check_equals_the_plain_search_in_random_play() -> None:
    """Thousands of seen positions of seeded random Indian play, four seeds: the finish
    check gives exactly the discards of one plain ``indian_finish`` per discard, and the
    very arrangements of the check before issue 11's shortcuts (the share no, one choice
    of pure melds searched at once, the candidate pass without arrangements); each
    finishes with valid melds; every holding the share no refuses has no finish."""
    positions = refused = finishes = 0
    for seed in (3, 11, 29, 47):
        rng = random.Random(seed)
        for deal in range(6):
            state = new_deal({"preset": "indian", "max_turns": 300}, 4, seed * 100 + deal)
            while not state.is_over:
                s = state.current
                if state.seen[s] and state.phase == "play":
                    hand = list(state.hands[s])
                    table = [tuple(int(c) for c in g) for g in state.melds[s]]
                    fast = indian_discards(hand, INDIAN, state.wilds, table)
                    plain = indian_discards_plain(hand, INDIAN, state.wilds, table)
                    assert fast == plain, (hand, table, sorted(state.wilds))
                    if sum(hand) > 1:  # the very arrangements of the code before
                        before = _finishing_reference(hand, INDIAN, state.wilds, table)
                        now = _finishing_discards(hand, INDIAN, state.wilds, table)
                        assert now == before, (hand, table, sorted(state.wilds))
                        assert list(now) == list(before)  # found in the same order
                        # a finish's arrangement after the legal list's search (discards
                        # only): the one search leaving that discard out finds the same
                        _DROPS_MEMO.clear()
                        indian_discards(hand, INDIAN, state.wilds, table)
                        for d, melds in before.items():
                            got = finishing_arrangement(hand, INDIAN, state.wilds, table, d)
                            assert got == melds, (hand, table, sorted(state.wilds), d)
                    positions += 1
                    if _too_few_wilds(hand, state.wilds, 1, table, INDIAN.tunnela_melds):
                        refused += 1
                        assert plain == []
                    for d, melds in finishing_discards(hand, INDIAN, state.wilds, table).items():
                        finishes += 1
                        left = list(hand)
                        left[d] -= 1
                        assert indian_finish(left, INDIAN, state.wilds, table) is not None
                        assert all(is_meld(m, INDIAN, state.wilds) for m in melds)
                        assert sorted(c for m in melds for c in m) == sorted(
                            [c for g in table for c in g]
                            + [k for k in range(52) for _ in range(left[k])]
                        )
                        got = find_finish(
                            hand, INDIAN, state.wilds, len(table), "melds", CARDS[d], table
                        )
                        assert got is not None
                state.apply(rng.choice(state.legal_actions()))
    assert positions > 2000 and refused > 500 and finishes > 30, (positions, refused, finishes)


def test_M6_three_cores_are_the_pure_cores_in_order() -> None:
    """M-6: the bit-read three-card pure cores the finish check chooses the table's pure
    melds from are the plain ones, in the same order (the first arrangement found stays
    the plain search's), with and without tunnelas."""
    rng = random.Random(5)
    for _ in range(3000):
        hand = dense_hand(rng)
        for rules in (INDIAN, NEPALI):
            assert _three_cores(hand, rules.tunnela_melds) == _pure_cores(hand, rules), hand
