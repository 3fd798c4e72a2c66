"""Tail times of the Tunisian opening solver on seeded random 15-card hands.

Hands hold exactly 0, 1 or 2 jokers (the rest drawn from two standard decks), and a
*dense* class: two suits, 2–3 jokers (many overlapping runs). For ``best_opening``
and ``opening_reaches`` at the first threshold (71, T-6), the question the game asks
on nearly every step, it prints median, p99 and max, *cold* (the solver's memos and
pattern tables cleared before every call, untimed) and *warm* (memos shared, as in
play). Exits 1 if the two disagree (an opening worth 71 or more, or not).
Run: ``.venv/bin/python bench/tunisian_opening.py [hands per class]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from rami.cards import JOKER, counts, shoe
from rami.tunisian.solver import best_opening, clear_cache, opening_reaches


def hands(jokers: int, n: int, seed: int) -> list[list[int]]:
    rng = random.Random(f"tunisian-opening:{seed}:{jokers}")
    naturals = shoe(2, 0)
    return [counts(rng.sample(naturals, 15 - jokers) + [JOKER] * jokers) for _ in range(n)]


def dense_hands(n: int, seed: int) -> list[list[int]]:
    rng = random.Random(f"tunisian-dense:{seed}")
    out = []
    while len(out) < n:
        suits = rng.sample(range(4), 2)
        jokers = rng.randint(2, 3)
        cards = [rng.choice(suits) * 13 + rng.randrange(13) for _ in range(15 - jokers)]
        vec = counts(cards + [JOKER] * jokers)
        if max(vec[:52]) <= 2:
            out.append(vec)
    return out


def time_hands(
    vectors: list[list[int]], call: Callable[[list[int]], object], cold: bool
) -> list[float]:
    times = []
    for vec in vectors:
        if cold:
            clear_cache()
        t0 = time.perf_counter()
        call(vec)
        times.append((time.perf_counter() - t0) * 1e6)
    return times


def line(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{label}: median {statistics.median(ordered):.0f} µs, p99 {p99:.0f} µs, "
        f"max {ordered[-1]:.0f} µs ({len(ordered)} hands)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description="Tunisian opening search times")
    parser.add_argument("hands", nargs="?", type=int, default=2000, help="per class")
    n = parser.parse_args().hands
    classes = {f"{j} joker(s)": hands(j, n, 7) for j in (0, 1, 2)}
    classes["dense 2 suits"] = dense_hands(n, 8)
    ok = True
    for name, vectors in classes.items():
        for mode in ("cold", "warm"):
            cold = mode == "cold"
            if not cold:
                clear_cache()
            best = time_hands(vectors, best_opening, cold)
            print(line(f"best_opening 15 cards, {name}, {mode}", best))
            reach = time_hands(vectors, lambda v: opening_reaches(v, 71), cold)
            print(line(f"opening_reaches(71) 15 cards, {name}, {mode}", reach))
        for vec in vectors[:200]:
            opening = best_opening(vec)
            if (opening is not None and opening.value >= 71) != opening_reaches(vec, 71):
                print(f"FAIL: best_opening and opening_reaches disagree on {vec}")
                ok = False
                break
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
