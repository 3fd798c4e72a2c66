"""The opening solver's fast paths (T-4 … T-6, T-9) against slow definitions.

``opening_reaches`` and ``opening_at_least`` answer from an upper bound, a search that
stops early, and tables and memos kept between calls; ``best_opening`` from a branch
and bound. Each shortcut is checked here against a plain enumeration or a plain
restatement of what it claims, over seeded random hands rich in jokers and runs.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Sequence

import pytest
from test_tunisian_solver import brute_opening

import rami.tunisian.solver as solver
from rami.cards import JOKER, KINDS, counts, from_counts, parse_cards, shoe
from rami.memo import stored
from rami.tunisian.melds import POSITION_VALUE, make_meld, meld_options
from rami.tunisian.solver import best_opening, opening_at_least, opening_reaches

DECK = shoe(2, 4)
# few ranks, so runs and sets crowd together
NARROW = [c for c in DECK if c == JOKER or c % 13 < 6 or c % 13 > 10]


def hands(count: int, seed: int, sizes: Sequence[int] = (5, 8, 11, 12)) -> list[list[int]]:
    rng = random.Random(seed)
    out = []
    for n in range(count):
        pool = NARROW if n % 2 else DECK
        cards = rng.sample(pool, rng.choice(sizes))
        cards += [JOKER] * rng.choice((0, 0, 1, 1, 2, 3))
        out.append(counts(cards))
    return out


def brute_any(vec: Sequence[int]) -> int:
    """The best total of disjoint melds, every card may be used (no card kept)."""
    options = meld_options(vec)
    needs = [counts(m.cards) for m in options]
    left = list(vec)
    best = 0

    def rec(start: int, value: int) -> None:
        nonlocal best
        best = max(best, value)
        for j in range(start, len(options)):
            need = needs[j]
            if all(left[k] >= n for k, n in enumerate(need) if n):
                for k, n in enumerate(need):
                    left[k] -= n
                rec(j, value + options[j].value)
                for k, n in enumerate(need):
                    left[k] += n

    rec(0, 0)
    return best


def small_enough(vec: Sequence[int]) -> bool:
    return sum(vec) <= 10 or len(meld_options(vec)) <= 40


# --- packing ------------------------------------------------------------------------------


def test_pack_reads_counts_two_bits_each_and_the_jokers_above() -> None:
    rng = random.Random(1)
    for _ in range(2000):
        vec = [rng.choice((0, 0, 0, 1, 2, 3)) for _ in range(52)] + [rng.randint(0, 7)]
        expected = sum(n << (2 * k) for k, n in enumerate(vec[:52])) | vec[52] << 104
        assert solver._pack(vec) == solver._pack(tuple(vec)) == expected
        assert solver._pack(bytes(vec)) == expected


@pytest.mark.parametrize(
    ("vec", "message"),
    [
        ([4] + [0] * 52, "count 4 for one card"),
        ([0] * 51 + [-1, 0], "count -1 for one card"),
        ([95] + [0] * 52, "count 95 for one card"),  # the byte of "_", no digit
        ([0] * 52 + [8], "joker count 8"),
        ([0] * 10, "53 entries"),
    ],
)
def test_pack_refuses_counts_out_of_range(vec: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        solver._pack(vec)


# --- live cards and the upper bound --------------------------------------------------------


def test_every_card_of_every_meld_is_live() -> None:
    """``_live`` is a superset of the cards in melds, so pruning keeps the search exact."""
    for vec in hands(3000, 2, sizes=(4, 8, 12, 15, 20)):
        key = solver._pack(vec)
        live = solver._live(key)
        for meld in meld_options(vec):
            for c in meld.cards:
                if c != JOKER:
                    assert live >> (2 * c) & 1, (from_counts(vec), meld.text())
        assert not solver._prune(key) & ~key & solver._NATMASK  # prune only removes cards


def test_T5_upper_bound_is_never_below_any_melds() -> None:
    checked = 0
    for vec in hands(2500, 3):
        if not small_enough(vec):
            continue
        assert solver._upper_bound(solver._pack(vec)) >= brute_any(vec), from_counts(vec)
        checked += 1
    assert checked > 2000


def test_run_gain_matches_every_window_of_one_hole() -> None:
    """``_run_gain`` on all 8192 suit patterns against windows enumerated directly."""
    for pattern in range(1 << 13):
        held = [False] + [bool(pattern >> (p - 1) & 1) for p in range(1, 14)] + [bool(pattern & 1)]
        held += [False, False]
        # a card in a run of three held in a row gains nothing: it is in a plain meld
        value = [
            0
            if not held[p]
            or any(held[q] and held[q + 1] and held[q + 2] for q in range(max(p - 2, 1), p + 1))
            else POSITION_VALUE[p]
            for p in range(15)
        ]
        best = 0
        for low in range(1, 15):
            gain = holes = 0
            for p in range(low, 15):
                holes += not held[p]
                if holes > 1:
                    break
                gain += value[p]
                best = max(best, gain)
        bits = sum(1 << (2 * r) for r in range(13) if pattern >> r & 1)
        assert solver._run_gain(bits) == best, bin(pattern)


def test_option_tables_depend_only_on_the_cards_they_are_keyed_by() -> None:
    """Options remembered for one hand serve another with the same ``_LOCAL`` bits."""
    solver.clear_cache()
    for vec in hands(3000, 9, sizes=(6, 10, 14, 18)):
        key = solver._pack(vec)
        nat = key & solver._NATMASK
        while nat:
            i = ((nat & -nat).bit_length() - 1) >> 1
            fresh = [
                (delta + solver._J1 if joker else delta, value, desc)
                for delta, joker, value, desc in solver._candidates(key, i, bool(vec[JOKER]))
            ]
            remembered = solver._options(key, i)
            assert [(d, v, desc) for d, v, _, desc in remembered] == fresh
            for delta, _, spent, _ in remembered:
                jokers = delta >> solver._JSHIFT
                assert spent == solver._natural_value(delta & solver._NATMASK) + 10 * jokers
            key &= ~(3 << (2 * i))  # the next card up becomes the lowest
            nat = key & solver._NATMASK


# --- the searches, with memos kept between calls -------------------------------------------


def check_opening(vec: Sequence[int], opening: solver.Opening) -> None:
    used = counts(c for m in opening.melds for c in m.cards)
    assert all(used[k] <= vec[k] for k in range(KINDS))
    assert sum(used) < sum(vec)  # T-9: a card is kept
    assert sum(m.value for m in opening.melds) == opening.value
    for meld in opening.melds:
        assert make_meld(meld.cards) == meld


def test_T6_reaches_and_at_least_agree_with_brute_force_in_any_call_order() -> None:
    """Thresholds around the best value, hands revisited in a shuffled order."""
    rng = random.Random(4)
    solver.clear_cache()
    cases = []
    for vec in hands(700, 5):
        if small_enough(vec):
            best = brute_opening(vec)
            cases += [(vec, best, t) for t in (0, 1, best - 1, best, best + 1, rng.randint(1, 90))]
    rng.shuffle(cases)
    for vec, best, threshold in cases:
        expected = best > 0 and best >= threshold
        assert opening_reaches(vec, threshold) == expected, (from_counts(vec), threshold)
        found = opening_at_least(vec, threshold)
        assert (found is not None) == expected
        if found is not None:
            check_opening(vec, found)
            assert found.value >= max(threshold, 1)


def test_T6_best_opening_is_exact_after_searches_with_thresholds() -> None:
    """``best_opening`` shares the bounds ``opening_reaches`` left behind."""
    solver.clear_cache()
    for vec in hands(400, 6):
        if not small_enough(vec):
            continue
        best = brute_opening(vec)
        opening_reaches(vec, best + 1)
        opening_reaches(vec, max(best - 5, 1))
        found = best_opening(vec)
        assert (found.value if found else 0) == best, from_counts(vec)
        if found is not None:
            check_opening(vec, found)


def test_memos_are_emptied_when_large_and_answers_stay_exact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(solver, "_MEMO_LIMIT", 50)
    monkeypatch.setattr(solver, "_TABLE_LIMIT", 20)
    monkeypatch.setattr(solver, "_OPTIONS_LIMIT", 30)
    solver.clear_cache()
    peak = 0
    for vec in hands(300, 7, sizes=(9, 12, 15)):
        expected = best_opening(vec)
        value = expected.value if expected else 0
        assert opening_reaches(vec, value) == (value > 0)
        assert not opening_reaches(vec, value + 1)
        peak = max(peak, len(solver._bounds), len(solver._exact))
        assert sum(stored(t) for t in solver._option_tables) <= 30  # pins aside
        assert len(solver._suit_facts) <= 20 and len(solver._chunk_values) <= 20
    assert peak < 5000  # emptied between calls, whatever one search adds
    solver.clear_cache()


def test_opening_at_least_on_a_known_hand() -> None:
    vec = counts(parse_cards("10♥ J♥ Q♥ K♥ 7♠ 7♥ 7♦ JK 3♣ 9♦ 2♠"))
    found = opening_at_least(vec, 71)
    assert found is not None and found.value == 71
    assert opening_at_least(vec, 72) is None
    small = opening_at_least(vec, 20)
    assert small is not None and small.value >= 20
    check_opening(vec, small)


def test_searches_from_many_threads_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server plays tables in threads: the shared memos must not mix searches up."""
    monkeypatch.setattr(solver, "_MEMO_LIMIT", 300)  # emptied often, mid-run
    cases = []
    for vec in hands(240, 8, sizes=(9, 12, 15)):
        best = best_opening(vec)
        cases.append((vec, best.value if best else 0))
    solver.clear_cache()
    failures: list[str] = []

    def work(offset: int) -> None:
        for n in range(len(cases)):
            vec, value = cases[(n * 7 + offset) % len(cases)]
            for threshold in (value, value + 1, max(value - 10, 1)):
                try:
                    found = opening_at_least(vec, threshold)
                except Exception as error:  # a memo emptied under another search
                    failures.append(repr(error))
                    return
                if (found is not None) != (value > 0 and value >= threshold):
                    failures.append(f"{from_counts(vec)} {threshold}")
                elif found is not None and found.value < threshold:
                    failures.append(f"{from_counts(vec)} {threshold}: {found.value}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as can be
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not failures
    solver.clear_cache()
