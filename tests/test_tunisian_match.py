"""Whole games of Tunisian rami: totals (T-10), dealer rotation (T-12), elimination (T-13)."""

from __future__ import annotations

import json
import random

import pytest
from tunisian_game_support import layer

from rami.errors import IllegalAction, InputError
from rami.tunisian.demo import run_demo
from rami.tunisian.match import Match as TunisianMatch

QUICK = {"max_turns": 1}  # every deal ends after the dealer's discard: 100 each (T-10)


def quick(mode: str, seed: int = 0, **extra: object) -> TunisianMatch:
    return TunisianMatch({"preset": mode, **QUICK, **extra}, seed)


def finish_deal(match: TunisianMatch) -> None:
    state = match.current
    seat = state.to_move
    assert seat is not None
    match.apply(f"discard {state.hand(seat)[0]}")
    assert state.is_over


def test_T12_dealer_rotates_counter_clockwise() -> None:
    match = quick("ffa", seed=3)
    first = match.dealer
    dealers = [first]
    for _ in range(5):
        finish_deal(match)
        dealers.append(match.next_deal().dealer)
    assert dealers == [(first - k) % 4 for k in range(6)]
    assert match.current.to_move == match.dealer


def test_T12_dealer_rotation_skips_eliminated_players() -> None:
    match = quick("ffa", seed=4)
    first = match.dealer
    gone = (first - 1) % 4
    match.totals[gone] = 650
    finish_deal(match)  # everyone scores 100: seat `gone` reaches 750
    assert match.eliminated[gone] and not match.is_over
    state = match.next_deal()
    assert state.dealer == (first - 2) % 4
    assert not state.active[gone] and state.hand_sizes[gone] == 0
    assert state.view(None)["seats"][gone]["active"] is False
    assert sum(state.hand_sizes) == 15 + 2 * 14


def test_T13_elimination_at_701_and_last_player_wins() -> None:
    match = quick("ffa", seed=5)
    match.totals[:] = [650, 600, 650, 0]
    finish_deal(match)
    assert match.eliminated == [True, False, True, False]
    assert not match.is_over
    state = match.next_deal()
    assert [s for s in range(4) if state.active[s]] == [1, 3]
    # Only seats 1 and 3 ever move now.
    seat = state.to_move
    assert seat in (1, 3)
    finish_deal(match)  # seat 1 reaches 800, seat 3 200
    assert match.is_over and match.winners == [3]
    with pytest.raises(IllegalAction, match="game is over"):
        match.next_deal()
    standing = match.standing()
    assert standing["game_over"] and standing["winners"] == [3]
    assert [d["eliminated"] for d in standing["deals"]] == [[0, 2], [1]]


def test_T13_players_out_together_lowest_total_wins() -> None:
    match = quick("1v1", seed=6)
    match.totals[:] = [620, 640]
    finish_deal(match)
    assert match.is_over and match.winners == [0]


def test_T13_2v2_team_reaching_1001_loses() -> None:
    match = quick("2v2", seed=7)
    match.totals[:] = [500, 0, 450, 0]
    finish_deal(match)  # team 0: 1150
    assert match.team_totals() == [1150, 200]
    assert match.is_over and match.winners == [1, 3]


def test_T10_totals_add_up_across_deals() -> None:
    match = quick("1v1", seed=8)
    finish_deal(match)
    match.next_deal()
    finish_deal(match)
    assert match.totals == [200, 200]
    assert [d["points"] for d in match.standing()["deals"]] == [[100, 100], [100, 100]]


def test_next_deal_needs_the_current_deal_over() -> None:
    match = TunisianMatch("ffa", 1)
    with pytest.raises(IllegalAction, match="not over"):
        match.next_deal()


def test_match_resumes_from_json() -> None:
    rng = random.Random(2)
    match = TunisianMatch({"preset": "ffa", "max_turns": 40}, 12)
    for _ in range(2):
        while not match.current.is_over:
            match.apply(layer(match.current, rng))
        match.next_deal()
    for _ in range(25):
        match.apply(layer(match.current, rng))
    doc = json.loads(json.dumps(match.to_json()))
    again = TunisianMatch.from_json(doc)
    assert again.current.snapshot() == match.current.snapshot()
    assert again.standing() == match.standing()
    assert again.view(1) == match.view(1)
    with pytest.raises(InputError, match="unknown key"):
        TunisianMatch.from_json({**doc, "colour": 1})
    bad = {**doc, "deals": [["discard JK", "fly"]]}
    with pytest.raises(InputError):
        TunisianMatch.from_json(bad)


def test_random_four_player_game_runs_to_its_winner() -> None:
    rng = random.Random(7)
    match = TunisianMatch({"preset": "ffa", "max_turns": 120}, 21)
    deals = 0
    while True:
        while not match.current.is_over:
            match.apply(layer(match.current, rng))
            if deals == 0:
                match.current.check_invariants()
        deals += 1
        if match.is_over:
            break
        match.next_deal()
    assert match.winners
    left = [s for s in range(4) if not match.eliminated[s]]
    assert set(match.winners) <= set(left) or not left
    assert all(match.totals[s] >= 701 for s in range(4) if match.eliminated[s])
    assert deals == len(match.deals)


def test_demo_prints_a_deal_and_a_whole_game() -> None:
    lines: list[str] = []
    run_demo(7, "ffa", out=lines.append)
    text = "\n".join(lines)
    assert "seat" in text and "points" in text
    lines.clear()
    run_demo(3, "2v2", out=lines.append, whole_game=True)
    text = "\n".join(lines)
    assert "game over" in text and "team totals" in text
