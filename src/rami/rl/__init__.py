"""Reinforcement-learning environments for rami's games (extra ``rl``; docs/rl.md).

- ``rami.rl.<game>_v0`` (``from rami.rl import tunisian_v0``): PettingZoo AEC
  environments, one per registered game (``rami.rl.envs``);
- ``rami.rl.gym_env.RamiGymEnv``: Gymnasium, one learning seat against rami bots;
- ``rami.rl.openspiel``: the OpenSpiel games ``python_rami_<game>``;
- ``rami.rl.observation``: the one observation encoder (from views only);
- ``rami.rl.train`` (``rami train``), ``rami.rl.policy``, ``rami.rl.ray_vec_env``.

The integer action ids live with the engine (``rami.action_space``, the games'
``action_ids`` modules, ``rami.games.legal_action_ids``), which needs no extra.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """``rami.rl.<game>_v0`` for every game in the registry (``rami.rl.envs``)."""
    from rami.games import game_names

    if name.endswith("_v0") and name[: -len("_v0")] in game_names():
        from rami.rl.envs import env_module

        module = env_module(name[: -len("_v0")])
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
