"""Median time of the Marriage finish check and of the N-3 missing count.

Holdings are seeded random *near-winning* ``nepali`` holdings of 22 cards: seven
melds (three of them natural show melds, the other four any valid melds with the
deal's wild cards) plus one card, and in half of them one or two cards swapped for
random ones. Copies respect the decks and the tiplu taken out of play.

- finish check, three melds shown: ``finish_discards`` on the 13 cards in hand (what
  the engine asks each turn of a player who has seen);
- finish check, nothing shown: ``show_finish_discards`` on the 22 cards (show three
  melds and finish in the same turn, M-8), and ``finish_discards`` with nothing shown
  (seven melds, no show required);
- ``missing`` (N-3) on both kinds of holdings (fewer samples);
- ``missing`` with ``--rules indian`` (melds of three or more) on uniformly random
  22-card holdings with nothing on the table (fewer still: tens of milliseconds each).

The median lines give p90, p99 and max too. Then the tail table: median, p99 and max
per hand class (``random`` 22 cards, ``near`` winning, ``dense`` two-suit holdings with
2–6 wild cards), for ``nepali`` and ``indian``, *cold* (every memo emptied before
each call, as the first hint of a new hand or a search-bot sample) and *warm* (memos
shared, as in play). Calls over ``--cap`` seconds are stopped and counted at the cap
(printed with ``≥``). The bench runs on older trees too (it falls back to what they
have), for before/after tables.
Exits 1 if a call fails or a listed discard has no arrangement.
Run: ``python bench/marriage_solver.py [holdings] [missing] [indian] [tail]
[--cap S] [--tail-only] [--classes random,near,dense]``.
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from rami.cards import CARDS, Card, counts
from rami.marriage.melds import is_meld, is_show_meld, wild_kinds
from rami.marriage.rules import INDIAN, NEPALI
from rami.marriage.solver import finish_discards, missing, show_finish_discards

Holding = tuple[Card, list[int], list[list[int]]]  # tiplu, cards in hand, shown melds


def _meld(rng: random.Random, wilds: frozenset[int], show: bool) -> list[int]:
    while True:
        kind = rng.random()
        suit = rng.randrange(4)
        if kind < 0.4:
            start = rng.randrange(12)
            ranks = [(start + i) % 13 for i in range(3)] if start < 11 else [11, 12, 0]
            cards = [suit * 13 + r for r in ranks]
        elif kind < 0.5:
            cards = [rng.randrange(52)] * 3
        elif kind < 0.65:
            rank = rng.randrange(13)
            cards = [s * 13 + rank for s in rng.sample(range(4), 3)]
        elif kind < 0.85 and wilds:
            start = rng.randrange(11)
            cards = [suit * 13 + start + i for i in range(3)]
            cards[rng.randrange(3)] = rng.choice(sorted(wilds))
        else:
            cards = [rng.randrange(52) for _ in range(3)]
        if show and is_show_meld(cards, NEPALI):
            return cards
        if not show and is_meld(cards, NEPALI, wilds):
            return cards


def holdings(n: int, seed: int) -> list[Holding]:
    """Near-winning holdings: seven melds and a card, half of them with 1-2 swaps."""
    rng = random.Random(f"marriage-solver:{seed}")
    out: list[Holding] = []
    while len(out) < n:
        tiplu = CARDS[rng.randrange(52)]
        wilds = wild_kinds(tiplu)
        shown = [_meld(rng, wilds, True) for _ in range(3)]
        hand = [c for _ in range(4) for c in _meld(rng, wilds, False)]
        hand.append(rng.randrange(52))
        if rng.random() < 0.5:
            for _ in range(rng.randint(1, 2)):
                hand[rng.randrange(len(hand))] = rng.randrange(52)
        vec = counts(hand + [c for m in shown for c in m])
        if max(vec) > 3 or vec[tiplu] > 2:
            continue
        out.append((tiplu, hand, shown))
    return out


def indian_holdings(n: int, seed: int) -> list[tuple[Card, list[int]]]:
    """Uniformly random 22-card holdings (copies within the decks, tiplu out of play)."""
    rng = random.Random(f"marriage-indian:{seed}")
    out: list[tuple[Card, list[int]]] = []
    while len(out) < n:
        tiplu = CARDS[rng.randrange(52)]
        vec = counts([rng.randrange(52) for _ in range(22)])
        if max(vec) <= 3 and vec[tiplu] <= 2:
            out.append((tiplu, vec))
    return out


class Timeout(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise Timeout


def timed(
    calls: Sequence[Callable[[], object]],
    cap: float = 0.0,
    before: Callable[[], object] | None = None,
) -> list[float]:
    """CPU microseconds per call (this thread's CPU time: steady while other work
    shares the machine); a call over ``cap`` wall seconds (if set) is stopped and
    counts as the cap. ``before`` runs ahead of each call, untimed (the memo reset of
    the cold figures)."""
    times = []
    if cap:
        signal.signal(signal.SIGALRM, _alarm)
    for call in calls:
        if before is not None:
            before()
        t0 = time.thread_time()
        if cap:
            signal.setitimer(signal.ITIMER_REAL, cap)
        try:
            call()
        except Timeout:
            times.append(cap * 1e6)
            continue
        finally:
            if cap:
                signal.setitimer(signal.ITIMER_REAL, 0)
        times.append((time.thread_time() - t0) * 1e6)
    return times


def report(label: str, times: list[float]) -> None:
    p90 = statistics.quantiles(times, n=10)[8]
    p99 = sorted(times)[min(len(times) - 1, int(len(times) * 0.99))]
    print(
        f"{label}: median {statistics.median(times):.0f} µs, p90 {p90:.0f} µs,"
        f" p99 {p99:.0f} µs, max {max(times):.0f} µs ({len(times)} holdings)"
    )


# ------------------------------------------------------------------ the tail table


def dense_holdings(n: int, seed: int) -> list[tuple[Card, list[int]]]:
    """Dense two-suit 22-card holdings with 2–6 wild cards (the hard class)."""
    rng = random.Random(f"marriage-dense:{seed}")
    out: list[tuple[Card, list[int]]] = []
    while len(out) < n:
        tiplu = CARDS[rng.randrange(52)]
        wl = sorted(wild_kinds(tiplu))
        suits = rng.sample(range(4), 2)
        cards = [rng.choice(wl) for _ in range(rng.randint(2, 6))]
        while len(cards) < 22:
            s = suits[0] if rng.random() < 0.7 else suits[1]
            cards.append(s * 13 + rng.randrange(13))
        vec = counts(cards)
        if max(vec) <= 3 and vec[tiplu] <= 2:
            out.append((tiplu, vec))
    return out


def _snapshot() -> list[tuple[dict[Any, Any], dict[Any, Any]]]:
    """The solver modules' memo tables and their entries at start (base entries)."""
    import importlib

    tables = []
    for name in (
        "rami.marriage.cover",
        "rami.marriage.missing",
        "rami.marriage.solver",
        "rami.marriage.solver_indian",
        "rami.marriage.melds",
    ):
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, dict):
                tables.append((value, dict(value)))
            elif isinstance(value, tuple) and value and all(isinstance(v, dict) for v in value):
                tables.extend((v, dict(v)) for v in value)
            elif hasattr(value, "clear") and type(value).__name__ == "BoundedMemo":
                tables.append((value, {}))
            elif type(value).__name__ == "GenerationMemo":
                tables.append((value.table, dict(value.base)))
    return tables


_TABLES: list[tuple[Any, dict[Any, Any]]] = []


def reset_memos() -> None:
    """Empty every solver memo (base entries put back): the cold path."""
    for table, seed in _TABLES:
        table.clear()
        if seed:
            table.update(seed)


def _hint(v: list[int], rules: Any, tiplu: Card) -> object:
    from rami.marriage import solver

    bounded = getattr(solver, "missing_at_least", None)
    if bounded is not None:
        return bounded(v, rules, tiplu, [])
    return missing(v, rules, tiplu, [])


def _analyze(v: list[int], rules: Any, tiplu: Card) -> object:
    from rami.marriage.calculator import analyze

    text = " ".join(str(CARDS[k]) for k in range(52) for _ in range(v[k]))
    return analyze(text, str(tiplu), None, rules.preset_name)


def _seven_melds(v: list[int], rules: Any, tiplu: Card) -> object:
    return finish_discards(v, rules, wild_kinds(tiplu), 0, "melds")


def _tail_ops(preset: str) -> list[tuple[str, Callable[[list[int], Any, Card], object]]]:
    if preset == "nepali":
        return [
            ("finish (show in turn)", lambda v, r, t: show_finish_discards(v, r, wild_kinds(t))),
            (
                "finish (seven melds)",
                lambda v, r, t: finish_discards(v, r, wild_kinds(t), 0, "melds"),
            ),
            ("missing (hint)", _hint),
            ("analyze", _analyze),  # issue 27: every analyze under 100 ms, nepali too
        ]
    return [
        ("finish check", lambda v, r, t: finish_discards(v, r, wild_kinds(t), 0, "melds")),
        ("missing (hint)", _hint),
        ("analyze", _analyze),
    ]


def tail_table(n: int, cap: float, only: Sequence[str] = ()) -> bool:
    """Print the tail table (the classes in ``only``, or all); False if a call raised."""
    global _TABLES
    _TABLES = _TABLES or _snapshot()
    makers: dict[str, Callable[[], list[tuple[Card, list[int]]]]] = {
        "random": lambda: [(t, v) for t, v in indian_holdings(n, 3)],
        "near": lambda: [
            (t, counts(h + [c for m in sh for c in m])) for t, h, sh in holdings(n, 4)
        ],
        "dense": lambda: dense_holdings(n, 5),
    }
    classes = {name: make() for name, make in makers.items() if not only or name in only}
    ok = True
    print(f"\ntail table ({n} holdings per class, cap {cap:g} s; CPU ms per call)")
    print(
        f"{'preset':7} {'class':6} {'operation':22} {'mode':5} {'median':>8} {'p99':>8} {'max':>8}"
    )
    for preset, rules in (("nepali", NEPALI), ("indian", INDIAN)):
        for cls, sample in classes.items():
            for label, op in _tail_ops(preset):
                for mode in ("cold", "warm"):
                    if mode == "warm":
                        reset_memos()

                    def call(
                        v: list[int], t: Card, op: Any = op, rules: Any = rules
                    ) -> Callable[[], object]:
                        return lambda: op(v, rules, t)

                    try:
                        before = reset_memos if mode == "cold" else None
                        times = timed([call(v, t) for t, v in sample], cap, before)
                    except Exception as exc:  # a bench reports and fails
                        print(f"FAIL {preset} {cls} {label}: {exc!r}")
                        ok = False
                        continue
                    ms = sorted(x / 1e3 for x in times)
                    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
                    top = ms[-1]
                    mark = "≥" if cap and top >= cap * 1e3 else " "
                    print(
                        f"{preset:7} {cls:6} {label:22} {mode:5} {statistics.median(ms):8.2f} "
                        f"{p99:8.2f} {mark}{top:7.1f}"
                    )
    return ok


def check_arrangements(n: int) -> bool:
    """Every listed indian discard has an arrangement (find_finish)."""
    from rami.marriage.solver import find_finish

    for t, v in dense_holdings(n, 6):
        w = wild_kinds(t)
        for d in finish_discards(v, INDIAN, w, 0, "melds"):
            if find_finish(v, INDIAN, w, 0, "melds", d) is None:
                print(f"FAIL: {t} {v}: discard {d} listed but no arrangement")
                return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description="Marriage solver medians and tail table")
    parser.add_argument("finish", nargs="?", type=int, default=10_000, help="finish holdings")
    parser.add_argument("missing", nargs="?", type=int, default=1_000, help="missing holdings")
    parser.add_argument("indian", nargs="?", type=int, default=100, help="indian holdings")
    parser.add_argument("tail", nargs="?", type=int, default=100, help="tail holdings a class")
    parser.add_argument("--cap", type=float, default=0.0, help="seconds a call, 0: no cap")
    parser.add_argument("--classes", default="", help="comma-separated classes of the table")
    parser.add_argument("--tail-only", action="store_true")
    opts = parser.parse_args()
    n, n_missing, n_indian, n_tail = opts.finish, opts.missing, opts.indian, opts.tail
    cap, only = opts.cap, [c for c in opts.classes.split(",") if c]
    global _TABLES
    _TABLES = _snapshot()  # before any call: the base entries, not what medians add
    if not opts.tail_only:
        medians(n, n_missing, n_indian)
    ok = tail_table(n_tail, cap, only)
    ok = check_arrangements(10) and ok
    return 0 if ok else 1


def medians(n: int, n_missing: int, n_indian: int) -> None:
    """The median figures (memos shared across calls, as in play)."""
    sample = holdings(n, 1)
    shown3 = [(counts(hand), wild_kinds(t)) for t, hand, _ in sample]
    whole = [(counts(hand + [c for m in sh for c in m]), wild_kinds(t)) for t, hand, sh in sample]

    def check3(v: list[int], w: frozenset[int]) -> Callable[[], object]:
        return lambda: finish_discards(v, NEPALI, w, 3, "melds")

    def check0(v: list[int], w: frozenset[int]) -> Callable[[], object]:
        return lambda: finish_discards(v, NEPALI, w, 0, "melds")

    def show0(v: list[int], w: frozenset[int]) -> Callable[[], object]:
        return lambda: show_finish_discards(v, NEPALI, w)

    report("finish check, 3 melds shown", timed([check3(v, w) for v, w in shown3]))
    report("finish check, nothing shown (show in turn)", timed([show0(v, w) for v, w in whole]))
    report("finish check, 7 melds, no show needed", timed([check0(v, w) for v, w in whole]))
    # cold: every memo emptied before each call (the first check of a new hand)
    cold = sample[: max(1, n // 5)]
    report(
        "finish check, 3 melds shown, cold",
        timed([check3(counts(h), wild_kinds(t)) for t, h, _ in cold], before=reset_memos),
    )
    report(
        "finish check, 7 melds, no show needed, cold",
        timed(
            [check0(counts(h + [c for m in sh for c in m]), wild_kinds(t)) for t, h, sh in cold],
            before=reset_memos,
        ),
    )

    few = sample[:n_missing]

    def miss3(t: Card, hand: list[int], sh: list[list[int]]) -> Callable[[], object]:
        v = counts(hand)
        return lambda: missing(v, NEPALI, t, sh)

    def miss0(t: Card, hand: list[int], sh: list[list[int]]) -> Callable[[], object]:
        v = counts(hand + [c for m in sh for c in m])
        return lambda: missing(v, NEPALI, t, [])

    if few:
        report("missing, 3 melds shown", timed([miss3(*h) for h in few]))
        report("missing, nothing shown", timed([miss0(*h) for h in few]))

    def indian(t: Card, v: list[int]) -> Callable[[], object]:
        return lambda: missing(v, INDIAN, t, [])

    if n_indian:
        report(
            "missing, indian, nothing on the table",
            timed([indian(*h) for h in indian_holdings(n_indian, 1)]),
        )


if __name__ == "__main__":
    sys.exit(main())
