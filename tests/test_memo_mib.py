"""The memory budget of the solver caches in MiB (``RAMI_MEMO_MB``, ``rami.memo.set_budget``).

Issue 27: long self-play must not grow, and the user sets how much the caches may hold.
Every named memo's bound follows the budget; memos only save work, so the answers do not
depend on it (tests/test_memo_budget.py holds them equal under a tiny shared budget).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rami import memo
from rami.cards import KINDS

SRC = Path(__file__).resolve().parents[1] / "src"

# Random legal Tunisian 1v1 deals (T-11 turn cap) then nepali deals, in a fresh process
# with the budget from the environment; prints the budget, the capacity in entries and the
# most entries the named memos held at the end of any deal.
_PLAY = """
import random
from dataclasses import replace
from rami import memo
from rami.cards import KINDS
from rami.marriage.game import new_deal as marriage_deal
from rami.tunisian.game import new_deal as tunisian_deal
from rami.tunisian.rules import rules_from
import rami.marriage.solver_indian  # registered before the deals, as in play

rng = random.Random(3)
most = 0
rules = replace(rules_from("1v1"), max_turns=200)
for seed in range(100):
    state = tunisian_deal(rules, 2, seed, dealer=seed % 2)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    most = max(most, memo.total_entries())
for seed in range(8):
    state = marriage_deal({"preset": "nepali", "max_turns": 400}, 4, seed, dealer=seed % 4)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    most = max(most, memo.total_entries())
print(memo.budget_mib(), memo.capacity(), most)
"""


def _play(mib: str) -> tuple[float, int, int]:
    env = {**os.environ, "PYTHONPATH": str(SRC), "RAMI_MEMO_MB": mib}
    env.pop("RAMI_MEMO_BUDGET", None)
    out = subprocess.run(
        [sys.executable, "-c", _PLAY], env=env, capture_output=True, text=True, check=True
    )
    budget, capacity, most = out.stdout.split()
    return float(budget), int(capacity), int(most)


def test_rami_memo_mb_bounds_every_named_memo() -> None:
    """RAMI_MEMO_MB=4: the memos of both games hold no more entries than the budget
    allows, and that many entries cost about 4 MiB (the floors of tiny tables aside)."""
    budget, capacity, most = _play("4")
    assert budget == 4.0
    assert capacity * memo.ENTRY_BYTES <= 4.5 * 2**20
    assert 0 < most <= capacity
    # the default budget (60 MiB) allows about fifteen times as much (small tables keep a floor)
    default_budget, default_capacity, _ = _play("")
    assert default_budget == memo.DEFAULT_MB and default_capacity > 12 * capacity


@pytest.fixture
def restore() -> Iterator[None]:
    mib = memo.budget_mib()
    yield
    memo.set_budget(mib)


def test_set_budget_shrinks_the_tables_at_once(restore: None) -> None:
    """A smaller budget at run time: every table over its new bound starts over now."""
    table: memo.GenerationMemo[int, int] = memo.GenerationMemo(
        10_000, {-1: 0}, name="test.mib", shared=False
    )
    try:
        for k in range(5_000):
            table.remember(k, k)
        memo.set_budget(memo.DEFAULT_MB / 100)  # 100 entries for this table
        assert table.size == 100 and len(table) == 1  # its base entry kept
        assert memo.BUDGET.limit == memo.DEFAULT_BUDGET // 100
        # the bound in bytes follows (issue 27: heavy entries make room in bytes)
        assert memo.BUDGET.limit_bytes == memo.DEFAULT_BUDGET // 100 * memo.ENTRY_BYTES
        memo.set_budget(memo.DEFAULT_MB)
        assert table.size == 10_000 and memo.BUDGET.limit == memo.DEFAULT_BUDGET
    finally:
        memo._REGISTRY.remove(table)


@pytest.mark.parametrize("mib", [0, -3, float("nan"), float("inf")])
def test_a_budget_is_a_positive_number(mib: float, restore: None) -> None:
    with pytest.raises(ValueError, match="positive number of MiB"):
        memo.set_budget(mib)


def test_a_bad_rami_memo_mb_is_said_in_one_line_and_ignored() -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC), "RAMI_MEMO_MB": "lots"}
    out = subprocess.run(
        [sys.executable, "-c", "from rami import memo; print(memo.budget_mib())"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert float(out.stdout) == memo.DEFAULT_MB
    assert out.stderr.count("\n") == 1 and "RAMI_MEMO_MB='lots'" in out.stderr


def test_the_best_opening_cache_follows_the_budget(restore: None) -> None:
    """The Tunisian best-opening cache (an ``lru_cache`` of 4,096 outside the budget
    before) is a named memo: the budget bounds it like every other solver cache, and the
    answers are the same whether it remembers them or not."""
    from rami.tunisian import solver

    names = {m.name for m in memo.registered()}
    assert "tunisian.best_opening" in names
    hand = [0] * KINDS
    for kind in (0, 1, 2, 13, 14, 15, 30, 31, 32, 40, 44, 48, 51, 3):
        hand[kind] += 1
    first = solver.best_opening(hand)
    assert first is not None and solver.best_opening(hand) is first  # remembered
    memo.set_budget(memo.DEFAULT_MB / 1000)
    table = next(m for m in memo.registered() if m.name == "tunisian.best_opening")
    assert table.size == 16 and len(table) <= 16
    solver.clear_cache()
    # nothing droppable left (a table pinned by an earlier test keeps its one tracked entry)
    assert table.droppable() == 0 and solver.best_opening(hand) == first
