"""Observation tensors (rami.rl.observation) come from the view only (brief: hidden
information stays hidden; M-7, T-1)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from test_bots import HIDERS

from rami.games import GAMES
from rami.rl.observation import encoder_for

TABLES = [
    ("marriage", "nepali", 4),
    ("marriage", "indian", 3),
    ("tunisian", "1v1", 2),
    ("tunisian", "2v2", 4),
]


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
def test_redealing_hidden_cards_leaves_the_observation_unchanged(
    game: str, preset: str, players: int
) -> None:
    """Other hands, the stock order and an unseen tiplu re-dealt: same tensor."""
    rng = random.Random(11)
    compared = 0
    for seed in range(3):
        state = GAMES[game].new_match({"preset": preset, "max_turns": 80}, players, seed).current
        incremental = None
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            view = state.view(seat)
            incremental = incremental or encoder_for(view)
            obs = incremental.encode(view)
            assert obs.shape == incremental.shape and obs.dtype == np.float32
            assert float(obs.min()) >= 0.0 and float(obs.max()) <= 1.0
            if rng.random() < 0.15:
                twin = HIDERS[game](state, seat, rng)
                fresh = encoder_for(view)  # reads the twin's history from the start
                assert np.array_equal(fresh.encode(twin.view(seat)), obs)
                plain = json.loads(json.dumps(view))
                assert np.array_equal(encoder_for(plain).encode(plain), obs)
                compared += 1
            state.apply(rng.choice(state.legal_actions()))
    assert compared >= 5


def test_rows_and_scalars_are_named_and_the_hand_is_row_zero() -> None:
    state = GAMES["tunisian"].new_match("1v1", 2, 3).current
    view = state.view(0)
    enc = encoder_for(view)
    assert enc.size == len(enc.rows) * 53 + len(enc.scalars)
    assert enc.rows[0] == "own hand"
    obs = enc.encode(view)
    hand = obs[:53] * np.asarray([2.0] * 52 + [4.0])
    assert round(float(hand.sum())) == len(view["hand"])
    other = encoder_for(state.view(1)).encode(state.view(1))
    assert not np.array_equal(obs, other)
