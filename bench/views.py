"""CPU µs a seat's view costs: the JSON wire view (``state.view(seat)``, what a browser
seat is sent), the typed view bots read (``Game.typed_view``) and the decision point a
random bot is handed (``Game.decision``), per table, during seeded random play.

At every position of a few seeded deals (legal actions listed first, as a table or an
env has them), each figure is the time of one call for the seat to move and of one for
the next seat, each kind of view timed alone in a pass of its own over the same deals
(no other work between its calls); a figure is the best of ``--passes`` passes (a busy
machine adds to some passes, seldom to all), CPU time of this thread, the clock's own
cost taken off. A tree without typed views or decision points prints only the JSON
lines, so the script runs on old trees too (by its path, from the new tree:
``scripts/bench_side_by_side.py OLD NEW --bench "$PWD/bench/views.py"``).

Run: ``PYTHONPATH=src python bench/views.py [--passes N] [--deals N]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from rami.games import get_game

TABLES = (
    ("tunisian", "1v1", 2),
    ("tunisian", "2v2", 4),
    ("marriage", "nepali", 4),
    ("marriage", "indian", 4),
)


def _clock_cost() -> float:
    best = 1.0
    for _ in range(5):
        start = time.thread_time()
        for _ in range(1000):
            time.thread_time()
        best = min(best, (time.thread_time() - start) / 1001)
    return best


def figures(game: str, preset: str, players: int, deals: int, passes: int) -> dict[str, float]:
    """µs per call of each kind of view (the seat to move's, the next seat's)."""
    spec = get_game(game)
    kinds: dict[str, Callable[[Any, int], object]] = {
        "JSON view": lambda state, seat: state.view(seat)
    }
    if hasattr(spec, "seat_view") and spec.seat_view is not None:
        kinds["typed view"] = spec.typed_view
    if hasattr(spec, "decision"):
        kinds["decision point"] = spec.decision
    clock = time.thread_time
    overhead = _clock_cost()
    best = {f"{k} ({who})": float("inf") for k in kinds for who in ("to move", "next seat")}
    for _ in range(passes):
        for kind, make in kinds.items():  # each kind alone over the same deals
            spent = {"to move": 0.0, "next seat": 0.0}
            calls = 0
            rng = random.Random(1)
            for seed in range(deals):
                rules = {"preset": preset, "max_turns": 150}
                state = spec.new_match(rules, players, seed).current
                while not state.is_over:
                    legal = state.legal_actions()
                    seat = state.to_move
                    for who, s in (("to move", seat), ("next seat", (seat + 1) % players)):
                        start = clock()
                        make(state, s)
                        spent[who] += clock() - start - overhead
                    calls += 1
                    state.apply(rng.choice(legal))
            for who, total in spent.items():
                key = f"{kind} ({who})"
                best[key] = min(best[key], total / calls * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--deals", type=int, default=4)
    args = parser.parse_args()
    print("CPU µs per view (best of the passes; random play, legal actions listed first):")
    for game, preset, players in TABLES:
        for name, micros in figures(game, preset, players, args.deals, args.passes).items():
            print(f"  {game} {preset} {players}p {name:28s} {micros:7.2f}")


if __name__ == "__main__":
    main()
