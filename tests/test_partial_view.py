"""``Game.partial_view``: only some keys of a seat's view, with the whole view's values
(what the random bot is given by the Gymnasium env), for every game that has the hook."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from rami.bots import make_bot
from rami.bots.random_bot import RandomBot
from rami.errors import InputError
from rami.games import get_game

TABLES = [("marriage", "nepali", 4), ("marriage", "indian", 3), ("tunisian", "1v1", 2)]
TABLES += [("tunisian", "2v2", 4)]
KEY_SETS = [
    RandomBot.view_keys,
    frozenset(("game", "to_move", "hand")),
    frozenset(("legal_actions",)),
    frozenset(("seat", "seats", "history")),  # "seats" is not built alone: the whole view's
    frozenset(("tiplu", "must_open", "turn")),  # keys a game or a position lacks stay out
]


def _positions(game: str, preset: str, players: int, deals: int) -> list[object]:
    rng = random.Random(7)
    spec = get_game(game)
    out = []
    for seed in range(deals):
        state = spec.new_match({"preset": preset, "max_turns": 60}, players, seed).current
        while not state.is_over:
            out.append(state.clone())  # type: ignore[attr-defined]
            state.apply(rng.choice(state.legal_actions()))
        out.append(state)
    return out


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
def test_partial_view_has_the_whole_views_values(game: str, preset: str, players: int) -> None:
    spec = get_game(game)
    partial = spec.partial_view
    assert partial is not None
    compared = 0
    for state in _positions(game, preset, players, 3):
        for seat in range(players):
            full: Mapping[str, object] = state.view(seat)  # type: ignore[attr-defined]
            for keys in KEY_SETS:
                part: Mapping[str, object] = partial(state, seat, keys)
                assert dict(part) == {k: full[k] for k in keys if k in full}
                compared += 1
    assert compared > 1000


@pytest.mark.parametrize(("game", "preset", "players"), TABLES[::2])
def test_random_bot_moves_the_same_from_either_view(game: str, preset: str, players: int) -> None:
    """The random bot's move is a function of the keys it names (``view_keys``)."""
    spec = get_game(game)
    assert spec.partial_view is not None
    for state in _positions(game, preset, players, 2):
        seat = state.to_move  # type: ignore[attr-defined]
        if seat is None:
            continue
        bot, twin = make_bot(game, "random", 5), make_bot(game, "random", 5)
        keys = bot.view_keys
        assert keys is not None
        assert bot.act(state.view(seat)) == twin.act(spec.partial_view(state, seat, keys))  # type: ignore[attr-defined]


def test_partial_view_refuses_a_bad_seat_as_the_view_does() -> None:
    for game, preset, players in TABLES[::2]:
        spec = get_game(game)
        assert spec.partial_view is not None
        state = spec.new_match({"preset": preset}, players, 1).current
        for seat in (-1, players, True):
            with pytest.raises(InputError):
                state.view(seat)
            with pytest.raises(InputError):
                spec.partial_view(state, seat, RandomBot.view_keys or frozenset())
