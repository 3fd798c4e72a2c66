"""Build hook for the optional mypyc-compiled solvers (issue 12 item 4; docs/accelerated.md).

Everything else about the package lives in pyproject.toml. A plain build compiles
nothing and needs no compiler; with ``RAMI_MYPYC=1`` set at build time the modules named
in ``rami.accel.ACCELERATED_MODULES`` are compiled with mypyc (needs mypy and a C
compiler), and the pure-Python modules ship alongside as the fallback and reference.
"""

from __future__ import annotations

import ast
import importlib.util
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


def imports(path: Path) -> set[str]:
    """The modules ``path`` imports at module level (not under ``try`` or ``if``)."""
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def buildable(names: list[str]) -> dict[str, list[str]]:
    """Each of ``names`` (dotted modules under src/) that cannot be compiled here, with
    why: a third-party package it imports is not in the build environment (the RL
    encoders need numpy, the rl extra), or it imports a module of ``names`` that cannot."""
    read = {n: imports(HERE / "src" / (n.replace(".", "/") + ".py")) for n in names}
    out: dict[str, list[str]] = {}
    for name, found in read.items():
        roots = {m.split(".")[0] for m in found} - set(sys.stdlib_module_names)
        roots -= {"rami", "__future__"}
        absent = sorted(r for r in roots if importlib.util.find_spec(r) is None)
        if absent:
            out[name] = absent
    changed = True
    while changed:  # a module importing a skipped one is skipped too
        changed = False
        for name, found in read.items():
            if name not in out and found & out.keys():
                out[name] = sorted(found & out.keys())
                changed = True
    return out


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
    skipped = buildable(list(names))
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


setup(ext_modules=ext_modules())
