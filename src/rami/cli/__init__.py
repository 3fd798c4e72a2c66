"""The ``rami`` command. Sub-commands live in small modules; ``rami.cli.assembly`` assembles
them. The assembly asks every registered game for its commands, and a game's command
module imports the sub-command modules here: so the package itself stays empty and
``app``/``main``/``fail`` are loaded on first use, whichever module is imported first."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rami.cli.assembly import app, fail, main

__all__ = ["app", "fail", "main"]


def __getattr__(name: str) -> object:
    if name in __all__:
        from importlib import import_module

        return getattr(import_module("rami.cli.assembly"), name)
    raise AttributeError(f"module 'rami.cli' has no attribute {name!r}")
