"""Decisions per second of seeded random legal Tunisian rami play (ffa, four players; or
``--mode 1v1`` / ``2v2``).

One decision is ``legal_actions()`` followed by ``apply`` of a uniformly random choice.
Random players rarely open, so deals are capped at 200 turns (T-11, ``max_turns``).
The rate is given by the wall clock and by this process's CPU time (steadier when the
machine is busy). Run: ``.venv/bin/python bench/tunisian_selfplay.py [seconds] [--mode M]``.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace

from rami.tunisian.game import new_deal
from rami.tunisian.rules import rules_from

PLAYERS = {"1v1": 2, "ffa": 4, "2v2": 4}


def run(seconds: float = 5.0, mode: str = "ffa") -> tuple[int, int, float, float]:
    """Play deals until ``seconds`` have passed; return (decisions, deals, elapsed, cpu)."""
    rules = replace(rules_from(mode), max_turns=200)
    players = PLAYERS[mode]
    rng = random.Random(1)
    decisions = deals = 0
    start = time.perf_counter()
    cpu = time.process_time()
    seed = 0
    while time.perf_counter() - start < seconds:
        state = new_deal(rules, players, seed, dealer=seed % players)
        seed += 1
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
        deals += 1
    return decisions, deals, time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description="Tunisian self-play decisions per second")
    parser.add_argument("seconds", nargs="?", type=float, default=5.0)
    parser.add_argument("--mode", choices=tuple(PLAYERS), default="ffa")
    opts = parser.parse_args()
    decisions, deals, elapsed, cpu = run(opts.seconds, opts.mode)
    print(
        f"tunisian self-play ({opts.mode}, random legal moves): "
        f"{decisions / elapsed:,.0f} decisions/s "
        f"({decisions / cpu:,.0f}/s of CPU time; {decisions} decisions, {deals} deals in "
        f"{elapsed:.1f} s)"
    )


if __name__ == "__main__":
    main()
