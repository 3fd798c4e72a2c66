"""Memory and GC pauses over many Marriage deals: the solver memos stay bounded.

Plays seeded random legal deals (``nepali``, four players, as
``bench/marriage_selfplay.py``) and, each turn of a player who has seen, the
finish check and the N-3 hint count of that player's holding: what the engine and
the hints ask in play. Prints, every ``step`` deals, the resident set size, the entries of
every registered memo (``rami.memo.total_entries``, against the budget), the memo stores
per deal since the last report (the misses: what a smaller budget costs), the objects
the cyclic GC tracks and the longest GC pass (wall and CPU time: on a busy machine the
wall time also counts other work), of any generation and of the full (oldest) ones.
Then the plateau: the first report from which the RSS stays within ``--flat`` MiB
(default 4) of the last. Fails (exit 1) if the RSS of the last report exceeds the one
nearest half-way by more than ``--growth`` MiB (default 8). ``--freeze`` calls
``rami.memo.freeze_collector`` after start-up, as the long-running processes do.
Run: ``python bench/solver_memory.py [deals] [step] [--growth MiB] [--freeze]``.
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
        from rami.memo import total_entries
    except ImportError:  # an older tree: count the cover module's dicts
        from rami.marriage import cover

        return sum(len(v) for k, v in vars(cover).items() if k.isupper() and isinstance(v, dict))
    return total_entries()


def memo_stores() -> int:
    """Stores into the registered memos so far (0 on an older tree)."""
    try:
        from rami.memo import registered
    except ImportError:
        return 0
    return sum(getattr(m, "stores", 0) for m in registered())


def budget_text() -> str:
    try:
        from rami.memo import BUDGET, reserved
    except ImportError:
        return "no memo budget (an older tree)"
    return f"memo budget {BUDGET.limit:,} shared entries + {reserved():,} reserved elsewhere"


def tables_text() -> str:
    """The largest registered memos, with their generations so far."""
    try:
        from rami.memo import registered
    except ImportError:
        return ""
    memos = sorted(registered(), key=len, reverse=True)[:8]
    return "largest memos: " + ", ".join(
        f"{m.name} {len(m):,} ({getattr(m, 'generations', 0)} gen.)" for m in memos
    )


def main() -> int:
    parser = argparse.ArgumentParser(description="solver memory over many deals")
    parser.add_argument("deals", nargs="?", type=int, default=1000)
    parser.add_argument("step", nargs="?", type=int, default=0, help="deals between samples")
    parser.add_argument("--growth", type=float, default=8.0, help="MiB allowed to grow")
    parser.add_argument("--flat", type=float, default=4.0, help="MiB a plateau may vary")
    parser.add_argument("--freeze", action="store_true", help="freeze the collector first")
    opts = parser.parse_args()
    deals, growth = opts.deals, opts.growth
    step = opts.step or max(1, deals // 6)
    pauses: list[float] = []  # wall ms: what a player waits, but other work adds to it
    cpu_pauses: list[float] = []  # CPU ms of this thread: the pass itself
    full_pauses: list[float] = []  # CPU ms of the passes over the oldest generation
    started: list[tuple[float, float]] = []

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started.append((time.perf_counter(), time.thread_time()))
        elif started:
            wall, cpu = started.pop()
            pauses.append((time.perf_counter() - wall) * 1e3)
            cpu_pauses.append((time.thread_time() - cpu) * 1e3)
            if info.get("generation") == 2:
                full_pauses.append(cpu_pauses[-1])

    from rami.cards import counts, parse_card, parse_cards
    from rami.marriage.solver import missing

    if opts.freeze:
        from rami.memo import freeze_collector

        freeze_collector()
    print(budget_text())
    gc.callbacks.append(on_gc)

    rng = random.Random(7)
    reports: list[tuple[int, float]] = []  # (deals, RSS MiB)
    stores = memo_stores()
    start = time.perf_counter()
    for seed in range(deals):
        state = new_deal(RULES, 4, seed, dealer=seed % 4)
        while not state.is_over:
            seat = state.to_move
            legal = state.legal_actions()
            view = state.view(seat)
            me = view["seats"][seat] if seat is not None else {}
            if me.get("seen") and view.get("tiplu") and rng.random() < 0.05:
                hand = parse_cards(" ".join(view["hand"]))
                shown = [parse_cards(" ".join(m)) for m in me.get("melds") or []]
                if len(hand) + sum(len(m) for m in shown) == 22 and me.get("path") != "dublees":
                    missing(counts(hand), state.rules, parse_card(view["tiplu"]), shown)
            state.apply(rng.choice(legal))
        if (seed + 1) % step == 0:
            reports.append((seed + 1, rss_mib()))
            now = memo_stores()
            print(
                f"after {seed + 1:6} deals: RSS {reports[-1][1]:6.1f} MiB, "
                f"memo entries {memo_entries():8,}, stores/deal {(now - stores) / step:6.0f}, "
                f"GC tracks {len(gc.get_objects()):7,}, longest GC pass "
                f"{max(pauses, default=0.0):5.1f} ms ({max(cpu_pauses, default=0.0):5.1f} ms CPU,"
                f" full {max(full_pauses, default=0.0):5.1f}), {time.perf_counter() - start:6.1f} s"
            )
            stores = now
    gc.callbacks.remove(on_gc)
    print(tables_text())
    if len(reports) < 2:
        return 0
    last = reports[-1][1]
    flat = next(i for i in range(len(reports)) if all(abs(r - last) <= opts.flat
                                                      for _, r in reports[i:]))  # fmt: skip
    print(
        f"plateau: RSS within {opts.flat:g} MiB of the last ({last:.1f} MiB) from "
        f"{reports[flat][0]:,} deals on; highest {max(r for _, r in reports):.1f} MiB"
    )
    half_deals, half = min(reports[:-1], key=lambda r: abs(r[0] - reports[-1][0] / 2))
    print(f"RSS at the end minus at {half_deals:,} deals: {last - half:+.1f} MiB")
    if last - half > growth:
        print(f"FAIL: RSS grew {last - half:.1f} MiB in the second half (over {growth:g})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
