"""IS-MCTS bots (``hard``, ``expert``) and the opponent model behind them.

The views-only property (hidden re-deals give the same move) is checked for these bots
with the others in ``tests/test_bots.py``; here: the tree covers every kind of decision,
an iteration budget is deterministic, the time budget is kept, and the opponent model
reads picks, refusals and discards (M-5, T-8) and wild cards kept by seen players (M-7).
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from rami.bots import make_bot
from rami.bots.ismcts import ISMCTSBot, game_for
from rami.bots.opponent_model import affinity, model_of
from rami.cards import Card
from rami.marriage.determinize import sample_state as marriage_sample
from rami.marriage.game import new_deal as marriage_deal
from rami.sampling import deal_weighted
from rami.tunisian.determinize import sample_state as tunisian_sample
from rami.tunisian.game import new_deal as tunisian_deal


def _c(text: str) -> int:
    return int(Card.parse(text))


def _positions(game: str, seeds: range, players: int = 4) -> Any:
    """Views of seat-to-move positions from greedy play (plain JSON)."""
    for seed in seeds:
        if game == "marriage":
            state = marriage_deal({"preset": "nepali", "max_turns": 200}, players, seed)
        else:
            state = tunisian_deal({"preset": "1v1", "max_turns": 200}, 2, seed)
        bots = [make_bot(game, "greedy", s) for s in range(state.num_players)]
        while not state.is_over:
            view = json.loads(json.dumps(state.view(state.to_move)))
            yield state, view
            state.apply(bots[state.to_move].act(view))


def test_marriage_tree_covers_draw_take_show_wait_and_discards() -> None:
    """M-5, M-6: the root offers draw and take, show or wait (a discard), and discards."""
    game = game_for("marriage")
    kinds: set[frozenset[str]] = set()
    for _state, view in _positions("marriage", range(6)):
        if len(view["legal_actions"]) < 2 or view["phase"] == "expose":
            continue
        model = model_of(view)
        moves = game.tree_moves(game.observe(view), model, 6)
        assert moves and all(str(m) in view["legal_actions"] for m in moves)
        assert len(set(moves)) == len(moves)
        kinds.add(frozenset(m.kind for m in moves))
    assert frozenset({"draw", "take"}) in kinds
    assert frozenset({"show", "discard"}) in kinds
    assert frozenset({"discard"}) in kinds


def test_tunisian_tree_covers_draw_take_open_or_wait_and_discards() -> None:
    """T-6, T-8: draw or take, open now or wait (discard), discards."""
    game = game_for("tunisian")
    kinds: set[frozenset[str]] = set()
    for _state, view in _positions("tunisian", range(8)):
        if len(view["legal_actions"]) < 2:
            continue
        moves = game.tree_moves(game.observe(view), model_of(view), 6)
        assert moves and all(str(m) in view["legal_actions"] for m in moves)
        kinds.add(frozenset(m.kind for m in moves))
    assert frozenset({"draw", "take"}) in kinds
    assert any({"meld", "discard"} <= k for k in kinds)
    assert frozenset({"discard"}) in kinds


@pytest.mark.parametrize("game", ["marriage", "tunisian"])
def test_iteration_budget_is_deterministic_and_spent(game: str) -> None:
    searched = 0
    for _state, view in _positions(game, range(3)):
        if len(view["legal_actions"]) < 3 or searched >= 4:
            continue
        a, b = make_bot(game, "ismcts:12it", 3), make_bot(game, "ismcts:12it", 3)
        assert isinstance(a, ISMCTSBot) and isinstance(b, ISMCTSBot)
        move = a.act(view)
        assert move == b.act(view)
        assert str(move) in view["legal_actions"]
        if a.last_iterations:
            # with the kit's ``tree_settle`` (a, b): a clear decision stops after 12·a
            # iterations, a close one goes on to 12·b
            settle = game_for(game).tree_settle
            spent = {12} if settle is None else {round(12 * settle[0]), round(12 * settle[1])}
            assert a.last_iterations in spent
            assert a.last_iterations == b.last_iterations
            assert a.last_root is not None
            assert sum(ch.visits for ch in a.last_root.children.values()) == a.last_iterations
            searched += 1
    assert searched >= 2


def test_iterations_go_where_the_decision_is_close() -> None:
    """``tree_settle``: with a budget of N, clear decisions stop at a·N, close ones
    (a move within a standard error of beating greedy's) go on to b·N."""
    settle = game_for("marriage").tree_settle
    assert settle is not None and settle[0] < 1.0 < settle[1]
    spent: set[int] = set()
    for _state, view in _positions("marriage", range(4)):
        if len(view["legal_actions"]) < 3 or len(spent) == 2:
            continue
        bot = make_bot("marriage", "ismcts:16it", 5)
        assert isinstance(bot, ISMCTSBot)
        bot.act(view)
        if bot.last_iterations and bot.last_root is not None:
            spent.add(bot.last_iterations)
            if bot.last_iterations < 16:  # stopped at the checkpoint: nothing was close
                assert not bot._close(bot.last_root)
    assert spent == {round(16 * settle[0]), round(16 * settle[1])}


def test_time_budget_is_kept() -> None:
    """A 40 ms budget stops in time (a generous margin: CI machines are busy;
    ``bench/bots.py`` measures p95 against the budget)."""
    bot = make_bot("marriage", "ismcts:40ms", 1)
    assert isinstance(bot, ISMCTSBot)
    times = []
    for _state, view in _positions("marriage", range(2)):
        if view["seat"] != 0 or len(view["legal_actions"]) < 3 or len(times) >= 6:
            continue
        start = time.perf_counter()
        bot.act(view)
        if bot.last_iterations:
            times.append(time.perf_counter() - start)
    assert times and max(times) < 1.0
    assert sorted(times)[len(times) // 2] < 0.3


# ------------------------------------------------------------------- opponent model


def _marriage_view_with_history(history: list[dict[str, Any]]) -> dict[str, Any]:
    state = marriage_deal("nepali", 4, 1)
    view = json.loads(json.dumps(state.view(0)))
    view["history"] = history
    return view


def test_model_reads_takes_refusals_and_discards() -> None:
    """M-5: a take is public, and so is a refusal (drawing blind over a discard)."""
    history = [
        {"seat": 0, "move": "discard 7♥"},
        {"seat": 1, "move": "take 7♥"},
        {"seat": 1, "move": "discard K♠"},
        {"seat": 2, "move": "draw"},
        {"seat": 2, "move": "discard 2♣"},
    ]
    model = model_of(_marriage_view_with_history(history))
    assert model.next_seat == 1
    assert model.took[1] == [_c("7♥")] and model.discarded[1] == [_c("K♠")]
    assert model.refused[2] == [_c("K♠")] and model.discarded[2] == [_c("2♣")]
    w = model.weights()
    assert w[1][_c("8♥")] > 1.5 and w[1][_c("7♠")] > 1.0  # neighbour, same rank
    assert w[1][_c("Q♠")] < 1.0  # next to its own discard
    assert w[2][_c("K♠")] < 1.0  # refused
    assert w[3][_c("8♥")] == 1.0  # nothing known
    # Do not feed the next player what it collects (seat 1 took the 7♥).
    assert model.danger(_c("8♥")) > 0.5 and model.danger(_c("7♥")) > 0.5
    assert model.danger(_c("3♣")) == 0.0


def test_model_puts_wild_cards_in_seen_hands() -> None:
    """M-7: a player who has seen keeps its wild cards; we weight them into its hand."""
    view = _marriage_view_with_history([])
    view["seats"][2]["seen"] = True
    wilds = frozenset({_c("5♦"), _c("5♥")})
    w = model_of(view, wilds).weights()
    assert w[2][_c("5♦")] > 2.0 and w[3][_c("5♦")] == 1.0


def test_affinity_is_symmetric_and_about_melds() -> None:
    for a in range(52):
        for b in range(52):
            assert affinity(a, b) == affinity(b, a)
    assert affinity(_c("A♠"), _c("K♠")) > 0  # the ace is high and low (M-4, T-4)
    assert affinity(_c("A♠"), _c("9♠")) == 0 and affinity(_c("JK"), _c("A♠")) == 0


def test_deal_weighted_sizes_and_bias() -> None:
    rng = random.Random(1)
    cards = list(range(40))
    hot = [4.0 if c < 5 else 1.0 for c in range(53)]
    hits = 0
    for _ in range(300):
        rng.shuffle(cards)
        got = deal_weighted(cards, [5, 5, 30], [hot, None, None], rng)
        assert [len(b) for b in got] == [5, 5, 30]
        assert sorted(c for b in got for c in b) == list(range(40))
        hits += sum(1 for c in got[0] if c < 5)
    # Uniform: 5 * 5/40 = 0.625 of the five hot cards a deal in bucket 0; weighted: more.
    assert hits / 300 > 1.2


@pytest.mark.parametrize("game", ["marriage", "tunisian"])
def test_weighted_samples_still_show_the_seat_its_view(game: str) -> None:
    sample = marriage_sample if game == "marriage" else tunisian_sample
    checked = 0
    for _state, view in _positions(game, range(2)):
        if checked >= 12 or view["phase"] == "expose":
            continue
        model = model_of(view)
        sampled = sample(view, random.Random(checked), model.weights())
        sampled.check_invariants()
        got = sampled.view(view["seat"])
        for key in view:
            if key != "history":
                assert got[key] == view[key], key
        checked += 1
    assert checked >= 10


def test_marriage_tree_leaf_is_exact_at_the_end_and_a_flatter_race_before() -> None:
    """M-13: a finished deal is worth its nets; before that the tree's leaf (scale 3)
    weighs the race less steeply than ``search``'s (scale 1)."""
    from rami.marriage import greedy_bot as g

    kit = game_for("marriage")
    assert kit.tree_leaf is g.tree_leaf_value
    differ = False
    for state, _view in _positions("marriage", range(2)):
        if state.turn % 5 == 0 and not state.is_over:
            flat = [g.tree_leaf_value(state, s) for s in range(state.num_players)]
            assert flat == [g.leaf_value(state, s, g.TREE_LEAF_SCALE) for s in range(4)]
            assert abs(sum(flat)) < 1e-6  # the expected ledger sums to zero
            differ |= flat != [g.leaf_value(state, s) for s in range(4)]
    assert differ
    state = marriage_deal({"preset": "nepali"}, 4, 1)
    bots = [make_bot("marriage", "greedy", s) for s in range(4)]
    while not state.is_over:
        state.apply(bots[state.to_move].act(state.view(state.to_move)))
    assert state.result is not None
    assert [g.tree_leaf_value(state, s) for s in range(4)] == [
        float(x) for x in state.result.scores
    ]
