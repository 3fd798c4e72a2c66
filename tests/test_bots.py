"""Bots: legal moves only, views only, and the same move for the same view.

Every bot plays through ``state.view(seat)`` (a JSON-ready dict) and nothing else;
two deals that differ only in cards a seat cannot see (other hands, the stock's order,
an unseen tiplu, M-7) give that seat the identical view, so every seeded bot makes the
identical move in both.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from rami.bots import LEVELS, Bot, check_spec, make_bot
from rami.cards import CARDS, KINDS, from_counts
from rami.engine import Action
from rami.errors import InputError
from rami.games import get_game
from rami.marriage.game import MarriageState
from rami.marriage.game import new_deal as marriage_deal
from rami.marriage.melds import wild_kinds
from rami.tunisian.game import TunisianState
from rami.tunisian.game import new_deal as tunisian_deal

# Search bots in tests think for two samples: the same code path, a fraction of the time.
BOTS = ("random", "greedy", "easy", "search:2it", "ismcts:3it")

TABLES: list[tuple[str, str, int]] = [
    ("marriage", "nepali", 4),
    ("marriage", "nepali", 2),
    ("marriage", "indian", 4),
    ("tunisian", "1v1", 2),
    ("tunisian", "ffa", 4),
    ("tunisian", "2v2", 4),
]


def deal(game: str, preset: str, players: int, seed: int, max_turns: int) -> Any:
    rules = {"preset": preset, "max_turns": max_turns}
    if game == "marriage":
        return marriage_deal(rules, players, seed, seed % players)
    return tunisian_deal(rules, players, seed, seed % players)


class Strict:
    """Hands a bot its view as plain JSON data and checks its answer is legal."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.decisions = 0

    def act(self, state: Any) -> Action:
        seat = state.to_move
        view = state.view(seat)
        plain = json.loads(json.dumps(view))  # nothing but JSON: no path to the state
        action = self.bot.act(plain)
        assert isinstance(action, Action)
        assert action in state.legal_actions(), f"{self.bot.name} played illegal {action}"
        self.decisions += 1
        return action


def play(state: Any, players: list[Strict], limit: int = 10_000) -> None:
    for _ in range(limit):
        if state.is_over:
            return
        state.apply(players[state.to_move].act(state))
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
@pytest.mark.parametrize("level", BOTS)
def test_bots_play_only_legal_moves_from_views(
    game: str, preset: str, players: int, level: str
) -> None:
    """Every bot, every table: whole (capped) deals of legal moves chosen from views."""
    searching = level.startswith(("search", "ismcts"))
    turns = 24 if searching else 150
    deals = 1 if searching or game == "marriage" else 2
    total = 0
    for seed in range(deals):
        bots = [Strict(make_bot(game, level, 100 * seed + s)) for s in range(players)]
        state = deal(game, preset, players, seed, turns)
        play(state, bots)
        assert state.result is not None
        total += sum(b.decisions for b in bots)
    assert total >= 20


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
def test_mixed_table_many_decisions_all_legal(game: str, preset: str, players: int) -> None:
    """Greedy, easy and random together over several deals: hundreds of legal decisions."""
    levels = ["greedy", "easy", "random", "greedy"][:players]
    total = 0
    for seed in range(5):
        bots = [Strict(make_bot(game, levels[s], seed + s)) for s in range(players)]
        state = deal(game, preset, players, 50 + seed, 120)
        play(state, bots)
        total += sum(b.decisions for b in bots)
    assert total >= 150


# ------------------------------------------------------------------- hidden information


def hide_tunisian(state: TunisianState, seat: int, rng: random.Random) -> TunisianState:
    """A clone with the other hands and the stock redealt among themselves."""
    other = state.clone()
    pool = list(other._stock)
    others = [s for s in range(state.num_players) if s != seat]
    for s in others:
        pool += from_counts(other._hands[s])
    rng.shuffle(pool)
    for s in others:
        size = other._sizes[s]
        hand = [0] * KINDS
        for c in pool[:size]:
            hand[c] += 1
        del pool[:size]
        other._hands[s] = hand
    other._stock = pool
    other._legal = None
    return other


def hide_marriage(state: MarriageState, seat: int, rng: random.Random) -> MarriageState:
    """A clone with the other hands, the stock and (if ``seat`` has not seen) the tiplu
    redealt among themselves (M-7)."""
    other = state.clone()
    pool = list(other.stock)
    others = [s for s in range(state.num_players) if s != seat]
    for s in others:
        pool += [c for c in range(52) for _ in range(other.hands[s][c])]
    swap_tiplu = other.tiplu is not None and not other.seen[seat]
    if swap_tiplu:
        assert other.tiplu is not None
        pool.append(int(other.tiplu))
    rng.shuffle(pool)
    if swap_tiplu:
        other._tiplu = CARDS[pool.pop()]
        if other.tiplu_picked:
            other._wilds = wild_kinds(other.tiplu)
    for s in others:
        hand = [0] * 53
        for c in pool[: other.sizes[s]]:
            hand[c] += 1
        del pool[: other.sizes[s]]
        other.hands[s] = hand
    other._stock = pool
    other._legal = None
    return other


HIDERS: dict[str, Callable[[Any, int, random.Random], Any]] = {
    "marriage": hide_marriage,
    "tunisian": hide_tunisian,
}


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
def test_hidden_cards_never_change_a_move(game: str, preset: str, players: int) -> None:
    """M-7 / T-1: deals differing only in what a seat cannot see give it the same move.

    Positions come from greedy play; at each sampled decision the hidden cards are
    redealt (other hands, stock order, an unseen tiplu): the seat's view must be
    identical and every bot (search included) must pick the identical move.
    """
    rng = random.Random(7)
    bots = {level: make_bot(game, level, 11) for level in ("random", "greedy", "easy")}
    searchers = [make_bot(game, "search:2it", 11), make_bot(game, "ismcts:4it", 11)]
    driver = [make_bot(game, "greedy", s) for s in range(players)]
    compared = searched = 0
    for seed in range(2):
        state = deal(game, preset, players, 300 + seed, 40)
        while not state.is_over:
            seat = state.to_move
            view = state.view(seat)
            if rng.random() < 0.3 and len(view["legal_actions"]) > 1:
                twin = HIDERS[game](state, seat, rng)
                twin_view = twin.view(seat)
                assert twin_view == view
                see = get_game(game).typed_view  # what the engine's loops hand the bots
                assert see(twin, seat) == see(state, seat)
                for level, bot in bots.items():
                    assert bot.act(view) == bot.act(twin_view), level
                if searched < 3:
                    for search in searchers:
                        assert search.act(view) == search.act(twin_view), search.name
                    searched += 1
                compared += 1
            state.apply(driver[seat].act(view))
    assert compared >= 5


def test_hidden_tiplu_differs_but_unseen_bot_moves_the_same() -> None:
    """An unseen player's bot cannot tell two tiplus apart (M-7): same view, same move."""
    rng = random.Random(3)
    for seed in range(40):
        state = marriage_deal("nepali", 4, seed)
        driver = [make_bot("marriage", "greedy", s) for s in range(4)]
        while not state.is_over and not any(state.seen):
            state.apply(driver[state.to_move].act(state.view(state.to_move)))
        if state.is_over or not state.tiplu_picked:
            continue
        while not state.is_over and state.seen[state.to_move]:
            state.apply(driver[state.to_move].act(state.view(state.to_move)))
        if state.is_over:
            continue
        seat = state.to_move
        twin = hide_marriage(state, seat, rng)
        if twin.tiplu == state.tiplu:
            continue
        assert twin.view(seat) == state.view(seat)
        see = get_game("marriage").typed_view
        assert see(twin, seat) == see(state, seat)
        for level in ("search:3it", "ismcts:6it"):
            bot = make_bot("marriage", level, 5)
            assert bot.act(state.view(seat)) == bot.act(twin.view(seat)), level
        return
    pytest.skip("no position with an unseen player to move after a tiplu was picked")


# ----------------------------------------------------------------------- determinism


@pytest.mark.parametrize("game", ["marriage", "tunisian"])
def test_same_seed_same_moves_and_seed_matters_for_random(game: str) -> None:
    players = 4 if game == "marriage" else 2
    state = deal(game, "nepali" if game == "marriage" else "1v1", players, 9, 60)
    for _ in range(8):
        state.apply(make_bot(game, "greedy", 0).act(state.view(state.to_move)))
    view = state.view(state.to_move)
    for level in ("random", "greedy", "easy", "search:3it", "ismcts:5it"):
        assert make_bot(game, level, 4).act(view) == make_bot(game, level, 4).act(view)
    randoms = {str(make_bot(game, "random", s).act(view)) for s in range(30)}
    assert len(randoms) > 1 or len(view["legal_actions"]) == 1


def test_levels_and_names() -> None:
    from rami.bots.ismcts import ISMCTSBot

    assert set(LEVELS) == {
        "random",
        "greedy",
        "search",
        "ismcts",
        "easy",
        "medium",
        "hard",
        "expert",
    }
    assert make_bot("tunisian", "medium", 1).name == "medium"
    hard, expert = make_bot("marriage", "hard", 1), make_bot("marriage", "expert", 1)
    assert hard.name == "hard" and expert.name == "expert"
    assert isinstance(hard, ISMCTSBot) and isinstance(expert, ISMCTSBot)
    assert hard.iterations is not None and expert.iterations is not None
    assert expert.iterations > hard.iterations
    assert make_bot("marriage", "search:64it", 1).name == "search:64it"
    assert make_bot("tunisian", "expert:300ms", 1).name == "expert:300ms"
    for bad in ("master", "greedy:50ms", "search:fast", "search:0it", "hard:-3ms", ""):
        with pytest.raises(InputError):
            check_spec("marriage", bad)
    with pytest.raises(InputError):
        make_bot("chess", "greedy", 1)


def test_a_bot_refuses_a_view_without_legal_actions() -> None:
    state = tunisian_deal("1v1", 2, 1)
    waiting = 1 - state.to_move
    with pytest.raises(InputError):
        make_bot("tunisian", "greedy", 0).act(state.view(waiting))


def test_search_keeps_its_time_budget() -> None:
    """A 30 ms budget: the search stops in time (generous margin: CI machines are busy;
    ``bench/bots.py`` measures p95 against the budget)."""
    import time

    from rami.bots.search import SearchBot

    state = tunisian_deal("1v1", 2, 21)
    bot = make_bot("tunisian", "search:30ms", 1)
    assert isinstance(bot, SearchBot)
    driver = make_bot("tunisian", "greedy", 1)
    times = []
    while not state.is_over and len(times) < 6:
        view = state.view(state.to_move)
        if state.to_move == 0 and len(view["legal_actions"]) > 2:
            start = time.perf_counter()
            action = bot.act(view)
            if bot.last_iterations:
                times.append(time.perf_counter() - start)
                bot.last_iterations = 0
        else:
            action = driver.act(view)
        state.apply(action)
    assert times and max(times) < 1.0
    assert sorted(times)[len(times) // 2] < 0.3


# ------------------------------------------------------------------- greedy knowledge


def test_greedy_marriage_never_discards_a_known_wild_card() -> None:
    """M-7: once seen, wild cards are maal and jokers; greedy keeps them."""
    bots = [make_bot("marriage", "greedy", s) for s in range(4)]
    checked = 0
    for seed in range(12):
        state = marriage_deal("nepali", 4, 500 + seed)
        while not state.is_over:
            seat = state.to_move
            view = state.view(seat)
            action = bots[seat].act(view)
            if action.kind == "discard" and state.seen[seat]:
                wilds = set(view["wild_cards"])
                naturals = [c for c in view["hand"] if c not in wilds]
                if naturals and str(action.cards[0]) != view.get("taken"):
                    assert str(action.cards[0]) not in wilds
                    checked += 1
            state.apply(action)
    assert checked > 0


def test_greedy_tunisian_opens_when_it_can_and_never_discards_a_joker() -> None:
    bots = [make_bot("tunisian", "greedy", s) for s in range(2)]
    opened = 0
    for seed in range(10):
        state = tunisian_deal("1v1", 2, 900 + seed)
        while not state.is_over:
            seat = state.to_move
            view = state.view(seat)
            action = bots[seat].act(view)
            if action.kind == "discard" and len(view["hand"]) > 1:
                jokerless = [c for c in view["hand"] if c != "JK"]
                if jokerless:
                    assert str(action.cards[0]) != "JK"
            state.apply(action)
        opened += sum(state.opened)
    assert opened >= 10


# ------------------------------------------------------------------- determinization


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
def test_sampled_deals_show_the_seat_the_same_view(game: str, preset: str, players: int) -> None:
    """``determinize.sample_state(view, rng)``: a full deal whose view for the seat is the
    view it was built from (history aside), and the same sample for the same view."""
    from rami.marriage.determinize import sample_state as marriage_sample
    from rami.tunisian.determinize import sample_state as tunisian_sample

    sample = marriage_sample if game == "marriage" else tunisian_sample
    rng = random.Random(5)
    driver = [make_bot(game, "easy", s) for s in range(players)]
    checked = 0
    for seed in range(2):
        state = deal(game, preset, players, 700 + seed, 80)
        while not state.is_over:
            seat = state.to_move
            view = state.view(seat)
            if rng.random() < 0.35:
                sampled = sample(view, random.Random(checked))
                sampled.check_invariants()
                again = sample(view, random.Random(checked))
                assert [again.view(s)["hand"] for s in range(players)] == [
                    sampled.view(s)["hand"] for s in range(players)
                ]
                got = sampled.view(seat)
                for key in view:
                    if key != "history":
                        assert got[key] == view[key], key
                checked += 1
            state.apply(driver[seat].act(view))
    assert checked >= 10


def test_a_game_without_bot_hooks_gets_only_the_random_bot() -> None:
    """Bots come through the registry: a game with no ``bots`` kit plays ``random`` only."""
    import dataclasses

    from rami.games import get_game, register, unregister

    register(dataclasses.replace(get_game("tunisian"), name="kitless", bots=None))
    try:
        state = tunisian_deal("1v1", 2, 3)
        view = state.view(state.to_move)
        assert str(make_bot("kitless", "random", 1).act(view)) in view["legal_actions"]
        for level in ("greedy", "easy", "search", "hard:3it", "expert"):
            with pytest.raises(InputError, match="only the random bot"):
                make_bot("kitless", level, 1)
            with pytest.raises(InputError, match="only the random bot"):
                check_spec("kitless", level)
    finally:
        unregister("kitless")
