"""Memory and GC pauses over many deals of every game and preset: the RSS stays flat.

Plays seeded random legal deals of each preset (Tunisian ``1v1``, ``ffa`` and ``2v2``
capped at 200 turns, as ``bench/tunisian_selfplay.py``; Marriage ``nepali`` and ``indian``,
four players, capped at 400 turns, as ``bench/marriage_selfplay.py``), each preset in a
process of its own, so that each one's RSS is its own. In Marriage, each turn of a player
who has seen, one time in twenty, also asks the N-3 hint count of that holding as the
hints ask it in play (``missing_at_least``: exact for nepali, bounded work for indian);
``--exact-hints`` asks the exact count (``missing``) instead, whose indian search keeps
its failed states for the call: a rare long search sets a higher high-water mark of the
heap, which the RSS keeps (issue 27).

Prints, every ``step`` deals, the resident set size, the entries of every registered memo
(``rami.memo.total_entries``) against what the memory budget allows
(``rami.memo.capacity``) and their weighed MiB (``rami.memo.weighed_bytes``), the memo
stores per deal since the last report (the misses:
what a smaller budget costs), the objects the cyclic GC tracks, the live blocks of the
object allocator (``sys.getallocatedblocks``) and the longest GC pass
(wall and CPU time: on a busy machine the wall time also counts other work), of any
generation and of the full (oldest) ones (maxima only: the bench keeps nothing per
pass or per deal, so its own memory stays flat). Then, per preset, the spread of the RSS from
``--settle`` deals on (default: half the deals; 5,000 with ``--full``). It fails (exit 1)
if the memos ever held more entries than the budget allows, or, with ``--full`` or
``--settle``, if that spread exceeds ``--flat`` MiB (default 10, the aim of issue 27),
and prints PASS per preset and in all when it does not.

The default run is short (1,000 deals a preset: ``make bench``; the tables are still
filling, so the RSS is not flat yet); ``--full`` plays 30,000 deals a preset and reports
every 5,000 (tens of minutes of CPU for indian; the issue's measure).
``RAMI_MEMO_MB`` sets the memory budget of the solver caches (``rami.memo.set_budget``).
``--freeze`` calls ``rami.memo.freeze_collector`` after start-up, as the long-running
processes do. ``--full`` runs at niceness 10 (``--nice N`` sets it): the issue's check,
RSS within 10 MiB from 5,000 to 30,000 deals in every preset, is
``python bench/solver_memory.py --full`` (about half an hour of CPU in all).

Run: ``python bench/solver_memory.py [deals] [step] [--full] [--preset NAME ...]``.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rami.engine import GameState

#: name -> (game, preset, players)
PRESETS: dict[str, tuple[str, str, int]] = {
    "tunisian-1v1": ("tunisian", "1v1", 2),
    "tunisian-ffa": ("tunisian", "ffa", 4),
    "tunisian-2v2": ("tunisian", "2v2", 4),
    "marriage-nepali": ("marriage", "nepali", 4),
    "marriage-indian": ("marriage", "indian", 4),
}


def rss_mib() -> float:
    """The current resident set size (Linux ``/proc``), in MiB."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def memo_entries() -> int:
    from rami.memo import total_entries

    return total_entries()


def weighed_mib() -> float:
    """MiB the registered memos hold, weighed (an older tree: not measured, 0)."""
    from rami import memo

    return memo.weighed_bytes() / 2**20 if hasattr(memo, "weighed_bytes") else 0.0


def capacity() -> int:
    """Entries the named memos may hold under the budget (an older tree: no bound)."""
    from rami import memo

    return memo.capacity() if hasattr(memo, "capacity") else 1 << 62


def memo_stores() -> int:
    """Stores into the registered memos so far."""
    from rami.memo import registered

    return sum(getattr(m, "stores", 0) for m in registered())


def budget_text() -> str:
    from rami import memo

    if not hasattr(memo, "capacity"):  # an older tree: no memory budget in MiB
        return f"memo budget {memo.BUDGET.limit:,} shared entries + {memo.reserved():,} reserved"
    return (
        f"memo budget {memo.budget_mib():g} MiB: {memo.BUDGET.limit:,} shared entries + "
        f"{memo.reserved():,} reserved = {memo.capacity():,}"
    )


def tables_text() -> str:
    """The largest registered memos, with their generations so far."""
    from rami.memo import registered

    memos = sorted(registered(), key=len, reverse=True)[:8]
    return "largest memos: " + ", ".join(
        f"{m.name} {len(m):,} ({getattr(m, 'generations', 0)} gen.)" for m in memos
    )


def dealer(game: str, preset: str, players: int) -> Callable[[int], GameState]:
    """A seeded new deal of ``preset`` (turns capped) by its seed."""
    if game == "tunisian":
        from rami.tunisian.game import new_deal as tunisian_deal
        from rami.tunisian.rules import rules_from

        rules: Any = replace(rules_from(preset), max_turns=200)
        return lambda seed: tunisian_deal(rules, players, seed, dealer=seed % players)
    from rami.marriage.game import new_deal as marriage_deal

    doc = {"preset": preset, "max_turns": 400}
    return lambda seed: marriage_deal(doc, players, seed, dealer=seed % players)


def hint(state: Any, rng: random.Random, exact: bool = False) -> None:
    """The N-3 hint count of the seat to move, one turn in twenty (once it has seen), as
    the hints ask it (``missing_at_least``), or exact (``missing``)."""
    from rami.cards import counts, parse_card, parse_cards
    from rami.marriage.solver import missing, missing_at_least

    if rng.random() >= 0.05:  # drawn first: the view is built only when it is asked
        return
    seat = state.to_move
    view = state.view(seat)
    me = view["seats"][seat] if seat is not None else {}
    if me.get("seen") and view.get("tiplu"):
        hand = parse_cards(" ".join(view["hand"]))
        shown = [parse_cards(" ".join(m)) for m in me.get("melds") or []]
        if len(hand) + sum(len(m) for m in shown) == 22 and me.get("path") != "dublees":
            ask = missing if exact else missing_at_least
            ask(counts(hand), state.rules, parse_card(view["tiplu"]), shown)


class GcPauses:
    """The longest GC passes so far (a ``gc.callbacks`` hook): wall ms (what a player
    waits, but other work adds to it), CPU ms of this thread (the pass itself) and CPU
    ms of the passes over the oldest generation.

    Maxima only, in constant memory: a list of every pass (a few passes a deal, two
    floats each) grew about 0.2 KiB a deal, long-lived floats spread among the memos'
    entries in the allocator's arenas, which the RSS counted against the engine
    (nepali: about 6 MiB over 30,000 deals, issue 27).
    """

    __slots__ = ("_started", "cpu", "full", "wall")

    def __init__(self) -> None:
        self.wall = 0.0
        self.cpu = 0.0
        self.full = 0.0
        self._started: list[tuple[float, float]] = []  # passes under way (one, or none)

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started.append((time.perf_counter(), time.thread_time()))
        elif self._started:
            wall, cpu = self._started.pop()
            wall = (time.perf_counter() - wall) * 1e3
            cpu = (time.thread_time() - cpu) * 1e3
            self.wall = max(self.wall, wall)
            self.cpu = max(self.cpu, cpu)
            if info.get("generation") == 2:
                self.full = max(self.full, cpu)


def run_one(
    name: str, deals: int, step: int, settle: int, flat: float | None, freeze: bool, exact: bool
) -> int:
    """Play ``deals`` deals of one preset in this process, reporting every ``step``."""
    game, preset, players = PRESETS[name]
    pauses = GcPauses()

    deal = dealer(game, preset, players)
    if game == "marriage":
        import rami.marriage.solver  # noqa: F401  (its memos are registered at start-up)
    if freeze:
        from rami.memo import freeze_collector

        freeze_collector()
    print(f"{name}: {budget_text()}, RSS at start {rss_mib():.1f} MiB", flush=True)
    gc.callbacks.append(pauses.on_gc)
    rng = random.Random(7)
    reports: list[tuple[int, float]] = []  # (deals, RSS MiB)
    over = 0  # reports with more memo entries than the budget allows
    stores = memo_stores()
    cpu = time.process_time()
    for seed in range(deals):
        state = deal(seed)
        while not state.is_over:
            legal = state.legal_actions()
            if game == "marriage":
                hint(state, rng, exact)
            state.apply(rng.choice(legal))
        if (seed + 1) % step == 0:
            reports.append((seed + 1, rss_mib()))
            now = memo_stores()
            over += memo_entries() > capacity()
            print(
                f"{name} after {seed + 1:6} deals: RSS {reports[-1][1]:6.1f} MiB, "
                f"memo entries {memo_entries():8,} ({weighed_mib():5.1f} MiB), "
                f"stores/deal {(now - stores) / step:6.0f}, "
                f"GC tracks {len(gc.get_objects()):7,}, live blocks {sys.getallocatedblocks():9,}, "
                "longest GC pass "
                f"{pauses.wall:5.1f} ms ({pauses.cpu:5.1f} ms CPU, full {pauses.full:5.1f}), "
                f"{time.process_time() - cpu:6.1f} s CPU",
                flush=True,
            )
            stores = now
    gc.callbacks.remove(pauses.on_gc)
    print(f"{name} {tables_text()}")
    settled = [r for d, r in reports if d >= settle] or [reports[-1][1]]
    spread = max(settled) - min(settled)
    aim = f" (aim: {flat:g} or less)" if flat is not None else ""
    print(
        f"{name}: RSS from {settle:,} deals on: {min(settled):.1f} to {max(settled):.1f} MiB, "
        f"spread {spread:.1f} MiB{aim}"
    )
    if over:
        print(f"FAIL: {name}: the memos held more entries than the budget allows")
        return 1
    if flat is not None and spread > flat:
        print(f"FAIL: {name}: RSS varied {spread:.1f} MiB after {settle:,} deals")
        return 1
    if flat is not None:
        print(f"PASS: {name}: RSS within {flat:g} MiB from {settle:,} deals on ({spread:.1f})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description="solver memory over many deals")
    parser.add_argument("deals", nargs="?", type=int, default=0, help="deals a preset")
    parser.add_argument("step", nargs="?", type=int, default=0, help="deals between samples")
    parser.add_argument("--full", action="store_true", help="30,000 deals a preset")
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS), default=[])
    parser.add_argument("--settle", type=int, default=0, help="deals before the RSS is flat")
    parser.add_argument("--flat", type=float, default=None, help="MiB the RSS may vary")
    parser.add_argument("--freeze", action="store_true", help="freeze the collector first")
    parser.add_argument("--exact-hints", action="store_true", help="exact N-3 counts (missing)")
    parser.add_argument("--nice", type=int, default=None, help="niceness (--full: 10)")
    parser.add_argument("--one", choices=sorted(PRESETS), help=argparse.SUPPRESS)
    opts = parser.parse_args()
    deals = opts.deals or (30_000 if opts.full else 1_000)
    step = opts.step or (5_000 if opts.full else max(1, deals // 5))
    settle = opts.settle or (5_000 if opts.full else deals // 2)
    flat = opts.flat
    if flat is None and (opts.full or opts.settle):
        flat = 10.0
    elif flat is not None and flat < 0:
        flat = None
    if opts.one:
        return run_one(opts.one, deals, step, settle, flat, opts.freeze, opts.exact_hints)
    niceness = opts.nice if opts.nice is not None else 10 * opts.full
    if niceness > 0:  # the long run yields to other work (the presets' runs inherit it)
        os.nice(niceness)
    failed = []
    for name in opts.preset or list(PRESETS):
        args = [str(deals), str(step), "--settle", str(settle)]
        args += ["--flat", str(-1.0 if flat is None else flat)]  # negative: no aim
        args += ["--freeze"] * opts.freeze + ["--exact-hints"] * opts.exact_hints
        code = subprocess.call([sys.executable, __file__, *args, "--one", name])
        if code:
            failed.append(name)
    if failed:
        print(f"FAIL: RSS not flat in {', '.join(failed)}")
        return 1
    if flat is not None:
        print(f"PASS: RSS within {flat:g} MiB in {', '.join(opts.preset or list(PRESETS))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
