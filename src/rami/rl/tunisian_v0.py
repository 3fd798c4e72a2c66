"""PettingZoo AEC environment for Tunisian rami: ``rami.rl.tunisian_v0.env(mode=…)``.

Modes ``1v1`` (2 players), ``ffa`` and ``2v2`` (4). See ``rami.rl.aec``.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from rami.rl.aec import RamiAECEnv

__all__ = ["env", "raw_env"]


def raw_env(mode: str = "1v1", **kwargs: Any) -> RamiAECEnv:
    """The bare environment (no PettingZoo wrappers)."""
    return RamiAECEnv("tunisian", mode, None, **kwargs)


def env(mode: str = "1v1", **kwargs: Any) -> Any:
    """The environment with PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(mode, **kwargs))
