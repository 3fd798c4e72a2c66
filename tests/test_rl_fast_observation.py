"""The fast encoder (``Encoder.encode_state``, no view built) equals the reference
encoder on the view (``Encoder.encode(state.view(seat))``) and stays view-only
(brief: hidden information stays hidden; M-7, T-1)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_bots import HIDERS

from rami.games import GAMES
from rami.rl.observation import Encoder, Obs, encoder_for
from rami.views import GameView, own_seat

TABLES = [
    ("marriage", "nepali", 2),
    ("marriage", "nepali", 4),
    ("marriage", "indian", 3),
    ("marriage", "indian", 6),
    ("tunisian", "1v1", 2),
    ("tunisian", "ffa", 4),
    ("tunisian", "2v2", 4),
]


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
def test_fast_encoder_equals_the_reference_on_random_positions(
    game: str, preset: str, players: int
) -> None:
    """Every seat, every position of random deals (incremental, as the envs call it)."""
    rng = random.Random(5)
    positions = 0
    fast = reference = None
    for seed in range(100):
        if positions >= 2000:
            break
        state = GAMES[game].new_match({"preset": preset, "max_turns": 60}, players, seed).current
        if fast is not None and reference is not None:
            fast.reset()
            reference.reset()
        while True:
            seats = range(players) if rng.random() < 0.3 else [rng.randrange(players)]
            for seat in seats:
                view = state.view(seat)
                fast = fast or encoder_for(view)
                reference = reference or encoder_for(view)
                expected = reference.encode(view)
                got = fast.encode_state(state, seat)
                assert got.dtype == np.float32
                assert np.array_equal(got, expected), (seed, seat, state.turn)
                positions += 1
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
    assert positions >= 2000


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
def test_fast_encoder_ignores_redealt_hidden_cards(game: str, preset: str, players: int) -> None:
    """Other hands, the stock order and an unseen tiplu re-dealt: same fast tensor."""
    rng = random.Random(13)
    compared = 0
    for seed in range(2):
        state = GAMES[game].new_match({"preset": preset, "max_turns": 60}, players, seed).current
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            if rng.random() < 0.1:
                enc = encoder_for(state.view(seat))
                twin = HIDERS[game](state, seat, rng)
                obs = enc.encode_state(state, seat)
                assert np.array_equal(encoder_for(twin.view(seat)).encode_state(twin, seat), obs)
                compared += 1
            state.apply(rng.choice(state.legal_actions()))
    assert compared >= 3


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
def test_kept_planes_follow_whole_matches_without_reset(
    game: str, preset: str, players: int
) -> None:
    """One encoder over whole matches (deal after deal, no ``reset()``), every seat
    observed at random intervals (so many events pile up between a seat's calls),
    to the end of each deal: the kept planes equal a fresh ``encode(view)`` every time,
    and an observation handed out earlier never changes afterwards."""
    rng = random.Random(17)
    positions = deals = 0
    fast = None
    for seed in range(2):
        match = GAMES[game].new_match({"preset": preset, "max_turns": 100}, players, seed)
        state = match.current
        handed: list[tuple[np.ndarray, np.ndarray]] = []
        while True:
            for seat in range(players):
                if rng.random() < 0.25 or state.is_over:
                    view = state.view(seat)
                    fast = fast or encoder_for(view)
                    got = fast.encode_state(state, seat)
                    assert np.array_equal(got, encoder_for(view).encode(view)), (seed, seat)
                    if rng.random() < 0.05:
                        handed.append((got, got.copy()))
                    positions += 1
            if state.is_over:
                deals += 1
                if match.is_over or deals % 3 == 0:
                    break
                state = match.next_deal()
                continue
            state.apply(rng.choice(state.legal_actions()))
        assert all(np.array_equal(a, b) for a, b in handed)
    assert deals >= 3 and positions >= 200


@pytest.mark.parametrize(("game", "preset", "players"), TABLES)
def test_kept_planes_and_a_redealt_twin_share_an_encoder(
    game: str, preset: str, players: int
) -> None:
    """A re-dealt twin of the position encoded by the same encoder (whose planes follow
    the real deal) gives the same tensor, and the real deal's next call is still right:
    another state's events rebuild the planes, they never leak hidden cards."""
    rng = random.Random(23)
    compared = 0
    for seed in range(2):
        state = GAMES[game].new_match({"preset": preset, "max_turns": 80}, players, seed).current
        enc = encoder_for(state.view(0))
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            obs = enc.encode_state(state, seat)
            if rng.random() < 0.1:
                twin = HIDERS[game](state, seat, rng)
                assert np.array_equal(enc.encode_state(twin, seat), obs)
                assert np.array_equal(enc.encode_state(state, seat), obs)
                compared += 1
            state.apply(rng.choice(state.legal_actions()))
    assert compared >= 3


@pytest.mark.parametrize(("game", "preset", "players"), [TABLES[1], TABLES[4]])
def test_an_encoder_in_use_pickles_and_copies(game: str, preset: str, players: int) -> None:
    """Envs are pickled or deep-copied (vector envs, checkpoints): an encoder holding kept
    planes copies without them and the copy gives the same tensors."""
    import copy
    import pickle

    rng = random.Random(3)
    state = GAMES[game].new_match({"preset": preset, "max_turns": 60}, players, 1).current
    enc = encoder_for(state.view(0))
    for _ in range(30):
        enc.encode_state(state, 0)
        state.apply(rng.choice(state.legal_actions()))
    want = enc.encode_state(state, 0)
    for twin in (pickle.loads(pickle.dumps((enc, state))), copy.deepcopy((enc, state))):
        assert np.array_equal(twin[0].encode_state(twin[1], 0), want)


class _PlugInEncoder(Encoder):
    """A plug-in game's encoder: a Python subclass of the base (compiled in the accelerated
    build, ``allow_interpreted_subclasses``), with constructor arguments of its own."""

    def __init__(self, players: int, label: str) -> None:
        common = ("own hand", "discard pile (all)", "top", "2nd", "3rd", "unseen cards")
        rows = common + tuple(
            f"seat +{r}: {name}" for r in range(players) for name in ("known", "discarded")
        )
        super().__init__(
            players,
            rows,
            ("turn",),
            [3.0] * 52,
            frozenset({0, 1, 5} | set(range(6, len(rows)))),
            frozenset(("meld", "add")),
            known_rows=[6 + 2 * r for r in range(players)],
            discard_rows=[7 + 2 * r for r in range(players)],
            seen_rows=[0, 1],
            unseen_row=5,
        )
        self.init_args = (players, label)
        self.label = label

    def encode(self, view: GameView) -> Obs:
        flat = [self._rows[0][c] for c in view.get("hand") or ()]
        flat += [self._rows[1][c] for c in view["discard_pile"]]
        return self._finish(flat, self._history(view, own_seat(view)), [view["turn"] / 200])


def test_a_plug_in_encoder_subclass_encodes_pickles_and_copies() -> None:
    """A plug-in's Python subclass of ``Encoder`` works as in the pure build, and its
    copies keep its own constructor arguments and attributes (``Encoder.__reduce__``)
    and start without kept history."""
    import copy
    import pickle

    rng = random.Random(7)
    state = GAMES["marriage"].new_match({"preset": "nepali", "max_turns": 60}, 4, 2).current
    enc = _PlugInEncoder(4, "plug-in")
    enc.note = "set later"
    for _ in range(30):
        seat = state.to_move
        assert seat is not None
        got = enc.encode_state(state, seat)
        assert got.shape == enc.shape and got[:52].sum() > 0  # the own hand, by default
        assert np.array_equal(got, _PlugInEncoder(4, "fresh").encode(state.view(seat)))
        state.apply(rng.choice(state.legal_actions()))
    assert enc._hist
    for twin in (pickle.loads(pickle.dumps(enc)), copy.deepcopy(enc)):
        assert type(twin) is _PlugInEncoder and twin.label == "plug-in"
        assert twin.note == "set later" and twin.init_args == (4, "plug-in")
        assert not twin._hist and not twin._planes
        assert np.array_equal(twin.encode_state(state, 0), enc.encode_state(state, 0))


@pytest.mark.parametrize("mode", ["1v1", "2v2"])
def test_tunisian_scalars_are_the_properties_the_view_reads(mode: str) -> None:
    """``TunisianState.scalars`` (the encoder's one call a step) gives what the seven
    properties give, at every position of random deals, the end included (T-3, T-6, T-8)."""
    from rami.tunisian.game import TunisianState

    rng = random.Random(3)
    for seed in range(6):
        state = GAMES["tunisian"].new_match({"preset": mode, "max_turns": 60}, None, seed).current
        assert isinstance(state, TunisianState)
        while True:
            phase, turn, stock, seat, staged, must, sizes = state.scalars()
            assert (phase, turn, stock, staged, sizes) == (
                state.phase,
                state.turn,
                state.stock_size,
                state.staged_value,
                state.hand_sizes,
            )
            if state.is_over:
                break
            assert (seat, must) == (state.to_move, state.must_open)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("preset", "players"), [("nepali", 4), ("indian", 3)])
def test_marriage_scalars_are_the_properties_the_encoder_read(preset: str, players: int) -> None:
    """``MarriageState.scalars`` (the encoder's one call a step) gives what the five
    properties give, at every position of random deals, the end included (M-11)."""
    from rami.marriage.game import MarriageState

    rng = random.Random(4)
    for seed in range(4):
        rules = {"preset": preset, "max_turns": 40}
        state = GAMES["marriage"].new_match(rules, players, seed).current
        assert isinstance(state, MarriageState)
        while True:
            phase, turn, stock, seat, sizes = state.scalars()
            assert (phase, turn, stock, sizes) == (
                state.phase,
                state.turn,
                len(state.stock),
                tuple(state.sizes),
            )
            assert state.to_move == (None if state.is_over else seat)
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
