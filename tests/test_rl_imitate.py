"""Behaviour cloning (``rami train --imitate``): the teacher acts from its view, cloning
gives a policy file that plays and an sb3 model that ``--resume`` continues with PPO."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from rami.bots import make_bot
from rami.bots.kit import kit_of
from rami.cli import main
from rami.errors import InputError
from rami.games import get_game
from rami.rl.imitate import OwnPolicyTeacher, make_teacher, record
from rami.rl.policy import MlpPolicy
from rami.rl.train import TrainConfig, _make_env, train


def test_T6_T9_own_teacher_plays_hards_own_move_from_the_view_only() -> None:
    """The ``own`` teacher reads a determinization of the view: its move is the kit's
    ``own_policy`` on the true deal (which reads only the seat's knowledge), whatever
    the sampled hidden cards."""
    kit = kit_of("tunisian")
    teacher = OwnPolicyTeacher("tunisian", 3)
    checked = 0
    for deal in range(4):
        state = get_game("tunisian").new_match("1v1", None, 40 + deal).current
        greedy = make_bot("tunisian", "greedy", deal)
        while not state.is_over and state.turn < 60:
            seat = state.to_move
            assert seat is not None
            view = state.view(seat)
            if seat == 0:
                move = teacher.act(view)
                assert kit.own_policy is not None
                assert move == kit.own_policy(state)
                checked += 1
                state.apply(move)
            else:
                state.apply(greedy.act(view))
    assert checked > 50


def test_record_keeps_the_teachers_ids_among_the_legal_ones() -> None:
    config = TrainConfig(max_turns=40, opponents=("greedy",))
    teacher = make_teacher("tunisian", "greedy", 1)
    data = record(_make_env(config, "greedy", 0), teacher, 60, seed=5)
    obs, masks, actions, returns = data.arrays()
    assert len(actions) >= 60 and data.deals >= 1
    legal = np.unpackbits(masks, axis=1, count=data.size).astype(bool)
    assert legal[np.arange(len(actions)), actions].all()
    assert obs.dtype == np.float16 and obs.shape[1] == 2619
    assert np.isfinite(returns).all()


def test_cloned_policy_plays_and_ppo_resumes_from_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "bc.npz"
    config = TrainConfig(
        imitate="greedy", samples=240, epochs=2, dagger=1, dagger_samples=120, net=(16,),
        max_turns=30, opponents=("random",), envs=1, minutes=0, out=str(out), half=True,
    )  # fmt: skip
    summary = train(config, log=lambda _line: None)
    assert out.exists() and out.with_suffix(".sb3.zip").exists()
    cloned = summary["imitation"]
    assert isinstance(cloned, dict) and cloned["samples"] >= 360 and cloned["dagger_rounds"] == 1
    policy = MlpPolicy.load(out)
    assert policy.meta["imitation"][0]["teacher"] == "greedy"
    main(["simulate", "tunisian", "--bots", f"learned:{out},random", "--games", "2",
          "--max-turns", "30", "--quiet"])  # fmt: skip
    assert "learned:" in capsys.readouterr().out
    ppo = TrainConfig(
        steps=64, minutes=0, n_steps=64, batch_size=64, envs=1, max_turns=30,
        opponents=("random",), out=str(out), resume=True,
    )  # fmt: skip
    train(ppo, log=lambda _line: None)
    resumed = MlpPolicy.load(out)
    assert resumed.meta["trained_steps"] >= 64
    assert resumed.meta["imitation"] == policy.meta["imitation"]  # the history is kept


def test_bad_teachers_are_input_errors() -> None:
    with pytest.raises(InputError):
        make_teacher("tunisian", "nobody")
    with pytest.raises(InputError):
        train(TrainConfig(imitate="greedy", samples=0), log=lambda _line: None)


@pytest.mark.parametrize(
    "args",
    [
        ["--imitate", "nobody"],
        ["--imitate", "greedy", "--samples", "0"],
        ["--imitate", "greedy", "--net", "12,x"],
    ],
)
def test_bad_imitate_options_are_one_line_errors(
    args: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["train", "tunisian", *args, "--out", str(tmp_path / "p.npz")])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and len(err.splitlines()) == 1
    assert not (tmp_path / "p.npz").exists()


def test_seeded_recording_is_reproducible() -> None:
    config = TrainConfig(max_turns=30, opponents=("greedy",))
    runs = [
        record(_make_env(config, "greedy", 0), make_teacher("tunisian", "own", 2), 40, seed=9)
        for _ in range(2)
    ]
    assert runs[0].actions == runs[1].actions


def test_legal_logits_read_only_what_they_need_and_match_the_full_pass() -> None:
    """``best``'s fast path (nonzero inputs, legal rows) gives the full pass's logits."""
    rng = np.random.default_rng(3)
    for hidden in ([], [24], [24, 12]):
        sizes = [50, *hidden, 30]
        layers = [
            (rng.normal(size=(o, i)).astype(np.float32), rng.normal(size=o).astype(np.float32))
            for i, o in itertools.pairwise(sizes)
        ]
        policy = MlpPolicy({"game": "tunisian"}, layers)
        for _ in range(20):
            obs = np.where(rng.random(50) < 0.2, rng.random(50), 0.0).astype(np.float32)
            ids = np.sort(rng.choice(30, size=7, replace=False))
            full = policy.logits(obs)
            assert np.allclose(policy.legal_logits(obs, ids), full[ids], atol=1e-4)
            assert policy.best(obs, list(ids)) == int(ids[np.argmax(full[ids])])


def test_bad_ppo_rates_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for args in (["--learning-rate", "0"], ["--ent-coef", "-1"]):
        with pytest.raises(SystemExit) as exc:
            main(["train", "tunisian", "--steps", "1", *args, "--out", str(tmp_path / "p.npz")])
        assert exc.value.code == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error:") and len(err.splitlines()) == 1
