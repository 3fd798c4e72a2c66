"""The Indian finish crash of ``rami simulate marriage --rules indian --bots
hard,medium,medium,medium --games 20 --seed 25010`` (IndexError in
``solver_indian._groups``), M-4, M-7, M-8, M-10.

The hard bot's determinizer drew a tiplu that left a seat's table meld invalid: the
only tiplu its view allowed was 2♦ (a meld A♦ 2♦ 3♦ 5♣ 6♣ 10♣ on the table), every
unseen 2♦ had been dealt to a hand, and the fallback took the stock's last card (9♥).
Under 9♥ the seat's table meld A♦ 10♦ Q♦ K♦ lacks J♦ with no wild card in it; the
finish search counts no pool card for a table meld it does not grow, so it offered a
finish whose arrangement then ran out of wild cards.
"""

from __future__ import annotations

import random

from rami.cards import CARDS, Card, counts
from rami.marriage.determinize import _tiplu_for
from rami.marriage.melds import is_meld, wild_kinds
from rami.marriage.rules import INDIAN
from rami.marriage.solver_indian import finishing_arrangement, indian_discards


def _cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


#: The failing call's arguments (``finishing_arrangement``), as recorded.
HAND = counts(_cards("8♠ J♠ Q♠ 8♥ 6♦"))
TABLE = [
    tuple(_cards("5♠ 6♠ 7♠")),
    tuple(_cards("A♠ 2♠ 3♠")),
    tuple(_cards("A♥ J♥ Q♥ K♥")),
    tuple(_cards("A♦ 10♦ Q♦ K♦")),
    tuple(_cards("A♠ Q♠ K♠")),
]
SAMPLED_WILDS = wild_kinds(Card.parse("9♥"))  # 9♠ 9♥ 9♦ 9♣ 8♥ 10♥
TRUE_WILDS = wild_kinds(Card.parse("2♦"))  # A♦ 3♦ and every 2
DISCARD = Card.parse("6♦")


def test_M10_invalid_table_meld_offers_no_finish_and_does_not_crash() -> None:
    assert not is_meld(list(TABLE[3]), INDIAN, SAMPLED_WILDS)
    assert indian_discards(HAND, INDIAN, SAMPLED_WILDS, TABLE) == []
    assert finishing_arrangement(HAND, INDIAN, SAMPLED_WILDS, TABLE, DISCARD) is None


def test_M8_legal_list_and_arrangement_agree_under_the_true_tiplu() -> None:
    """With 2♣ 2♥ more (wild under 2♦) the hand finishes, discarding 6♦."""
    assert all(is_meld(list(m), INDIAN, TRUE_WILDS) for m in TABLE)
    hand = counts(_cards("8♠ J♠ Q♠ 8♥ 6♦ 2♣ 2♥"))
    assert indian_discards(hand, INDIAN, TRUE_WILDS, TABLE) == [DISCARD]
    groups = finishing_arrangement(hand, INDIAN, TRUE_WILDS, TABLE, DISCARD)
    assert groups is not None
    assert all(is_meld([CARDS[c] for c in g], INDIAN, TRUE_WILDS) for g in groups)
    laid = sorted(c for g in groups for c in g)
    assert laid == sorted([*(c for m in TABLE for c in m), *_cards("8♠ J♠ Q♠ 8♥ 2♣ 2♥")])
    # the same holding under the sampled tiplu: the table is invalid, no finish
    assert indian_discards(hand, INDIAN, SAMPLED_WILDS, TABLE) == []


def test_M7_tiplu_dealt_to_a_hand_is_swapped_back() -> None:
    """Every copy of the only possible tiplu went to hands: one dealt copy becomes the
    tiplu and its hand takes a stock card instead; cards known to be held stay."""
    laid = [tuple(_cards("A♦ 2♦ 3♦ 5♣ 6♣ 10♣")), TABLE[3]]
    two = Card.parse("2♦")
    for seed in range(20):
        rest = _cards("9♥ 4♠ 7♣ K♣")
        hands = [counts(_cards("2♦ 5♥")), [0] * 53, counts(_cards("2♦ 4♥"))]
        known = [counts(_cards("2♦")), [0] * 52, [0] * 52]  # seat 0 took its 2♦

        def dealt(
            hands: list[list[int]] = hands, known: list[list[int]] = known
        ) -> list[list[int]]:
            return [
                [max(0, h[c] - k[c]) for c in range(52)] for h, k in zip(hands, known, strict=True)
            ]

        tiplu = _tiplu_for(rest, laid, INDIAN, hands, dealt, random.Random(seed))
        assert tiplu == two
        assert all(is_meld(list(m), INDIAN, wild_kinds(tiplu)) for m in laid)
        assert hands[0][two] == 1  # known to be held
        assert hands[2][two] == 0 and sum(hands[2]) == 2
        assert len(rest) == 3
