"""The issue-11 fast paths of Marriage's legal actions give the answers of the code before.

Each fast path is compared with a reference on thousands of random inputs:

- ``pure_melds`` reads runs and trials (indian) or three-card runs and tunnelas
  (nepali) from per-suit bits: the solver's ``show_meld_options`` is the reference (M-6),
  here on dense hands (long runs, every suit of a rank, tunnelas), which random hands
  seldom hold;
- ``meld_steps`` walks only the kinds a table meld is offered (``_offered``): every kind
  outside them must be one ``_add_status`` refuses (M-10);
- the finish check's quick no (``_too_many_loners``) walks the held natural cards and
  chains sequences with bit masks: the loops it replaced are kept below as the
  reference and must answer the same on random holdings and table melds (M-8, M-10);
- what a card added to a table meld makes (``_shaped_status``) is read from the meld's
  bit masks (``_shape``): ``_add_status``, the plain tests, is the reference (M-10).

Whole legal-action lists against the plain generation: tests/test_marriage_meld_options.py.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from test_marriage_finish_prefilter import random_meld

from rami.cards import CARDS, counts
from rami.marriage.meld_options import _add_status, _offered, _shape, _shaped_status, pure_melds
from rami.marriage.melds import wild_kinds
from rami.marriage.rules import INDIAN, NEPALI, rules_from
from rami.marriage.solver import show_meld_options
from rami.marriage.solver_indian import (
    _BITS,
    _NEAR_RANK,
    _RANK_RUN_STARTS,
    _TABLE_FACTS,
    _matching,
    _table_facts,
    _too_many_loners,
    _wild_row,
)


def dense_hand(rng: random.Random) -> list[int]:
    """A count vector built from long runs, trials and tunnelas, plus loose cards."""
    hand = [0] * 53
    for _ in range(rng.randint(1, 4)):
        shape = rng.random()
        if shape < 0.45:  # a run of 3 … 13 positions, the ace low or high
            s = rng.randrange(4)
            length = rng.randint(3, 13)
            start = rng.randint(1, 15 - length)
            for p in range(start, start + length):
                hand[s * 13 + (p - 1) % 13] += 1
        elif shape < 0.75:  # three or four suits of a rank
            r = rng.randrange(13)
            for s in rng.sample(range(4), rng.choice([3, 4])):
                hand[s * 13 + r] += 1
        else:  # a tunnela
            hand[rng.randrange(52)] += 3
    for _ in range(rng.randint(0, 6)):
        hand[rng.randrange(52)] += 1
    return [min(n, 3) for n in hand[:52]] + [0]


def test_M6_pure_melds_match_the_solver_on_dense_hands() -> None:
    """M-6: the bit-mask show melds are the solver's, in its order, for both presets."""
    rng = random.Random(11)
    for preset in ("indian", "nepali"):
        rules = rules_from(preset)
        for _ in range(4000):
            hand = dense_hand(rng)
            want = [tuple(sorted(m)) for m in show_meld_options(hand, rules)]
            assert pure_melds(hand, rules) == want, (preset, hand)


def test_M10_a_kind_not_offered_is_never_accepted() -> None:
    """M-10: ``_offered`` holds every card ``_add_status`` could accept for a table meld."""
    rng = random.Random(12)
    checked = 0
    for _ in range(1500):
        wilds = wild_kinds(CARDS[rng.randrange(52)])
        meld = tuple(sorted(random_meld(rng, sorted(wilds))))
        offered = _offered(meld, wilds)
        for k in range(52):
            if not (offered >> k) & 1:
                assert _add_status(meld, k, INDIAN, wilds) == 0, (meld, k)
                checked += 1
    assert checked > 30_000


def _loners_reference(
    hand: Sequence[int],
    wilds: frozenset[int],
    drops: int,
    table: Sequence[Sequence[int]],
    tun: bool,
) -> bool:
    """``_too_many_loners`` as it was written before issue 11 (the loops over all kinds)."""
    wild, wmask = _wild_row(wilds)
    h = list(hand)
    wild_count = sum(h[k] for k in range(len(h)) if h[k] and (k >= 52 or wild[k]))
    held = [0, 0, 0, 0]
    rank_suits = [0] * 13
    for s in range(4):
        for r in range(13):
            c = s * 13 + r
            if h[c] and not wild[c]:
                held[s] |= _BITS[r]
                rank_suits[r] += 1
    ranks = [0, 0, 0, 0]
    reach = [0, 0, 0, 0]
    for g in table:
        key = (tuple(g), wmask)
        facts = _TABLE_FACTS.table.get(key)
        if facts is None:
            facts = _TABLE_FACTS.remember(key, _table_facts(g, wild))
        trial_takes, suit, slack0, spans, occupied = facts
        if suit < 0:
            return False
        for t in range(4):
            ranks[t] |= trial_takes[t]
        mask = held[suit]
        slack = slack0 + wild_count + 1
        for lo, hi in spans:
            grown = True
            while grown:
                grown = False
                for p in range(max(1, lo - slack), lo):
                    if (mask >> p) & 1:
                        lo, grown = p, True
                        break
                for p in range(min(14, hi + slack), hi, -1):
                    if (mask >> p) & 1:
                        hi, grown = p, True
                        break
            a, b = max(1, lo - slack), min(14, hi + slack)
            reach[suit] |= (((1 << (b - a + 1)) - 1) << a) & ~occupied
    loners = needy = 0
    lonely = [0, 0, 0, 0]
    for s in range(4):
        for r in range(13):
            c = s * 13 + r
            n = h[c]
            if not n or wild[c]:
                continue
            if (ranks[s] >> r) & 1 or reach[s] & _BITS[r]:
                continue
            if not (rank_suits[r] > 1 or held[s] & ~_BITS[r] & _NEAR_RANK[r]):
                loners += n
                lonely[s] |= 1 << r
            elif (
                rank_suits[r] < 3
                and not (tun and n >= 3)
                and not any((held[s] >> lo) & 7 == 7 for lo in _RANK_RUN_STARTS[r])
            ):
                needy += n
                lonely[s] |= 1 << r
    if not wild_count:
        return loners + needy > drops
    left = max(0, loners - drops)
    if (2 if left == 1 else left) > wild_count:
        return True
    return _matching(lonely) - drops > wild_count


def test_M8_M10_quick_no_is_the_one_before() -> None:
    """M-8, M-10: the rewritten quick no answers as the loops it replaced, on random
    holdings of 1 … 22 cards beside 0 … 7 table melds (dirty ones included)."""
    rng = random.Random(13)
    said = {True: 0, False: 0}
    for _ in range(6000):
        wilds = wild_kinds(CARDS[rng.randrange(52)])
        wl = sorted(wilds)
        table = [tuple(sorted(random_meld(rng, wl))) for _ in range(rng.randint(0, 7))]
        suits = rng.sample(range(4), rng.randint(1, 4))
        cards = [rng.choice(wl) for _ in range(rng.choice([0, 0, 1, 2, 3]))]
        while len(cards) < rng.randint(1, 22):
            cards.append(rng.choice(suits) * 13 + rng.randrange(13))
        hand = counts(cards)
        drops = rng.choice([0, 1, 1, 2])
        for rules in (INDIAN, NEPALI):
            got = _too_many_loners(hand, wilds, drops, table, rules.tunnela_melds)
            assert got == _loners_reference(hand, wilds, drops, table, rules.tunnela_melds)
            said[got] += 1
    assert min(said.values()) > 1000  # both answers are exercised


def _any_meld(rng: random.Random, wl: Sequence[int]) -> tuple[int, ...]:
    """A table meld (a valid one most of the time: long runs, the ace low or high,
    trials, wild cards standing in or all wild) or any 2 … 6 cards."""
    shape = rng.random()
    if shape < 0.35:
        s = rng.randrange(4)
        length = rng.randint(3, 13)
        start = rng.randint(1, 15 - length)
        cards = [s * 13 + (p - 1) % 13 for p in range(start, start + length)]
    elif shape < 0.6:
        r = rng.randrange(13)
        cards = [t * 13 + r for t in rng.sample(range(4), rng.choice([2, 3, 4]))]
    elif shape < 0.75:
        cards = [rng.choice(wl) for _ in range(rng.randint(2, 5))]
    else:
        cards = [rng.randrange(52) for _ in range(rng.randint(2, 6))]
    for _ in range(rng.choice([0, 0, 1, 2, 3])):
        cards[rng.randrange(len(cards))] = rng.choice(wl)
    return tuple(sorted(cards))


def test_M10_shaped_status_is_add_status() -> None:
    """M-10: the bit-mask status of every card added to a table meld is the plain one,
    with and without tunnelas (M-4), on valid, dirty, all-wild and arbitrary melds."""
    rng = random.Random(14)
    tun_rules = dataclasses.replace(INDIAN, tunnela_melds=True)
    seen = {0: 0, 1: 0, 2: 0}
    for _ in range(2500):
        wilds = wild_kinds(CARDS[rng.randrange(52)])
        meld = tuple(CARDS[c] for c in _any_meld(rng, sorted(wilds)))
        shape = _shape(meld, wilds)
        for rules in (INDIAN, tun_rules):
            for k in range(52):
                want = _add_status(meld, k, rules, wilds)
                got = _shaped_status(shape, k, k in wilds, rules.tunnela_melds)
                assert got == want, (meld, k, sorted(wilds), rules.tunnela_melds)
                seen[want] += 1
    assert min(seen.values()) > 1500, seen  # every status is exercised
