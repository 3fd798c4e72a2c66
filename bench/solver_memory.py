"""Memory and GC pauses over many Marriage deals: the solver memos stay bounded.

Plays seeded random legal deals (``nepali``, four players, as
``bench/marriage_selfplay.py``) and, each turn of a player who has seen, the
finish check and the N-3 hint count of that player's holding: what the engine and
the hints ask in play. Prints the resident set size and the memo entries every
``step`` deals, and the longest cyclic-GC pass (wall and CPU time: on a busy machine the
wall time also counts other work). Fails (exit 1) if the RSS of the last
report exceeds the one at half-way by more than ``--growth`` MiB (default 16).
Run: ``python bench/solver_memory.py [deals] [step] [--growth MiB]``.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from typing import Any

from rami.marriage.game import new_deal

RULES = {"preset": "nepali", "max_turns": 400}


def rss_mib() -> float:
    """The current resident set size (Linux ``/proc``), in MiB."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def memo_entries() -> int:
    try:
        from rami.marriage.cover import memo_entries as entries
    except ImportError:  # an older tree: count its module dicts
        from rami.marriage import cover

        return sum(len(v) for k, v in vars(cover).items() if k.isupper() and isinstance(v, dict))
    return entries()


def main() -> int:
    parser = argparse.ArgumentParser(description="solver memory over many deals")
    parser.add_argument("deals", nargs="?", type=int, default=1000)
    parser.add_argument("step", nargs="?", type=int, default=0, help="deals between samples")
    parser.add_argument("--growth", type=float, default=16.0, help="MiB allowed to grow")
    opts = parser.parse_args()
    deals, growth = opts.deals, opts.growth
    step = opts.step or max(1, deals // 6)
    pauses: list[float] = []  # wall ms: what a player waits, but other work adds to it
    cpu_pauses: list[float] = []  # CPU ms of this thread: the pass itself
    started: list[tuple[float, float]] = []

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started.append((time.perf_counter(), time.thread_time()))
        elif started:
            wall, cpu = started.pop()
            pauses.append((time.perf_counter() - wall) * 1e3)
            cpu_pauses.append((time.thread_time() - cpu) * 1e3)

    gc.callbacks.append(on_gc)
    from rami.marriage.solver import missing

    rng = random.Random(7)
    reports: list[float] = []
    start = time.perf_counter()
    for seed in range(deals):
        state = new_deal(RULES, 4, seed, dealer=seed % 4)
        while not state.is_over:
            seat = state.to_move
            legal = state.legal_actions()
            view = state.view(seat)
            me = view["seats"][seat] if seat is not None else {}
            if me.get("seen") and view.get("tiplu") and rng.random() < 0.05:
                from rami.cards import counts, parse_card, parse_cards

                hand = parse_cards(" ".join(view["hand"]))
                shown = [parse_cards(" ".join(m)) for m in me.get("melds") or []]
                if len(hand) + sum(len(m) for m in shown) == 22 and me.get("path") != "dublees":
                    missing(counts(hand), state.rules, parse_card(view["tiplu"]), shown)
            state.apply(rng.choice(legal))
        if (seed + 1) % step == 0:
            reports.append(rss_mib())
            print(
                f"after {seed + 1:6} deals: RSS {reports[-1]:6.1f} MiB, "
                f"memo entries {memo_entries():8,}, longest GC pass "
                f"{max(pauses, default=0.0):5.1f} ms ({max(cpu_pauses, default=0.0):5.1f} ms CPU), "
                f"{time.perf_counter() - start:6.1f} s"
            )
    gc.callbacks.remove(on_gc)
    if len(reports) >= 2:
        half = reports[len(reports) // 2 - 1 if len(reports) > 2 else 0]
        if reports[-1] - half > growth:
            print(f"FAIL: RSS grew {reports[-1] - half:.1f} MiB in the second half")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
