"""One entry budget for every solver memo (``rami.memo.BUDGET``), and frozen tables.

The shared tables start over, the largest first, when their total passes the budget; the
answers do not depend on it (a memo only saves work), and a pinned, frozen table is
never walked by the cyclic GC again.
"""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
from collections.abc import Iterator

import pytest

from rami.cards import CARDS, Card, counts
from rami.marriage import cover
from rami.marriage.game import new_deal
from rami.marriage.melds import wild_kinds
from rami.marriage.rules import NEPALI
from rami.marriage.solver import finish_discards, missing, show_finish_discards
from rami.memo import BUDGET, GenerationMemo, registered, reserved, total_entries


@pytest.fixture
def budget() -> Iterator[None]:
    limit = BUDGET.limit
    yield
    BUDGET.resize(limit)


def _play(deals: int, seed: int, check: list[int]) -> None:
    """Random legal nepali deals; the shared total after each deal goes to ``check``."""
    rng = random.Random(seed)
    for deal in range(deals):
        state = new_deal({"preset": "nepali", "max_turns": 400}, 4, seed + deal, dealer=deal % 4)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        check.append(BUDGET.entries())


def test_every_registered_memo_stays_within_the_budget(budget: None) -> None:
    """A few hundred deals with a small budget: the shared tables never hold more than
    it, and all named memos together no more than it plus the reserved bounds."""
    importlib.import_module("rami.marriage.solver_indian")
    importlib.import_module("rami.tunisian.solver")
    names = {m.name for m in registered()}
    assert {"cover.solve", "cover.lone", "indian.gaps", "tunisian.suit_facts"} <= names
    assert len(names) == len(registered())  # one name each
    evictions = BUDGET.evictions
    BUDGET.resize(6_000)
    totals: list[int] = []
    _play(240, 5, totals)
    assert max(totals) <= 6_000 and BUDGET.evictions > evictions
    assert total_entries() <= BUDGET.limit + reserved()


def _holdings(n: int) -> list[tuple[list[int], Card, frozenset[int]]]:
    rng = random.Random(11)
    out = []
    while len(out) < n:
        tiplu = CARDS[rng.randrange(52)]
        v = counts([rng.randrange(52) for _ in range(22)])
        if max(v) <= 3 and v[tiplu] <= 2:
            out.append((v, tiplu, wild_kinds(tiplu)))
    return out


def test_answers_do_not_depend_on_the_budget(budget: None) -> None:
    """Tables emptied by other tables' stores (a budget of 64 entries) give the answers
    of roomy tables: no reader relies on an entry another table's store may drop."""
    sample = _holdings(80)

    def answers() -> list[object]:
        cover.reset_memos()
        return [
            (
                show_finish_discards(v, NEPALI, w),
                finish_discards(v, NEPALI, w, 0, "melds"),
                missing(v, NEPALI, tiplu, []),
            )
            for v, tiplu, w in sample
        ]

    expect = answers()
    BUDGET.resize(64)
    evictions = BUDGET.evictions
    assert answers() == expect
    assert BUDGET.evictions > evictions and BUDGET.entries() <= 64


def test_the_largest_shared_table_gives_room_first() -> None:
    """The largest table drops its oldest half (not all: a whole table emptied at once
    made a sawtooth whose peaks the allocator kept, issue 27); base entries stay."""
    from rami.memo import MemoBudget

    small: GenerationMemo[int, int] = GenerationMemo(1000, {-1: 0})
    large: GenerationMemo[int, int] = GenerationMemo(1000)
    own = MemoBudget(64)
    own.members += [small, large]
    for k in range(10):
        small.remember(k, k)
    for k in range(60):
        large.remember(k, k)
    own.settle()  # 71 entries: over 64 - 2, the large one's oldest half goes
    assert sorted(large.table) == list(range(30, 60)) and len(small) == 11
    assert own.evictions == 1
    with pytest.raises(ValueError):
        MemoBudget(0)


_FROZEN_PROBE = """
import gc, random
from rami.marriage.game import new_deal
from rami.memo import freeze_collector, registered
freeze_collector()
rng = random.Random(3)
for deal in range(40):
    state = new_deal({"preset": "nepali", "max_turns": 400}, 4, deal)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
gc.collect()
tables = {id(m.table) for m in registered() if hasattr(m, "table")}
walked = [o for o in gc.get_objects() if id(o) in tables]
print(len(tables), len(walked), sum(len(m) for m in registered()))
"""


def test_frozen_tables_are_never_walked_again() -> None:
    """After ``freeze_collector`` no memo table is among the objects the collector's
    generations hold, however many entries the deals stored since."""
    out = subprocess.run(
        [sys.executable, "-c", _FROZEN_PROBE], capture_output=True, text=True, check=True
    ).stdout.split()
    tables, walked, entries = map(int, out)
    assert tables > 20 and walked == 0 and entries > 1000
