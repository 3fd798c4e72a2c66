"""OpenSpiel games python_rami_marriage / python_rami_tunisian: OpenSpiel's own random
simulation test (with serialisation), explicit chance, resampling, and IS-MCTS."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel
import pytest

import rami.rl.openspiel  # noqa: F401  (registers the games)

GAMES = [
    ("python_rami_marriage", {"preset": "nepali", "players": 3, "max_turns": 24}),
    ("python_rami_marriage", {"preset": "indian", "players": 2, "max_turns": 24}),
    ("python_rami_tunisian", {"mode": "1v1", "max_turns": 24}),
    ("python_rami_tunisian", {"mode": "2v2", "max_turns": 16}),
]


def _deal(game: object, rng: np.random.Generator) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        assert abs(sum(probs) - 1.0) < 1e-9
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_random_sim_test_with_serialisation(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "params"), GAMES[::2])
def test_resample_keeps_the_information_state(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    rng = np.random.default_rng(1)
    state = _deal(game, rng)
    for _ in range(12):
        state.apply_action(int(rng.choice(state.legal_actions())))  # type: ignore[attr-defined]
    player = state.current_player()  # type: ignore[attr-defined]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    key = state.information_state_string(player)  # type: ignore[attr-defined]
    tensor = state.information_state_tensor(player)  # type: ignore[attr-defined]
    differs = False
    for _ in range(4):
        world = state.resample_from_infostate(player, sampler)  # type: ignore[attr-defined]
        assert world.information_state_string(player) == key
        assert world.information_state_tensor(player) == tensor
        assert world.legal_actions() == state.legal_actions()  # type: ignore[attr-defined]
        differs |= str(world) != str(state)
        twin = world.clone()
        twin.apply_action(twin.legal_actions()[0])
        assert world.information_state_string(player) == key  # the clone is separate
    assert differs


def test_serialisation_round_trip_and_pickle() -> None:
    game = pyspiel.load_game("python_rami_tunisian", {"max_turns": 20})
    rng = np.random.default_rng(2)
    state = _deal(game, rng)
    for _ in range(7):
        state.apply_action(int(rng.choice(state.legal_actions())))  # type: ignore[attr-defined]
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert str(state2) == str(state)
    assert state2.history() == state.history()  # type: ignore[attr-defined]
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_ismcts_bot_plays_a_deal() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_rami_tunisian", {"max_turns": 6})
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rng)
    state = _deal(game, np.random.default_rng(3))
    decisions = 0
    while not state.is_terminal():  # type: ignore[attr-defined]
        if state.current_player() == 0:  # type: ignore[attr-defined]
            action = bot.step(state)
            decisions += 1
        else:
            action = int(rng.choice(state.legal_actions()))  # type: ignore[attr-defined]
        state.apply_action(action)  # type: ignore[attr-defined]
    assert decisions >= 3
    assert len(state.returns()) == 2  # type: ignore[attr-defined]


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_tensors_from_the_state_equal_the_view_encoding(
    name: str, params: dict[str, object]
) -> None:
    """Every player's tensor of every position (and of clones played on) equals the
    encoder run afresh on the view with the information-state history."""
    from rami.rl.observation import encoder_for

    game = pyspiel.load_game(name, params)
    rng = np.random.default_rng(4)
    state = _deal(game, rng)
    compared = 0
    while not state.is_terminal():  # type: ignore[attr-defined]
        branch = state.clone() if rng.random() < 0.2 else state  # type: ignore[attr-defined]
        for player in range(game.num_players()):
            view = branch.engine.view(player)  # type: ignore[attr-defined]
            view["history"] = view["history"][branch.base :]  # type: ignore[attr-defined]
            want = encoder_for(view).encode(view)
            assert np.array_equal(np.asarray(branch.observation_tensor(player)), want)
            compared += 1
        state.apply_action(int(rng.choice(state.legal_actions())))  # type: ignore[attr-defined]
    assert compared >= 20


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_python_answers_equal_openspiel_cpp_path(name: str, params: dict[str, object]) -> None:
    """``legal_actions`` and the tensors answered in Python (kept per position) equal
    what OpenSpiel's C++ path computes through the observer, on every position of a deal
    and of clones played on; a clone is independent of its original."""
    game = pyspiel.load_game(name, params)
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    cpp = pyspiel.State
    compared = 0
    while not state.is_terminal():  # type: ignore[attr-defined]
        assert state.is_chance_node() == cpp.is_chance_node(state)  # type: ignore[attr-defined]
        assert state.is_player_node() == cpp.is_player_node(state)  # type: ignore[attr-defined]
        if state.is_chance_node():  # type: ignore[attr-defined]
            assert state.legal_actions() == cpp.legal_actions(state)  # type: ignore[attr-defined]
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)  # type: ignore[attr-defined]
            state.apply_action(int(rng.choice(outcomes, p=probs)))  # type: ignore[attr-defined]
            continue
        branch = state.clone() if rng.random() < 0.3 else state  # type: ignore[attr-defined]
        to_move = branch.current_player()
        assert branch.legal_actions() == cpp.legal_actions(branch)
        assert branch.legal_actions(to_move) == cpp.legal_actions(branch, to_move)
        for player in range(game.num_players()):
            if player != to_move:
                assert branch.legal_actions(player) == []
            tensor = branch.observation_tensor(player)
            assert tensor == cpp.observation_tensor(branch, player)
            assert branch.information_state_tensor(player) == tensor
            tensor[0] = 7.0  # the caller's own list: the kept one is unchanged
            assert branch.observation_tensor(player) == cpp.observation_tensor(branch, player)
            compared += 1
        assert branch.observation_tensor() == cpp.observation_tensor(branch)
        if branch is not state:
            before = state.information_state_string(to_move)  # type: ignore[attr-defined]
            branch.apply_action(branch.legal_actions()[0])
            assert state.information_state_string(to_move) == before  # type: ignore[attr-defined]
            assert str(state.clone()) == str(state)  # type: ignore[attr-defined]
        state.apply_action(int(rng.choice(state.legal_actions())))  # type: ignore[attr-defined]
    assert state.legal_actions() == [] == cpp.legal_actions(state)  # type: ignore[attr-defined]
    assert not state.is_chance_node() and not state.is_player_node()  # type: ignore[attr-defined]
    assert not cpp.is_player_node(state)
    with pytest.raises(pyspiel.SpielError):
        state.observation_tensor()  # type: ignore[attr-defined]  # terminal: no player
    assert compared >= 20


def test_states_serialised_before_the_core_still_load() -> None:
    """A state serialised when its fields were separate attributes (``order``, ``left``,
    ``engine``, ``prefix``, ``base`` in ``__dict__``) loads into the same position."""
    import base64

    game = pyspiel.load_game("python_rami_tunisian", {"max_turns": 20})
    rng = np.random.default_rng(6)
    state = _deal(game, rng)
    for _ in range(5):
        state.apply_action(int(rng.choice(state.legal_actions())))  # type: ignore[attr-defined]
    head, _, _ = state.serialize().rpartition("__dict__=")  # type: ignore[attr-defined]
    fields = {k: getattr(state, k) for k in ("order", "left", "engine", "prefix", "base")}
    old = head + "__dict__=" + base64.b64encode(pickle.dumps(fields)).decode()
    loaded = game.deserialize_state(old)
    assert str(loaded) == str(state)
    assert loaded.legal_actions() == state.legal_actions()  # type: ignore[attr-defined]
    assert loaded.observation_tensor(0) == state.observation_tensor(0)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("name", "params"), GAMES[::3])
def test_observer_tensors_equal_the_state_tensors(name: str, params: dict[str, object]) -> None:
    """``make_observation`` (the game's Python observer, read in place without a float
    list) gives every player's ``observation_tensor`` / ``information_state_tensor`` on
    every position, before and after the list calls and on clones played on; the kept
    vectors are not changed by the observer's buffer being overwritten."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(name, params)
    obs = make_observation(game)
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    rng = np.random.default_rng(7)
    state = _deal(game, rng)
    compared = 0
    while not state.is_terminal():  # type: ignore[attr-defined]
        branch = state.clone() if rng.random() < 0.3 else state  # type: ignore[attr-defined]
        for player in range(game.num_players()):
            obs.set_from(branch, player)
            first = obs.tensor.copy()
            assert first.tolist() == branch.observation_tensor(player)
            info.set_from(branch, player)
            assert info.tensor.tolist() == branch.information_state_tensor(player)
            obs.tensor[:] = 9.0  # the observer's buffer is its own
            obs.set_from(branch, player)
            assert np.array_equal(obs.tensor, first)
            compared += 1
        if branch is not state:
            branch.apply_action(branch.legal_actions()[0])
        state.apply_action(int(rng.choice(state.legal_actions())))  # type: ignore[attr-defined]
    assert compared >= 20


@pytest.mark.parametrize(("name", "params"), GAMES[::3])
def test_chance_outcomes_are_the_copies_left_over_the_cards_left(
    name: str, params: dict[str, object]
) -> None:
    """Every chance node of a deal offers each card kind left with probability ``copies
    left / cards left``, exactly; a decision
    node offers none."""
    game = pyspiel.load_game(name, params)
    rng = np.random.default_rng(8)
    state = game.new_initial_state()
    nodes = 0
    while state.is_chance_node():
        left = state.left  # type: ignore[attr-defined]
        total = sum(left)
        want = [(c, n / total) for c, n in enumerate(left) if n]
        assert state.chance_outcomes() == want
        outcomes, probs = zip(*want, strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
        nodes += 1
    assert nodes == len(game.shoe)  # type: ignore[attr-defined]
    assert state.chance_outcomes() == []


def test_float_lists_equal_tolist_through_small_and_large_changes() -> None:
    """``RamiGame.floats`` (the game's own list per player, patched in place) equals
    ``vec.tolist()`` whatever came before: a few entries changed, most of them changed
    (built afresh), the same vector again, players taken in turn."""
    game = pyspiel.load_game("python_rami_tunisian", {"max_turns": 20})
    size = game.encoder.size  # type: ignore[attr-defined]
    rng = np.random.default_rng(9)
    last = {p: np.zeros(size, dtype=np.float32) for p in range(2)}
    for step in range(60):
        player = step % 2
        vec = last[player].copy()
        many = step % 7 == 3
        at = rng.choice(size, size // 2 if many else 12, replace=False)
        vec[at] = rng.choice(np.array([0.0, 0.25, 0.5, 1.0], dtype=np.float32), len(at))
        out = game.floats(player, vec)  # type: ignore[attr-defined]
        assert out == vec.tolist()
        assert game.floats(player, vec) is out  # type: ignore[attr-defined]  # same vector
        last[player] = vec


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_float_lists_patched_from_the_encoders_changes_equal_the_view_encoding(
    name: str, params: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The usual loop (the player to move observed, position after position, now and
    then another player or a clone in between): each list equals the encoder run afresh
    on the view, and most come from the positions the encoder says it changed
    (``Encoder.changes``) rather than from comparing whole vectors."""
    from rami.rl.observation import encoder_for

    game = pyspiel.load_game(name, params)
    enc = game.encoder  # type: ignore[attr-defined]
    answers: list[bool] = []
    original = enc.changes

    def spy(seat: int, vec: np.ndarray, before: np.ndarray) -> list[int] | None:
        found = original(seat, vec, before)
        answers.append(found is not None)
        return found  # type: ignore[no-any-return]

    try:  # a compiled encoder (the accelerated build) takes no attribute: no count then
        monkeypatch.setattr(enc, "changes", spy)
    except AttributeError:
        answers = [True] * 100
    rng = np.random.default_rng(6)
    compared = 0
    for _ in range(3):
        state = _deal(game, rng)
        while not state.is_terminal():  # type: ignore[attr-defined]
            players = [state.current_player()]  # type: ignore[attr-defined]
            if rng.random() < 0.15:
                players.append(int(rng.integers(game.num_players())))
            branch = state.clone() if rng.random() < 0.05 else state  # type: ignore[attr-defined]
            for player in players:
                view = branch.engine.view(player)  # type: ignore[attr-defined]
                view["history"] = view["history"][branch.base :]  # type: ignore[attr-defined]
                want = encoder_for(view).encode(view).tolist()
                assert branch.observation_tensor(player) == want
                compared += 1
            state.apply_action(int(rng.choice(state.legal_actions())))  # type: ignore[attr-defined]
    assert compared >= 60
    assert sum(answers) >= len(answers) // 2 and sum(answers) >= 20
