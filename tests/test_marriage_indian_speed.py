"""The shortcuts of issue 27 in the ``indian`` legal lists give the answers of the code
they shortcut (M-6, M-8, M-10).

- ``_one_drop_shares``, the finish check's share quick no in one pass, says what the
  per-kind share list says (``_shares_no``) whenever it answers;
- ``play_finishes``, the finish search once a turn, gives at every listing of the turn
  what a fresh search from the turn's start gives (``seat_finishes``);
- the indian show steps on bit masks (``_show_steps_bits``: the pairs of three-card
  melds that fit together found once a call) are the steps the packing test gives;
- a table meld's facts in one pass (``_meld_facts``) are its purity, the kinds offered
  to it and its shape worked out one by one;
- the table steps with the facts of the seat's table kept from its last listing
  (``meld_steps``) are those worked out afresh;
- ``_packs3``, the show steps' test that three-card melds still fit, is ``packs``, and
  so is ``_fit_threes``, the same test on bit masks (the indian show steps).

The lists themselves are compared with the plain generation in
tests/test_marriage_meld_options.py and by the digests of bench/marriage_legal.py.
"""

from __future__ import annotations

import random

from test_marriage_finish_shares import table_meld

from rami.cards import CARDS, counts
from rami.engine import Action
from rami.marriage.conditions import play_finishes, seat_finishes
from rami.marriage.game import new_deal
from rami.marriage.meld_options import (
    _BIT,
    _fit_threes,
    _meld_facts,
    _offered,
    _packs3,
    _shape,
    _show_steps_bits,
    meld_steps,
    packs,
    pure_melds,
)
from rami.marriage.melds import is_pure_meld, wild_kinds
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


def test_M8_M10_finishes_searched_once_a_turn_stay_the_turns() -> None:
    """M-10: within a turn the finishing discards stay those of the turn's start, so the
    turn's first search answers every listing (melds and additions laid between)."""
    rng = random.Random(810)
    cached = found = laid = 0
    for seed in range(12):
        state = new_deal({"preset": "indian", "max_turns": 300}, 4, seed, dealer=seed % 4)
        while not state.is_over:
            s = state.current
            if state.phase == "play" and state.seen[s] and not state.must_finish:
                again = state._finish_turn == state._turn  # answered already this turn
                got = play_finishes(state, s)
                assert got == seat_finishes(state, s), (seed, state.actions[-6:])
                cached += again
                found += bool(got)
                laid += bool(state.laid)
            state.apply(rng.choice(state.legal_actions()))
    assert cached > 100 and found > 10 and laid > 50, (cached, found, laid)


def _show_steps_reference(
    hand: list[int], need: int, size: int, taken: int | None
) -> list[Action] | None:
    """The show steps (M-6) by ``packs`` on count vectors: each pure meld whose removal
    leaves the spare cards and room for ``need - 1`` more disjoint show melds."""
    options = pure_melds(hand, INDIAN)
    threes = [m for m in options if len(m) == 3]
    if not packs(list(hand), threes, need, 0):
        return None
    out: list[Action] = []
    for meld in options:
        rest = list(hand)
        for c in meld:
            rest[c] -= 1
        spare = size - len(meld) - (rest[taken] if taken is not None else 0)
        if spare >= 3 * (need - 1) + 1 and packs(rest, threes, need - 1, 0):
            out.append(Action("show", tuple(CARDS[c] for c in meld)))
    return out


def test_M6_show_steps_on_bits_are_the_packing_ones() -> None:
    rng = random.Random(63)
    said = [0, 0]
    for _ in range(1200):
        suits = rng.sample(range(4), rng.randint(1, 4))
        cards = [rng.choice(suits) * 13 + rng.randrange(13) for _ in range(rng.randint(3, 24))]
        hand = counts(cards)
        for k in range(52):
            hand[k] = min(hand[k], rng.choice((2, 3, 4, 4)))
        size = sum(hand)
        taken = rng.choice((None, rng.randrange(52)))
        if taken is not None and not hand[taken]:
            taken = None
        for need in (1, 2, 3):
            want = _show_steps_reference(hand, need, size, taken)
            said[want is None] += 1
            assert _show_steps_bits(hand, need, size, taken) == want, (cards, need, taken)
    assert min(said) > 300, said  # both answers exercised


def test_M10_table_steps_with_kept_table_facts_are_fresh_ones() -> None:
    """M-10: the adds listed from the facts kept for a seat's table list (changed in
    place as it lays melds and additions) are those of a copy of it with no facts."""
    rng = random.Random(1010)
    compared = adds = 0
    for seed in range(10):
        state = new_deal({"preset": "indian", "max_turns": 300}, 4, seed, dealer=seed % 4)
        while not state.is_over:
            s = state.current
            if state.phase == "play" and state.seen[s]:
                args = (state.hands[s], state.rules, state.wilds, state.sizes[s], state.taken)
                kept = meld_steps(*args, state.melds[s], state._add_facts)
                assert kept == meld_steps(*args, list(state.melds[s]), {}), seed
                compared += 1
                adds += sum(a.kind == "add" for a in kept)
            state.apply(rng.choice(state.legal_actions()))
    assert compared > 500 and adds > 300, (compared, adds)


def test_M6_M10_meld_facts_in_one_pass_are_the_separate_ones() -> None:
    rng = random.Random(106)
    pure = 0
    for _ in range(4000):
        wilds = wild_kinds(CARDS[rng.randrange(52)])
        wmask = sum(1 << c for c in wilds if c < 52)
        size = rng.randint(1, 7)
        pick = rng.random()
        if pick < 0.4:  # a run (maybe round the corner)
            suit, low = rng.randrange(4), rng.randrange(13)
            cards = [suit * 13 + (low + i) % 13 for i in range(size)]
        elif pick < 0.7:  # a trial
            rank = rng.randrange(13)
            cards = [t * 13 + rank for t in rng.sample(range(4), min(size, 4))]
        else:
            cards = [rng.randrange(52) for _ in range(size)]
        if rng.random() < 0.3:
            cards[rng.randrange(len(cards))] = rng.choice(sorted(wilds))
        m = tuple(CARDS[c] for c in sorted(cards))
        got = _meld_facts(m, wilds, wmask, INDIAN)
        assert (got.pure, got.offered, got.shape) == (
            is_pure_meld(m, INDIAN),
            _offered(m, wilds),
            _shape(m, wilds),
        ), (m, sorted(wilds))
        pure += got.pure
    assert 500 < pure < 3500, pure
