"""Every greedy Tunisian deal ends (T-3 ``rediscard_taken``, T-11 ``max_turns``).

Plays ``N`` seeded deals of greedy bots in each mode (1v1, ffa, 2v2) with the default
rules and fails (exit 1) if any deal is still running after a generous step bound, or
if any deal goes in circles: its last ``LOOP_TURNS`` turns all began with a take from
the discard pile (players passing cards back and forth, which the taken-card rule
stops). A few deals reach the 400-turn cap with no cycle (nobody manages to open, so
everyone draws from the stock and the pile is reshuffled): the cap ends them, as T-11
means it to. Prints deals/s, the longest deal and the capped ones.
Run: ``python bench/tunisian_deals_end.py [deals per mode] [modes, e.g. ffa,2v2]``
(default 2,000 so that `make bench` fits its budget, 10,000 for the full check;
``tests/test_tunisian_deals_end.py`` runs a small sample).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from rami.bots import make_bot
from rami.tunisian.game import new_deal
from rami.tunisian.rules import MODES, rules_from

#: A bound on steps far above what a 400-turn deal can take (a turn is a few steps).
STEP_BOUND = 40_000
#: Turns in a row that begin with a take: a deal that ends so is going in circles.
LOOP_TURNS = 30


@dataclass
class ModeResult:
    mode: str
    deals: int
    unfinished: list[int]
    capped: list[int]
    cycling: list[int]
    longest: int
    seconds: float


def play_mode(mode: str, deals: int, first_seed: int = 0) -> ModeResult:
    """Play ``deals`` greedy deals of ``mode``; note the seeds that did not end by going out."""
    rules = rules_from(mode)
    n = rules.players
    bots = [make_bot("tunisian", "greedy", seat) for seat in range(n)]
    unfinished: list[int] = []
    capped: list[int] = []
    cycling: list[int] = []
    longest = 0
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + deals):
        state = new_deal(rules, n, seed, dealer=seed % n)
        steps = 0
        while not state.is_over and steps < STEP_BOUND:
            seat = state.to_move
            assert seat is not None
            state.apply(bots[seat].act(state.view(seat)))
            steps += 1
        if not state.is_over:
            unfinished.append(seed)
        elif state.end_reason == "max_turns":
            capped.append(seed)
        draws = [a for a in state.actions if a in ("draw", "take")][-LOOP_TURNS:]
        if len(draws) == LOOP_TURNS and all(a == "take" for a in draws):
            cycling.append(seed)
        longest = max(longest, state.turn)
    seconds = time.perf_counter() - start
    return ModeResult(mode, deals, unfinished, capped, cycling, longest, seconds)


def main() -> int:
    parser = argparse.ArgumentParser(description="every Tunisian greedy deal ends")
    parser.add_argument("deals", nargs="?", type=int, default=2_000, help="per mode (10000: full)")
    parser.add_argument("modes", nargs="?", default=",".join(MODES), help="e.g. 1v1,2v2")
    opts = parser.parse_args()
    deals, modes = opts.deals, opts.modes.split(",")
    if unknown := [m for m in modes if m not in MODES]:
        parser.error(f"unknown mode {unknown[0]!r}: choose from {', '.join(MODES)}")
    failed = False
    for mode in modes:
        r = play_mode(mode, deals)
        print(
            f"tunisian {r.mode:4} greedy: {r.deals} deals in {r.seconds:.1f} s "
            f"({r.deals / r.seconds:,.0f}/s), longest {r.longest} turns, "
            f"{len(r.capped)} at the turn cap {r.capped[:12]}, {len(r.cycling)} in circles, "
            f"{len(r.unfinished)} unfinished"
        )
        if r.unfinished or r.cycling:
            failed = True
            print(f"  FAIL seeds: unfinished {r.unfinished[:10]} in circles {r.cycling[:10]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
