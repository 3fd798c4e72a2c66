"""Build hook for the optional mypyc-compiled solvers (issue 12 item 4; docs/accelerated.md).

Everything else about the package lives in pyproject.toml. A plain build compiles
nothing and needs no compiler; with ``RAMI_MYPYC=1`` set at build time the modules named
in ``rami.accel.ACCELERATED_MODULES`` are compiled with mypyc (needs mypy and a C
compiler), and the pure-Python modules ship alongside as the fallback and reference.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import setup

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
    names = runpy.run_path(str(HERE / "src" / "rami" / "accel.py"))["ACCELERATED_MODULES"]
    os.chdir(HERE)  # mypyc names modules from paths relative to the project
    paths = ["src/" + name.replace(".", "/") + ".py" for name in names]
    return mypycify(
        paths,
        opt_level=os.environ.get("RAMI_MYPYC_OPT", "3"),
        group_name="rami_accel",
    )


setup(ext_modules=ext_modules())
