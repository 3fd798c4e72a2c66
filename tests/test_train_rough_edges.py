"""``rami train`` for a newcomer (issue 23): argument errors before torch loads,
``--resume`` with nothing to resume refused, progress lines while it runs, ``--steps``
rounding said, and no empty ``SB3-*`` folder left in the temporary directory."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from rami.cli import main
from rami.rl.train import TrainConfig, rounded_steps, train

# a bad option: the exit status, the error line and whether torch was imported by then
PROBE = """
import sys
from rami.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    print(exc.code, "torch" in sys.modules)
"""


@pytest.mark.parametrize(
    "args",
    [
        ["--envs", "0"],
        ["--minutes", "0"],
        ["--backend", "mars"],
        ["--policy", "bogus"],
        ["--steps", "-5"],
        ["--resume", "--out", "{tmp}/nothing.npz"],
    ],
)
def test_argument_errors_come_before_torch(args: list[str], tmp_path: Path) -> None:
    given = [a.replace("{tmp}", str(tmp_path)) for a in args]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "train", "tunisian", *given],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.split() == ["2", "False"], done
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1


def test_resume_with_nothing_to_resume_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for extra in ([], ["--policy", "rank", "--imitate", "greedy"]):
        with pytest.raises(SystemExit) as exc:
            main(["train", "tunisian", "--resume", "--out", str(tmp_path / "p.npz"), *extra])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("error: nothing to resume: ") and "p." in err
    assert not list(tmp_path.iterdir())


def test_steps_are_rounded_to_whole_rollouts() -> None:
    assert rounded_steps(256, 1024) == 1024
    assert rounded_steps(1024, 1024) == 1024
    assert rounded_steps(1025, 1024) == 2048


def test_a_tiny_run_says_what_it_does_and_leaves_no_sb3_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.delenv("SB3_LOGDIR", raising=False)
    lines: list[str] = []
    config = TrainConfig(
        steps=100, minutes=0, n_steps=64, batch_size=64, envs=1, net=(8,), max_turns=30,
        opponents=("random",), out=str(tmp_path / "p.npz"), progress_every=0,
    )  # fmt: skip
    summary = train(config, log=lines.append)
    assert summary["steps"] == 128
    assert lines[0].startswith("training tunisian 1v1 against random: up to 128 steps")
    assert lines[1] == (
        "--steps 100 is rounded up to 128: PPO learns in whole rollouts of 64 steps "
        "(64 × 1 environment)"
    )
    progress = [ln for ln in lines if " of 128 steps: " in ln]
    assert [ln.split(": ")[1].split(",")[0] for ln in progress] == ["64 steps", "128 steps"]
    assert lines[-1].startswith("trained 128 steps")
    assert not list(scratch.glob("SB3-*"))  # sb3 made one per run (torch keeps its cache)
