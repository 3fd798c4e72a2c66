"""``rami train`` end to end (tiny budget), the learned bot in ``rami simulate``, and the
Ray experience collector giving the local backend's episodes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from rami.bots import check_spec, make_bot
from rami.cli import main
from rami.errors import InputError
from rami.rl.train import TrainConfig, _make_env, train


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("policy") / "tiny.npz"
    config = TrainConfig(
        steps=128, minutes=0, n_steps=64, batch_size=64, envs=1, net=(16,), max_turns=30,
        opponents=("random",), out=str(out),
    )  # fmt: skip
    summary = train(config, log=lambda _line: None)
    assert summary["steps"] >= 128
    return out


def test_trained_policy_plays_in_simulate(
    policy_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert policy_file.exists() and policy_file.with_suffix(".sb3.zip").exists()
    bot = make_bot("tunisian", f"learned:{policy_file}", 1)
    assert bot.policy.meta["game"] == "tunisian"
    main(["simulate", "tunisian", "--bots", f"learned:{policy_file},random", "--games", "2",
          "--max-turns", "30", "--quiet"])  # fmt: skip
    out = capsys.readouterr().out
    assert "learned:" in out and "random" in out


def test_bad_learned_specs_are_one_line_errors(
    policy_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(InputError, match="no policy file"):
        check_spec("tunisian", f"learned:{tmp_path / 'missing.npz'}")
    with pytest.raises(InputError, match="trained for tunisian"):
        check_spec("marriage", f"learned:{policy_file}")
    junk = tmp_path / "junk.npz"
    junk.write_text("not a policy")
    with pytest.raises(InputError, match="not a rami policy"):
        check_spec("tunisian", f"learned:{junk}")
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "marriage", "--bots", f"learned:{policy_file},random", "--games", "1"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and len(err.splitlines()) == 1


def test_ray_collection_gives_the_local_episodes() -> None:
    pytest.importorskip("ray")
    from stable_baselines3.common.vec_env import DummyVecEnv

    from rami.rl.ray_vec_env import RayVecEnv

    config = TrainConfig(max_turns=8, opponents=("random", "greedy"))
    makers = [_make_env(config, level, i) for i, level in enumerate(config.opponents)]

    def run(env: object) -> list[tuple[float, ...]]:
        env.seed(7)  # type: ignore[attr-defined]
        obs = env.reset()  # type: ignore[attr-defined]
        trace = [tuple(np.round(obs.sum(axis=1), 5))]
        for step in range(60):
            masks = env.env_method("action_masks")  # type: ignore[attr-defined]
            if isinstance(env, RayVecEnv):  # the masks sent with the step are the actors'
                import ray

                asked = ray.get([w.call.remote("action_masks", (), {}) for w in env.workers])
                assert all(np.array_equal(m, a) for m, a in zip(masks, asked, strict=True))
            actions = np.asarray([np.flatnonzero(m)[step % int(m.sum())] for m in masks])
            obs, rewards, dones, _infos = env.step(actions)  # type: ignore[attr-defined]
            trace.append((*np.round(obs.sum(axis=1), 5), *rewards, *dones))
        env.close()  # type: ignore[attr-defined]
        return trace

    local = run(DummyVecEnv(makers))
    remote = run(RayVecEnv(makers))
    assert remote == local
    assert any(t[-1] or t[-2] for t in local[1:])  # an episode ended and was reset


@pytest.mark.parametrize(
    "args",
    [
        ["train", "tunisian", "--opponents", "nobody"],
        ["train", "marriage", "--mode", "1v1"],
        ["train", "tunisian", "--mode", "3v3"],
        ["train", "tunisian", "--minutes", "0"],
        ["train", "tunisian", "--backend", "mars", "--steps", "1"],
    ],
)
def test_bad_train_options_are_one_line_errors(
    args: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(SystemExit) as exc:
        main([*args, "--out", str(tmp_path / "p.npz")])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and len(err.splitlines()) == 1
    assert not (tmp_path / "p.npz").exists()
