"""Median time of ``best_opening`` on seeded random 15-card Tunisian hands.

Hands hold exactly 0, 1 or 2 jokers (the rest drawn from two standard decks). Each
hand is solved cold: the solver's caches (memos and pattern tables) are cleared before
every call. The last line times ``opening_reaches`` at the first threshold (71, T-6)
the same way: the question the game asks on nearly every step. Run:
``.venv/bin/python bench/tunisian_opening.py [hands per joker count]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from rami.cards import JOKER, counts, shoe
from rami.tunisian.solver import best_opening, clear_cache, opening_reaches


def hands(jokers: int, n: int, seed: int) -> list[list[int]]:
    rng = random.Random(f"tunisian-opening:{seed}:{jokers}")
    naturals = shoe(2, 0)
    return [counts(rng.sample(naturals, 15 - jokers) + [JOKER] * jokers) for _ in range(n)]


def time_hands(vectors: list[list[int]], reaches: bool = False) -> list[float]:
    times = []
    for vec in vectors:
        clear_cache()
        t0 = time.perf_counter()
        if reaches:
            opening_reaches(vec, 71)
        else:
            best_opening(vec)
        times.append((time.perf_counter() - t0) * 1e6)
    return times


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    overall: list[float] = []
    for jokers in (0, 1, 2):
        times = time_hands(hands(jokers, n, 7))
        overall += times
        p99 = statistics.quantiles(times, n=100)[98]
        print(
            f"best_opening 15 cards, {jokers} joker(s): median {statistics.median(times):.0f} µs,"
            f" p99 {p99:.0f} µs, max {max(times):.0f} µs ({n} hands)"
        )
    print(f"best_opening 15 cards, 0-2 jokers: median {statistics.median(overall):.0f} µs overall")
    reach: list[float] = []
    for jokers in (0, 1, 2):
        reach += time_hands(hands(jokers, n, 7), reaches=True)
    print(f"opening_reaches(71) 15 cards, 0-2 jokers: median {statistics.median(reach):.0f} µs")


if __name__ == "__main__":
    main()
