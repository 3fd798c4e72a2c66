"""A learned position value for the search bots' depth cut, read without numpy.

``rami train --policy value`` (``rami.rl.value_train``) fits a small network on the
outcomes of self-play deals: from a game kit's ``value_features`` of a position (one
seat's side of it) to the points that seat ended the deal with. The levels
``hard+value`` and ``expert+value`` (``rami.bots.ismcts``) score the position at their
depth cut with it, through the game kit's ``learned_leaf``. The bots must run on the
standard library alone (the engine and the bots have no third-party dependency), so the
file is a plain ``.npz`` (a zip of
``.npy`` arrays, float16 to ship small) that this module reads with ``zipfile`` and
``struct``, and the network is evaluated in pure Python: a few hundred multiply-adds, a
small part of a rollout's cost.

The network: ``x' = (x - mean) / std``; ``out = w1 · tanh(w0 x' + b0) + b1 + skip · x'``
(a tanh hidden layer beside a linear skip), in the points of the game's scores.
"""

from __future__ import annotations

import ast
import json
import math
import struct
import zipfile
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path

from rami.errors import InputError

__all__ = ["VALUES_DIR", "ValueNet", "read_npz", "shipped_value"]

VALUES_DIR = Path(__file__).resolve().parent / "values"  # the shipped value files

_FORMATS = {"<f2": "e", "<f4": "f", "<f8": "d", "|u1": "B", "<i8": "q"}


def _read_npy(data: bytes) -> tuple[tuple[int, ...], list[float] | bytes]:
    """The shape and the flat values of one ``.npy`` array (the formats written by
    ``numpy.save`` for float16/32/64, int64 and bytes, C order)."""
    if data[:6] != b"\x93NUMPY":
        raise ValueError("not an npy array")
    major = data[6]
    if major == 1:
        (size,) = struct.unpack_from("<H", data, 8)
        start = 10
    else:
        (size,) = struct.unpack_from("<I", data, 8)
        start = 12
    header = ast.literal_eval(data[start : start + size].decode("latin1"))
    descr, shape = header["descr"], tuple(header["shape"])
    if header.get("fortran_order") or descr not in _FORMATS:
        raise ValueError(f"unsupported npy array {descr}")
    body = data[start + size :]
    count = math.prod(shape)
    if descr == "|u1":
        return shape, body[:count]
    code = _FORMATS[descr]
    return shape, list(struct.unpack_from(f"<{count}{code}", body))


def read_npz(path: str | Path) -> dict[str, tuple[tuple[int, ...], list[float] | bytes]]:
    """Every array of an ``.npz`` file by name: ``(shape, flat values)``."""
    out: dict[str, tuple[tuple[int, ...], list[float] | bytes]] = {}
    with zipfile.ZipFile(path) as zf:
        for name in zf.namelist():
            out[name.removesuffix(".npy")] = _read_npy(zf.read(name))
    return out


class ValueNet:
    """A position's value from its features (see the module docstring)."""

    def __init__(
        self,
        meta: Mapping[str, object],
        mean: Sequence[float],
        std: Sequence[float],
        w0: Sequence[Sequence[float]],
        b0: Sequence[float],
        w1: Sequence[float],
        b1: float,
        skip: Sequence[float],
    ) -> None:
        self.meta = dict(meta)
        self.size = len(mean)
        self.mean = [float(v) for v in mean]
        self.inv_std = [1.0 / float(s) if s else 0.0 for s in std]
        self.w0 = [[float(v) for v in row] for row in w0]
        self.b0 = [float(v) for v in b0]
        self.w1 = [float(v) for v in w1]
        self.b1 = float(b1)
        self.skip = [float(v) for v in skip]

    def __call__(self, x: Sequence[float]) -> float:
        z = [(v - m) * s for v, m, s in zip(x, self.mean, self.inv_std, strict=True)]
        out = self.b1 + sum(a * b for a, b in zip(self.skip, z, strict=True))
        tanh = math.tanh
        for row, b, w in zip(self.w0, self.b0, self.w1, strict=True):
            out += w * tanh(b + sum(a * c for a, c in zip(row, z, strict=True)))
        return out

    @classmethod
    def load(cls, path: str | Path) -> ValueNet:
        """The network in ``path``; ``InputError`` saying why if it is not one."""
        try:
            arrays = read_npz(path)
            raw = arrays["meta"][1]
            assert isinstance(raw, bytes)
            meta = json.loads(raw.decode())
            (hidden, size), w0 = arrays["w0"]

            def flat(name: str) -> list[float]:
                values = arrays[name][1]
                assert isinstance(values, list)
                return values

            assert isinstance(w0, list) and isinstance(meta, dict)
            rows = [w0[i * size : (i + 1) * size] for i in range(hidden)]
            return cls(
                meta,
                flat("mean"),
                flat("std"),
                rows,
                flat("b0"),
                flat("w1"),
                flat("b1")[0],
                flat("skip"),
            )
        except (OSError, KeyError, ValueError, AssertionError, zipfile.BadZipFile) as exc:
            raise InputError(f"{path} is not a value file written by rami train: {exc}") from None


@cache
def shipped_value(name: str) -> ValueNet | None:
    """The shipped value network ``VALUES_DIR/NAME.npz`` (read once), None if absent."""
    path = VALUES_DIR / f"{name}.npz"
    return ValueNet.load(path) if path.is_file() else None
