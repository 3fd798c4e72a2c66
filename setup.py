"""Build hook for the optional mypyc-compiled solvers (issue 12 item 4; docs/accelerated.md).

Everything else about the package lives in pyproject.toml. A plain build compiles
nothing and needs no compiler; with ``RAMI_MYPYC=1`` set at build time the modules named
in ``rami.accel.ACCELERATED_MODULES`` are compiled with mypyc (needs mypy and a C
compiler), and the pure-Python modules ship alongside as the fallback and reference.
The build needs the core alone: a module whose imports the build environment lacks (the
RL encoders without numpy) stays Python (``rami.accel.unbuildable``).
"""

from __future__ import annotations

import os
import runpy
import shutil
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def wanted() -> bool:
    """RAMI_MYPYC=1 (or true/yes/on) asks for the compiled build."""
    return os.environ.get("RAMI_MYPYC", "").strip().lower() in {"1", "true", "yes", "on"}


def ext_modules() -> list[Any]:
    # The backend (build_support/rami_build.py) runs this file once to list the build
    # requirements, before mypy is installed: nothing to compile then.
    if not wanted() or os.environ.get("RAMI_BUILD_LISTING_REQUIRES") == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        sys.exit("RAMI_MYPYC=1 needs mypy (pip install mypy) and a C compiler")
    accel = runpy.run_path(str(HERE / "src" / "rami" / "accel.py"))
    names = accel["ACCELERATED_MODULES"]
    os.chdir(HERE)  # mypyc names modules from paths relative to the project
    skipped = accel["unbuildable"](names, HERE / "src")
    for name, why in skipped.items():
        print(f"rami: {name} stays pure Python (needs {', '.join(why)}, not in the build)")
    paths = ["src/" + n.replace(".", "/") + ".py" for n in names if n not in skipped]
    # mypy checks only the compiled modules: what they import (rami.games names the CLI,
    # web and RL hooks for type checking) is read silently, so the build needs the core
    # alone, not the web, RL or database packages (issue 27).
    return mypycify(
        ["--follow-imports=silent", *paths],
        opt_level=os.environ.get("RAMI_MYPYC_OPT", "3"),
        group_name="rami_accel",
    )


#: The complete rules documents the web rules page serves (rami.server.rules_info), with
#: their place in the package: docs/ is their one source, copied at build time (issue 28).
RULES_DOCS = "docs/rules-*.md"
RULES_DOCS_TARGET = ("rami", "server", "rules_docs")


class BuildPy(build_py):
    """setuptools' build_py, plus the rules documents copied into the built package, so a
    non-editable install (``pip install .``, a wheel) serves the complete rules too."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib).joinpath(*RULES_DOCS_TARGET)
        target.mkdir(parents=True, exist_ok=True)
        for doc in sorted(HERE.glob(RULES_DOCS)):
            shutil.copyfile(doc, target / doc.name)


setup(ext_modules=ext_modules(), cmdclass={"build_py": BuildPy})
