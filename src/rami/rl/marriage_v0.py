"""PettingZoo AEC environment for Marriage: ``rami.rl.marriage_v0.env(preset=…, players=…)``.

Presets ``nepali`` (2–5 players, default 4) and ``indian`` (2–7). See ``rami.rl.aec``.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from rami.rl.aec import RamiAECEnv

__all__ = ["env", "raw_env"]


def raw_env(preset: str = "nepali", players: int | None = None, **kwargs: Any) -> RamiAECEnv:
    """The bare environment (no PettingZoo wrappers)."""
    return RamiAECEnv("marriage", preset, players, **kwargs)


def env(preset: str = "nepali", players: int | None = None, **kwargs: Any) -> Any:
    """The environment with PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(preset, players, **kwargs))
