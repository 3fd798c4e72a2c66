"""N-1: card notation, parsing errors, copies, count vectors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rami.cards import (
    CARDS,
    JOKER,
    KINDS,
    Card,
    CardError,
    card,
    check_copies,
    counts,
    format_cards,
    from_counts,
    parse_card,
    parse_cards,
    shoe,
    shuffled_shoe,
)
from rami.engine import Action, IllegalAction


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10♣", "10♣"),
        ("TC", "10♣"),
        ("tc", "10♣"),
        ("10c", "10♣"),
        ("qh", "Q♥"),
        ("A♠️", "A♠"),
        ("K♦︎", "K♦"),
        ("2S", "2♠"),
        ("JK", "JK"),
        ("*", "JK"),
        ("joker", "JK"),
    ],
)
def test_N1_accepted_forms(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


def test_N1_ascii_and_unicode_forms() -> None:
    assert [c.ascii for c in parse_cards("10♣ Q♥ A♠ JK")] == ["10C", "QH", "AS", "JK"]
    assert format_cards(parse_cards("10c qh"), ascii=True) == "10C QH"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3♠ 4♠ 5♠ 11♣", "bad card '11♣' (token 4): rank must be one of A 2 … 10 J Q K"),
        ("3♠ 4X", "bad card '4X' (token 2): suit must be one of ♠ ♥ ♦ ♣"),
        ("♠", "bad card '♠' (token 1): rank must be one of"),
    ],
)
def test_N1_errors_name_token_and_position(text: str, message: str) -> None:
    with pytest.raises(CardError) as info:
        parse_cards(text)
    assert message in str(info.value)


def test_N1_lists_split_on_spaces_and_commas() -> None:
    assert format_cards(parse_cards("3♠ 4♠ 5♠, 6♥ 6♥,6♥")) == "3♠ 4♠ 5♠ 6♥ 6♥ 6♥"
    assert parse_cards(["3s", "4s"]) == [card(3, 0), card(4, 0)]


def test_N1_copies_beyond_the_decks_name_the_card() -> None:
    check_copies(parse_cards("7♣ 7♣ 7♣"), copies=3)
    with pytest.raises(CardError, match="too many 7♣: 4 given, the decks hold 3"):
        check_copies(parse_cards("7♣ 7♣ 7♣ 7♣"), copies=3)
    with pytest.raises(CardError, match="no jokers"):
        check_copies([JOKER], copies=3)


def test_shoes() -> None:
    assert len(shoe(3)) == 156 and len(shoe(2, jokers=4)) == 108
    assert counts(shoe(2, 4))[JOKER] == 4
    import random

    a = shuffled_shoe(3, 0, random.Random(5))
    assert a == shuffled_shoe(3, 0, random.Random(5)) and sorted(a) == shoe(3)


@given(st.lists(st.sampled_from(CARDS), max_size=30))
def test_N1_format_parse_round_trip(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards(format_cards(cards, ascii=True)) == cards
    assert from_counts(counts(cards)) == sorted(cards)


def test_card_properties() -> None:
    assert len(CARDS) == KINDS == 53
    c = parse_card("Q♦")
    assert (c.rank, c.suit, c.is_joker) == (12, 2, False)
    assert (JOKER.rank, JOKER.suit, JOKER.is_joker) == (0, -1, True)
    with pytest.raises(CardError):
        card(14, 0)


def test_action_text_round_trip() -> None:
    for text in ["draw", "discard 7♣", "show 3♠ 4♠ 5♠", "add 8♥ @2", "swap 7♥ @0"]:
        assert str(Action.parse(text)) == text
    assert Action.parse("x 7c").text(ascii=True) == "x 7C"
    for bad in ["", "discard 11♣", "add 8h @x", "7c"]:
        with pytest.raises(IllegalAction):
            Action.parse(bad)
