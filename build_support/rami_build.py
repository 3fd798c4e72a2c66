"""The build backend: setuptools' own, plus mypy as a build requirement when RAMI_MYPYC=1.

That way ``RAMI_MYPYC=1 pip install .`` works in pip's isolated build environment, and a
plain ``pip install .`` asks for setuptools alone (no mypy, no compiler). setup.py holds
the build hook itself.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import setuptools
from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the backend's hooks, re-exported)

_MYPYC_REQUIRES = ["mypy>=1.10"]

#: pyproject.toml's ``license = "MIT"`` (PEP 639) needs setuptools 77. pip's isolated
#: build fetches it; ``--no-build-isolation`` uses the venv's own, often older (a new
#: venv of Python 3.11 carries 65): say so in one line, not in a page of schema errors.
_SETUPTOOLS_NEEDED = 77
if int(setuptools.__version__.split(".")[0]) < _SETUPTOOLS_NEEDED:
    raise SystemExit(
        f"rami: the build needs setuptools>={_SETUPTOOLS_NEEDED}, not "
        f"{setuptools.__version__}: pip install -U 'setuptools>={_SETUPTOOLS_NEEDED}'"
    )


def _extra() -> list[str]:
    flag = os.environ.get("RAMI_MYPYC", "").strip().lower()
    return _MYPYC_REQUIRES if flag in {"1", "true", "yes", "on"} else []


def _listing(hook: Callable[[dict[str, Any] | None], list[str]]) -> Callable[..., list[str]]:
    """Run setuptools' requirement hook with setup.py told not to compile (no mypy yet)."""

    def requires(config_settings: dict[str, Any] | None = None) -> list[str]:
        os.environ["RAMI_BUILD_LISTING_REQUIRES"] = "1"
        try:
            return [*hook(config_settings), *_extra()]
        finally:
            del os.environ["RAMI_BUILD_LISTING_REQUIRES"]

    return requires


get_requires_for_build_wheel = _listing(_setuptools.get_requires_for_build_wheel)
get_requires_for_build_editable = _listing(_setuptools.get_requires_for_build_editable)
