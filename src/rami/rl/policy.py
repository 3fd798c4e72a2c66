"""A trained policy as plain arrays: an MLP over the observation vector with one logit
per action id, saved as one ``.npz`` file that needs only numpy to play.

The file holds ``meta`` (JSON: game, rules, players, observation size, action-space
name, size and digest, activation, training notes) and the layers ``w0, b0, w1, b1, …``
(the last pair gives the logits). ``rami train`` writes it from sb3-contrib's
``MaskablePPO`` (``export_sb3``); ``rami.bots.learned`` plays it.

A file whose meta says ``"policy": "rank"`` holds a ``RankPolicy`` instead: one score
per legal action from what the action leads to (``rami.rl.afterstate``), the same
arrays and the same ``learned:PATH`` spec; ``load_policy`` reads either kind.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from rami.errors import InputError

if TYPE_CHECKING:
    from rami.rl.afterstate import Candidates

__all__ = ["MlpPolicy", "RankPolicy", "export_sb3", "load_policy"]

Array = npt.NDArray[np.float32]


class MlpPolicy:
    """Masked greedy play from an exported MLP (``tanh`` hidden layers)."""

    def __init__(self, meta: Mapping[str, Any], layers: Sequence[tuple[Array, Array]]) -> None:
        self.meta = dict(meta)
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        # ``best``'s fast path: the first layer by input (an observation is mostly
        # zeros: only its nonzero inputs' rows are read) and the last by action id
        # (only the legal ids' rows are read)
        self._first_by_input = np.ascontiguousarray(self.layers[0][0].T) if self.layers else None

    def logits(self, obs: Array) -> Array:
        h = obs.astype(np.float32, copy=False)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = w @ h + b
            if i < last:
                h = np.tanh(h)
        return h

    def best(self, obs: Array, legal_ids: Sequence[int]) -> int:
        """The legal id with the highest logit."""
        if not legal_ids:
            raise InputError("the policy was asked to move with no legal action")
        ids = np.asarray(legal_ids, dtype=np.int64)
        return int(ids[int(np.argmax(self.legal_logits(obs, ids)))])

    def legal_logits(self, obs: Array, ids: npt.NDArray[np.int64]) -> Array:
        """``logits(obs)[ids]``, reading only the weights they depend on: the rows of the
        observation's nonzero inputs in the first layer, the legal ids' in the last (a
        few hundred of 2,619 inputs and a few dozen of 6,422 ids in Tunisian rami: a
        decision costs tens of µs instead of a millisecond; equal up to rounding)."""
        x = obs.astype(np.float32, copy=False)
        last = len(self.layers) - 1
        assert self._first_by_input is not None
        nz = np.flatnonzero(x)
        h: Array = x[nz] @ self._first_by_input[nz] + self.layers[0][1]
        if last == 0:
            return h[ids]
        h = np.tanh(h)
        for w, b in self.layers[1:last]:
            h = np.tanh(w @ h + b)
        w, b = self.layers[last]
        out: Array = w[ids] @ h + b[ids]
        return out

    def save(self, path: str | Path, half: bool = False) -> None:
        """Write the file; ``half`` stores float16 arrays (half the size; ``load`` reads
        them back as float32, and the best legal id rarely changes)."""
        _save(path, self.meta, self.layers, half)

    @classmethod
    def load(cls, path: str | Path) -> MlpPolicy:
        """Read a policy file; ``InputError`` saying why if it is not one."""
        meta, layers = _read(path)
        return cls(meta, layers)


def _read(path: str | Path) -> tuple[dict[str, Any], list[tuple[Array, Array]]]:
    """The meta and the layers of a policy file; ``InputError`` saying why if it is not
    one. Never numpy's own advice on loading pickles unsafely (issue 23): a policy file
    holds arrays only."""
    import zipfile

    if Path(path).is_file() and not zipfile.is_zipfile(path):
        raise InputError(f"{path} is not a rami policy file (rami train writes .npz archives)")
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            layers = []
            i = 0
            while f"w{i}" in data:
                layers.append((data[f"w{i}"], data[f"b{i}"]))
                i += 1
    except FileNotFoundError:
        raise InputError(f"no policy file {path}") from None
    except (OSError, ValueError, KeyError) as exc:
        said = str(exc).strip().splitlines()
        reason = (
            "it holds pickled objects, which rami never loads"
            if "pickle" in str(exc)
            else said[0]
            if said
            else type(exc).__name__
        )
        raise InputError(f"{path} is not a rami policy file ({reason})") from None
    if not layers or not isinstance(meta, dict) or "game" not in meta:
        raise InputError(f"{path} is not a rami policy file")
    return meta, layers


def _save(path: str | Path, meta: Mapping[str, Any], layers: Sequence[tuple[Array, Array]],
          half: bool) -> None:  # fmt: skip
    arrays: dict[str, Any] = {"meta": np.asarray(json.dumps(dict(meta)))}
    dtype = np.float16 if half else np.float32
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"] = w.astype(dtype)
        arrays[f"b{i}"] = b.astype(dtype)
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)


class RankPolicy:
    """Scores each legal action from what it leads to (``rami.rl.afterstate``) and plays
    the best: an MLP (``tanh`` hidden layers, one output) over the position after the
    action, ``before + change``, and the action's extras.

    The first layer's weights are ``[W_obs | W_extra]``: ``W_obs @ before`` is computed
    once per decision (the observation's nonzero rows only) and each action adds the rows
    of its few changed entries, so a decision costs about one flat forward pass."""

    def __init__(self, meta: Mapping[str, Any], layers: Sequence[tuple[Array, Array]]) -> None:
        self.meta = dict(meta)
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        size = int(self.meta["observation_size"])
        w0 = self.layers[0][0]
        self._obs_rows = np.ascontiguousarray(w0[:, :size].T)  # (inputs, hidden)
        self._extra_rows = np.ascontiguousarray(w0[:, size:].T)  # (extras, hidden)
        self.size = size

    def scores(self, c: Candidates) -> Array:
        """One score per legal action of ``c`` (higher is better)."""
        x = c.before
        nz = np.flatnonzero(x)
        base = x[nz] @ self._obs_rows[nz] + self.layers[0][1]
        pre = np.empty((len(c.legal), base.shape[0]), dtype=np.float32)
        rows = self._obs_rows
        for i, (idx, val) in enumerate(zip(c.idx, c.val, strict=True)):
            pre[i] = base + val @ rows[idx] if len(idx) else base
        h = np.tanh(pre + c.extra @ self._extra_rows)
        last = len(self.layers) - 1
        for w, b in self.layers[1:last]:
            h = np.tanh(h @ w.T + b)
        w, b = self.layers[last]
        out: Array = (h @ w.T + b)[:, 0]
        return out

    def best(self, c: Candidates) -> int:
        """The index in ``c.legal`` of the best-scored action."""
        if not c.legal:
            raise InputError("the policy was asked to move with no legal action")
        return int(np.argmax(self.scores(c)))

    def save(self, path: str | Path, half: bool = False) -> None:
        """Write the file (``half``: float16 arrays, as ``MlpPolicy.save``)."""
        _save(path, self.meta, self.layers, half)


def load_policy(path: str | Path) -> MlpPolicy | RankPolicy:
    """The policy in ``path``, of the kind its meta names; ``InputError`` saying why if
    it is not a policy file."""
    meta, layers = _read(path)
    kind = meta.get("policy", "flat")
    if kind == "rank":
        if "observation_size" not in meta or layers[-1][0].shape[0] != 1:
            raise InputError(f"{path} is not a rami ranking policy file")
        return RankPolicy(meta, layers)
    if kind != "flat":
        raise InputError(f"{path} holds a {kind!r} policy, which this rami cannot play")
    return MlpPolicy(meta, layers)


def export_sb3(model: Any, meta: Mapping[str, Any]) -> MlpPolicy:
    """The actor of an sb3 (Maskable)PPO ``MlpPolicy`` with tanh layers, as arrays."""
    import torch

    policy = model.policy
    layers: list[tuple[Array, Array]] = []
    for module in [*policy.mlp_extractor.policy_net, policy.action_net]:
        if isinstance(module, torch.nn.Linear):
            layers.append(
                (module.weight.detach().cpu().numpy(), module.bias.detach().cpu().numpy())
            )
        elif not isinstance(module, torch.nn.Tanh):
            raise ValueError(f"cannot export layer {module!r}: only Linear and Tanh")
    return MlpPolicy(meta, layers)
