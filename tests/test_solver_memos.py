"""Bounded solver memos (``rami.memo``, the generations of ``rami.marriage.cover``)."""

from __future__ import annotations

import gc
import random
import threading

import pytest

from rami.cards import CARDS, counts
from rami.marriage import cover
from rami.marriage.melds import wild_kinds
from rami.marriage.rules import NEPALI
from rami.marriage.solver import finish_discards, show_finish_discards
from rami.memo import BoundedMemo, is_pin, stored


def test_bounded_memo_drops_the_least_recently_used() -> None:
    memo: BoundedMemo[int, str] = BoundedMemo(2)
    memo.put(1, "a")
    memo.put(2, "b")
    assert memo.get(1) == "a"  # 1 is now the most recent
    memo.put(3, "c")
    assert memo.get(2) is None and memo.get(1) == "a" and memo.get(3) == "c"
    assert len(memo) == 2
    with pytest.raises(ValueError):
        BoundedMemo(0)


def test_bounded_memo_from_threads_stays_within_its_size() -> None:
    memo: BoundedMemo[int, int] = BoundedMemo(100)

    def work(offset: int) -> None:
        for i in range(5000):
            memo.put(offset + i % 300, i)
            memo.get(offset + (i * 7) % 300)

    threads = [threading.Thread(target=work, args=(k * 1000,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(memo) == 100


def _holdings(n: int) -> list[tuple[list[int], frozenset[int]]]:
    rng = random.Random(77)
    out = []
    while len(out) < n:
        tiplu = CARDS[rng.randrange(52)]
        v = counts([rng.randrange(52) for _ in range(22)])
        if max(v) <= 3 and v[tiplu] <= 2:
            out.append((v, wild_kinds(tiplu)))
    return out


def test_cover_memo_generations_keep_their_base_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    """A full table is cleared and its base entries put back: the answers with tiny
    tables (a new generation every few entries) are those with roomy ones."""
    sample = _holdings(120)
    cover.reset_memos()
    expect = [(show_finish_discards(v, NEPALI, w), finish_discards(v, NEPALI, w, 0, "melds"))
              for v, w in sample]  # fmt: skip
    monkeypatch.setattr(cover, "_MEMO_LIMIT", 8)
    cover.reset_memos()
    got = [(show_finish_discards(v, NEPALI, w), finish_discards(v, NEPALI, w, 0, "melds"))
           for v, w in sample]  # fmt: skip
    assert got == expect
    # the generation tables stay at their bound; the others have small finite key
    # spaces (13-bit rank masks, per-rank count columns): about 12,000 keys in all
    bounded = [t for t in cover._memo_tables() if len(t) > 9]
    assert all(t in cover._finite_tables() for t in bounded), [len(t) for t in bounded]


def test_memo_values_are_not_tracked_by_the_cyclic_gc() -> None:
    """Plain tuples of ints: a GC pass per nesting level untracks them, so later full
    collections skip the tables instead of walking every entry (the export tables
    still hold lists)."""
    cover.reset_memos()
    for v, w in _holdings(60):
        show_finish_discards(v, NEPALI, w)
        finish_discards(v, NEPALI, w, 0, "melds")
    for _ in range(4):
        gc.collect()
    tables = [*cover._SUIT_ENTRY, *cover._SOLVE_MEMO, *cover._COST_MEMO, cover._LEX]
    tracked = [
        value
        for table in tables
        for value in table.values()
        if gc.is_tracked(value) and not is_pin(value)  # a frozen table's pin (rami.memo)
    ]
    assert sum(stored(t) for t in tables) > 100 and tracked == []


def test_generation_memo_keeps_its_base_and_its_bound_from_threads() -> None:
    """The inner-loop memo (``rami.memo.GenerationMemo``): a plain dict to read, bounded,
    its base entries never missing, even while other threads start new generations."""
    from rami.memo import GenerationMemo

    memo: GenerationMemo[int, int] = GenerationMemo(50, {0: 0})
    table = memo.table
    missing: list[int] = []

    def work(offset: int) -> None:
        for i in range(4000):
            memo.remember(offset + i, i)
            if table.get(0) != 0:
                missing.append(i)

    threads = [threading.Thread(target=work, args=(k * 10_000,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert missing == [] and len(table) <= 50 + 4 and memo.generations > 0
    memo.new_generation()
    assert table == {0: 0} and memo.table is table
    shared = {1: 1}
    assert GenerationMemo.over(shared, 10).table is shared
