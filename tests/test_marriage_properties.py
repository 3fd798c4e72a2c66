"""Properties of random legal Marriage deals (seeded loops, both presets, all table sizes).

Over thousands of deals: no crash and always a legal move; the 156 cards exactly
accounted for after every action (M-1); every ledger sums to zero (M-13, M-15);
``to_json`` → ``from_json`` replays to the identical state; a view never depends on
cards its seat may not know, the tiplu included for unseen seats (M-7); an illegal
action raises ``IllegalAction`` and changes nothing.
"""

from __future__ import annotations

import json
import random

import pytest
from marriage_support import signature

from rami.cards import CARDS, counts, parse_cards
from rami.engine import Action
from rami.errors import IllegalAction
from rami.marriage.game import MarriageState, new_deal
from rami.marriage.melds import wild_kinds

PROGRESS = ("show", "dublee", "see", "finish", "meld", "add", "expose")
TURN_CAPS = (8, 16, 32, 64, 128, 400)
VERBS = ("draw", "take", "pass", "see", "discard", "finish", "show", "dublee", "expose")
GARBAGE = ("", "jump", "discard 11♣", "draw 7♣", "add 7♣", "show 3♠", "finish", "@@", "42")


def choose(rng: random.Random, legal: list[Action], eager: float) -> Action:
    """Uniform among legal actions, but with probability ``eager`` a progress step."""
    if rng.random() < eager:
        progress = [a for a in legal if a.kind in PROGRESS]
        if progress:
            return rng.choice(progress)
    return rng.choice(legal)


def perturbed(state: MarriageState, seat: int | None, rng: random.Random) -> MarriageState:
    """The same public position with the cards ``seat`` cannot see dealt differently."""
    other = state.clone()
    n = state.num_players
    hidden_seats = [t for t in range(n) if t != seat]
    pool = [c for t in hidden_seats for c in range(52) for _ in range(state.hands[t][c])]
    pool += state.stock
    swap_tiplu = state.tiplu is not None and (seat is None or not state.seen[seat])
    if swap_tiplu:
        assert state.tiplu is not None
        pool.append(int(state.tiplu))
    rng.shuffle(pool)
    pos = 0
    for t in hidden_seats:
        size = state.sizes[t]
        other.hands[t] = counts(pool[pos : pos + size])
        pos += size
    other._stock = pool[pos : pos + len(state.stock)]
    pos += len(state.stock)
    if swap_tiplu:
        other._tiplu = CARDS[pool[pos]]
        other._wilds = wild_kinds(other.tiplu)
    other._legal = None
    return other


def check_views(state: MarriageState, rng: random.Random, every: bool = False) -> None:
    """The views of ``seat`` (each one, or one at random and the spectator's)."""
    seats = [None, *range(state.num_players)] if every else [None, rng.randrange(state.num_players)]
    for seat in seats:
        view = state.view(seat)
        text = json.dumps(view, sort_keys=True)
        if seat is None or not state.seen[seat]:
            assert "tiplu" not in view and "wild_cards" not in view
            if state.tiplu is not None:
                assert '"tiplu":' not in text
        other = perturbed(state, seat, rng)
        assert json.dumps(other.view(seat), sort_keys=True) == text, f"view of {seat} leaks"


def random_illegal(state: MarriageState, rng: random.Random) -> Action | str | None:
    """Some action text that is not among the legal actions (``None`` if unsure)."""
    legal = {str(a) for a in state.legal_actions()}
    roll = rng.random()
    if roll < 0.3:
        return rng.choice(GARBAGE)
    verb = rng.choice(VERBS)
    if verb in ("draw", "take", "pass", "see"):
        text = verb
    elif verb in ("show", "dublee"):
        k = 3 if verb == "show" else 2
        text = verb + " " + " ".join(str(CARDS[rng.randrange(52)]) for _ in range(k))
    else:
        text = f"{verb} {CARDS[rng.randrange(52)]}"
    try:
        from rami.marriage.actions import normalise

        canonical = str(normalise(Action.parse(text)))
    except IllegalAction:
        return text
    if canonical in legal:
        return None
    return text


def check_illegal(state: MarriageState, rng: random.Random) -> None:
    before = signature(state)
    doc = json.dumps(state.to_json())
    action = random_illegal(state, rng)
    if action is not None:
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert signature(state) == before and json.dumps(state.to_json()) == doc
    # out of turn
    mover = state.to_move
    if mover is not None and state.num_players > 1:
        legal = state.legal_actions()
        with pytest.raises(IllegalAction, match="turn"):
            state.apply(rng.choice(legal), seat=(mover + 1) % state.num_players)
        assert signature(state) == before
    # a card not in hand
    if mover is not None and state.phase == "play":
        absent = [c for c in range(52) if not state.hands[mover][c]]
        if absent:
            with pytest.raises(IllegalAction):
                state.apply(f"discard {CARDS[rng.choice(absent)]}")
            assert signature(state) == before


def check_all_legal_apply(state: MarriageState) -> None:
    for a in state.legal_actions():
        state.clone().apply(a)


def play_deal(preset: str, players: int, seed: int, probe: float) -> MarriageState:
    rng = random.Random(seed * 7919 + players)
    cap = rng.choice(TURN_CAPS)
    rules = {"preset": preset, "max_turns": cap}
    if preset == "indian" and rng.random() < 0.3:
        rules["tiplu_chosen"] = "after_deal"
    if preset == "nepali" and rng.random() < 0.2:
        rules["seen_may_take_wild_discard"] = True
    state = new_deal(rules, players, seed, dealer=seed % players)
    eager = rng.choice((0.0, 0.3, 0.8))
    middle: dict[str, object] | None = None
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, f"no legal action in phase {state.phase}"
        if rng.random() < probe:
            check_illegal(state, rng)
            check_views(state, rng)
        if rng.random() < probe / 4:
            check_all_legal_apply(state)
        state.apply(choose(rng, legal, eager))
        state.check_invariants()
        steps += 1
        if middle is None and rng.random() < 0.01:
            middle = state.to_json()
            again = MarriageState.from_json(json.loads(json.dumps(middle)))
            assert signature(again) == signature(state)
    result = state.result
    assert result is not None
    assert sum(result.scores) == 0
    assert len(result.scores) == players
    json.dumps(result.details)  # JSON-ready
    again = MarriageState.from_json(json.loads(json.dumps(state.to_json())))
    assert signature(again) == signature(state)
    assert again.result is not None and again.result.scores == result.scores
    for seat in range(players):
        assert state.view(seat)["result"]["scores"] == list(result.scores)
    return state


NEPALI_DEALS = 260  # per table size (2–5 players)
INDIAN_DEALS = 130  # per table size (2–7 players); about 2,000 deals in all


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_nepali_deals(players: int) -> None:
    finishes = 0
    for seed in range(NEPALI_DEALS):
        state = play_deal("nepali", players, seed, probe=0.02)
        finishes += state.finisher is not None
    assert finishes > 0  # the finish paths are exercised


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_random_indian_deals(players: int) -> None:
    finishes = 0
    for seed in range(INDIAN_DEALS):
        state = play_deal("indian", players, 1000 + seed, probe=0.02)
        finishes += state.finisher is not None
    assert finishes > 0


def test_views_differ_only_in_what_the_seat_knows() -> None:
    """Two deals with the same seed but different hidden cards look the same to a seat."""
    rng = random.Random(5)
    for seed in range(20):
        state = new_deal("nepali", 4, seed)
        while state.phase == "expose":
            state.apply("pass")
        for _ in range(30):
            state.apply(rng.choice(state.legal_actions()))
            if state.is_over:
                break
        check_views(state, rng, every=True)


def test_draw_is_private() -> None:
    state = new_deal("nepali", 3, seed=2)
    while state.phase == "expose":
        state.apply("pass")
    mover = state.to_move
    assert mover is not None
    top = CARDS[state.stock[-1]]
    state.apply("draw")
    assert state.view(mover)["history"][-1]["move"] == f"draw {top}"
    for seat in [None, *(s for s in range(3) if s != mover)]:
        assert state.view(seat)["history"][-1]["move"] == "draw"
    assert parse_cards(str(top))  # sanity


OPTION_MIXES: list[dict[str, object]] = [
    {"preset": "nepali", "direction": "counterclockwise", "tiplu_chosen": "after_deal"},
    {"preset": "nepali", "stock_recycles": 1, "shuffle_recycled": False, "scoring": "indian"},
    {"preset": "nepali", "deal_tunnela_bonus": False, "dublees_min_players": 4},
    {"preset": "nepali", "unseen_maal_counts": False, "seen_fee": 5, "dublee_bonus": 0},
    {"preset": "indian", "scoring": "nepali", "seen_may_take_wild_discard": False},
    {"preset": "indian", "decks": 4, "stock_recycles": None, "shuffle_recycled": True},
    {"preset": "indian", "direction": "clockwise", "unseen_value_cap": 0},
]


@pytest.mark.parametrize("mix", range(len(OPTION_MIXES)))
def test_option_mixes_play_out(mix: int) -> None:
    """Every rule option (M-1 … M-15) changes the play without breaking a deal."""
    for seed in range(25):
        rng = random.Random(seed)
        rules: dict[str, object] = {**OPTION_MIXES[mix], "max_turns": rng.choice((20, 60, 150))}
        players = 2 + seed % 4
        state = new_deal(rules, players, seed, dealer=seed % players)
        while not state.is_over:
            legal = state.legal_actions()
            assert legal
            state.apply(choose(rng, legal, 0.5))
            state.check_invariants()
        assert state.result is not None and sum(state.result.scores) == 0
        again = MarriageState.from_json(json.loads(json.dumps(state.to_json())))
        assert signature(again) == signature(state)
