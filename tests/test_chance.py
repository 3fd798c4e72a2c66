"""Chance made explicit: every deal reports what chance decided (``chance_outcomes``).

The ``deal`` outcome is the shoe as dealt, laid out by the deal class's
``dealt_seats``; ``from_deal`` rebuilds the same deal from it, so a wrapper that deals
by chance nodes (OpenSpiel) needs no knowledge of a game's dealing. Marriage's tiplu
pick (M-7) and reshuffled stocks (M-11, T-11) are reported as they happen; views never
show them.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rami.cards import Card
from rami.engine import ChanceReporting, DealsFromOrder
from rami.marriage.game import MarriageState
from rami.marriage.game import new_deal as marriage_deal
from rami.tunisian.game import TunisianState
from rami.tunisian.game import new_deal as tunisian_deal

CASES: list[tuple[Any, Any, int, int]] = [
    (MarriageState, "nepali", 3, 2),
    (MarriageState, "indian", 5, 0),
    (TunisianState, "1v1", 2, 1),
    (TunisianState, "ffa", 4, 3),
]


def _deal(cls: Any, rules: Any, seats: int, seed: int, dealer: int) -> Any:
    if cls is MarriageState:
        return marriage_deal(rules, seats, seed, dealer)
    return tunisian_deal(rules, seats, seed, dealer)


def _hand(state: Any, seat: int) -> list[Card]:
    if isinstance(state, MarriageState):
        return sorted(Card(c) for c in range(53) for _ in range(state.hands[seat][c]))
    return sorted(state.hand(seat))


@pytest.mark.parametrize(("cls", "rules", "seats", "dealer"), CASES)
def test_the_deal_is_a_chance_outcome_that_rebuilds_it(
    cls: Any, rules: str, seats: int, dealer: int
) -> None:
    state = _deal(cls, rules, seats, 17, dealer)
    assert isinstance(state, ChanceReporting)
    deals: DealsFromOrder = cls
    [dealt] = state.chance_outcomes()
    assert dealt["kind"] == "deal"
    order = [int(Card.parse(t)) for t in dealt["cards"]]
    layout = deals.dealt_seats(rules, seats, dealer)
    assert len(layout) == len(order)
    for seat in range(seats):
        mine = sorted(Card(c) for c, s in zip(order, layout, strict=True) if s == seat)
        assert mine == _hand(state, seat)
    again = deals.from_deal(rules, seats, order, 17, dealer)
    assert again.to_json() == state.to_json()
    assert again.view(None) == state.view(None)
    rng = random.Random(3)
    for _ in range(60):
        if state.is_over:
            break
        action = rng.choice(state.legal_actions())
        state.apply(action)
        again.apply(action)
    assert again.view(0) == state.view(0)


def test_from_deal_refuses_an_order_that_is_not_the_shoe() -> None:
    state = marriage_deal("nepali", 3, 1)
    order = [int(Card.parse(t)) for t in state.chance_outcomes()[0]["cards"]]
    with pytest.raises(ValueError, match="shoe"):
        MarriageState.from_deal("nepali", 3, [*order[:-1], order[0]], 1)
    with pytest.raises(ValueError, match="shoe"):
        TunisianState.from_deal("1v1", 2, order, 1)


def test_M7_the_tiplu_pick_is_reported_and_hidden_from_views() -> None:
    rng = random.Random(5)
    for seed in range(40):
        state = marriage_deal({"preset": "nepali", "max_turns": 200}, 3, seed)
        while not state.is_over and not state.tiplu_picked:
            state.apply(rng.choice(state.legal_actions()))
        if not state.tiplu_picked:
            continue
        kinds = [c["kind"] for c in state.chance_outcomes()]
        assert kinds[:2] == ["deal", "tiplu"]
        assert state.chance_outcomes()[1]["cards"] == [str(state.tiplu)]
        unseen = next(s for s in range(3) if not state.seen[s])
        view = state.view(unseen)
        assert "tiplu" not in view and "chance" not in json.dumps(view)
        return
    raise AssertionError("no deal reached a show")


@pytest.mark.parametrize("game", ["marriage", "tunisian"])
def test_reshuffles_are_reported_next_draw_first(game: str) -> None:
    rng = random.Random(2)
    for seed in range(60):
        if game == "marriage":
            rules = {"preset": "nepali", "max_turns": 600}
            state: Any = marriage_deal(rules, 2, seed)
        else:
            state = tunisian_deal({"preset": "1v1", "max_turns": 600}, 2, seed)
        while not state.is_over:
            before = len(state.chance_outcomes())
            state.apply(rng.choice(state.legal_actions()))
            outcomes = state.chance_outcomes()
            if len(outcomes) > before and outcomes[-1]["kind"] == "reshuffle":
                stock = outcomes[-1]["cards"]
                if state.is_over or state.to_move is None:
                    break
                if "draw" not in [str(a) for a in state.legal_actions()]:
                    break
                seat = state.to_move
                state.apply("draw")
                assert state.events[-1]["card"] == stock[0]
                assert state.view(seat)["history"][-1]["move"] == f"draw {stock[0]}"
                return
    raise AssertionError("no deal reshuffled its stock")


@pytest.mark.parametrize(("cls", "rules", "seats", "dealer"), CASES)
def test_one_event_format_whose_actions_are_the_log(
    cls: Any, rules: str, seats: int, dealer: int
) -> None:
    """Every event has a seat and an action (None for news); the actions are the log."""
    state = _deal(cls, {"preset": rules, "max_turns": 120}, seats, 9, dealer)
    rng = random.Random(4)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    keys = {"seat", "action", "chance", "card", "news", "text", "data"}
    for event in state.events:
        assert {"seat", "action"} <= set(event) <= keys
        assert (event["action"] is None) == ("news" in event)
    assert [e["action"] for e in state.events if e["action"] is not None] == list(state.actions)
    assert state.events[-1].get("news") == "end"
