"""The shared memo budget bounds bytes, not only entries (issue 27: RSS flat in Marriage).

Indian memo entries weigh about 250-400 bytes against the 160 (``ENTRY_BYTES``) a budget
in MiB assumed, so a budget counting entries only let an indian process's tables take
about twice their share. The budget now weighs a sample of every table's entries.
"""

from __future__ import annotations

import sys
import threading

from rami import memo as memos
from rami.memo import ENTRY_BYTES, GenerationMemo, MemoBudget


def _bytes(memo: GenerationMemo[int, tuple[int, ...]]) -> int:
    """The table's keys and values, measured here independently of ``rami.memo``."""
    return sum(
        sys.getsizeof(k) + sys.getsizeof(v) + sum(sys.getsizeof(x) for x in v)
        for k, v in memo.table.items()
    )


def test_heavy_entries_stay_under_the_budget_in_bytes() -> None:
    own = MemoBudget(200)  # 200 entries of ENTRY_BYTES: 32,000 bytes
    heavy: GenerationMemo[int, tuple[int, ...]] = GenerationMemo(10_000)
    light: GenerationMemo[int, tuple[int, ...]] = GenerationMemo(10_000)
    own.members += [heavy, light]
    highest = 0
    for k in range(1_000):
        heavy.remember(1000 + k, tuple(range(1000 + k, 1020 + k)))  # about 880 bytes
        light.remember(1000 + k, ())
        own.writes += 2
        if own.writes >= own.check:
            own.settle()
        highest = max(highest, _bytes(heavy) + _bytes(light))
    limit_bytes = 200 * ENTRY_BYTES
    assert highest <= limit_bytes + 2 * own.check * 900
    assert len(heavy) < 50 and own.evictions > 0
    assert own.weight() <= limit_bytes


def test_an_entry_weighs_its_containers_and_their_items() -> None:
    entry_size = memos.entry_size
    key = (1000, 2000)
    value = (3000, (4000, 5000), 7)  # 7: an int the interpreter shares
    assert entry_size(key, value) == (
        sys.getsizeof(key)
        + 2 * sys.getsizeof(1000)
        + sys.getsizeof(value)
        + sys.getsizeof(value[1])
        + 3 * sys.getsizeof(3000)
    )
    memo: GenerationMemo[tuple[int, int], tuple[object, ...]] = GenerationMemo(100)
    assert memo.measure() == ENTRY_BYTES  # nothing to weigh yet
    memo.remember(key, value)
    assert memo.measure() >= entry_size(key, value)


def test_a_pinned_table_does_not_keep_the_budget_starting_it_over() -> None:
    """A pinned table (``freeze_collector``) keeps one tracked entry after a new
    generation; with heavy entries and a tight budget that entry alone is over the byte
    bound, and ``settle`` once started the table over forever (a hang found in CI)."""
    own = MemoBudget(1)
    pinned: GenerationMemo[int, tuple[int, ...]] = GenerationMemo(10_000)
    own.members.append(pinned)
    pinned.pin()
    for k in range(40):
        pinned.remember(1000 + k, tuple(range(1000 + k, 1100 + k)))  # about 3,600 bytes
    pinned.measure()
    settling = threading.Thread(target=own.settle, daemon=True)
    settling.start()
    settling.join(timeout=10)
    assert not settling.is_alive(), "settle never returned"  # only the pinned entry is left
    assert pinned.droppable() == 0 and len(pinned.table) == 1


def test_the_weighing_sample_reaches_the_newest_entries() -> None:
    """Weighed from the oldest and the newest entries: a table whose later entries are
    heavier (nepali cover memos keyed by larger holdings) is not weighed by its first
    ones alone (issue 27)."""
    memo: GenerationMemo[int, tuple[int, ...]] = GenerationMemo(10_000)
    for k in range(1000, 1100):
        memo.remember(k, ())
    light = memo.measure()
    for k in range(2000, 2100):
        memo.remember(k, tuple(range(k, k + 40)))  # about 1,600 bytes
    assert memo.measure() > light + 500


def test_giving_room_drops_the_oldest_half_and_keeps_base_and_pin() -> None:
    """``drop_oldest`` keeps the base entries, a pinned table's pin and the newest half."""
    memo: GenerationMemo[int, int] = GenerationMemo(10_000, {-1: 0, -2: 0})
    memo.pin()
    for k in range(100):
        memo.remember(k, k)
    memo.drop_oldest()
    kept = [k for k in memo.table if isinstance(k, int)]
    assert kept == [-1, -2, *range(50, 100)] and memos.stored(memo.table) == 52
    while memo.droppable() > 0:
        memo.drop_oldest()
    assert memos.stored(memo.table) == 2 and memo.droppable() == 0


def test_the_weighing_sample_spreads_over_the_whole_table() -> None:
    """Weighed from entries spread evenly, not the two ends alone: heavy entries in the
    middle of a table are seen (an estimate off by chance let the tables overshoot the
    budget, and the RSS keeps the highest overshoot: issue 27, nepali)."""
    memo: GenerationMemo[int, tuple[int, ...]] = GenerationMemo(10_000)
    for k in range(1000, 1300):
        memo.remember(k, ())
    light = memo.measure()
    for k in range(2000, 2400):
        memo.remember(k, tuple(range(k, k + 40)))  # about 1,600 bytes
    for k in range(3000, 3300):
        memo.remember(k, ())
    assert memo.measure() > light + 400  # 40% of the entries add about 1,600 bytes each


def test_a_budget_check_that_drops_entries_releases_the_heap(monkeypatch: object) -> None:
    """After dropping entries the budget gives the C heap's free pages back
    (``release_memory``: glibc's ``malloc_trim(0)``, nothing elsewhere); a check that
    drops nothing does not."""
    calls: list[int] = []
    saved = list(memos._TRIM)
    memos._TRIM[:] = [lambda: calls.append(1)]
    try:
        own = MemoBudget(100)
        table: GenerationMemo[int, int] = GenerationMemo(10_000)
        own.members.append(table)
        for k in range(50):
            table.table[k] = k
        own.settle()
        assert calls == []
        for k in range(50, 200):
            table.table[k] = k
        own.settle()
        assert calls == [1] and len(table) <= 100
    finally:
        memos._TRIM[:] = saved
    memos.release_memory()  # the real one: harmless wherever it runs
