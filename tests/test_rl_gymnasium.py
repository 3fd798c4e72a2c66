"""Gymnasium single-agent wrapper (rami.rl.gym_env): the library's env checker, masks,
and play against each bot level."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from rami.rl.gym_env import RamiGymEnv


@pytest.mark.parametrize(
    ("game", "preset", "players", "dict_obs"),
    [
        ("tunisian", "1v1", None, False),
        ("tunisian", "2v2", None, True),
        ("marriage", "nepali", 3, False),
        ("marriage", "indian", 2, True),
    ],
)
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_check_env_passes(game: str, preset: str, players: int | None, dict_obs: bool) -> None:
    env = RamiGymEnv(game, preset, players, opponents="random", max_turns=30, dict_obs=dict_obs)
    check_env(env, skip_render_check=True)


@pytest.mark.parametrize("level", ["random", "greedy", "search:2it"])
def test_plays_a_deal_against_each_level(level: str) -> None:
    env = RamiGymEnv("tunisian", "1v1", opponents=level, max_turns=14 if "search" in level else 60)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    total = 0.0
    for _ in range(2000):
        mask = env.action_masks()
        assert np.array_equal(mask, info["action_mask"].astype(bool)) and mask.any()
        assert env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += float(reward)
        if terminated or truncated:
            break
    assert terminated
    assert env.state is not None and env.state.result is not None
    assert total == -float(env.state.result.scores[env.seat])


def test_same_seed_same_episode() -> None:
    def run() -> list[int]:
        env = RamiGymEnv("marriage", "nepali", 2, opponents="greedy", max_turns=20)
        env.reset(seed=5)
        taken: list[int] = []
        while True:
            ids = np.flatnonzero(env.action_masks())
            taken.append(int(ids[len(taken) % len(ids)]))
            _o, _r, term, trunc, _i = env.step(taken[-1])
            if term or trunc:
                return taken

    assert run() == run()


def test_legal_ids_are_the_masks_ones() -> None:
    """``legal_ids()`` lists exactly ``action_masks()``'s ones, ascending, every step."""
    env = RamiGymEnv(opponents="random", max_turns=30)
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(400):
        ids = env.legal_ids()
        assert ids == np.flatnonzero(env.action_masks()).tolist()
        _o, _r, term, trunc, _i = env.step(ids[rng.randrange(len(ids))])
        if term or trunc:
            env.reset(seed=rng.randrange(1000))


@pytest.mark.parametrize(
    ("game", "preset", "players"), [("tunisian", "1v1", 2), ("marriage", "nepali", 4)]
)
def test_a_random_opponent_handed_its_decision_point_plays_as_from_its_view(
    game: str, preset: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The env hands a random opponent its decision point alone (``Bot.decision_only``):
    the episodes are those it plays handed the whole typed view."""

    def episodes() -> list[object]:
        env = RamiGymEnv(game, preset, players, opponents="random", max_turns=40)
        rng = random.Random(1)
        seen: list[object] = []
        for seed in range(3):
            obs, _info = env.reset(seed=seed)
            seen.append(obs.tobytes())
            while True:
                ids = env.legal_ids()
                obs, reward, term, trunc, _i = env.step(ids[rng.randrange(len(ids))])
                seen += [obs.tobytes(), reward, len(env.state.events)]  # type: ignore[union-attr]
                if term or trunc:
                    break
        return seen

    handed = episodes()
    from rami.bots.random_bot import RandomBot

    monkeypatch.setattr(RandomBot, "decision_only", False)
    assert episodes() == handed
