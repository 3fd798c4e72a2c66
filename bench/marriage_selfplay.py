"""Decisions per second of seeded random legal Marriage play on one core.

A decision is one ``legal_actions()`` call plus one ``apply()``. The figure per CPU
second is the one-core rate even when the machine is busy with other work. Four players, the
``nepali`` preset, deals capped at 400 turns, each seat choosing uniformly among its
legal actions. Usage: ``python bench/marriage_selfplay.py [seconds] [--rules indian]
[--profile] [--peers]`` (``--peers``: then OpenSpiel's and RLCard's gin rummy for
``seconds`` each, ``bench/peer_selfplay.py``, and the ratios). Exits 1 if a deal breaks
an invariant (an exception).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from rami.marriage.game import new_deal

RULES = {"preset": "nepali", "max_turns": 400}
PLAYERS = 4


def run(seconds: float, preset: str = "nepali") -> tuple[int, int, float, float]:
    """Play deals for ``seconds``; return (decisions, deals, wall seconds, CPU seconds)."""
    rng = random.Random(2024)
    decisions = deals = 0
    cpu = time.process_time()
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        state = new_deal({**RULES, "preset": preset}, PLAYERS, seed, dealer=seed % PLAYERS)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
        deals += 1
        seed += 1
    return decisions, deals, time.perf_counter() - start, time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description="Marriage self-play decisions per second")
    parser.add_argument("seconds", nargs="?", type=float, default=10.0)
    parser.add_argument("--rules", choices=("nepali", "indian"), default="nepali")
    parser.add_argument("--profile", action="store_true", help="print a cProfile table")
    parser.add_argument(
        "--peers", action="store_true", help="then time the peers' gin rummy (ratios)"
    )
    opts = parser.parse_args()
    seconds, preset = opts.seconds, opts.rules
    if opts.profile:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.runcall(run, seconds, preset)
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
        return 0
    decisions, deals, elapsed, cpu = run(seconds, preset)
    print(
        f"marriage self-play ({preset}, {PLAYERS} players, max 400 turns): "
        f"{decisions / cpu:,.0f} decisions per CPU second, "
        f"{decisions / elapsed:,.0f} per wall second "
        f"({decisions:,} decisions, {deals} deals, {elapsed:.1f} s)"
    )
    if opts.peers:
        from peer_selfplay import print_ratios  # beside this file

        print_ratios(preset, decisions / cpu, seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
