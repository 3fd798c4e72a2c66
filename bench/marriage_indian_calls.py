"""CPU µs per call of the ``indian`` legal lists' solver functions, on the calls that
seeded random self-play makes (issue 27: a steadier before/after figure than the
self-play rate on a busy machine).

Seeded random legal play (four seats, ``indian`` preset, the deals of
``bench/marriage_selfplay.py``) records the arguments of every ``meld_steps``,
``show_steps``, finish check (``finishing_discards``: the quick no, then the search) and
its quick no alone (``_quick_no``) call; then each function is timed on its recorded
calls, back to back, best of ``rounds`` passes (memos warm, as in play within a deal,
but the finish check's memo of answers emptied before each pass, so that the searches
run). The digests of the lists and of the finish check must be equal between trees;
the quick no's may differ where a tree's refuses fewer holdings (it only spares a
search: the search answers). Run:
``python bench/marriage_indian_calls.py [deals] [rounds]``.
"""

from __future__ import annotations

import hashlib
import importlib
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from rami.marriage.game import new_deal
from rami.marriage.solver_indian import _DROPS_MEMO

RULES = {"preset": "indian", "max_turns": 400}
#: function name -> module that defines it (the one timed)
TIMED = {
    "meld_steps": "rami.marriage.meld_options",
    "show_steps": "rami.marriage.meld_options",
    "_quick_no": "rami.marriage.solver_indian",
    "finishing_discards": "rami.marriage.solver_indian",
}


def _frozen(name: str, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """A copy of a call's arguments that later play cannot change."""
    hand = list(args[0])
    if name == "meld_steps":
        return (hand, *args[1:5], tuple(args[5]), {})  # a fresh facts dict of its own
    if name == "show_steps":
        return (hand, *args[1:])
    return (hand, args[1], args[2], [tuple(g) for g in args[3]])


def record(deals: int) -> dict[str, list[tuple[Any, ...]]]:
    """Play ``deals`` seeded deals, recording the calls of the functions of ``TIMED``
    (wrapped wherever a loaded ``rami.marriage`` module holds them)."""
    calls: dict[str, list[tuple[Any, ...]]] = {name: [] for name in TIMED}
    undo: list[tuple[Any, str, Any]] = []
    for name, source in TIMED.items():
        original = getattr(importlib.import_module(source), name)

        def wrapped(*args: Any, _f: Callable[..., Any] = original, _n: str = name) -> Any:
            calls[_n].append(_frozen(_n, args))
            return _f(*args)

        for module in list(sys.modules.values()):
            mod_name = getattr(module, "__name__", "")
            if mod_name.startswith("rami.marriage") and getattr(module, name, None) is original:
                undo.append((module, name, original))
                setattr(module, name, wrapped)
    try:
        rng = random.Random(2024)
        for seed in range(deals):
            state = new_deal(RULES, 4, seed, dealer=seed % 4)
            while not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
    finally:
        for module, name, original in undo:
            setattr(module, name, original)
    return calls


def main() -> int:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 150
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    calls = record(deals)
    print(f"indian solver calls of {deals} seeded random deals (CPU µs a call, best of {rounds}):")
    for name, source in TIMED.items():
        f = getattr(importlib.import_module(source), name)
        recorded = calls[name]
        if not recorded:
            print(f"  {name:20s} no calls")
            continue
        best = float("inf")
        answers: list[object] = []
        for _ in range(rounds):
            _DROPS_MEMO.clear()
            start = time.thread_time()
            answers = [f(*args) for args in recorded]
            best = min(best, time.thread_time() - start)
        digest = hashlib.sha256(repr(answers).encode()).hexdigest()[:12]
        print(
            f"  {name:20s} {best / len(recorded) * 1e6:8.2f} µs a call "
            f"({len(recorded):,} calls; digest {digest})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
