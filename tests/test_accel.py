"""The optional mypyc build (issue 12 item 4): compiled solvers answer exactly as the pure ones.

A session fixture builds the accelerated modules the way ``make accel`` does (setup.py
with ``RAMI_MYPYC=1``) into a copy of the project in a temporary folder, then
tests/accel_probe.py runs the same seeded solver calls and self-play deals on the pure
tree and on the compiled tree, in two subprocesses, and the outputs must be identical.
Skipped, with the reason, where there is no C compiler, no Python headers or no mypyc.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

from rami.accel import ACCELERATED_MODULES, accelerated, compiled_modules, describe

ROOT = Path(__file__).resolve().parents[1]
PROBE = Path(__file__).resolve().parent / "accel_probe.py"
_IGNORE = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.c", "build")


def _env(src: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}


@pytest.fixture(scope="session")
def trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(pure src, compiled src): two copies of src/, the second with the mypyc build."""
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler (cc/gcc) on PATH: the accelerated build cannot be made")
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        pytest.skip("no Python headers (Python.h, e.g. Debian's python3-dev): cannot compile")
    if importlib.util.find_spec("mypyc") is None:
        pytest.skip("mypyc is not installed (it comes with mypy, in the dev extra)")
    base = tmp_path_factory.mktemp("accel")
    pure = base / "pure"
    shutil.copytree(ROOT / "src", pure / "src", ignore=_IGNORE)
    compiled = base / "compiled"
    compiled.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, compiled / name)
    shutil.copytree(ROOT / "build_support", compiled / "build_support", ignore=_IGNORE)
    shutil.copytree(ROOT / "src", compiled / "src", ignore=_IGNORE)
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
        cwd=compiled,
        env={**os.environ, "RAMI_MYPYC": "1"},
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return pure / "src", compiled / "src"


def _probe(src: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(PROBE), "30"],
        cwd=src.parent,
        env=_env(src),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


def test_compiled_solvers_answer_as_the_pure_ones(trees: tuple[Path, Path]) -> None:
    """Seeded melds, finish checks, arrangements, missing counts (bounded and not), nepali
    and indian, and whole self-play deals: line for line the same answers."""
    pure_src, compiled_src = trees
    pure, compiled = _probe(pure_src), _probe(compiled_src)
    assert pure[0] == "compiled []"
    assert compiled[0] == f"compiled {list(ACCELERATED_MODULES)}"
    assert len(pure) == len(compiled) > 400
    for i, (a, b) in enumerate(zip(pure[1:], compiled[1:], strict=True)):
        assert a == b, f"line {i + 2} differs:\npure:     {a[:400]}\ncompiled: {b[:400]}"


def test_version_says_which_solvers_run(trees: tuple[Path, Path]) -> None:
    pure_src, compiled_src = trees
    lines = []
    for src in trees:
        done = subprocess.run(
            [sys.executable, "-c", "from rami.cli import main; main(['--version'])"],
            env=_env(src),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        lines.append(done.stdout.strip())
    assert "solvers: pure Python" in lines[0], lines
    assert f"solvers: mypyc-compiled ({len(ACCELERATED_MODULES)} modules)" in lines[1], lines
    assert pure_src != compiled_src


def test_this_process_reports_its_own_modules() -> None:
    """Whichever build runs the suite, the report is consistent (no compiler needed)."""
    compiled = compiled_modules()
    assert set(compiled) <= set(ACCELERATED_MODULES)
    assert accelerated() == (len(compiled) == len(ACCELERATED_MODULES))
    assert describe().startswith("solvers: ")


def test_version_warns_when_a_source_is_newer_than_its_build(trees: tuple[Path, Path]) -> None:
    """An edit after ``make accel`` is shadowed by the old build: --version says so."""
    source = trees[1] / "rami" / "marriage" / "melds.py"
    before = source.stat()
    later = time.time() + 3600  # newer than the build, whenever the source was checked out
    os.utime(source, (later, later))
    try:
        done = subprocess.run(
            [sys.executable, "-c", "from rami.accel import describe; print(describe())"],
            env=_env(trees[1]),
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        os.utime(source, (before.st_atime, before.st_mtime))
    assert "older than their source: rami.marriage.melds" in done.stdout, done.stdout + done.stderr


def test_compiled_encoders_give_the_pure_tensors(trees: tuple[Path, Path]) -> None:
    """The RL observation encoders compiled (issue 11): the fast-encoder tests pass on the
    compiled tree: ``encode_state`` bit-equal to ``encode(view)`` over random positions,
    whole matches and re-dealt twins, copies and pickles, and a plug-in's Python subclass
    of the compiled ``Encoder``."""
    pytest.importorskip("numpy")  # the rl extra
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
            str(ROOT / "tests" / "test_rl_fast_observation.py"),
        ],
        cwd=trees[1].parent,
        env=_env(trees[1]),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
