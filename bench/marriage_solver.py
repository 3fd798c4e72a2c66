"""Median time of the Marriage finish check and of the N-3 missing count.

Holdings are seeded random *near-winning* ``nepali`` holdings of 22 cards: seven
melds (three of them natural show melds, the other four any valid melds with the
deal's wild cards) plus one card, and in half of them one or two cards swapped for
random ones. Copies respect the decks and the tiplu taken out of play.

- finish check, three melds shown: ``finish_discards`` on the 13 cards in hand (what
  the engine asks each turn of a player who has seen);
- finish check, nothing shown: ``show_finish_discards`` on the 22 cards (show three
  melds and finish in the same turn, M-8), and ``finish_discards`` with nothing shown
  (seven melds, no show required);
- ``missing`` (N-3) on both kinds of holdings (fewer samples);
- ``missing`` with ``--rules indian`` (melds of three or more) on uniformly random
  22-card holdings with nothing on the table (fewer still: tens of milliseconds each).

The solvers' memo tables are shared across calls, as in play; each figure is the
median over the whole run, cold misses included. Run:
``.venv/bin/python bench/marriage_solver.py [holdings] [missing holdings] [indian]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from rami.cards import CARDS, Card, counts
from rami.marriage.melds import is_meld, is_show_meld, wild_kinds
from rami.marriage.rules import INDIAN, NEPALI
from rami.marriage.solver import finish_discards, missing, show_finish_discards

Holding = tuple[Card, list[int], list[list[int]]]  # tiplu, cards in hand, shown melds


def _meld(rng: random.Random, wilds: frozenset[int], show: bool) -> list[int]:
    while True:
        kind = rng.random()
        suit = rng.randrange(4)
        if kind < 0.4:
            start = rng.randrange(12)
            ranks = [(start + i) % 13 for i in range(3)] if start < 11 else [11, 12, 0]
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
        if show and is_show_meld(cards, NEPALI):
            return cards
        if not show and is_meld(cards, NEPALI, wilds):
            return cards


def holdings(n: int, seed: int) -> list[Holding]:
    """Near-winning holdings: seven melds and a card, half of them with 1-2 swaps."""
    rng = random.Random(f"marriage-solver:{seed}")
    out: list[Holding] = []
    while len(out) < n:
        tiplu = CARDS[rng.randrange(52)]
        wilds = wild_kinds(tiplu)
        shown = [_meld(rng, wilds, True) for _ in range(3)]
        hand = [c for _ in range(4) for c in _meld(rng, wilds, False)]
        hand.append(rng.randrange(52))
        if rng.random() < 0.5:
            for _ in range(rng.randint(1, 2)):
                hand[rng.randrange(len(hand))] = rng.randrange(52)
        vec = counts(hand + [c for m in shown for c in m])
        if max(vec) > 3 or vec[tiplu] > 2:
            continue
        out.append((tiplu, hand, shown))
    return out


def indian_holdings(n: int, seed: int) -> list[tuple[Card, list[int]]]:
    """Uniformly random 22-card holdings (copies within the decks, tiplu out of play)."""
    rng = random.Random(f"marriage-indian:{seed}")
    out: list[tuple[Card, list[int]]] = []
    while len(out) < n:
        tiplu = CARDS[rng.randrange(52)]
        vec = counts([rng.randrange(52) for _ in range(22)])
        if max(vec) <= 3 and vec[tiplu] <= 2:
            out.append((tiplu, vec))
    return out


def timed(calls: Sequence[Callable[[], object]]) -> list[float]:
    times = []
    for call in calls:
        t0 = time.perf_counter()
        call()
        times.append((time.perf_counter() - t0) * 1e6)
    return times


def report(label: str, times: list[float]) -> None:
    p90 = statistics.quantiles(times, n=10)[8]
    print(
        f"{label}: median {statistics.median(times):.0f} µs, p90 {p90:.0f} µs,"
        f" max {max(times):.0f} µs ({len(times)} holdings)"
    )


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    n_missing = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000
    n_indian = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    sample = holdings(n, 1)
    shown3 = [(counts(hand), wild_kinds(t)) for t, hand, _ in sample]
    whole = [(counts(hand + [c for m in sh for c in m]), wild_kinds(t)) for t, hand, sh in sample]

    def check3(v: list[int], w: frozenset[int]) -> Callable[[], object]:
        return lambda: finish_discards(v, NEPALI, w, 3, "melds")

    def check0(v: list[int], w: frozenset[int]) -> Callable[[], object]:
        return lambda: finish_discards(v, NEPALI, w, 0, "melds")

    def show0(v: list[int], w: frozenset[int]) -> Callable[[], object]:
        return lambda: show_finish_discards(v, NEPALI, w)

    report("finish check, 3 melds shown", timed([check3(v, w) for v, w in shown3]))
    report("finish check, nothing shown (show in turn)", timed([show0(v, w) for v, w in whole]))
    report("finish check, 7 melds, no show needed", timed([check0(v, w) for v, w in whole]))

    few = sample[:n_missing]

    def miss3(t: Card, hand: list[int], sh: list[list[int]]) -> Callable[[], object]:
        v = counts(hand)
        return lambda: missing(v, NEPALI, t, sh)

    def miss0(t: Card, hand: list[int], sh: list[list[int]]) -> Callable[[], object]:
        v = counts(hand + [c for m in sh for c in m])
        return lambda: missing(v, NEPALI, t, [])

    if few:
        report("missing, 3 melds shown", timed([miss3(*h) for h in few]))
        report("missing, nothing shown", timed([miss0(*h) for h in few]))

    def indian(t: Card, v: list[int]) -> Callable[[], object]:
        return lambda: missing(v, INDIAN, t, [])

    if n_indian:
        report(
            "missing, indian, nothing on the table",
            timed([indian(*h) for h in indian_holdings(n_indian, 1)]),
        )


if __name__ == "__main__":
    main()
