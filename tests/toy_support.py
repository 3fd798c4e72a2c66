"""The toy rummy (tests/toy_game) registered for a test, and the registry with it.

The toy is registered only while a test that wants it runs (``toy_registered``), so the
other tests see the built-in games alone (the CLI's and the API's documented texts list
the registered games).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from toy_game import GAME as TOY

from rami.games import Game, all_games, register, unregister

__all__ = ["ROOT", "TOY", "games_with_toy", "subprocess_env", "toy_registered"]

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def toy_registered() -> Iterator[Game]:
    """The toy game in the registry for the duration of the block."""
    register(TOY)
    try:
        yield TOY
    finally:
        unregister(TOY.name)


def games_with_toy() -> tuple[Game, ...]:
    """Every registered game, the toy included (for parametrizing at collection)."""
    with toy_registered():
        return all_games()


def subprocess_env() -> dict[str, str]:
    """An environment in which a ``rami`` subprocess loads the toy through ``RAMI_GAMES``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
    env["RAMI_GAMES"] = "tests.toy_game:GAME"
    return env
