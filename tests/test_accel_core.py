"""The compiled build needs the core alone (issue 27): no web, RL or database package.

setup.py leaves out the modules whose imports the build environment lacks (the RL
encoders need numpy) and has mypy read what the compiled modules import silently, so
``rami.games`` naming the CLI, web and RL hooks for type checking does not pull them in.
The full build is tests/test_accel.py (minutes of CPU); these checks take seconds.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rami.accel import ACCELERATED_MODULES, describe, unbuildable

ROOT = Path(__file__).resolve().parents[1]
ENCODERS = {"rami.rl.observation", "rami.marriage.observation", "rami.tunisian.observation"}


def test_without_numpy_the_encoders_stay_python_and_the_solvers_compile() -> None:
    left = unbuildable(ACCELERATED_MODULES, ROOT / "src", present=lambda root: root != "numpy")
    assert set(left) == ENCODERS
    assert left["rami.rl.observation"] == ["numpy"]
    assert left["rami.marriage.observation"] == ["rami.rl.observation"]  # through it
    assert unbuildable(ACCELERATED_MODULES, ROOT / "src", present=lambda root: True) == {}


def test_a_module_importing_an_absent_package_at_top_level_only(tmp_path: Path) -> None:
    pkg = tmp_path / "rami"
    pkg.mkdir()
    (pkg / "a.py").write_text("import json\nimport not_here.sub\n")
    (pkg / "b.py").write_text("try:\n    import not_here\nexcept ImportError:\n    pass\n")
    (pkg / "c.py").write_text("from rami.a import x\n")
    left = unbuildable(["rami.a", "rami.b", "rami.c"], tmp_path)
    assert left == {"rami.a": ["not_here"], "rami.c": ["rami.a"]}


def test_describe_names_the_modules_left_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    import rami.accel

    compiled = [m for m in ACCELERATED_MODULES if m not in ENCODERS]
    monkeypatch.setattr(rami.accel, "compiled_modules", lambda: compiled)
    monkeypatch.setattr(rami.accel, "stale_modules", list)
    line = describe()
    assert line.startswith(f"solvers: mypyc-compiled ({len(compiled)} of ")
    assert "pure Python: " in line and "rami.rl.observation" in line


def test_the_compiled_modules_type_check_with_no_third_party_package(tmp_path: Path) -> None:
    """What mypyc runs, with site-packages hidden from mypy (as in a core-only venv, and
    stricter: typer and rich hidden too): the core modules check clean."""
    pytest.importorskip("mypy")
    core = sorted(set(ACCELERATED_MODULES) - ENCODERS)
    paths = ["src/" + name.replace(".", "/") + ".py" for name in core]
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-site-packages",
         "--cache-dir", str(tmp_path), *paths],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout[-2000:]


def test_version_line_needs_no_numpy() -> None:
    """``rami --version`` on a core install: which modules run compiled is found without
    importing the encoders (numpy is blocked here as if absent)."""
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from rami.accel import describe; print(describe())\n"
        "assert 'rami.rl.observation' not in sys.modules\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-1000:]
    assert out.stdout.startswith("solvers: ")


def test_the_backend_names_an_old_setuptools_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """``pip install --no-build-isolation`` uses the venv's setuptools: one older than 77
    (pyproject's ``license = "MIT"``) stops the build with the fix, not schema errors."""
    import runpy

    import setuptools

    backend = str(ROOT / "build_support" / "rami_build.py")
    monkeypatch.setattr(setuptools, "__version__", "65.5.0")
    with pytest.raises(SystemExit, match=r"setuptools>=77, not 65\.5\.0: pip install -U"):
        runpy.run_path(backend)
    monkeypatch.setattr(setuptools, "__version__", "77.0.1")
    assert "get_requires_for_build_wheel" in runpy.run_path(backend)
