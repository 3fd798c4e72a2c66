"""``rami.rl.<game>_v0``: one PettingZoo AEC environment module per registered game.

``from rami.rl import marriage_v0`` (or any game's name) gets a module built here with
``env(preset, players, **options)`` (PettingZoo's order-enforcing wrapper around it)
and ``raw_env`` (the bare ``RamiAECEnv``). The preset may also be passed by the game's
own word (``mode="2v2"``). See ``rami.rl.aec``.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from rami.games import get_game

__all__ = ["env_module"]


def env_module(game: str) -> types.ModuleType:
    """The ``rami.rl.<game>_v0`` module of ``game`` (built once, then in ``sys.modules``)."""
    spec = get_game(game)
    name = f"rami.rl.{spec.name}_v0"
    if name in sys.modules:
        return sys.modules[name]
    from rami.rl.aec import OrderEnforcing, RamiAECEnv

    def raw_env(preset: str | None = None, players: int | None = None, **kwargs: Any) -> Any:
        """The bare environment (no PettingZoo wrappers)."""
        chosen = preset or kwargs.pop(spec.preset_label, None) or spec.presets[0]
        return RamiAECEnv(spec.name, chosen, players, **kwargs)

    def env(preset: str | None = None, players: int | None = None, **kwargs: Any) -> Any:
        """The environment with PettingZoo's order-enforcing wrapper (``OrderEnforcing``:
        a subclass that reads the hot attributes directly)."""
        return OrderEnforcing(raw_env(preset, players, **kwargs))

    module = types.ModuleType(name, f"PettingZoo AEC environment for {spec.title}.")
    module.raw_env = raw_env  # type: ignore[attr-defined]
    module.env = env  # type: ignore[attr-defined]
    module.__all__ = ["env", "raw_env"]  # type: ignore[attr-defined]
    sys.modules[name] = module
    return module
