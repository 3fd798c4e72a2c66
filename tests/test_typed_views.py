"""Typed views (``rami.views.TypedView``): a seat's view as the engine builds it, read by
bots, the review and the RL encoders; the wire's JSON is made from it (``to_json``).

- the JSON read back (``Game.view_from_json``) is the typed view itself, and its JSON is
  the JSON, through a plain ``json`` round trip too (docs/protocol.md unchanged);
- a bot fed the typed view and one fed the JSON view make the same move, with the same
  decision key (the seed of its randomness), so old clients and tests that pass JSON
  play exactly as the engine's own loops do;
- the typed view holds nothing the seat may not see: tests/test_bots.py re-deals what
  a seat cannot see (other hands, the stock's order, an unseen tiplu, M-7) and finds
  the typed view equal;
- a seat's decision point (``Game.decision``), which the random bot is handed instead
  of the whole view, is the view's, and the bot's move from it is the same;
- bad input is a one-line ``InputError``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rami.bots import make_bot
from rami.bots.base import decision_key
from rami.cards import Card
from rami.engine import Action
from rami.errors import InputError
from rami.games import get_game
from rami.views import Decision, TypedView, typed_view

TABLES = [
    ("marriage", "nepali", 4),
    ("marriage", "indian", 3),
    ("tunisian", "1v1", 2),
    ("tunisian", "2v2", 4),
]


def _positions(game: str, preset: str, players: int, deals: int, turns: int) -> list[Any]:
    """States of seeded random play, each a separate clone (every seat's view is read)."""
    spec = get_game(game)
    rng = random.Random(11)
    out: list[Any] = []
    for seed in range(deals):
        state = spec.new_match({"preset": preset, "max_turns": turns}, players, seed).current
        while not state.is_over:
            out.append(state.clone())  # type: ignore[attr-defined]
            state.apply(rng.choice(state.legal_actions()))
        out.append(state)
    return out


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
def test_json_is_made_from_the_typed_view_and_reads_back_to_it(
    game: str, preset: str, players: int
) -> None:
    spec = get_game(game)
    assert spec.view_from_json is not None
    for state in _positions(game, preset, players, 2, 50):
        for seat in [None, *range(players)]:
            typed = spec.typed_view(state, seat)
            doc = state.view(seat)
            assert typed.to_json() == doc
            wire = json.loads(json.dumps(doc))  # nothing but JSON
            back = spec.view_from_json(wire)
            assert back == typed
            assert back.to_json() == doc
            assert all(isinstance(c, Card) for c in typed.hand or ())
            assert all(isinstance(c, Card) for c in typed.discard_pile)
            assert all(isinstance(a, Action) for a in typed.legal)
            assert list(typed.legal) == (
                state.legal_actions() if seat is not None and seat == state.to_move else []
            )


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
@pytest.mark.parametrize("level", ["random", "easy", "greedy", "search:2it", "ismcts:2it"])
def test_a_bot_moves_the_same_from_the_typed_view_and_from_json(
    game: str, preset: str, players: int, level: str
) -> None:
    spec = get_game(game)
    positions = [s for s in _positions(game, preset, players, 1, 40) if not s.is_over]
    for state in positions[:: 4 if level.startswith(("search", "ismcts")) else 1]:
        seat = state.to_move
        typed = spec.typed_view(state, seat)
        wire = json.loads(json.dumps(state.view(seat)))
        assert decision_key(typed) == decision_key(typed_view(wire))
        by_type = make_bot(game, level, 5).act(typed)
        by_json = make_bot(game, level, 5).act(wire)
        assert by_type == by_json
        assert by_type in state.legal_actions()


def test_bad_views_are_refused_in_one_line() -> None:
    for bad in ({"game": "chess"}, {"seat": 0}, {"game": "tunisian", "seat": 0}):
        with pytest.raises(InputError) as info:
            typed_view(bad)
        assert "\n" not in str(info.value)
    bot = make_bot("tunisian", "greedy", 1)
    with pytest.raises(InputError):
        bot.act({"game": "tunisian"})  # type: ignore[arg-type]
    marriage = get_game("marriage").new_match("nepali", 4, 1).current
    typed: TypedView = get_game("marriage").typed_view(marriage, 0)
    from rami.tunisian.view import tunisian_typed

    with pytest.raises(InputError, match="Tunisian"):
        tunisian_typed(typed)
    with pytest.raises(InputError, match="Tunisian"):
        tunisian_typed(marriage.view(0))


def test_a_game_without_a_typed_view_of_its_own_gets_the_common_part() -> None:
    """The plug-in toy game gives no ``seat_view``: its typed view is ``GenericView``,
    the common part read from its JSON (which it keeps as its ``to_json``), and the
    random bot plays from it as from the JSON."""
    from toy_support import toy_registered

    from rami.views import GenericView

    with toy_registered() as spec:
        assert spec.seat_view is None
        state = spec.new_match(spec.rules_from(None), 2, 3).current
        while not state.is_over:
            seat = state.to_move
            typed = spec.typed_view(state, seat)
            assert isinstance(typed, GenericView) and typed.to_json() == state.view(seat)
            assert list(typed.legal) == state.legal_actions()
            move = make_bot(spec.name, "random", 1).act(typed)
            assert move == make_bot(spec.name, "random", 1).act(state.view(seat))
            state.apply(move)


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
def test_the_decision_point_is_the_views_and_the_random_bot_moves_the_same_from_it(
    game: str, preset: str, players: int
) -> None:
    """``Game.decision`` (built by the kernel without the view) is what the seat's typed
    view shows of its decision point, for every seat, and the random bot, which reads
    nothing else (``decision_only``), makes from it the move it makes from the view."""
    spec = get_game(game)
    for state in _positions(game, preset, players, 2, 60):
        for seat in range(players):
            view = spec.typed_view(state, seat)
            decision = spec.decision(state, seat)
            assert decision == Decision.of(view)
            assert decision_key(decision) == decision_key(view)
        if state.is_over:
            continue
        seat = state.to_move
        bot = make_bot(game, "random", 7)
        assert bot.decision_only
        move = bot.act_on(spec.decision(state, seat))
        assert move == bot.act(spec.typed_view(state, seat)) and move in state.legal_actions()
    assert not make_bot(game, "greedy", 1).decision_only
    with pytest.raises(InputError):
        spec.decision(state, players)  # a seat the table does not have
    with pytest.raises(InputError, match="no legal action"):
        make_bot(game, "random", 1).act_on(Decision.of(spec.typed_view(state, 0)))


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
def test_each_field_of_the_positional_typed_view_is_the_states(
    game: str, preset: str, players: int
) -> None:
    """The builders fill the views positionally (one C call): each field by name is the
    state's public value it stands for."""
    spec = get_game(game)
    for state in _positions(game, preset, players, 1, 60):
        for seat in range(players):
            v: Any = spec.typed_view(state, seat)
            assert spec.viewer()(state, seat) == v  # the builder itself, lazy hook resolved
            assert (v.game, v.rules, v.players, v.seat) == (game, state.rules, players, seat)
            assert (v.dealer, v.to_move, v.phase, v.turn) == (
                state.dealer,
                state.to_move,
                state.phase,
                state.turn,
            )
            assert len(v.history) == len(state.events)
            assert v.legal == (tuple(state.legal_actions()) if seat == state.to_move else ())
            assert v.legal_texts == tuple(str(a) for a in v.legal)
            if game == "tunisian":
                assert v.mode == state.rules.mode and v.first_round == state.first_round
                assert v.stock_size == state.stock_size and v.table == state.table
                assert (v.hand_sizes, v.active, v.opened, v.opening_values) == (
                    state.hand_sizes,
                    state.active,
                    state.opened,
                    state.opening_values,
                )
                assert v.threshold == state.threshold and v.result == state.result
                if not state.is_over:
                    assert v.staged == frozenset(state.staged_melds)
                    assert (v.staged_value, v.must_open) == (state.staged_value, state.must_open)
                assert sorted(v.hand) == sorted(state.hand(seat))
            else:
                assert v.stock_size == len(state.stock) and v.tiplu_picked == state.tiplu_picked
                assert v.seen == state.seen[seat] and list(v.discard_pile) == state.pile
                assert [e.hand_size for e in v.seats] == state.sizes
                assert [e.seen for e in v.seats] == state.seen
                assert [e.path for e in v.seats] == state.path
                assert [list(e.melds) for e in v.seats] == state.melds
                assert len(v.hand) == state.sizes[seat]
