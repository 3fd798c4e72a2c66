"""Experience collection on Ray: a stable-baselines3 ``VecEnv`` whose environments live
in Ray actors (``rami train --backend ray``).

Each actor holds one Gymnasium environment and steps it as sb3's ``DummyVecEnv`` does
(auto-reset on the end of an episode, ``terminal_observation`` in the info), so with
the same seeds and the same actions the episodes are identical to the local backend's;
only where the environments run changes. On a cluster, set ``RAY_ADDRESS``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from rami.errors import InputError

__all__ = ["EnvWorker", "RayVecEnv"]


class EnvWorker:
    """One environment inside a Ray actor (plain class: ``ray.remote`` wraps it)."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.env = make()

    def reset(self, seed: int | None, options: dict[str, Any] | None) -> tuple[Any, Any, Any]:
        kwargs = {"options": options} if options else {}
        obs, info = self.env.reset(seed=seed, **kwargs)
        return obs, info, self._mask()

    def _mask(self) -> Any:
        """The new position's ``action_masks()`` (None if the env has none), sent with the
        observation: a masked learner asks for it before every step, and asking the actor
        was a second round trip per step."""
        masks = getattr(self.env, "action_masks", None)
        return None if masks is None else masks()

    def step(self, action: Any) -> tuple[Any, float, bool, dict[str, Any], Any, Any]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        done = bool(terminated or truncated)
        info = dict(info)
        info["TimeLimit.truncated"] = bool(truncated and not terminated)
        reset_info: Any = None
        if done:
            info["terminal_observation"] = obs
            obs, reset_info = self.env.reset()
        return obs, float(reward), done, info, reset_info, self._mask()

    def get_attr(self, name: str) -> Any:
        return getattr(self.env, name)

    def set_attr(self, name: str, value: Any) -> None:
        setattr(self.env, name, value)

    def call(self, name: str, args: Sequence[Any], kwargs: dict[str, Any]) -> Any:
        return getattr(self.env, name)(*args, **kwargs)


class RayVecEnv(VecEnv):
    """Environments stepped in parallel in Ray actors (see the module docstring)."""

    def __init__(self, makers: Sequence[Callable[[], Any]]) -> None:
        try:
            import ray
        except ImportError:
            raise InputError("the ray backend needs Ray: pip install 'rami[ray]'") from None
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            os.environ.setdefault("RAY_AUTH_MODE", "disabled")
            address = os.environ.get("RAY_ADDRESS")
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(
                    num_cpus=max(1, min(len(makers), os.cpu_count() or 1)),
                    include_dashboard=False,
                    log_to_driver=False,
                )
            self._started = True
        actor: Any = ray.remote(num_cpus=0)(EnvWorker)
        self.workers: list[Any] = [actor.remote(make) for make in makers]
        probe = makers[0]()
        super().__init__(len(makers), probe.observation_space, probe.action_space)
        self._actions: Any = None
        # each env's action_masks() at its current position, as the last reset or step
        # sent them (None: ask the actor)
        self._masks: list[Any] | None = None

    def reset(self) -> Any:
        ray = self._ray
        refs = [
            w.reset.remote(self._seeds[i], self._options[i]) for i, w in enumerate(self.workers)
        ]
        results = ray.get(refs)
        self.reset_infos = [info for _obs, info, _mask in results]
        self._masks = [mask for _obs, _info, mask in results]
        self._reset_seeds()
        self._reset_options()
        return np.stack([obs for obs, _info, _mask in results])

    def step_async(self, actions: np.ndarray[Any, Any]) -> None:
        self._actions = actions

    def step_wait(self) -> Any:
        ray = self._ray
        refs = [w.step.remote(self._actions[i]) for i, w in enumerate(self.workers)]
        results = ray.get(refs)
        obs = np.stack([r[0] for r in results])
        rewards = np.asarray([r[1] for r in results], dtype=np.float32)
        dones = np.asarray([r[2] for r in results], dtype=np.bool_)
        infos = [r[3] for r in results]
        for i, r in enumerate(results):
            if r[2]:
                self.reset_infos[i] = r[4]
        self._masks = [r[5] for r in results]
        return obs, rewards, dones, infos

    def close(self) -> None:
        for w in self.workers:
            self._ray.kill(w)
        self.workers = []
        if self._started:
            self._ray.shutdown()
            self._started = False

    def _targets(self, indices: VecEnvIndices) -> list[Any]:
        return [self.workers[i] for i in self._get_indices(indices)]

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        result: list[Any] = self._ray.get(
            [w.get_attr.remote(attr_name) for w in self._targets(indices)]
        )
        return result

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        self._masks = None  # the envs may change: ask them again
        self._ray.get([w.set_attr.remote(attr_name, value) for w in self._targets(indices)])

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        kept = self._masks
        if method_name == "action_masks" and not method_args and not method_kwargs:
            if kept is not None and all(m is not None for m in kept):
                # sent with the last observations (the same arrays the actors would give)
                return [kept[i].copy() for i in self._get_indices(indices)]
        else:
            self._masks = None  # another method may change the envs: ask them again
        result: list[Any] = self._ray.get(
            [w.call.remote(method_name, method_args, method_kwargs) for w in self._targets(indices)]
        )
        return result

    def env_is_wrapped(self, wrapper_class: type[Any], indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]
