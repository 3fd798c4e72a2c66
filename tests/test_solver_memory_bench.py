"""The memory bench measures the engine, not itself (``bench/solver_memory.py``, issue 27).

Its GC hook kept every pass's wall and CPU time in lists: a few passes a deal, about
0.2 KiB a deal that the RSS over 30,000 deals counted against the engine. It keeps the
longest passes only (``GcPauses``), in constant memory.
"""

from __future__ import annotations

import gc
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parent.parent / "bench" / "solver_memory.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("solver_memory_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gc_pauses_keep_the_longest_passes_in_constant_memory() -> None:
    pauses = _bench().GcPauses()
    gc.callbacks.append(pauses.on_gc)
    try:
        gc.collect(0)  # settle first
        blocks = sys.getallocatedblocks()
        for _ in range(3000):
            gc.collect(0)
        grown = sys.getallocatedblocks() - blocks
        gc.collect()  # one full pass
    finally:
        gc.callbacks.remove(pauses.on_gc)
    # a list of every pass held two floats a pass: 6,000 blocks and more
    assert grown < 1000, grown
    assert pauses.wall > 0
    assert pauses.full > 0 and pauses.cpu >= pauses.full
