"""Every Tunisian deal ends (T-3 ``rediscard_taken``, T-11 ``max_turns``).

A sample of the 10,000-deals-per-mode run in ``bench/tunisian_deals_end.py``: greedy
deals in each mode end by going out, never at the turn cap, and the search bot does
not pass one card back and forth either.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from rami.bots import make_bot
from rami.tunisian.game import new_deal
from rami.tunisian.rules import MODES

_BENCH = Path(__file__).resolve().parent.parent / "bench" / "tunisian_deals_end.py"
_spec = importlib.util.spec_from_file_location("tunisian_deals_end", _BENCH)
assert _spec is not None and _spec.loader is not None
deals_end = importlib.util.module_from_spec(_spec)
sys.modules["tunisian_deals_end"] = deals_end
_spec.loader.exec_module(deals_end)


@pytest.mark.parametrize("mode", MODES)
def test_T3_T11_greedy_deals_all_end_and_none_goes_in_circles(mode: str) -> None:
    result = deals_end.play_mode(mode, 150, first_seed=100)
    assert result.unfinished == [] and result.cycling == []


def test_T11_a_deal_nobody_opens_ends_at_the_cap() -> None:
    """1v1 seed 2640: neither greedy bot opens; the 400-turn cap ends the deal."""
    result = deals_end.play_mode("1v1", 1, first_seed=2640)
    assert result.capped == [2640] and result.cycling == [] and result.longest == 400


def test_T3_greedy_pair_holding_one_card_each_does_not_cycle() -> None:
    """1v1 seed 110: both greedy bots down to one 3 passed the 3s round for 400 turns."""
    bots = [make_bot("tunisian", "greedy", s) for s in range(2)]
    state = new_deal("1v1", 2, 110, dealer=0)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)))
    assert state.end_reason == "out" and state.turn < 200


def test_T3_T11_search_bot_deals_end() -> None:
    for seed in (10, 11):  # greedy seeds 10 and 11 used to loop on 2♦
        bots = [make_bot("tunisian", "search:2it", seed), make_bot("tunisian", "greedy", seed)]
        state = new_deal("1v1", 2, seed, dealer=seed % 2)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            state.apply(bots[seat].act(state.view(seat)))
        assert state.end_reason != "max_turns"
