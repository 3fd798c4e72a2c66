"""One conformance suite run over every game in the registry (``rami.games.GAMES``),
the test-only toy rummy (tests/toy_game) included.

Whatever a game is, the front ends rely on the same contract (issue 10, item 8): random
legal play goes on for thousands of steps and ends, a deal replays from its log and a
match from its saved document, a clone is equal to its original, every view is JSON, a
seat's view does not change when the cards hidden from it are dealt again, an illegal
action changes nothing, action ids round-trip, and a match's standing adds up. The
suite only goes through the registry and the engine protocol, so a new game registered
there is checked without a new test.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from toy_support import games_with_toy, toy_registered

from rami.engine import Action, GameState
from rami.errors import IllegalAction
from rami.games import Game, Match

CASES = [(spec, preset) for spec in games_with_toy() for preset in spec.presets]
IDS = [f"{spec.name}-{preset}" for spec, preset in CASES]
STEPS = 2_500  # per game and preset
JUNK = ["", "   ", "fly", "discard", "discard ZZ", "take @99", "add 7♣ @-1", "meld 2♣", "@1"]


@pytest.fixture(autouse=True)
def _toy_in_the_registry() -> Iterator[None]:
    """The toy is registered while these tests run (and only then)."""
    with toy_registered():
        yield


def _dump(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False, sort_keys=True)


def _saved(state: GameState) -> str:
    to_json = getattr(state, "to_json")  # noqa: B009 - every game's state saves itself
    return _dump(to_json())


def _views(state: GameState) -> list[str]:
    return [_dump(state.view(seat)) for seat in [None, *range(state.num_players)]]


def _junk(state: GameState, rng: random.Random) -> list[Action | str]:
    """Actions that are not legal now: bad texts, and legal-looking moves out of place."""
    legal = set(state.legal_actions())
    out: list[Action | str] = [rng.choice(JUNK)]
    for kind in ("draw", "take", "discard", "finish", "show"):
        action = Action(kind)
        if action not in legal:
            out.append(action)
    return out


def _play(spec: Game, preset: str, seed: int, steps: int) -> tuple[Match, int]:
    match = spec.new_match(preset, None, seed)
    rng = random.Random(seed)
    done = 0
    while done < steps and not match.is_over:
        state = match.current
        if state.is_over:
            match.next_deal()
            continue
        legal = state.legal_actions()
        assert legal, f"no legal action with {state.to_move} to move"
        assert state.to_move is not None
        if done % 50 == 0:
            _check_position(state, rng)
        match.apply(rng.choice(legal))
        done += 1
    return match, done


def _check_position(state: GameState, rng: random.Random) -> None:
    """Clone equality, JSON round trip, replay, and illegal actions change nothing."""
    before, views = _saved(state), _views(state)
    clone = getattr(state, "clone")()  # noqa: B009
    assert _saved(clone) == before and _views(clone) == views
    again = type(state).from_json(json.loads(before))  # type: ignore[attr-defined]
    assert _saved(again) == before and _views(again) == views
    for action in _junk(state, rng):
        with pytest.raises(IllegalAction):
            state.apply(action)
        assert _saved(state) == before and _views(state) == views
    # A legal action on the clone leaves the original alone.
    clone.apply(rng.choice(clone.legal_actions()))
    assert _saved(state) == before


@pytest.mark.parametrize(("spec", "preset"), CASES, ids=IDS)
def test_random_legal_play_through_the_registry(spec: Game, preset: str) -> None:
    """Thousands of random legal steps, deals following one another in a match."""
    played = 0
    seed = 0
    while played < STEPS:
        match, done = _play(spec, preset, seed, STEPS - played)
        played += done
        seed += 1
        saved = _dump(match.to_json())
        again = spec.match_from_json(json.loads(saved))
        assert _dump(again.to_json()) == saved
        assert _dump(again.standing()) == _dump(match.standing())
        for seat in [None, *range(match.current.num_players)]:
            assert _dump(again.view(seat)) == _dump(match.view(seat))


@pytest.mark.parametrize(("spec", "preset"), CASES, ids=IDS)
def test_deals_end_with_a_result_and_a_consistent_standing(spec: Game, preset: str) -> None:
    """Every deal played out ends with one score per seat; the standing adds them up."""
    match = spec.new_match(preset, None, 11)
    rng = random.Random(11)
    for _ in range(3):
        state = match.current
        while not state.is_over:
            match.apply(rng.choice(state.legal_actions()))
        result = state.result
        assert result is not None and len(result.scores) == state.num_players
        assert state.to_move is None and state.legal_actions() == []
        with pytest.raises(IllegalAction):
            match.apply("draw")
        standing = match.standing()
        assert standing["deals"][-1]["points"] == list(result.scores)
        if match.is_over:
            break
        match.next_deal()


@pytest.mark.parametrize(("spec", "preset"), CASES, ids=IDS)
def test_every_allowed_player_count_deals(spec: Game, preset: str) -> None:
    rules = spec.rules_from(preset)
    for players in spec.players_for(rules):
        match = spec.new_match(preset, players, 5)
        state = match.current
        assert state.num_players == players
        assert state.legal_actions() and state.to_move is not None
        json.dumps(match.view(None))


def _positions(
    spec: Game, preset: str, seed: int, count: int, every: int = 7
) -> Iterator[GameState]:
    """Decision points of random legal play (deals following one another)."""
    match = spec.new_match(preset, None, seed)
    rng = random.Random(seed)
    seen = 0
    step = 0
    while seen < count and not match.is_over:
        state = match.current
        if state.is_over:
            match.next_deal()
            continue
        if step % every == 0:
            seen += 1
            yield state
        match.apply(rng.choice(state.legal_actions()))
        step += 1


@pytest.mark.parametrize(("spec", "preset"), CASES, ids=IDS)
def test_a_deal_replays_from_its_log(spec: Game, preset: str) -> None:
    """A fresh deal of the same rules, seed and dealer, given the logged actions, is the
    same deal: same saved document, same views."""
    if spec.new_deal is None:
        pytest.skip(f"{spec.name} offers no new_deal hook")
    replayed = 0
    for state in _positions(spec, preset, 21, 12):
        doc = json.loads(_saved(state))
        if not {"seed", "dealer", "actions"} <= doc.keys() or doc.get("setup") or doc.get("start"):
            continue  # a deal built from a position, not dealt from a seed
        if not all(doc.get("active", [True])):
            continue  # a Tunisian deal with eliminated seats is dealt by its match
        rules = spec.rules_from(doc["rules"])
        fresh = spec.new_deal(rules, state.num_players, int(doc["seed"]), int(doc["dealer"]))
        for action in doc["actions"]:
            fresh.apply(action)
        assert _saved(fresh) == _saved(state) and _views(fresh) == _views(state)
        replayed += 1
    assert replayed, "no position was replayed"


@pytest.mark.parametrize(("spec", "preset"), CASES, ids=IDS)
def test_a_view_does_not_change_when_hidden_cards_are_dealt_again(spec: Game, preset: str) -> None:
    """The hidden cards dealt again (the game's determinizer): the seat's view is the
    same but for the public history, which a state built from a position lacks."""
    if spec.bots is None:
        pytest.skip(f"{spec.name} offers no determinizer to deal hidden cards again")
    sample = spec.bots().sample
    moved = 0
    for i, state in enumerate(_positions(spec, preset, 5, 10)):
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        world = sample(view, random.Random(i), None)
        again = world.view(seat)
        view.pop("history"), again.pop("history")
        assert _dump(again) == _dump(view)
        others = [s for s in range(state.num_players) if s != seat]
        moved += any(world.view(s)["hand"] != state.view(s)["hand"] for s in others)
    assert moved, "the hidden cards were never dealt differently"


@pytest.mark.parametrize(("spec", "preset"), CASES, ids=IDS)
def test_action_ids_round_trip(spec: Game, preset: str) -> None:
    """Every legal action has an id that maps back to it; the mask lists exactly those."""
    if spec.action_space is None:
        pytest.skip(f"{spec.name} has no integer action space")
    space = spec.action_space(spec.rules_from(preset))
    for state in _positions(spec, preset, 9, 25, every=3):
        legal = state.legal_actions()
        ids = [space.id_of(a) for a in legal]
        assert [space.action_from_id(i) for i in ids] == legal
        assert space.legal_action_ids(state) == sorted(ids)
        with pytest.raises(IllegalAction):
            space.action_from_id(space.size)
