"""Tunisian melds: T-4 (what a meld is), T-5 (values), T-7 (laying off, joker swaps)."""

from __future__ import annotations

import doctest
import itertools
import random
from collections import Counter

import pytest

import rami.tunisian.melds as melds_module
from rami.cards import JOKER, Card, counts, parse_cards, shoe
from rami.errors import IllegalAction
from rami.tunisian.melds import (
    Meld,
    add_to_meld,
    make_meld,
    meld_of,
    meld_options,
    meld_options_packed,
    melds_holding,
    swap_joker,
)
from rami.tunisian.solver import pack


def c(text: str) -> Card:
    return Card.parse(text)


def test_doctests() -> None:
    assert doctest.testmod(melds_module).failed == 0


# --- T-4: what is a meld ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["5♥ 6♥ 7♥", "A♠ 2♠ 3♠", "Q♣ K♣ A♣", "7♠ 7♥ 7♦", "7♠ 7♥ 7♦ 7♣", "10♦ J♦ Q♦ K♦ A♦"],
)
def test_T4_natural_melds_are_valid(text: str) -> None:
    meld = meld_of(text)
    assert Counter(meld.cards) == Counter(parse_cards(text))
    assert not meld.has_joker and meld.joker_as is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("5♥ 6♥", "at least 3 cards"),
        ("K♥ A♥ 2♥", "never in the middle"),
        ("Q♥ K♥ A♥ 2♥", "never in the middle"),
        ("5♥ 6♠ 7♥", "one suit"),
        ("7♠ 7♠ 7♥", "7♠ twice"),
        ("7♠ 7♥ 7♦ 7♣ JK", "at most 4 cards"),
        ("JK JK 5♥", "at most one joker"),
        ("5♥ JK 6♥ JK", "at most one joker"),
        ("5♥ 5♥ 6♥ 7♥", "5♥ twice"),
        ("5♥ 8♥ JK", "more gaps than one joker"),
        ("5♥ 7♥ 9♥", "not consecutive"),
        ("7♠ 8♥ 9♦", "one suit"),
    ],
)
def test_T4_invalid_melds_are_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(IllegalAction, match=reason):
        meld_of(text)


def test_T4_make_meld_refuses_what_is_not_a_card() -> None:
    with pytest.raises(IllegalAction):
        make_meld([1, 2, 99])


def test_T4_one_joker_stands_for_the_gap_or_the_place_given() -> None:
    assert meld_of("5♥ JK 7♥").joker_as == c("6♥")
    assert meld_of("JK 6♥ 7♥").joker_as == c("5♥")
    assert meld_of("6♥ 7♥ JK").joker_as == c("8♥")
    # descending order is read the same way
    assert meld_of("7♥ 6♥ JK").joker_as == c("5♥")
    assert meld_of("7♥ JK 5♥").joker_as == c("6♥")
    # any order when the joker fills an inner gap
    assert meld_of("7♥ 5♥ JK").cards == meld_of("5♥ JK 7♥").cards


def test_T4_joker_at_an_unsaid_end_goes_high_else_low() -> None:
    assert meld_of("6♥ JK 7♥").joker_as == c("8♥")
    high = meld_of("A♥ JK K♥")
    assert high.joker_as == c("Q♥") and high.text() == "JK K♥ A♥"


def test_T4_set_joker_stands_for_the_lowest_missing_suit() -> None:
    meld = meld_of("7♦ JK 7♠")
    assert meld.kind == "set"
    assert meld.text() == "7♠ 7♦ JK"
    assert meld.joker_as == c("7♥")
    assert meld_of("7♠ 7♥ 7♦ JK").joker_as == c("7♣")


def test_T4_ace_ends_and_the_full_14_card_run() -> None:
    assert meld_of("A♥ 2♥ 3♥").span == (1, 3)
    assert meld_of("Q♥ K♥ A♥").span == (12, 14)
    full = meld_of("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥")
    assert full.span == (1, 14) and len(full.cards) == 14
    assert add_to_meld(full, JOKER) is None


# --- T-5: values ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("A♠ 2♠ 3♠", 6),  # ace before the 2: 1
        ("Q♠ K♠ A♠", 30),  # ace after the K: 10
        ("A♠ A♥ A♦", 30),  # aces in a brelan: 10
        ("J♥ Q♥ K♥", 30),  # faces 10
        ("8♣ 9♣ 10♣", 27),
        ("5♥ JK 7♥", 18),  # joker as the 6
        ("JK 2♥ 3♥", 6),  # joker as the low ace: 1
        ("Q♥ K♥ JK", 30),  # joker as the high ace: 10
        ("7♠ 7♥ 7♦ 7♣", 28),
        ("K♠ K♥ JK", 30),  # joker as a K
        ("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥", 95),
    ],
)
def test_T5_meld_values(text: str, value: int) -> None:
    assert meld_of(text).value == value


# --- T-7: laying off and swapping jokers -------------------------------------------------


def test_T7_add_extends_a_run_at_either_end() -> None:
    run = meld_of("5♥ 6♥ 7♥")
    assert str(add_to_meld(run, c("8♥"))) == "5♥ 6♥ 7♥ 8♥"
    assert str(add_to_meld(run, c("4♥"))) == "4♥ 5♥ 6♥ 7♥"
    assert add_to_meld(run, c("9♥")) is None
    assert add_to_meld(run, c("8♠")) is None
    assert add_to_meld(run, c("6♥")) is None
    assert str(add_to_meld(meld_of("Q♥ K♥ JK"), c("J♥"))) == "J♥ Q♥ K♥ JK"
    assert add_to_meld(meld_of("Q♥ K♥ A♥"), c("2♥")) is None  # no K-A-2
    assert str(add_to_meld(meld_of("2♥ 3♥ 4♥"), c("A♥"))) == "A♥ 2♥ 3♥ 4♥"


def test_T7_a_laid_off_joker_goes_high_if_possible_else_low() -> None:
    high = add_to_meld(meld_of("5♥ 6♥ 7♥"), JOKER)
    assert high is not None and high.joker_as == c("8♥") and high.cards[-1] == JOKER
    low = add_to_meld(meld_of("Q♥ K♥ A♥"), JOKER)
    assert low is not None and low.joker_as == c("J♥") and low.cards[0] == JOKER


def test_T7_a_meld_with_a_joker_never_takes_a_second() -> None:
    assert add_to_meld(meld_of("5♥ JK 7♥"), JOKER) is None
    assert add_to_meld(meld_of("7♠ 7♥ JK"), JOKER) is None


def test_T7_add_completes_a_brelan_into_a_carre() -> None:
    brelan = meld_of("7♠ 7♥ 7♦")
    carre = add_to_meld(brelan, c("7♣"))
    assert carre is not None and carre.text() == "7♠ 7♥ 7♦ 7♣"
    assert add_to_meld(brelan, c("7♠")) is None  # same card twice
    assert add_to_meld(brelan, c("8♣")) is None
    assert add_to_meld(carre, JOKER) is None
    with_joker = add_to_meld(brelan, JOKER)
    assert with_joker is not None and with_joker.joker_as == c("7♣")


def test_T7_add_to_a_brelan_with_a_joker_moves_what_the_joker_stands_for() -> None:
    meld = meld_of("7♠ 7♥ JK")
    assert meld.joker_as == c("7♦")
    grown = add_to_meld(meld, c("7♦"))
    assert grown is not None and grown.text() == "7♠ 7♥ 7♦ JK"
    assert grown.joker_as == c("7♣")
    assert add_to_meld(grown, c("7♣")) is None  # four cards already


def test_T7_swap_in_a_run_needs_exactly_the_card_the_joker_stands_for() -> None:
    run = meld_of("5♥ JK 7♥")
    swapped = swap_joker(run, c("6♥"))
    assert swapped == Meld("run", tuple(parse_cards("5♥ 6♥ 7♥")), None)
    assert swap_joker(run, c("6♠")) is None
    assert swap_joker(run, c("8♥")) is None
    assert swap_joker(run, JOKER) is None
    assert swap_joker(meld_of("5♥ 6♥ 7♥"), c("6♥")) is None


def test_T7_swap_in_a_brelan_takes_either_missing_suit() -> None:
    brelan = meld_of("7♠ 7♥ JK")
    for text in ("7♦", "7♣"):
        swapped = swap_joker(brelan, c(text))
        assert swapped is not None and not swapped.has_joker
        assert make_meld(swapped.cards) == swapped
    assert swap_joker(brelan, c("7♠")) is None
    assert swap_joker(brelan, c("8♦")) is None
    carre = meld_of("7♠ 7♥ 7♦ JK")
    assert swap_joker(carre, c("7♥")) is None
    assert swap_joker(carre, c("7♣")) == meld_of("7♠ 7♥ 7♦ 7♣")


# --- meld_options ----------------------------------------------------------------------


def test_meld_options_of_a_small_hand() -> None:
    options = meld_options(counts(parse_cards("5♥ 6♥ 7♥ JK")))
    texts = {m.text() for m in options}
    assert texts == {
        "5♥ 6♥ 7♥",
        "JK 6♥ 7♥",
        "5♥ JK 7♥",
        "5♥ 6♥ JK",
        "JK 5♥ 6♥ 7♥",
        "5♥ 6♥ 7♥ JK",
        "JK 5♥ 6♥",
        "6♥ 7♥ JK",
    }
    assert len(options) == len(set(options))


def test_meld_options_match_make_meld_on_every_subset() -> None:
    """Every meld listed is valid; every valid card subset is listed (as a multiset)."""
    rng = random.Random(20)
    deck = shoe(2, 4)
    for trial in range(150):
        pool = [x for x in deck if x == JOKER or (x % 13) < 5] if trial % 2 else deck
        hand = rng.sample(pool, 7)
        options = meld_options(counts(hand))
        assert len(options) == len(set(options))
        listed = set()
        for meld in options:
            assert make_meld(meld.cards) == meld
            listed.add(tuple(sorted(meld.cards)))
            need = counts(meld.cards)
            assert all(need[k] <= n for k, n in enumerate(counts(hand)))
        for size in range(3, 6):
            for combo in set(itertools.combinations(sorted(hand), size)):
                try:
                    make_meld([Card(x) for x in combo])
                except IllegalAction:
                    assert combo not in listed
                else:
                    assert combo in listed, combo


def test_meld_options_checks_the_vector() -> None:
    with pytest.raises(ValueError):
        meld_options([0] * 52)


def test_T7_melds_read_back_the_same_after_lay_offs_and_swaps() -> None:
    """``make_meld(meld.cards) == meld`` for every meld the functions here produce."""
    rng = random.Random(21)
    deck = shoe(2, 4)
    for _ in range(300):
        options = meld_options(counts(rng.sample(deck, 12)))
        if not options:
            continue
        meld = rng.choice(options)
        for _ in range(8):
            assert make_meld(meld.cards) == meld
            moves = [m for k in range(53) for m in (add_to_meld(meld, k), swap_joker(meld, k)) if m]
            if not moves:
                break
            grown = rng.choice(moves)
            assert len(grown.cards) >= len(meld.cards)
            assert sum(x == JOKER for x in grown.cards) <= 1
            meld = grown


def test_T4_packed_meld_options_are_the_plain_ones() -> None:
    """``meld_options_packed`` lists ``meld_options``'s melds in its order, each with its
    packed cards and value (T-4, T-5)."""
    rng = random.Random(11)
    deck = shoe(2, 4)
    narrow = [c for c in deck if c == JOKER or c % 13 < 5 or c % 13 > 9]
    for n in range(4000):
        cards = rng.sample(narrow if n % 2 else deck, rng.randrange(0, 20))
        vec = counts(cards)
        entries = meld_options_packed(pack(vec))
        assert [m for m, _, _ in entries] == meld_options(vec)
        for m, delta, value in entries:
            assert delta == pack(counts(m.cards)) and value == m.value


def test_T4_melds_holding_a_card_are_those_of_the_options() -> None:
    rng = random.Random(12)
    deck = shoe(2, 4)
    narrow = [c for c in deck if c == JOKER or c % 13 < 5 or c % 13 > 9]
    for n in range(3000):
        cards = rng.sample(narrow if n % 2 else deck, rng.randrange(1, 20))
        key = pack(counts(cards))
        entries = meld_options_packed(key)
        for card in set(cards):
            held = [e for e in entries if card in e[0].cards]
            assert sorted(melds_holding(key, card), key=entries.index) == held
