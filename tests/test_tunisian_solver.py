"""Tunisian solvers: the best opening (T-5, T-6, T-9) and going out (T-7, T-9).

Both are checked against slow reference searches written here from the rules alone:
every set of disjoint melds for the opening, and every sequence of single plays (a new
meld, one card laid off at either end, one joker swap) for going out.
"""

from __future__ import annotations

import doctest
import random
import time
from collections.abc import Sequence

import pytest

import rami.tunisian.solver as solver_module
from rami.cards import CARDS, JOKER, Card, counts, from_counts, parse_cards, shoe
from rami.tunisian.melds import (
    Meld,
    add_to_meld,
    make_meld,
    meld_of,
    meld_options,
    position_card,
    swap_joker,
)
from rami.tunisian.solver import best_opening, can_go_out, opening_reaches


def hand(text: str) -> list[int]:
    return counts(parse_cards(text))


def test_doctests() -> None:
    assert doctest.testmod(solver_module).failed == 0


# --- reference searches ------------------------------------------------------------------


def brute_opening(vec: Sequence[int]) -> int:
    """The best total of disjoint melds leaving at least one card, by plain enumeration."""
    options = meld_options(vec)
    needs = [counts(m.cards) for m in options]
    left = list(vec)
    size = sum(vec)
    best = 0

    def rec(start: int, used: int, value: int) -> None:
        nonlocal best
        if used < size and value > best:
            best = value
        for j in range(start, len(options)):
            need = needs[j]
            if all(left[k] >= n for k, n in enumerate(need) if n):
                for k, n in enumerate(need):
                    left[k] -= n
                rec(j, used + len(options[j].cards), value + options[j].value)
                for k, n in enumerate(need):
                    left[k] += n

    rec(0, 0, 0)
    return best


def lay_off_choices(meld: Meld, card: Card) -> list[Meld]:
    """Every way to lay ``card`` on ``meld`` (a joker at either free end of a run)."""
    if meld.kind == "set":
        grown = add_to_meld(meld, card)
        return [grown] if grown else []
    low, high = meld.span
    suit = meld.suit
    out = []
    if card == JOKER:
        if meld.has_joker:
            return []
        if high < 14:
            out.append(Meld("run", (*meld.cards, JOKER), position_card(high + 1, suit)))
        if low > 1:
            out.append(Meld("run", (JOKER, *meld.cards), position_card(low - 1, suit)))
        return out
    if card.suit != suit:
        return []
    for pos in (1, 14) if card.rank == 1 else (card.rank,):
        if pos == high + 1:
            out.append(Meld("run", (*meld.cards, card), meld.joker_as))
        if pos == low - 1:
            out.append(Meld("run", (card, *meld.cards), meld.joker_as))
    return out


def brute_go_out(vec: Sequence[int], table: Sequence[Meld], opened: bool, threshold: int) -> bool:
    def after_opening(start: tuple[int, ...], start_table: tuple[Meld, ...]) -> bool:
        seen: set[tuple[tuple[int, ...], tuple[str, ...]]] = set()

        def go(h: tuple[int, ...], tab: tuple[Meld, ...]) -> bool:
            if sum(h) == 1:
                return True
            if sum(h) == 0:
                return False
            key = (h, tuple(sorted(repr(m) for m in tab)))
            if key in seen:
                return False
            seen.add(key)
            for meld in meld_options(h):
                need = counts(meld.cards)
                if go(tuple(a - b for a, b in zip(h, need, strict=True)), (*tab, meld)):
                    return True
            for idx, target in enumerate(tab):
                for card in set(from_counts(h)):
                    rest = list(h)
                    rest[card] -= 1
                    for grown in lay_off_choices(target, card):
                        if go(tuple(rest), (*tab[:idx], grown, *tab[idx + 1 :])):
                            return True
                    swapped = swap_joker(target, card)
                    if swapped is not None:
                        rest[JOKER] += 1
                        if go(tuple(rest), (*tab[:idx], swapped, *tab[idx + 1 :])):
                            return True
            return False

        return go(start, start_table)

    if opened:
        return after_opening(tuple(vec), tuple(table))
    options = meld_options(vec)
    left = list(vec)

    def rec(start: int, chosen: list[Meld], value: int) -> bool:
        if chosen and value >= threshold and after_opening(tuple(left), (*table, *chosen)):
            return True
        for j in range(start, len(options)):
            need = counts(options[j].cards)
            if all(left[k] >= n for k, n in enumerate(need) if n):
                for k, n in enumerate(need):
                    left[k] -= n
                found = rec(j, [*chosen, options[j]], value + options[j].value)
                for k, n in enumerate(need):
                    left[k] += n
                if found:
                    return True
        return False

    return rec(0, [], 0)


# --- best_opening ---------------------------------------------------------------------


def test_T6_values_count_each_ace_and_joker_by_its_place() -> None:
    best = best_opening(hand("Q♥ K♥ A♥ A♠ 2♠ 3♠ 5♦"))
    assert best is not None and best.value == 36
    best = best_opening(hand("J♥ Q♥ K♥ JK 7♣"))
    assert best is not None and best.value == 40  # the joker as the 10 or the high ace
    best = best_opening(hand("2♥ 3♥ JK 9♣"))
    assert best is not None and best.value == 9  # the joker as the 4, not the low ace
    assert best.melds[0].joker_as == Card.parse("4♥")


def test_T6_the_best_choice_between_overlapping_melds() -> None:
    # the 7♥ serves in the brelan (21) or in the run (24), not both
    best = best_opening(hand("7♠ 7♦ 7♥ 8♥ 9♥ 2♣"))
    assert best is not None and best.value == 24
    assert [m.text() for m in best.melds] == ["7♥ 8♥ 9♥"]
    best = best_opening(hand("7♠ 7♦ 7♥ 8♥ 9♥ 10♥ 2♣"))
    assert best is not None and best.value == 48  # both, the run from the 8


def test_T9_an_opening_keeps_one_card_to_discard() -> None:
    assert best_opening(hand("5♥ 6♥ 7♥")) is None
    best = best_opening(hand("5♥ 6♥ 7♥ 8♥"))
    assert best is not None and best.value == 21  # 6 7 8, keeping the 5
    best = best_opening(hand("5♥ 6♥ 7♥ 2♣"))
    assert best is not None and best.value == 18


def test_T4_one_joker_per_meld_in_openings() -> None:
    assert best_opening(hand("5♥ JK JK 8♥ 2♣")) is None
    assert best_opening(hand("JK JK JK 2♣")) is None


def test_best_opening_is_none_without_a_meld() -> None:
    assert best_opening(hand("2♣ 9♦ K♠ 5♥")) is None


def test_best_opening_checks_the_vector() -> None:
    with pytest.raises(ValueError):
        best_opening([0] * 10)
    with pytest.raises(ValueError):
        best_opening([5] + [0] * 52)


def _random_hands(count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    deck = shoe(2, 4)
    narrow = [c for c in deck if c == JOKER or c % 13 < 6 or c % 13 > 10]
    out = []
    for n in range(count):
        pool = narrow if n % 2 else deck
        size = rng.choice((5, 7, 9, 11, 12)) if n % 3 else rng.choice((13, 14, 15))
        out.append(counts(rng.sample(pool, size)))
    return out


def test_T6_best_opening_agrees_with_brute_force_on_random_hands() -> None:
    """Thousands of hands with jokers; large hands only from the full deck (fewer melds)."""
    checked = 0
    for vec in _random_hands(4500, 1):
        if sum(vec) > 12 and len(meld_options(vec)) > 40:
            continue  # the reference search would take too long
        best = best_opening(vec)
        got = best.value if best else 0
        assert got == brute_opening(vec), from_counts(vec)
        if best is not None:
            used = counts(c for m in best.melds for c in m.cards)
            assert all(used[k] <= vec[k] for k in range(53))
            assert sum(used) < sum(vec)
            assert sum(m.value for m in best.melds) == best.value
            for meld in best.melds:
                assert make_meld(meld.cards) == meld
                assert sum(c == JOKER for c in meld.cards) <= 1
        checked += 1
    assert checked > 3000


def test_opening_reaches_agrees_with_best_opening() -> None:
    rng = random.Random(2)
    for vec in _random_hands(1500, 3):
        best = best_opening(vec)
        value = best.value if best else 0
        for threshold in (0, value, value + 1, rng.randint(1, 120)):
            expected = best is not None and value >= threshold
            assert opening_reaches(vec, threshold) == expected


def test_best_opening_is_fast_on_15_card_hands() -> None:
    """The bench (bench/tunisian_opening.py) measures properly; this only guards."""
    rng = random.Random(4)
    naturals = shoe(2, 0)
    times = []
    for n in range(150):
        jokers = n % 3
        vec = counts(rng.sample(naturals, 15 - jokers) + [JOKER] * jokers)
        solver_module.clear_cache()
        t0 = time.perf_counter()
        best_opening(vec)
        times.append(time.perf_counter() - t0)
    times.sort()
    assert times[len(times) // 2] < 0.02


# --- can_go_out -------------------------------------------------------------------------


def test_T9_one_card_left_is_the_discard() -> None:
    assert can_go_out(hand("7♣"), [], True, 0)
    assert not can_go_out(hand("7♣ 8♦"), [], True, 0)
    assert can_go_out(hand("5♥ 6♥ 7♥ 2♣"), [], True, 0)
    assert not can_go_out(hand("5♥ 6♥ 7♥"), [], True, 0)  # nothing left to discard


def test_T6_an_unopened_player_must_reach_the_threshold() -> None:
    cards = hand("10♥ J♥ Q♥ K♥ 10♠ 10♦ 10♣ 2♣")
    assert can_go_out(cards, [], False, 70)  # 10♥ J♥ Q♥ K♥ (40) + 10♠ 10♦ 10♣ (30)
    assert not can_go_out(cards, [], False, 71)
    assert can_go_out(hand("9♥ 10♥ J♥ Q♥ K♥ 10♠ 10♦ 10♣ 2♣"), [], False, 71)
    assert not can_go_out(hand("7♣"), [], False, 0)  # an opening holds a meld


def test_T7_lay_offs_and_swaps_help_go_out() -> None:
    table = [meld_of("5♥ 6♥ 7♥"), meld_of("9♠ 9♥ JK")]
    assert can_go_out(hand("8♥ 9♥ 2♣"), table, True, 0)  # two cards laid off, one discard
    assert can_go_out(hand("3♥ 4♥ K♣"), table, True, 0)  # a stretch at the low end
    # swap 9♦ for the joker, then lay the joker between 7♥ and 9♥
    assert can_go_out(hand("9♦ 9♥ K♣"), table, True, 0)
    assert not can_go_out(hand("9♦ 10♥ K♣ Q♦"), table, True, 0)


def test_T7_a_joker_won_late_in_kind_order_serves_an_earlier_meld() -> None:
    table = [meld_of("Q♥ Q♣ JK"), meld_of("9♥ 10♥ J♥ Q♥")]
    cards = hand("7♥ 8♥ 9♥ 10♥ 9♦ Q♦ 10♣")
    assert can_go_out(cards, table, True, 0)
    assert brute_go_out(cards, table, True, 0)


def test_T7_a_swap_frees_a_run_for_a_joker_in_a_laid_off_stretch() -> None:
    table = [meld_of("9♥ JK J♥")]
    # swap 10♥ out, lay the joker as 8♥ and the 7♥ below it; keep 2♣
    cards = hand("7♥ 10♥ 2♣")
    assert can_go_out(cards, table, True, 0)
    assert brute_go_out(cards, table, True, 0)


def test_T6_jokers_won_by_swaps_do_not_count_toward_the_opening() -> None:
    table = [meld_of("K♠ K♥ JK")]
    # the opening 10♣ J♣ Q♣ (30) needs the swapped joker to be worth 40 as 10 J Q K
    cards = hand("K♦ 10♣ J♣ Q♣ 2♦")
    assert can_go_out(cards, table, False, 30)
    assert not can_go_out(cards, table, False, 31)
    assert brute_go_out(cards, table, False, 30) and not brute_go_out(cards, table, False, 31)


def _random_meld(rng: random.Random) -> Meld:
    while True:
        suit = rng.randrange(4)
        if rng.random() < 0.5:
            low = rng.randint(1, 12)
            high = min(14, low + rng.randint(2, 4))
            cards = [position_card(p, suit) for p in range(low, high + 1)]
        else:
            rank = rng.randint(1, 13)
            cards = [CARDS[s * 13 + rank - 1] for s in rng.sample(range(4), rng.choice((3, 4)))]
        if rng.random() < 0.6:
            cards[rng.randrange(len(cards))] = JOKER
        try:
            return make_meld(cards)
        except ValueError:
            continue


def test_T9_can_go_out_agrees_with_brute_force_on_random_tables() -> None:
    rng = random.Random(9)
    deck = shoe(2, 4)
    outcomes = {True: 0, False: 0}
    for _ in range(2500):
        table = [_random_meld(rng) for _ in range(rng.randint(0, 4))]
        near = {
            (c + d) % 52
            for m in table
            for c in m.cards
            if c != JOKER
            for d in (-2, -1, 1, 2, 13, 26, 39)
        }
        pool = [c for c in deck if c in near or c == JOKER or rng.random() < 0.15]
        cards = counts(rng.sample(pool, rng.randint(1, 8)))
        opened = rng.random() < 0.7
        threshold = rng.choice((0, 10, 20, 30))
        expected = brute_go_out(cards, table, opened, threshold)
        assert can_go_out(cards, table, opened, threshold) == expected, (
            from_counts(cards),
            [m.text() for m in table],
            opened,
            threshold,
        )
        outcomes[expected] += 1
    assert outcomes[True] > 150 and outcomes[False] > 150


def test_T9_going_out_search_leaves_no_cycle_for_the_collector() -> None:
    """The search's memo is freed by reference counting when it returns: a server's bots
    call it at each decision, and cyclic garbage made the collector's passes (which stop
    the event loop) find thousands of objects each time (bench/server_load)."""
    import gc

    table = [meld_of("5♥ 6♥ 7♥"), meld_of("9♠ 9♥ JK")]
    gc.collect()
    gc.disable()
    try:
        assert can_go_out(hand("8♥ 9♥ 2♣"), table, True, 0)
        assert not can_go_out(hand("10♥ J♥ Q♥ K♥ 10♠ 10♦ 10♣ 2♣"), [], False, 71)
        assert gc.collect() == 0
    finally:
        gc.enable()
