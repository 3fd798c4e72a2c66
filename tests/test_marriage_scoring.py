"""Marriage scoring: maal and value points (M-12, M-15) and settlement (M-13, M-14, M-15)."""

from __future__ import annotations

import dataclasses
import doctest
import itertools
import random

import pytest

import rami.marriage.maal as maal_module
import rami.marriage.settle as settle_module
from rami.cards import Card, parse_card, parse_cards
from rami.marriage.maal import maal
from rami.marriage.rules import INDIAN, NEPALI
from rami.marriage.settle import card_points, settle_indian, settle_nepali

J_CLUBS = parse_card("J♣")  # jhiplu 10♣, poplu Q♣


def points(text: str, tiplu: Card = J_CLUBS, **kw: object) -> int:
    return maal(parse_cards(text), tiplu, NEPALI, **kw)[0]  # type: ignore[arg-type]


def test_doctests() -> None:
    assert doctest.testmod(maal_module).failed == 0
    assert doctest.testmod(settle_module).failed == 0


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("10♣", 2),
        ("10♣ 10♣", 5),
        ("10♣ 10♣ 10♣", 10),
        ("Q♣", 2),
        ("Q♣ Q♣", 5),
        ("Q♣ Q♣ Q♣", 10),
        ("J♣", 3),
        ("J♣ J♣", 7),
        ("10♣ J♣ Q♣", 10),
        ("10♣ 10♣ J♣ J♣ Q♣ Q♣", 30),
        ("J♥ J♦ J♠", 0),  # ordinary jokers alone are worth nothing
        ("3♠ 4♠ 5♠ 6♥ 6♥ 6♥", 0),
    ],
)
def test_M12_table_rows(text: str, expect: int) -> None:
    assert points(text) == expect


def test_M12_best_grouping_worked_examples() -> None:
    # one jhiplu, one tiplu, one poplu: a marriage, 10, not 2 + 3 + 2
    assert maal(parse_cards("10♣ J♣ Q♣"), J_CLUBS, NEPALI) == (
        10,
        ["marriage 10♣ J♣ Q♣: 10"],
    )
    # three jhiplus, one tiplu, three poplus: 10 + 3 + 10 = 23, better than 10 + 5 + 5
    got, items = maal(parse_cards("10♣ 10♣ 10♣ J♣ Q♣ Q♣ Q♣"), J_CLUBS, NEPALI)
    assert got == 23
    assert items == ["jhiplu 10♣ 10♣ 10♣: 10", "tiplu J♣: 3", "poplu Q♣ Q♣ Q♣: 10"]


def test_M12_best_grouping_is_the_maximum_over_all_groupings() -> None:
    single = {0: 0, 1: 2, 2: 5, 3: 10}
    tip = {0: 0, 1: 3, 2: 7}
    for nj, nt, npop in itertools.product(range(4), range(3), range(4)):
        best = max(
            (0, 10, 30)[m] + single[nj - m] + tip[nt - m] + single[npop - m]
            for m in range(min(nj, nt, npop) + 1)
        )
        text = " ".join(["10♣"] * nj + ["J♣"] * nt + ["Q♣"] * npop)
        assert points(text) == best


def test_M12_neighbours_wrap_round_the_ace() -> None:
    assert points("Q♥ K♥ A♥", parse_card("K♥")) == 10  # poplu of K is the A
    assert points("K♦ A♦ 2♦", parse_card("A♦")) == 10


def test_M12_exposed_tunnela_bonus_needs_eligibility() -> None:
    six = parse_card("6♥")
    assert maal(parse_cards("6♥ 6♥ 6♥"), J_CLUBS, NEPALI, [six], True) == (
        5,
        ["tunnela 6♥ 6♥ 6♥: 5"],
    )
    assert points("6♥ 6♥ 6♥", exposed_tunnelas=[six], bonus_eligible=False) == 0
    # ordinary jokers 10; jhiplu or poplu 20, replacing the three-of-a-kind rate
    assert points("J♥ J♥ J♥", exposed_tunnelas=[parse_card("J♥")], bonus_eligible=True) == 10
    ten = parse_card("10♣")
    assert points("10♣ 10♣ 10♣", exposed_tunnelas=[ten], bonus_eligible=True) == 20
    assert points("10♣ 10♣ 10♣", exposed_tunnelas=[ten], bonus_eligible=False) == 10
    # the exposed tunnela's cards are not broken up for a marriage
    assert points("10♣ 10♣ 10♣ J♣ Q♣", exposed_tunnelas=[ten], bonus_eligible=True) == 20 + 3 + 2
    with pytest.raises(ValueError):
        points("6♥ 6♥", exposed_tunnelas=[six], bonus_eligible=True)


def test_M15_indian_value_points() -> None:
    def value(text: str) -> int:
        return maal(parse_cards(text), J_CLUBS, INDIAN)[0]

    assert value("J♣") == 4
    assert value("10♣") == 2 and value("Q♣") == 2
    assert value("10♣ J♣ Q♣") == 14  # a marriage, not 8
    assert value("10♣ 10♣ J♣ Q♣ Q♣ Q♣") == 14 + 2 + 2 + 2
    assert value("J♥ 5♠") == 0


def test_M15_card_points() -> None:
    assert card_points(parse_cards("2♠ 9♥ 10♦")) == 21
    assert card_points(parse_cards("J♠ Q♥ K♦ A♣")) == 40
    assert card_points([]) == 0


# --- M-13, M-14 ---------------------------------------------------------------------------


def test_M13_worked_example_seed_000() -> None:
    # A finishes with melds; maal A 10, B 2, C 0; B has seen, C has not
    assert settle_nepali([10, 2, 0], [True, True, False], 0, False, NEPALI) == [31, -9, -22]


def test_M13_worked_example_seed_004_pairwise_equals_routed() -> None:
    rng = random.Random(4)
    for _ in range(200):
        s = [rng.randrange(40) for _ in range(4)]
        seen = [True, rng.random() < 0.5, True, rng.random() < 0.5]
        dublee = rng.random() < 0.3
        nets = settle_nepali(s, seen, 2, dublee, NEPALI)
        # pairwise: every pair settles its maal difference; each opponent pays C a fee
        expect = [0] * 4
        for i, j in itertools.permutations(range(4), 2):
            expect[i] += s[i] - s[j]
        for i in (0, 1, 3):
            fee = (3 if seen[i] else 10) + (5 if dublee else 0)
            expect[i] -= fee
            expect[2] += fee
        assert nets == expect
        assert sum(nets) == 0
    # A (seen) pays (A + B + C + D) + 3 − 4·A to C
    s = [7, 2, 12, 0]
    nets = settle_nepali(s, [True, False, True, False], 2, False, NEPALI)
    assert nets[0] == -(sum(s) + 3 - 4 * s[0])


def test_M13_fees_and_dublee_bonus_are_options() -> None:
    rules = dataclasses.replace(NEPALI, seen_fee=5, unseen_fee=20, dublee_bonus=7)
    assert settle_nepali([0, 0], [True, False], 0, True, rules) == [27, -27]


def test_M14_no_finisher_settles_maal_only() -> None:
    assert settle_nepali([10, 2, 0], [True, True, False], None, False, NEPALI) == [18, -6, -12]


def test_M12_unseen_maal_counts_option() -> None:
    murder = dataclasses.replace(NEPALI, unseen_maal_counts=False)
    # C has maal 10 but never saw: it counts nothing
    assert settle_nepali([10, 2, 10], [True, True, False], 0, False, murder) == [
        settle_nepali([10, 2, 0], [True, True, False], 0, False, NEPALI)[i] for i in range(3)
    ]


# --- M-15 ---------------------------------------------------------------------------------


def test_M15_indian_settlement_with_a_finisher() -> None:
    # value points: A 14 (seen), B 20 (seen), C 30 unseen (capped at 14)
    nets = settle_indian([14, 20, 30], [True, True, False], [0, 35, 12], 0, INDIAN)
    values = [14, 20, 14]
    expect = [3 * v - sum(values) for v in values]
    expect[0] += 35 + 12
    expect[1] -= 35
    expect[2] -= 12
    assert nets == expect
    assert sum(nets) == 0


def test_M15_indian_no_finisher_settles_hand_points_pairwise() -> None:
    nets = settle_indian([0, 0, 0], [True, True, True], [10, 30, 50], None, INDIAN)
    assert nets == [60, 0, -60]  # A gets 20 from B and 40 from C
    assert settle_indian([4, 0], [True, True], [0, 0], None, INDIAN) == [4, -4]


def test_M15_unseen_cap_is_an_option() -> None:
    rules = dataclasses.replace(INDIAN, unseen_value_cap=5)
    assert settle_indian([20, 0], [False, True], [0, 0], None, rules) == [5, -5]
