"""The ``indian`` solvers on the hard class: dense two-suit holdings with 2–6 wild cards.

The one-search discards (``finishing_discards``) against the brute force over every
way to lay the cards (M-8, M-10) and against one ``indian_finish`` per discard; the
bounded ``missing`` for hints ("at least N", N-3) against the exact count.
"""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from test_marriage_solver import brute_table_finish, random_pure

from rami.cards import CARDS, Card, counts, parse_card, parse_cards
from rami.marriage.calculator import analyze, format_analysis
from rami.marriage.melds import is_meld, is_pure_meld, wild_kinds
from rami.marriage.missing import MissingCount, missing_bound
from rami.marriage.rules import INDIAN
from rami.marriage.solver import find_finish, finish_discards, missing, missing_at_least
from rami.marriage.solver_indian import indian_discards_plain

EXAMPLE_TIPLU = "9♠"  # the issue's worst hand (seconds before the one-search discards)
EXAMPLE = "A♥ 2♥ 3♥ 4♥ 4♥ 5♥ 5♥ 6♥ 7♥ 8♥ 9♥ 9♥ 10♥ 10♥ J♥ K♥ 2♦ 4♦ 6♦ 9♦ 9♣ 10♣"


def dense(rng: random.Random, size: int, wild_range: tuple[int, int]) -> tuple[Card, list[int]]:
    """``size`` cards: 2–6 (``wild_range``) wild cards, the rest from two suits, 70/30."""
    while True:
        tiplu = CARDS[rng.randrange(52)]
        wl = sorted(wild_kinds(tiplu))
        suits = rng.sample(range(4), 2)
        cards = [rng.choice(wl) for _ in range(rng.randint(*wild_range))]
        while len(cards) < size:
            s = suits[0] if rng.random() < 0.7 else suits[1]
            cards.append(s * 13 + rng.randrange(13))
        v = counts(cards)
        if max(v) <= 3 and v[tiplu] <= 2:
            return tiplu, cards


def test_M8_M10_hard_class_discards_match_brute_force() -> None:
    rng = random.Random(1201)
    checked = 0
    while checked < 80:
        tiplu, cards = dense(rng, rng.randint(4, 6), (2, 4))
        wilds = wild_kinds(tiplu)
        suit = max(range(4), key=lambda s: sum(1 for c in cards if c // 13 == s))
        table = [random_pure(rng) for _ in range(3)]
        # pure melds of the hand's main suit where possible: dense tables
        table = [m if rng.random() < 0.5 else [suit * 13 + c % 13 for c in m] for m in table]
        table = [m for m in table if is_pure_meld(m, INDIAN)]
        whole = counts(cards + [c for m in table for c in m])
        if len(table) < 3 or max(whole) > 3 or whole[tiplu] > 2:
            continue
        checked += 1
        v = counts(cards)
        got = [int(c) for c in finish_discards(v, INDIAN, wilds, len(table), "melds", table)]
        expect = []
        for d in sorted(set(cards)):
            rest = list(cards)
            rest.remove(d)
            if brute_table_finish(rest, table, wilds):
                expect.append(d)
        assert got == expect, (cards, table, str(tiplu))
        for d in got:
            f = find_finish(v, INDIAN, wilds, len(table), "melds", CARDS[d], table)
            assert f is not None
            assert all(is_meld(g, INDIAN, wilds) for g in f.groups)
            assert sum(is_pure_meld(g, INDIAN) for g in f.groups) >= 3


def test_M8_hard_class_one_search_matches_one_finish_per_discard() -> None:
    rules = dataclasses.replace(INDIAN, hand_size=12)
    rng = random.Random(1202)
    for _ in range(40):
        tiplu, cards = dense(rng, 13, (2, 6))
        wilds = wild_kinds(tiplu)
        v = counts(cards)
        got = finish_discards(v, rules, wilds, 0, "melds")
        assert got == indian_discards_plain(v, rules, wilds, ()), (cards, str(tiplu))
        for d in got:
            f = find_finish(v, rules, wilds, 0, "melds", d)
            assert f is not None and all(is_meld(g, rules, wilds) for g in f.groups)
            expected = list(cards)
            expected.remove(d)
            assert sorted(c for g in f.groups for c in g) == sorted(expected)


def test_M8_the_issue_example_finishes_by_four_discards() -> None:
    tiplu = parse_card(EXAMPLE_TIPLU)
    v = counts(parse_cards(EXAMPLE))
    got = finish_discards(v, INDIAN, wild_kinds(tiplu), 0, "melds")
    assert [str(c) for c in got] == ["K♥", "2♦", "6♦", "10♣"]
    assert missing(v, INDIAN, tiplu, []) == 0


def test_N3_bounded_missing_is_a_lower_bound_and_says_so() -> None:
    rng = random.Random(1203)
    stopped = 0
    for _ in range(25):
        tiplu, cards = dense(rng, 22, (2, 6))
        v = counts(cards)
        exact = missing(v, INDIAN, tiplu, [])
        assert missing_bound(v, INDIAN, tiplu, [], None) == MissingCount(exact, True)
        small = missing_bound(v, INDIAN, tiplu, [], 50)
        if small.exact:
            assert small.count == exact
        else:
            stopped += 1
            assert small.count <= exact
            assert small.text().startswith("at least ")
    assert stopped > 0  # 50 search states are too few for some of these
    count, exact_flag = missing_at_least(counts(parse_cards(EXAMPLE)), INDIAN, parse_card("9♠"), [])
    assert (count, exact_flag) == (0, True)


def test_N3_analyze_says_at_least_when_the_hint_search_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import rami.marriage.missing as m

    hand = "A♠ A♠ A♠ 3♠ 4♠ 6♠ 6♠ 6♠ 7♠ 7♠ 10♠ J♠ J♠ Q♠ 10♥ 3♦ J♦ Q♦ Q♦ 9♣ 10♣ J♣"
    exact = missing(counts(parse_cards(hand)), INDIAN, parse_card("10♣"), [])
    monkeypatch.setattr(m, "HINT_WORK", 1)
    result = analyze(hand, "10♣", None, "indian")
    assert result["missing_exact"] is False and result["missing"] <= exact
    assert "Cannot finish yet: at least" in format_analysis(result)
    monkeypatch.setattr(m, "HINT_WORK", 10**9)
    full = analyze(hand, "10♣", None, "indian")
    assert full["missing_exact"] is True and full["missing"] == exact


def test_M6_each_pure_meld_grows_from_its_lowest_three_cards_only() -> None:
    """The one-search discards choose three-card pure cores and grow them (M-6): a core
    takes no card below its floor, so a pure meld is reached from its lowest three
    cards, and from no other three of its cards (no search done twice)."""
    from rami.marriage.solver_indian import _floor, _under

    melds: list[list[int]] = []
    for s in range(4):
        row = [s * 13 + r for r in range(13)] + [s * 13]  # positions 1..14, ace both ends
        for lo in range(13):
            for hi in range(lo + 3, min(14, lo + 13) + 1):
                melds.append(row[lo:hi])
    for r in range(13):
        melds.append([t * 13 + r for t in range(4)])
        melds.extend([t * 13 + r for t in range(4) if t != u] for u in range(4))
    for meld in melds:
        assert is_pure_meld(meld, INDIAN)
        ways = 0
        for i, j, k in itertools.combinations(range(len(meld)), 3):
            core = (meld[i], meld[j], meld[k])
            if not is_pure_meld(list(core), INDIAN):
                continue
            floor = _floor(tuple(sorted(core)))
            rest = [c for n, c in enumerate(meld) if n not in (i, j, k)]
            if not any(_under(floor, c) for c in rest):
                ways += 1
        # never lost; twice at most, with an ace (it may always come, as the ace high)
        has_ace = any(c % 13 == 0 for c in meld)
        assert 1 <= ways <= (2 if has_ace else 1), [str(CARDS[c]) for c in meld]
