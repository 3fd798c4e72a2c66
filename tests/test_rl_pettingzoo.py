"""PettingZoo AEC environments (rami.rl.marriage_v0 / tunisian_v0): the library's own
conformance tests, per-deal rewards, whole matches and truncation."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from rami.rl import marriage_v0, tunisian_v0

TABLES: list[tuple[Any, dict[str, Any]]] = [
    (marriage_v0, {"preset": "nepali", "players": 2}),
    (marriage_v0, {"preset": "nepali", "players": 5}),
    (marriage_v0, {"preset": "indian", "players": 7}),
    (tunisian_v0, {"mode": "1v1"}),
    (tunisian_v0, {"mode": "ffa"}),
    (tunisian_v0, {"mode": "2v2"}),
]


@pytest.mark.parametrize(("mod", "kwargs"), TABLES)
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test(mod: Any, kwargs: dict[str, Any]) -> None:
    api_test(mod.env(max_turns=40, **kwargs), num_cycles=150)


@pytest.mark.parametrize("mod", [marriage_v0, tunisian_v0])
def test_pettingzoo_seed_test(mod: Any) -> None:
    seed_test(lambda: mod.env(max_turns=30), num_cycles=60)


def _play(env: Any, rng: random.Random, limit: int = 100_000) -> dict[str, float]:
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(limit):
        obs, reward, term, trunc, _info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.any()
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return totals


def test_marriage_deal_rewards_are_the_ledger_nets() -> None:
    """M-16: the nets of a deal sum to zero; each agent is paid its own."""
    env = marriage_v0.env(preset="nepali", players=3, max_turns=60)
    env.reset(seed=4)
    totals = _play(env, random.Random(1))
    result = env.unwrapped.state.result
    assert result is not None
    assert [totals[f"player_{i}"] for i in range(3)] == [float(s) for s in result.scores]
    assert abs(sum(totals.values())) < 1e-9


def test_tunisian_rewards_are_minus_the_deal_points() -> None:
    env = tunisian_v0.env(mode="1v1", max_turns=50)
    env.reset(seed=2)
    totals = _play(env, random.Random(2))
    result = env.unwrapped.state.result
    assert result is not None
    assert [totals[f"player_{i}"] for i in range(2)] == [-float(s) for s in result.scores]


def test_whole_match_pays_every_deal() -> None:
    env = tunisian_v0.env(mode="1v1", max_turns=12, whole_match=True)
    env.reset(seed=9)
    totals = _play(env, random.Random(3))
    inner = env.unwrapped
    assert inner.match.is_over
    standing = inner.match.standing()
    assert len(standing["deals"]) >= 2
    assert [totals[f"player_{i}"] for i in range(2)] == [-float(t) for t in standing["totals"]]


def test_max_cycles_truncates() -> None:
    env = marriage_v0.env(preset="nepali", players=2, max_cycles=7)
    env.reset(seed=1)
    steps = 0
    rng = random.Random(0)
    for agent in env.agent_iter(100):
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        steps += 1
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        del agent
    assert steps == 7
    assert not env.agents


def test_illegal_id_is_a_clear_error_and_changes_nothing() -> None:
    from rami.errors import IllegalAction

    env = tunisian_v0.raw_env()
    env.reset(seed=3)
    before = env.state.view(None)
    with pytest.raises(IllegalAction):
        env.step(env.space.size - 1)  # a swap on a table that is empty
    assert env.state.view(None) == before


def test_the_order_enforcing_wrapper_keeps_pettingzoo_checks() -> None:
    """``env()`` is PettingZoo's order-enforcing wrapper (a subclass reading ``last``,
    ``agents`` and ``agent_selection`` directly): the same errors before ``reset``, the
    same answers after it as the bare env."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = tunisian_v0.env(max_turns=30)
    assert isinstance(env, OrderEnforcingWrapper)
    for name in ("agents", "agent_selection", "rewards"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(env, name)
    assert str(env) == str(env.unwrapped)
    raw = tunisian_v0.raw_env(max_turns=30)
    env.reset(seed=3)
    raw.reset(seed=3)
    assert env.agents == raw.agents and env.agent_selection == raw.agent_selection
    for got, want in zip(env.last(), raw.last(), strict=True):
        if isinstance(got, dict) and "observation" in got:
            assert all(np.array_equal(got[k], want[k]) for k in got)
        else:
            assert got == want


@pytest.mark.parametrize(("mod", "kwargs"), [TABLES[0], TABLES[3]])
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_the_bare_env_passes_the_conformance_tests(mod: Any, kwargs: dict[str, Any]) -> None:
    """``raw_env()`` (no wrapper, the fastest loop) conforms too."""
    api_test(mod.raw_env(max_turns=40, **kwargs), num_cycles=150)
    seed_test(lambda: mod.raw_env(max_turns=30, **kwargs), num_cycles=60)


def test_an_env_in_play_deep_copies_and_pickles() -> None:
    """Copies of an env in the middle of a deal (vector envs, checkpoints) observe the same."""
    import copy
    import pickle

    env = tunisian_v0.env(max_turns=60)
    env.reset(seed=2)
    rng = random.Random(2)
    for _ in range(25):
        obs, _r, term, trunc, _i = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    want = env.last()[0]
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        got = twin.last()[0]
        assert all(np.array_equal(got[k], want[k]) for k in want)


@pytest.mark.parametrize(("mod", "kwargs"), [TABLES[0], TABLES[3], TABLES[5]])
def test_legal_ids_are_the_masks_ones_at_every_position(mod: Any, kwargs: dict[str, Any]) -> None:
    """``legal_ids()`` (kept per position) lists exactly the mask's ones, ascending."""
    env = mod.env(max_turns=30, **kwargs)
    env.reset(seed=5)
    rng = random.Random(5)
    for agent in env.agent_iter(3_000):
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        ids = env.unwrapped.legal_ids()
        assert ids == np.flatnonzero(obs["action_mask"]).tolist()
        assert ids == env.unwrapped.legal_ids()  # the kept list again, same answer
        other = env.unwrapped.observe(env.possible_agents[0] if agent != "player_0" else "player_1")
        assert not other["action_mask"].any()  # the seat not to move has no legal ids
        env.step(ids[rng.randrange(len(ids))])


def test_step_rewards_are_zero_but_at_a_deals_end_in_a_whole_match() -> None:
    """``rewards`` after each step: the deal's signed scores (T-10) on the step that ends
    a deal, zero otherwise (a zero step keeps the zero dict; the sums are PettingZoo's)."""
    env = tunisian_v0.raw_env(mode="1v1", max_turns=10, whole_match=True)
    env.reset(seed=4)
    rng = random.Random(5)
    paid = 0
    sums = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        deals = len(env.match.standing()["deals"])
        state = env.state
        ids = env.legal_ids()
        for a in env.possible_agents:  # what ``last()`` reports: the sum since a's last step
            sums[a] = 0.0 if a == agent else sums[a]
        env.step(ids[rng.randrange(len(ids))])
        if state.is_over:
            assert len(env.match.standing()["deals"]) == deals + 1
            scores = state.result.scores
            want = {a: -float(s) for a, s in zip(env.possible_agents, scores, strict=True)}
            paid += 1
        else:
            want = dict.fromkeys(env.possible_agents, 0.0)
        assert {a: env.rewards[a] for a in want} == want
        for a in env.possible_agents:
            sums[a] += want[a]
            assert env._cumulative_rewards.get(a, sums[a]) == sums[a]
    assert paid >= 2


def test_the_wrapped_step_keeps_pettingzoo_order_checks(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The order-enforcing ``step`` (one call once reset) still refuses a step before
    ``reset`` and logs PettingZoo's warning on a step after the episode."""
    env = tunisian_v0.env(max_turns=4)
    with pytest.raises(AssertionError, match="reset"):
        env.step(0)
    env.reset(seed=2)
    rng = random.Random(1)
    for agent in env.agent_iter():
        _obs, _r, term, trunc, _i = env.last()
        ids = env.unwrapped.legal_ids()
        env.step(None if term or trunc else ids[rng.randrange(len(ids))])
        del agent
    assert not env.agents
    env.step(None)
    assert "called after all agents are terminated" in caplog.text


@pytest.mark.parametrize(("mod", "kwargs"), [TABLES[0], TABLES[2], TABLES[3]])
def test_ids_and_masks_are_the_engines_and_never_change_once_returned(
    mod: Any, kwargs: dict[str, Any]
) -> None:
    """The mask and ``legal_ids()`` are the ids of the engine's legal actions at every
    position (found by the action objects' identity, tests/test_rl_action_ids.py); an
    observation, a mask or an id list once returned is changed neither by later steps nor
    by the caller's edits of another one, and a copy made mid-deal plays on alike."""
    import copy

    from rami.games import legal_action_ids

    env = mod.env(max_turns=30, **kwargs)
    env.reset(seed=7)
    raw = env.unwrapped
    rng = random.Random(7)
    kept = []
    for n, _agent in enumerate(env.agent_iter(1_500)):
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        want = legal_action_ids(raw.state)
        ids = raw.legal_ids()
        assert ids == want == np.flatnonzero(obs["action_mask"]).tolist()
        kept.append((obs, obs["observation"].copy(), obs["action_mask"].copy(), ids, want[:]))
        ids.append(-1)  # the caller's edit
        obs["action_mask"][:] = 1
        assert raw.legal_ids() == want
        assert np.flatnonzero(env.last()[0]["action_mask"]).tolist() == want
        if n == 40:
            twin = copy.deepcopy(env)
            assert twin.unwrapped.legal_ids() == want
            twin.step(want[0])
            assert twin.unwrapped.legal_ids() == legal_action_ids(twin.unwrapped.state)
        env.step(want[rng.randrange(len(want))])
    for obs, seen, mask, ids, want in kept:
        assert np.array_equal(obs["observation"], seen)
        assert np.flatnonzero(mask).tolist() == want
        assert obs["action_mask"].all()  # the caller's own edit, and nothing since
        assert ids[:-1] == want
