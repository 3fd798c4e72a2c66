"""The shortcuts of issue 27 in the ``indian`` legal lists give the answers of the code
they shortcut (M-6, M-8, M-10).

- ``_one_drop_shares``, the finish check's share quick no in one pass, says what the
  per-kind share list says (``_shares_no``) whenever it answers;
- ``_packs3``, the show steps' test that three-card melds still fit, is ``packs``, and
  so is ``_fit_threes``, the same test on bit masks (the indian show steps).

The lists themselves are compared with the plain generation in
tests/test_marriage_meld_options.py and by the digests of bench/marriage_legal.py.
"""

from __future__ import annotations

import random

from test_marriage_finish_shares import table_meld

from rami.cards import CARDS, counts
from rami.marriage.meld_options import _BIT, _fit_threes, _packs3, packs, pure_melds
from rami.marriage.melds import wild_kinds
from rami.marriage.rules import INDIAN, NEPALI
from rami.marriage.solver_indian import _one_drop_shares, _shares_no


def test_M8_M10_one_pass_share_no_is_the_share_list() -> None:
    rng = random.Random(27)
    answered = refused = 0
    for _ in range(1500):
        tiplu = CARDS[rng.randrange(52)]
        wilds = wild_kinds(tiplu)
        wl = sorted(wilds)
        table = [table_meld(rng, wl) for _ in range(rng.randint(0, 5))]
        cards = [rng.choice(wl) for _ in range(rng.choice([0, 0, 1, 2, 3]))]
        suits = rng.sample(range(4), rng.randint(1, 4))
        while len(cards) < rng.randint(2, 14):
            cards.append(rng.choice(suits) * 13 + rng.randrange(13))
        hand = counts(cards)
        for tun in (True, False):
            got = _one_drop_shares(hand, wilds, table, tun)
            if got is None:
                continue  # a table meld of wild cards only: the share list answers
            answered += 1
            refused += got
            assert got == _shares_no(hand, wilds, 1, table, tun), (cards, table, str(tiplu))
    assert answered > 1500 and refused > 300, (answered, refused)  # both answers exercised


def test_M6_packs3_is_packs() -> None:
    rng = random.Random(6)
    for rules in (INDIAN, NEPALI):  # runs and trials; runs and tunnelas
        for _ in range(600):
            suits = rng.sample(range(4), rng.randint(1, 3))
            cards = [rng.choice(suits) * 13 + rng.randrange(13) for _ in range(rng.randint(6, 22))]
            hand = counts(cards)
            threes = [m for m in pure_melds(hand, rules) if len(m) == 3]
            for k in (1, 2, 3):
                rest = list(hand)
                assert _packs3(rest, threes, k, 0) == packs(list(hand), threes, k, 0)
                assert rest == hand  # restored


def test_M6_fit_threes_is_packs() -> None:
    """M-6: the bit-mask test that ``k`` disjoint three-card show melds fit (kinds held
    once, twice, three times or more) is ``packs``, kinds held up to four times."""
    rng = random.Random(61)
    said = [0, 0]
    for _ in range(1500):
        suits = rng.sample(range(4), rng.randint(1, 4))
        cards = [rng.choice(suits) * 13 + rng.randrange(13) for _ in range(rng.randint(3, 24))]
        hand = counts(cards)
        for k in range(52):
            hand[k] = min(hand[k], 4)
        threes = [m for m in pure_melds(hand, INDIAN) if len(m) == 3]
        masks = [sum(_BIT[c] for c in m) for m in threes]
        held = [sum(_BIT[c] for c in range(52) if hand[c] >= n) for n in (1, 2, 3)]
        for k in (1, 2, 3):
            want = packs(list(hand), threes, k, 0)
            said[want] += 1
            assert _fit_threes(masks, *held, k) == want, (cards, k)
    assert min(said) > 300, said  # both answers exercised
