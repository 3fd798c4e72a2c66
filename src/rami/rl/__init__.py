"""Reinforcement-learning environments for rami's games (extra ``rl``; docs/rl.md).

- ``rami.rl.marriage_v0`` / ``rami.rl.tunisian_v0``: PettingZoo AEC environments;
- ``rami.rl.gym_env.RamiGymEnv``: Gymnasium, one learning seat against rami bots;
- ``rami.rl.openspiel``: the OpenSpiel games ``python_rami_marriage`` / ``_tunisian``;
- ``rami.rl.observation``: the one observation encoder (from views only);
- ``rami.rl.train`` (``rami train``), ``rami.rl.policy``, ``rami.rl.ray_vec_env``.

The integer action ids live with the engine (``rami.action_space``, the games'
``action_ids`` modules, ``rami.games.legal_action_ids``), which needs no extra.
"""
