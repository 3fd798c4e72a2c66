"""Properties of random legal Tunisian rami deals, over seeded loops in all three modes.

Thousands of deals in total: short capped deals (``max_turns``) with players who lay
cards whenever they may (so openings, lay-offs and swaps happen), and fewer long ones
with uniformly random players (so the stock runs out and is remade, T-11).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from tunisian_game_support import Policy, hidden_shuffled, layer, uniform

from rami.cards import CARDS, JOKER, counts, shoe
from rami.engine import Action
from rami.errors import IllegalAction
from rami.tunisian.game import TunisianState, new_deal
from rami.tunisian.melds import make_meld, meld_options
from rami.tunisian.opening_search import in_no_meld as _in_no_meld
from rami.tunisian.rules import MODES, rules_from

SHORT_DEALS = 450  # per mode
LONG_DEALS = 8  # per mode


def check_openings(state: TunisianState) -> None:
    """Every opening reaches its threshold and beats the one before (T-6)."""
    step = state.rules.opening_step
    previous: int | None = None
    for event in state.events:
        if event.get("news") != "open":
            continue
        data = event["data"]
        need = state.rules.opening_threshold if previous is None else previous + step
        assert data["threshold"] == need
        assert data["value"] >= need
        previous = data["value"]


def check_views(state: TunisianState, rng: random.Random) -> None:
    """No view holds what its seat may not know (T: "never allow")."""
    for seat in [None, *range(state.num_players)]:
        view = state.view(seat)
        text = json.dumps(view, ensure_ascii=False)
        assert "seed" not in view and '"stock"' not in text
        if seat is not None:
            assert view["hand"] == [str(c) for c in state.hand(seat)]
        twin = hidden_shuffled(state, seat, rng)
        assert json.dumps(twin.view(seat), ensure_ascii=False) == text


def random_action(state: TunisianState, rng: random.Random) -> Action:
    """A random, usually illegal, action built from real cards and table indices."""
    kind = rng.choice(["draw", "take", "meld", "add", "swap", "discard"])
    if kind in ("draw", "take"):
        return Action(kind)
    seat = state.to_move
    assert seat is not None
    pool = state.hand(seat) + [rng.choice(CARDS) for _ in range(3)]
    if kind == "meld":
        return Action(kind, tuple(rng.sample(pool, min(len(pool), rng.choice([3, 3, 4])))))
    if kind == "discard":
        return Action(kind, (rng.choice(pool),))
    return Action(kind, (rng.choice(pool),), rng.randrange(len(state.table) + 1))


def canonical(action: Action) -> Action:
    if action.kind != "meld":
        return action
    try:
        return Action("meld", make_meld(action.cards).cards)
    except IllegalAction:
        return action


def check_legality(state: TunisianState, rng: random.Random) -> None:
    """``check``/``apply`` agree with ``legal_actions``; illegal moves change nothing."""
    legal = set(state.legal_actions())
    for action in list(legal)[:12]:
        assert state.check(action) is None, (action, state.check(action))
    before_doc = state.to_json()
    before = state.snapshot()
    for _ in range(6):
        action = random_action(state, rng)
        problem = state.check(action)
        assert (problem is None) == (canonical(action) in legal), (action, problem)
        if problem is not None:
            with pytest.raises(IllegalAction):
                state.apply(action)
    for text in ("fly", "discard 11♣", "meld", "add 7♣ @x", "swap"):
        with pytest.raises(IllegalAction):
            state.apply(text)
    seat = state.to_move
    assert seat is not None
    other = next(s for s in range(state.num_players) if s != seat)
    with pytest.raises(IllegalAction, match=f"it is seat {seat}'s turn"):
        state.apply(next(iter(legal)), seat=other)
    missing = [c for c in CARDS if c not in state.hand(seat) and c != JOKER]
    with pytest.raises(IllegalAction):
        state.apply(Action("discard", (missing[0],)))
    assert state.snapshot() == before and state.to_json() == before_doc


def play(
    mode: str, seed: int, policy: Policy, rng: random.Random, max_turns: int, deep: bool
) -> TunisianState:
    rules: Any = {"preset": mode, "max_turns": max_turns}
    state = new_deal(rules, rules_from(mode).players, seed, dealer=seed % rules_from(mode).players)
    probe = rng.randrange(1, 60)
    steps = 0
    while not state.is_over:
        if deep or steps % 7 == 0:
            state.check_invariants()
        if steps == probe:
            check_legality(state, rng)
            check_views(state, rng)
            saved = TunisianState.from_json(json.loads(json.dumps(state.to_json())))
            assert saved.snapshot() == state.snapshot()
            # the replay computed no legal lists, so it has none of the speed-up facts
            assert saved.legal_actions() == state.legal_actions()
        state.apply(policy(state, rng))
        steps += 1
    state.check_invariants()
    check_openings(state)
    result = state.result
    assert result is not None
    assert (result.winner is None) == (state.end_reason != "out")
    return state


@pytest.mark.parametrize("mode", MODES)
def test_short_random_deals(mode: str) -> None:
    rng = random.Random(f"short:{mode}")
    openings = lay_offs = swaps = wins = 0
    for seed in range(SHORT_DEALS):
        policy = layer if seed % 4 else uniform
        state = play(mode, seed, policy, rng, rng.randrange(8, 50), deep=seed % 25 == 0)
        openings += sum(1 for e in state.events if e.get("news") == "open")
        lay_offs += sum(1 for a in state.actions if a.startswith("add"))
        swaps += sum(1 for a in state.actions if a.startswith("swap"))
        wins += state.result is not None and state.result.winner is not None
        if seed % 10 == 0:
            again = TunisianState.from_json(state.to_json())
            assert again.snapshot() == state.snapshot()
    # the loop really exercised the rules it checks
    assert openings > SHORT_DEALS // 4 and lay_offs > 50 and swaps > 0 and wins > 0


@pytest.mark.parametrize("mode", MODES)
def test_long_random_deals_remake_the_stock(mode: str) -> None:
    rng = random.Random(f"long:{mode}")
    restocks = 0
    for seed in range(LONG_DEALS):
        state = play(mode, 1000 + seed, uniform, rng, 260, deep=False)
        restocks += sum(1 for e in state.events if e.get("news") == "restock")
        again = TunisianState.from_json(state.to_json())
        assert again.snapshot() == state.snapshot()
    assert restocks > 0


def test_card_in_no_meld_is_never_wrong() -> None:
    """The engine's quick "this card fits no meld" test agrees with ``meld_options``."""
    rng = random.Random(5)
    deck = shoe(2, 4)
    for _ in range(3000):
        hand = counts(rng.sample(deck, rng.randrange(3, 16)))
        fits = {c for m in meld_options(hand) for c in m.cards}
        for c in range(53):
            if hand[c] and _in_no_meld(hand, c):
                assert c not in fits


def test_states_clone_independently() -> None:
    rng = random.Random(3)
    state = new_deal("ffa", 4, 77)
    for _ in range(40):
        state.apply(layer(state, rng))
    twin = state.clone()
    before = state.snapshot()
    while not twin.is_over:
        twin.apply(uniform(twin, rng))
    assert state.snapshot() == before
    state.check_invariants()
