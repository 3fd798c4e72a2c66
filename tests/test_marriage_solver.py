"""Marriage melds (M-4, M-6) and the finish solvers (M-8, M-9, M-10, N-3 missing).

The solvers are checked against slow reference searches written here from the rules
alone: every partition of the cards into melds accepted by ``is_meld`` (itself checked
case by case against M-4), every choice of show melds, every pair count, and for the
missing count every set of kept cards plus every set of cards taken in.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Sequence
from functools import cache, lru_cache

import pytest

from rami.cards import CARDS, Card, counts, parse_card, parse_cards
from rami.marriage.melds import (
    is_meld,
    is_pure_meld,
    is_show_meld,
    jhiplu,
    poplu,
    wild_kinds,
)
from rami.marriage.missing import copy_limits
from rami.marriage.rules import INDIAN, NEPALI, MarriageRules
from rami.marriage.solver import (
    arrange,
    dublee_count,
    find_finish,
    finish_discards,
    max_show_melds,
    missing,
    show_and_finish,
    show_finish_discards,
    show_meld_options,
)


def cs(text: str) -> list[Card]:
    return parse_cards(text)


def vec(text: str) -> list[int]:
    return counts(parse_cards(text))


TIPLU_JC = wild_kinds(parse_card("J♣"))


# --- M-4 terms and melds -----------------------------------------------------------------


def test_terms_jhiplu_poplu_wrap_for_neighbours_only() -> None:
    assert (str(jhiplu(parse_card("J♣"))), str(poplu(parse_card("J♣")))) == ("10♣", "Q♣")
    assert str(poplu(parse_card("K♥"))) == "A♥"
    assert (str(jhiplu(parse_card("A♦"))), str(poplu(parse_card("A♦")))) == ("K♦", "2♦")


def test_terms_wild_kinds_of_a_tiplu() -> None:
    wild = {str(CARDS[k]) for k in TIPLU_JC}
    assert wild == {"J♠", "J♥", "J♦", "J♣", "10♣", "Q♣"}
    assert wild_kinds(None) == frozenset()


@pytest.mark.parametrize(
    "text",
    ["3♠ 4♠ 5♠", "A♠ 2♠ 3♠", "Q♠ K♠ A♠", "6♥ 6♥ 6♥", "5♠ 5♥ 5♦", "K♦ A♦ Q♦"],
)
def test_M4_pure_melds_nepali(text: str) -> None:
    assert is_meld(cs(text), NEPALI, frozenset())
    assert is_pure_meld(cs(text), NEPALI)


@pytest.mark.parametrize(
    "text",
    [
        "K♠ A♠ 2♠",  # sequences do not wrap
        "3♠ 4♠ 6♠",
        "5♠ 5♠ 5♥",  # a trial needs different suits
        "3♠ 4♠ 5♥",
        "3♠ 4♠ 5♠ 6♠",  # nepali melds are exactly three cards
        "3♠ 4♠",
    ],
)
def test_M4_not_melds_nepali(text: str) -> None:
    assert not is_meld(cs(text), NEPALI, frozenset())


def test_M4_dirty_melds_need_one_natural_and_compatible_naturals() -> None:
    w = TIPLU_JC  # J of every suit, 10♣, Q♣
    assert is_meld(cs("3♠ 4♠ J♥"), NEPALI, w)  # J♥ stands for 5♠ or 2♠
    assert is_meld(cs("3♠ 5♠ 10♣"), NEPALI, w)
    assert is_meld(cs("Q♠ A♠ J♦"), NEPALI, w)  # Q K A with the K wild
    assert is_meld(cs("5♠ 5♥ Q♣"), NEPALI, w)  # dirty trial
    assert is_meld(cs("8♦ J♠ J♥"), NEPALI, w)  # two wild cards and a natural
    assert is_meld(cs("J♠ J♥ Q♣"), NEPALI, w)  # three wild cards: one is the natural
    assert not is_meld(cs("3♠ 6♠ J♥"), NEPALI, w)
    assert not is_meld(cs("K♠ 2♠ J♥"), NEPALI, w)  # would wrap
    assert not is_meld(cs("5♠ 5♠ J♥"), NEPALI, w)  # two identical + wild: never


def test_M4_wild_cards_used_as_themselves() -> None:
    assert is_meld(cs("10♣ J♣ Q♣"), NEPALI, TIPLU_JC)
    assert is_pure_meld(cs("10♣ J♣ Q♣"), NEPALI)
    assert is_meld(cs("J♦ J♥ J♠"), NEPALI, TIPLU_JC)


def test_M4_indian_melds_of_three_or_more() -> None:
    w = TIPLU_JC
    assert is_meld(cs("3♠ 4♠ 5♠ 6♠ 7♠"), INDIAN, frozenset())
    assert is_meld(cs("5♠ 5♥ 5♦ 5♣"), INDIAN, frozenset())
    assert not is_meld(cs("5♠ 5♥ 5♦ 5♣ J♥"), INDIAN, w)  # five cards, one rank: no
    assert not is_meld(cs("6♥ 6♥ 6♥"), INDIAN, frozenset())  # no tunnelas in indian
    assert is_meld(cs("3♠ J♥ J♠ 6♠ 7♠"), INDIAN, w)  # two wilds for 4♠ 5♠
    assert not is_meld(cs("3♠ J♥ 6♠ 7♠"), INDIAN, w)  # the gap needs two
    assert not is_meld(cs("3♠ J♥ J♠ 7♠ 8♠"), INDIAN, w)  # and this one three
    assert is_meld(cs("J♥ J♠ Q♣"), INDIAN, w)  # all wild
    assert is_meld(cs("J♥ J♠ Q♣ 10♣"), INDIAN, w)
    assert not is_meld(cs("5♠ 5♠ J♥"), INDIAN, w)
    assert not is_meld(cs("K♠ A♠ 2♠ J♥"), INDIAN, w)  # no wrap, wilds or not
    assert is_meld(cs("J♠ Q♠ K♠ A♠ J♥"), INDIAN, w)  # 10 J Q K A


@pytest.mark.parametrize(
    ("text", "nepali", "indian"),
    [
        ("3♠ 4♠ 5♠", True, True),
        ("6♥ 6♥ 6♥", True, False),
        ("5♠ 5♥ 5♦", False, True),
        ("5♠ 5♥ 5♦ 5♣", False, True),
        ("3♠ 4♠ 5♠ 6♠", False, True),
        ("10♣ J♣ Q♣", True, True),  # shown by identity; the tiplu is not known yet
        ("3♠ 4♠ 6♠", False, False),
        ("Q♠ K♠ A♠", True, True),
    ],
)
def test_M6_show_melds(text: str, nepali: bool, indian: bool) -> None:
    assert is_show_meld(cs(text), NEPALI) is nepali
    assert is_show_meld(cs(text), INDIAN) is indian


def test_M6_show_meld_options_and_max_disjoint() -> None:
    hand = vec("3♠ 4♠ 5♠ 6♠ 7♠ 6♥ 6♥ 6♥ 9♦")
    options = {" ".join(str(c) for c in m) for m in show_meld_options(hand, NEPALI)}
    assert options == {"3♠ 4♠ 5♠", "4♠ 5♠ 6♠", "5♠ 6♠ 7♠", "6♥ 6♥ 6♥"}
    assert max_show_melds(hand, NEPALI, 3) == 2
    assert max_show_melds(hand, NEPALI, 1) == 1
    longer = {len(m) for m in show_meld_options(hand, INDIAN)}
    assert longer == {3, 4, 5}


@cache
def _all_show_threes(rules: MarriageRules) -> list[tuple[int, ...]]:
    return [
        m for m in itertools.combinations_with_replacement(range(52), 3) if is_show_meld(m, rules)
    ]


def _brute_max_show(hand: Sequence[int], rules: MarriageRules) -> int:
    threes = _all_show_threes(rules)
    useful = [m for m in threes if all(counts(m)[k] <= hand[k] for k in m)]
    best = 0

    def rec(start: int, left: list[int], n: int) -> None:
        nonlocal best
        best = max(best, n)
        for i in range(start, len(useful)):
            m = useful[i]
            need = counts(m)
            if all(left[k] >= need[k] for k in m):
                for k in m:
                    left[k] -= 1
                rec(i, left, n + 1)
                for k in m:
                    left[k] += 1

    rec(0, list(hand), 0)
    return best


def test_M6_max_show_melds_matches_brute_force() -> None:
    rng = random.Random(11)
    for _ in range(60):
        base = rng.randrange(40)
        cards = [base + rng.randrange(12) for _ in range(12)]
        v = counts(cards)
        if max(v) > 3:
            continue
        for rules in (NEPALI, INDIAN):
            assert max_show_melds(v, rules, 9) == _brute_max_show(v, rules)


def test_M9_dublee_count() -> None:
    assert dublee_count(vec("5♠ 5♠ 5♠ 6♥ 6♥ 7♦ J♣ J♣")) == 3


# --- reference searches ------------------------------------------------------------------


@lru_cache(maxsize=200_000)
def _brute_is_meld(meld: tuple[int, ...], rules: MarriageRules, wilds: frozenset[int]) -> bool:
    return is_meld(meld, rules, wilds)


@lru_cache(maxsize=500_000)
def _brute_go(rest: tuple[int, ...], rules: MarriageRules, wilds: frozenset[int]) -> bool:
    if not rest:
        return True
    first, others = rest[0], rest[1:]
    sizes = range(3, len(rest) + 1) if rules.melds_at_least3 else (3,)
    for size in sizes:
        if size - 1 > len(others):
            break
        for idx in set(itertools.combinations(range(len(others)), size - 1)):
            meld = (first, *(others[i] for i in idx))
            if _brute_is_meld(meld, rules, wilds):
                left = tuple(others[i] for i in range(len(others)) if i not in idx)
                if _brute_go(left, rules, wilds):
                    return True
    return False


def brute_arrange(cards: Sequence[int], rules: MarriageRules, wilds: frozenset[int]) -> bool:
    """Every partition into melds of ``is_meld``: the lowest card with each possible set
    of companions, recursively (three-card melds, or any size for ``at_least3``)."""
    return _brute_go(tuple(sorted(int(c) for c in cards)), rules, wilds)


def brute_discards(cards: Sequence[int], rules: MarriageRules, wilds: frozenset[int]) -> list[int]:
    out = []
    for d in sorted(set(cards)):
        rest = list(cards)
        rest.remove(d)
        if brute_arrange(rest, rules, wilds):
            out.append(d)
    return out


def random_meld(rng: random.Random, wilds: frozenset[int], show: bool = False) -> list[int]:
    """A random valid meld, biased towards the kinds seen in play."""
    while True:
        kind = rng.random()
        suit = rng.randrange(4)
        if kind < 0.35:
            start = rng.randrange(12)
            ranks = [start, start + 1, start + 2] if start < 11 else [11, 12, 0]
            cards = [suit * 13 + r for r in ranks]
        elif kind < 0.5:
            cards = [rng.randrange(52)] * 3
        elif kind < 0.65:
            rank = rng.randrange(13)
            cards = [s * 13 + rank for s in rng.sample(range(4), 3)]
        elif kind < 0.85 and wilds:
            start = rng.randrange(11)
            cards = [suit * 13 + start + i for i in range(3)]
            cards[rng.randrange(3)] = rng.choice(sorted(wilds))
        else:
            cards = [rng.randrange(52) for _ in range(3)]
        ok = is_show_meld(cards, NEPALI) if show else is_meld(cards, NEPALI, wilds)
        if ok:
            return cards


def near_winning(rng: random.Random, swaps: int = 2) -> tuple[Card, list[int], list[list[int]]]:
    """A tiplu, 13 cards in hand and three shown melds: a finished hand plus a card,
    with up to ``swaps`` cards replaced at random. Copies respect the decks."""
    while True:
        tiplu = CARDS[rng.randrange(52)]
        wilds = wild_kinds(tiplu)
        shown = [random_meld(rng, wilds, show=True) for _ in range(3)]
        hand = [c for _ in range(4) for c in random_meld(rng, wilds)]
        hand.append(rng.randrange(52))
        for _ in range(rng.randint(0, swaps)):
            hand[rng.randrange(13)] = rng.randrange(52)
        v = counts(hand + [c for m in shown for c in m])
        if max(v) <= 3 and v[tiplu] <= 2:
            return tiplu, hand, shown


# --- M-8 three-card melds ------------------------------------------------------------------


def test_M8_finish_discards_match_brute_force_near_winning() -> None:
    rng = random.Random(2024)
    finishing = 0
    for _ in range(2000):
        tiplu, hand, _ = near_winning(rng)
        wilds = wild_kinds(tiplu)
        got = finish_discards(counts(hand), NEPALI, wilds, 3, "melds")
        assert [int(c) for c in got] == brute_discards(hand, NEPALI, wilds), hand
        finishing += bool(got)
    assert 500 < finishing < 1500  # both outcomes well represented


def test_M8_finish_discards_match_brute_force_random_hands() -> None:
    rng = random.Random(7)
    for _ in range(1000):
        tiplu = CARDS[rng.randrange(52)]
        wilds = wild_kinds(tiplu) if rng.random() < 0.8 else frozenset()
        base = rng.randrange(39)
        hand = [
            (base + rng.randrange(14)) % 52 if rng.random() < 0.7 else rng.randrange(52)
            for _ in range(13)
        ]
        if max(counts(hand)) > 3:
            continue
        got = finish_discards(counts(hand), NEPALI, wilds, 3, "melds")
        assert [int(c) for c in got] == brute_discards(hand, NEPALI, wilds), hand


def test_M8_arrangements_are_valid_melds_of_the_cards() -> None:
    rng = random.Random(5)
    for _ in range(300):
        tiplu, hand, _ = near_winning(rng)
        wilds = wild_kinds(tiplu)
        v = counts(hand)
        for d in finish_discards(v, NEPALI, wilds, 3, "melds"):
            f = find_finish(v, NEPALI, wilds, 3, "melds", d)
            assert f is not None and f.kind == "melds" and f.discard == d
            assert len(f.groups) == 4
            assert all(is_meld(g, NEPALI, wilds) for g in f.groups)
            assert sorted([*(c for g in f.groups for c in g), d]) == sorted(hand)
        for k in range(52):
            if v[k] and CARDS[k] not in finish_discards(v, NEPALI, wilds, 3, "melds"):
                assert find_finish(v, NEPALI, wilds, 3, "melds", CARDS[k]) is None


def test_M8_seven_melds_from_scratch_match_brute_force() -> None:
    rng = random.Random(9)
    for _ in range(25):
        tiplu, hand, shown = near_winning(rng, swaps=1)
        wilds = wild_kinds(tiplu)
        whole = hand + [c for m in shown for c in m]
        got = finish_discards(counts(whole), NEPALI, wilds, 0, "melds")
        assert [int(c) for c in got] == brute_discards(whole, NEPALI, wilds)
        assert (arrange(counts(whole[:-1]), NEPALI, wilds) is not None) == brute_arrange(
            whole[:-1], NEPALI, wilds
        )


def brute_show_discards(cards: Sequence[int], wilds: frozenset[int]) -> list[int]:
    """Show three melds (every choice, by ``is_show_meld``), then finish with the rest."""
    threes = sorted(
        {tuple(sorted(m)) for m in itertools.combinations(cards, 3) if is_show_meld(m, NEPALI)}
    )
    out: set[int] = set()
    for trio in itertools.combinations_with_replacement(threes, 3):
        left = list(cards)
        try:
            for m in trio:
                for c in m:
                    left.remove(c)
        except ValueError:
            continue
        out.update(d for d in brute_discards(left, NEPALI, wilds) if d not in out)
    return sorted(out)


def test_M8_show_and_finish_in_one_turn_matches_brute_force() -> None:
    rng = random.Random(13)
    for _ in range(30):
        tiplu, hand, shown = near_winning(rng, swaps=1)
        wilds = wild_kinds(tiplu)
        whole = hand + [c for m in shown for c in m]
        v = counts(whole)
        expect = brute_show_discards(whole, wilds)
        assert [int(c) for c in show_finish_discards(v, NEPALI, wilds)] == expect
        found = show_and_finish(v, NEPALI, wilds)
        assert [int(f.discard) for _, f in found] == expect
        for shows, f in found:
            assert all(is_show_meld(m, NEPALI) for m in shows)
            assert all(is_meld(g, NEPALI, wilds) for g in f.groups)
            used = [c for m in shows for c in m] + [c for g in f.groups for c in g] + [f.discard]
            assert sorted(used) == sorted(whole)


def test_M8_show_uses_a_wild_card_as_itself() -> None:
    # tiplu 2♦: A♦ 2♦ 3♦ are wild, yet 3♦ 4♦ 5♦ is a natural show meld
    cards = cs("3♠ 4♠ 8♠ 6♥ 7♥ 8♥ 8♥ 9♥ 10♥ J♥ A♦ 2♦ 3♦ 3♦ 4♦ 5♦ 8♦ Q♦ A♣ 10♣ Q♣ K♣")
    got = show_finish_discards(counts(cards), NEPALI, wild_kinds(parse_card("2♦")))
    assert [str(c) for c in got] == ["Q♦", "10♣"]


# --- M-9 dublees ---------------------------------------------------------------------------


def test_M9_dublee_finish_with_shown_dublees_in_hand_or_not() -> None:
    shown = "2♠ 2♠ 3♠ 3♠ 4♥ 4♥ 5♥ 5♥ 6♦ 6♦ 7♦ 7♦ 8♣ 8♣"
    rest = "9♣ 9♣ K♠ Q♥ J♦ A♣ 2♣ 3♣"
    whole = vec(shown + " " + rest)
    assert [str(c) for c in finish_discards(vec(rest), NEPALI, TIPLU_JC, 7, "dublees")] == [
        "K♠",
        "Q♥",
        "J♦",
        "A♣",
        "2♣",
        "3♣",
    ]
    assert finish_discards(whole, NEPALI, TIPLU_JC, 7, "dublees") == finish_discards(
        vec(rest), NEPALI, TIPLU_JC, 7, "dublees"
    )
    f = find_finish(vec(rest), NEPALI, TIPLU_JC, 7, "dublees", parse_card("K♠"))
    assert f is not None and [str(c) for c in f.groups[0]] == ["9♣", "9♣"]
    assert find_finish(vec(rest), NEPALI, TIPLU_JC, 7, "dublees", parse_card("9♣")) is None


def test_M9_dublee_finish_matches_pair_count() -> None:
    rng = random.Random(3)
    for _ in range(300):
        cards = [rng.randrange(20) for _ in range(22)]
        v = counts(cards)
        if max(v) > 3:
            continue
        got = [int(c) for c in finish_discards(v, NEPALI, frozenset(), 0, "dublees")]
        expect = []
        for d in sorted(set(cards)):
            left = list(v)
            left[d] -= 1
            if sum(n // 2 for n in left) >= 8:
                expect.append(d)
        assert got == expect


# --- M-10 indian ---------------------------------------------------------------------------


def test_M8_indian_arrange_matches_brute_force() -> None:
    rng = random.Random(3)
    checked = 0
    while checked < 250:
        tiplu = CARDS[rng.randrange(52)]
        wilds = wild_kinds(tiplu)
        suit, base = rng.randrange(4), rng.randrange(13)
        cards = []
        for _ in range(rng.randint(3, 8)):
            x = rng.random()
            if x < 0.6:
                cards.append(suit * 13 + (base + rng.randrange(5)) % 13)
            elif x < 0.8:
                cards.append(rng.randrange(4) * 13 + base)
            else:
                cards.append(rng.randrange(52))
        if max(counts(cards)) > 3:
            continue
        checked += 1
        got = arrange(counts(cards), INDIAN, wilds)
        assert (got is not None) == brute_arrange(cards, INDIAN, wilds), cards
        if got is not None:
            assert sorted(c for g in got for c in g) == sorted(cards)
            assert all(is_meld(g, INDIAN, wilds) for g in got)


def brute_table_finish(
    cards: Sequence[int], table: Sequence[Sequence[int]], wilds: frozenset[int]
) -> bool:
    """Every way to add each card to a table meld or to a new meld; all valid at the
    end with three pure melds (M-6, M-8, M-10)."""

    @cache
    def go(rest: tuple[int, ...], olds: tuple[tuple[int, ...], ...], news: tuple) -> bool:  # type: ignore[type-arg]
        if not rest:
            groups = [*olds, *news]
            return all(is_meld(g, INDIAN, wilds) for g in groups) and (
                sum(is_pure_meld(g, INDIAN) for g in groups) >= 3
            )
        c, more = rest[0], rest[1:]
        for i, g in enumerate(olds):
            grown = tuple(sorted((*g, c)))
            if go(more, (*olds[:i], grown, *olds[i + 1 :]), news):
                return True
        for i, g in enumerate(news):
            grown = tuple(sorted((*g, c)))
            if go(more, olds, tuple(sorted((*news[:i], grown, *news[i + 1 :])))):
                return True
        return go(more, olds, tuple(sorted((*news, (c,)))))

    return go(tuple(sorted(cards)), tuple(tuple(sorted(g)) for g in table), ())


def random_pure(rng: random.Random) -> list[int]:
    while True:
        s = rng.randrange(4)
        if rng.random() < 0.6:
            length = rng.choice([3, 3, 4, 5])
            start = rng.randrange(1, 15 - length + 1)
            cards = [s * 13 + (p - 1) % 13 for p in range(start, start + length)]
        else:
            rank = rng.randrange(13)
            cards = [t * 13 + rank for t in rng.sample(range(4), rng.choice([3, 4]))]
        if is_pure_meld(cards, INDIAN):
            return cards


def indian_holding(rng: random.Random, size: int) -> tuple[Card, list[int], list[list[int]]]:
    while True:
        tiplu = CARDS[rng.randrange(52)]
        wilds = sorted(wild_kinds(tiplu))
        table = [random_pure(rng) for _ in range(rng.choice([2, 3, 3, 4]))]
        cards = []
        for _ in range(size):
            x = rng.random()
            if x < 0.25:
                cards.append(rng.choice(wilds))
            elif x < 0.7:
                c = rng.choice(rng.choice(table))
                cards.append(c // 13 * 13 + (c % 13 + rng.choice([-2, -1, 1, 2])) % 13)
            else:
                cards.append(rng.randrange(52))
        v = counts(cards + [c for g in table for c in g])
        if max(v) <= 3 and v[tiplu] <= 2:
            return tiplu, cards, table


def test_M10_indian_finish_on_the_table_matches_brute_force() -> None:
    rng = random.Random(4)
    for _ in range(120):
        tiplu, cards, table = indian_holding(rng, rng.randint(2, 5))
        wilds = wild_kinds(tiplu)
        v = counts(cards)
        got = [int(c) for c in finish_discards(v, INDIAN, wilds, len(table), "melds", table)]
        expect = []
        for d in sorted(set(cards)):
            rest = list(cards)
            rest.remove(d)
            if brute_table_finish(rest, table, wilds):
                expect.append(d)
        assert got == expect, (cards, table)
        for d in got:
            f = find_finish(v, INDIAN, wilds, len(table), "melds", CARDS[d], table)
            assert f is not None
            assert all(is_meld(g, INDIAN, wilds) for g in f.groups)
            assert sum(is_pure_meld(g, INDIAN) for g in f.groups) >= 3
            laid = sorted(c for g in f.groups for c in g)
            expected = sorted([*cards, *(x for g in table for x in g)])
            expected.remove(d)
            assert laid == expected


def test_M10_indian_keeps_three_pure_melds() -> None:
    table = [cs("3♠ 4♠ 5♠"), cs("7♥ 8♥ 9♥"), cs("K♦ K♣ K♠")]
    wilds = TIPLU_JC
    # J♥ could only go into a table meld, which would then be impure; 4♣ fits nowhere
    assert finish_discards(vec("J♥ 4♣"), INDIAN, wilds, 3, "melds", table) == []
    # with a fourth pure meld, one may become dirty, and 4♣ lengthens 5♣ 6♣ 7♣
    more = [*table, cs("5♣ 6♣ 7♣")]
    got = finish_discards(vec("J♥ 4♣"), INDIAN, wilds, 4, "melds", more)
    assert [str(c) for c in got] == ["J♥", "4♣"]  # in kind order


# --- N-3 missing ---------------------------------------------------------------------------


def _small_rules(hand_size: int) -> MarriageRules:
    return dataclasses.replace(NEPALI, hand_size=hand_size)


def brute_missing_kept(
    rest: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    limit: Sequence[int],
    melds: int,
    cap: int,
) -> int:
    """Fewest exchanges, from the definition: keep 3·melds − k of the cards, take in k
    cards the decks still hold, and the result must arrange into melds."""
    size = 3 * melds
    for k in range(cap + 1):
        for kept in set(itertools.combinations(sorted(rest), size - k)):
            for added in itertools.combinations_with_replacement(range(52), k):
                v = counts([*kept, *added])
                if any(v[c] > limit[c] for c in added):
                    continue
                if brute_arrange([*kept, *added], rules, wilds):
                    return k
    return cap + 1


def test_N3_missing_matches_the_definition_on_small_hands() -> None:
    rules = _small_rules(9)  # three melds: one shown, two to make from 7 cards
    rng = random.Random(21)
    counted = 0
    while counted < 12:
        tiplu = CARDS[rng.randrange(52)]
        wilds = wild_kinds(tiplu)
        shown = random_meld(rng, wilds, show=True)
        suit, base = rng.randrange(4), rng.randrange(11)
        rest = [
            suit * 13 + base + rng.randrange(3) if rng.random() < 0.6 else rng.randrange(52)
            for _ in range(7)
        ]
        v = counts(rest + shown)
        if max(v) > 3 or v[tiplu] > 2:
            continue
        counted += 1
        limit = copy_limits(rules, tiplu)
        for c in shown:
            limit[c] -= 1
        got = missing(counts(rest), rules, tiplu, [shown])
        assert min(got, 3) == brute_missing_kept(rest, rules, wilds, limit, 2, 2), rest


def _finishes(v: Sequence[int], tiplu: Card, shown: Sequence[Sequence[int]]) -> bool:
    return bool(finish_discards(v, NEPALI, wild_kinds(tiplu), len(shown), "melds"))


def test_N3_missing_zero_or_one_exchange_by_brute_force() -> None:
    rng = random.Random(8)
    seen = set()
    for _ in range(120):
        tiplu, hand, shown = near_winning(rng, swaps=3)
        v = counts(hand)
        got = missing(v, NEPALI, tiplu, shown)
        seen.add(min(got, 2))
        limit = copy_limits(NEPALI, tiplu)
        for m in shown:
            for c in m:
                limit[c] -= 1
        if _finishes(v, tiplu, shown):
            expect = 0
        else:
            expect = 2
            for out, inn in itertools.product(range(52), range(52)):
                if v[out] and out != inn and v[inn] < limit[inn]:
                    w = list(v)
                    w[out] -= 1
                    w[inn] += 1
                    if _finishes(w, tiplu, shown):
                        expect = 1
                        break
        assert min(got, 2) == expect, (hand, shown, str(tiplu))
    assert seen == {0, 1, 2}


def test_N3_missing_is_zero_exactly_when_the_holding_can_finish() -> None:
    rng = random.Random(17)
    for _ in range(40):
        tiplu, hand, shown = near_winning(rng, swaps=1)
        wilds = wild_kinds(tiplu)
        whole = counts(hand + [c for m in shown for c in m])
        can = bool(show_finish_discards(whole, NEPALI, wilds)) or bool(
            finish_discards(whole, NEPALI, wilds, 0, "dublees")
        )
        assert (missing(whole, NEPALI, tiplu, []) == 0) == can


def test_N3_missing_needs_the_copies_left_in_the_decks() -> None:
    # Ignoring copies, one exchange would do (a show meld lacking a fourth 3♥ or 2♦);
    # every single exchange fails, as the brute force below confirms.
    cards = vec("A♠ 2♠ 7♠ J♠ K♠ A♥ 2♥ 3♥ 3♥ 3♥ 4♥ 7♥ 8♥ 10♥ J♥ 2♦ 2♦ 2♦ 3♦ 8♦ K♦ A♣")
    tiplu = parse_card("J♥")
    wilds = wild_kinds(tiplu)
    limit = copy_limits(NEPALI, tiplu)

    def can(h: Sequence[int]) -> bool:
        return bool(show_finish_discards(h, NEPALI, wilds)) or bool(
            finish_discards(h, NEPALI, wilds, 0, "dublees")
        )

    for out, inn in itertools.product(range(52), range(52)):
        if cards[out] and out != inn and cards[inn] < limit[inn]:
            h = list(cards)
            h[out] -= 1
            h[inn] += 1
            assert not can(h)
    assert missing(cards, NEPALI, tiplu, []) == 2


def test_N3_missing_dublees_path() -> None:
    pairs = "2♠ 2♠ 3♠ 3♠ 4♥ 4♥ 5♥ 5♥ 6♦ 6♦ 7♦ 7♦ 8♣ 8♣"
    shown = [cs(pairs)[i : i + 2] for i in range(0, 14, 2)]
    assert missing(vec("9♣ 9♣ K♠ Q♥ J♦ A♣ 2♣ 3♣"), NEPALI, parse_card("J♣"), shown) == 0
    assert missing(vec("9♣ 10♥ K♠ Q♥ J♦ A♣ 2♣ 3♣"), NEPALI, parse_card("J♣"), shown) == 1


def test_N3_indian_missing_zero_or_one_by_brute_force() -> None:
    rules = dataclasses.replace(INDIAN, hand_size=12)
    rng = random.Random(8)
    for _ in range(60):
        tiplu, cards, table = indian_holding(rng, 1)
        table = table[:3]
        size = 13 - sum(len(g) for g in table)
        if size < 1:
            continue
        cards = (cards * size)[:size]
        wilds = wild_kinds(tiplu)
        v = counts(cards)
        whole = counts(cards + [c for g in table for c in g])
        if max(whole) > 3 or whole[tiplu] > 2:
            continue

        def can(
            h: Sequence[int], wilds: frozenset[int] = wilds, table: list[list[int]] = table
        ) -> bool:
            return bool(finish_discards(h, rules, wilds, len(table), "melds", table))

        if can(v):
            expect = 0
        else:
            expect = 2
            limit = copy_limits(rules, tiplu)
            for out, inn in itertools.product(range(52), range(52)):
                if v[out] and out != inn and whole[inn] < limit[inn]:
                    w = list(v)
                    w[out] -= 1
                    w[inn] += 1
                    if can(w):
                        expect = 1
                        break
        assert min(missing(v, rules, tiplu, table), 2) == expect


def _indian_zero_or_one(
    v: Sequence[int],
    whole: Sequence[int],
    rules: MarriageRules,
    tiplu: Card,
    table: list[list[int]],
) -> int:
    """0 if the holding finishes, 1 if one exchange makes it finish, else 2 (brute force)."""
    wilds = wild_kinds(tiplu)

    def can(h: Sequence[int]) -> bool:
        return bool(finish_discards(h, rules, wilds, len(table), "melds", table))

    if can(v):
        return 0
    limit = copy_limits(rules, tiplu)
    for out, inn in itertools.product(range(52), range(52)):
        if v[out] and out != inn and whole[inn] < limit[inn]:
            w = list(v)
            w[out] -= 1
            w[inn] += 1
            if can(w):
                return 1
    return 2


def test_N3_indian_missing_zero_or_one_by_brute_force_without_table() -> None:
    rules = dataclasses.replace(INDIAN, hand_size=9)
    rng = random.Random(12)
    checked = 0
    while checked < 40:
        tiplu, cards, table = indian_holding(rng, 10)
        near = ([c for g in table for c in g][:7] + cards)[:10]
        v = counts(near)
        if max(v) > 3 or v[tiplu] > 2:
            continue
        checked += 1
        expect = _indian_zero_or_one(v, v, rules, tiplu, [])
        assert min(missing(v, rules, tiplu, []), 2) == expect, (near, str(tiplu))


# --- fast paths against the plain searches they replace ---------------------------------


def test_M8_show_in_turn_fast_path_matches_the_plain_search() -> None:
    """``show_finish_discards`` (a relaxation with certificates) against the plain
    enumeration of every trial choice (checked against brute force above), over
    thousands of seeded near-winning holdings and looser random ones."""
    from rami.marriage.cover import _show_discards_exact

    rng = random.Random(31)
    for i in range(2500):
        tiplu, hand, shown = near_winning(rng, swaps=rng.choice([0, 1, 2, 3]))
        wilds = wild_kinds(tiplu) if i % 10 else frozenset()
        v = counts(hand + [c for m in shown for c in m])
        got = [int(c) for c in show_finish_discards(v, NEPALI, wilds)]
        assert got == _show_discards_exact(v, wilds), (hand, shown, str(tiplu))
    for _ in range(500):
        tiplu = CARDS[rng.randrange(52)]
        wilds = wild_kinds(tiplu)
        base = rng.randrange(52)
        cards = [
            (base + rng.randrange(16)) % 52 if rng.random() < 0.7 else rng.randrange(52)
            for _ in range(22)
        ]
        v = counts(cards)
        if max(v) > 3 or v[tiplu] > 2:
            continue
        got = [int(c) for c in show_finish_discards(v, NEPALI, wilds)]
        assert got == _show_discards_exact(v, wilds), (cards, str(tiplu))


def _previous_indian_missing(
    rest: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    table: Sequence[Sequence[int]],
) -> int:
    """The search ``indian_missing`` replaced: pure cores from the hand laid as protected
    table melds that may still grow (slower, same definition)."""
    from rami.marriage import solver_indian as si

    target = rules.hand_size - sum(len(g) for g in table)
    pure_table = [i for i, g in enumerate(table) if is_pure_meld(list(g), rules)]
    for k in range(target + 2):
        if not si._Search(rest, rules, wilds, table, frozenset(), k, k + 1, target).run():
            continue
        for j in range(min(3, len(pure_table)), -1, -1):
            for protected in itertools.combinations(pure_table, j):
                for chosen, _, _ in si._partial_pures(rest, rules, 3 - j, k):
                    left = list(rest)
                    kept = 0
                    for m in chosen:
                        for c in m:
                            left[c] -= 1
                            kept += 1
                    groups = [*table, *chosen]
                    cores = frozenset(range(len(table), len(groups)))
                    search = si._Search(
                        left, rules, wilds, groups, frozenset(protected) | cores, k, k + 1,
                        target, 0, kept, True,
                    )  # fmt: skip
                    if search.run():
                        return k
    return target + 1


def test_N3_indian_missing_matches_the_previous_search() -> None:
    rng = random.Random(44)
    checked = 0
    while checked < 150:
        rules = dataclasses.replace(INDIAN, hand_size=rng.choice([9, 12]))
        tiplu, cards, table = indian_holding(rng, 1)
        table = table[: rng.choice([0, 0, 1, 2, 3])]
        size = rules.hand_size + 1 - sum(len(g) for g in table)
        if size < 1:
            continue
        cards = [rng.randrange(52) if rng.random() < 0.6 else c for c in (cards * size)[:size]]
        whole = counts(cards + [c for g in table for c in g])
        if max(whole) > 3 or whole[tiplu] > 2:
            continue
        checked += 1
        wilds = wild_kinds(tiplu)
        got = missing(counts(cards), rules, tiplu, table)
        assert got == _previous_indian_missing(counts(cards), rules, wilds, table), (
            cards,
            table,
            str(tiplu),
        )
