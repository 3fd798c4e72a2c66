"""Which solver and encoder modules run compiled (the optional mypyc build) and which run as
Python.

The pure-Python modules are the reference and the fallback: a plain ``pip install``
builds nothing. ``RAMI_MYPYC=1 pip install .`` (or ``make accel``) compiles the modules
listed here with mypyc; an extension module next to its ``.py`` wins at import time, so
the same code runs faster with no switch to flip. Issue 12 item 4; figures in
docs/accelerated.md. This module imports only the standard library: setup.py reads
``ACCELERATED_MODULES`` from it before rami is installed.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Callable, Sequence
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

__all__ = [
    "ACCELERATED_MODULES",
    "accelerated",
    "compiled_modules",
    "describe",
    "stale_modules",
    "unbuildable",
]

# The hot solver modules (profiled with bench/marriage_selfplay.py --profile,
# bench/marriage_solver.py and bench/tunisian_opening.py) and the RL observation encoders
# (bench/rl_env.py) carry the line MARKER. Each one imports only the standard library,
# rami modules that stay Python (or other marked ones) and, for the encoders, numpy; and
# passes mypy --strict, which mypyc needs. The engines (game.py) stay Python: they pay
# less and change more. Marking the modules where they live keeps this list free of any
# game's name.
MARKER = "# rami: compiled with mypyc in the accelerated build"


def marked_modules(package: Path) -> tuple[str, ...]:
    """The dotted names of the modules under ``package`` (the ``rami`` folder) that carry
    ``MARKER`` on a line of their own."""
    names = []
    for path in sorted(package.rglob("*.py")):
        if MARKER in path.read_text(encoding="utf-8").splitlines():
            parts = path.relative_to(package.parent).with_suffix("").parts
            names.append(".".join(parts))
    return tuple(names)


ACCELERATED_MODULES: tuple[str, ...] = marked_modules(Path(__file__).resolve().parent)


def compiled_modules() -> list[str]:
    """The modules of ``ACCELERATED_MODULES`` that were loaded from an extension module."""
    return [n for n in ACCELERATED_MODULES if _origin(n).endswith(tuple(EXTENSION_SUFFIXES))]


def _origin(name: str) -> str:
    """The file the module ``name`` is (or would be) loaded from, found without running
    it: the encoders import numpy, which a core install lacks, and ``rami --version``
    must answer there too."""
    module = sys.modules.get(name)
    if module is not None:
        return getattr(module, "__file__", None) or ""
    spec = importlib.util.find_spec(name)
    return (spec.origin if spec is not None else None) or ""


def stale_modules() -> list[str]:
    """Compiled modules whose ``.py`` beside them was edited after the build.

    The extension still wins at import time, so in a working tree (``make accel``) an edit
    does nothing until ``make accel`` runs again or ``make pure`` removes the build: worth
    saying in ``rami --version``.
    """
    stale = []
    for name in compiled_modules():
        built = Path(_origin(name))
        if {"site-packages", "dist-packages"} & set(built.parts):
            continue  # installed files: their times are the installer's, not edits
        source = built.with_name(name.rsplit(".", 1)[1] + ".py")
        if source.exists() and source.stat().st_mtime > built.stat().st_mtime + 1:
            stale.append(name)
    return stale


def accelerated() -> bool:
    """True when every accelerated module runs compiled."""
    return len(compiled_modules()) == len(ACCELERATED_MODULES)


def describe() -> str:
    """One line for ``rami --version``: "pure Python", "mypyc-compiled" or which part."""
    compiled = compiled_modules()
    if not compiled:
        return "solvers: pure Python"
    stale = stale_modules()
    note = f"; older than their source: {', '.join(stale)}" if stale else ""
    if len(compiled) == len(ACCELERATED_MODULES):
        return f"solvers: mypyc-compiled ({len(compiled)} modules{note})"
    pure = [name for name in ACCELERATED_MODULES if name not in compiled]
    return (
        f"solvers: mypyc-compiled ({len(compiled)} of {len(ACCELERATED_MODULES)} modules; "
        f"pure Python: {', '.join(pure)}{note})"
    )


def module_imports(path: Path) -> set[str]:
    """The modules ``path`` imports at module level (not those under ``try`` or ``if``)."""
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def unbuildable(
    names: Sequence[str], src: Path, present: Callable[[str], bool] | None = None
) -> dict[str, list[str]]:
    """The modules of ``names`` (dotted, their files under ``src``) that this build cannot
    compile, each with why: a third-party package it imports at module level is absent
    (``present`` says, by default whether it can be found: the RL encoders need numpy,
    which the rl extra brings), or it imports one of ``names`` that cannot be compiled.

    setup.py compiles the others, so the build needs the core alone (issue 27); the
    modules left out run as Python.
    """
    exists = present or (lambda root: importlib.util.find_spec(root) is not None)
    read = {n: module_imports(src / (n.replace(".", "/") + ".py")) for n in names}
    out: dict[str, list[str]] = {}
    for name, found in read.items():
        roots = {m.split(".")[0] for m in found} - set(sys.stdlib_module_names)
        absent = sorted(r for r in roots - {"rami", "__future__"} if not exists(r))
        if absent:
            out[name] = absent
    changed = True
    while changed:  # a module importing a left-out one is left out too
        changed = False
        for name, found in read.items():
            if name not in out and found & out.keys():
                out[name] = sorted(found & out.keys())
                changed = True
    return out
