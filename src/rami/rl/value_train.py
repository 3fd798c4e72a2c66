"""Fit a position value for the search bots' depth cut (``rami train --policy value``).

Deals are played by the game kit's rollout policy (greedy, what the search's rollouts
play) for every seat. At the first decision of each turn the seat to move is recorded:
the kit's ``value_features`` of the position for that seat (the positions IS-MCTS
scores at its depth cut, the bot's next turn) and, once the deal is over, the points
the seat ended it with. A small network (``rami.bots.value_net``: one tanh hidden
layer beside a linear skip) is fitted by Adam on the squared error, deals held out for
validation, and saved as float16 arrays that the bots read without numpy.

Needs numpy (extra ``rl``); no torch.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from rami.bots.kit import kit_of
from rami.errors import InputError
from rami.games import get_game

if TYPE_CHECKING:
    from rami.rl.train import TrainConfig

__all__ = ["fit_value", "record_values", "train_value"]

Array = npt.NDArray[np.float64]
_DEAL_SEED = 7_919  # training deals are seed · 7919 + i: apart from simulate's seeds


def _players(game: str, preset: str, players: int | None) -> int:
    spec = get_game(game)
    allowed = spec.players_for(spec.rules_from(preset))
    if players is None:
        return 4 if 4 in allowed else allowed[0]
    if players not in allowed:
        raise InputError(f"{spec.title} {preset} is played by {allowed}, not {players}")
    return players


def record_values(
    game: str,
    preset: str,
    players: int,
    samples: int,
    seed: int,
    seconds: float,
    log: Callable[[str], None] = print,
) -> tuple[Array, Array, npt.NDArray[np.int64]]:
    """``(features, final points, deal index)`` of about ``samples`` positions, within
    ``seconds`` of wall clock."""
    spec = get_game(game)
    kit = kit_of(game)
    if kit.value_features is None or spec.new_deal is None:
        raise InputError(f"{spec.title} has no learned value (no value_features hook)")
    rules = spec.rules_from(preset)
    cap = spec.turn_cap or 1000
    xs: list[list[float]] = []
    ys: list[float] = []
    ids: list[int] = []
    start = time.perf_counter()
    shown = start
    deal = 0
    while len(xs) < samples and time.perf_counter() - start < seconds:
        state: Any = spec.new_deal(rules, players, seed * _DEAL_SEED + deal, deal % players)
        rows: list[tuple[list[float], int]] = []
        last = -1
        while not state.is_over and state.turn < cap:
            seat = state.to_move
            assert seat is not None
            if state.turn != last:
                last = state.turn
                rows.append((kit.value_features(state, seat), seat))
            state.apply(kit.policy(state))
        result = getattr(state, "result", None)
        if state.is_over and result is not None:
            for x, seat in rows:
                xs.append(x)
                ys.append(float(result.scores[seat]))
                ids.append(deal)
        deal += 1
        if time.perf_counter() - shown > 10:
            shown = time.perf_counter()
            log(f"recorded {len(xs):,} positions from {deal:,} deals")
    log(
        f"recorded {len(xs):,} positions from {deal:,} deals in {time.perf_counter() - start:.0f} s"
    )
    if not xs:
        raise InputError("no position recorded: give more --minutes or --samples")
    return np.asarray(xs), np.asarray(ys), np.asarray(ids, dtype=np.int64)


def fit_value(
    x: Array,
    y: Array,
    deals: npt.NDArray[np.int64],
    hidden: int,
    epochs: float,
    lr: float,
    seed: int,
    log: Callable[[str], None] = print,
) -> tuple[dict[str, Array], dict[str, float]]:
    """The network's arrays and its validation errors (mean squared, in points²)."""
    rng = np.random.default_rng(seed)
    held = deals >= np.quantile(deals, 0.9) if len(np.unique(deals)) > 1 else deals < 0
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    std[std < 1e-6] = 1.0
    z = (x - mean) / std
    zt, yt, zv, yv = z[~held], y[~held], z[held], y[held]
    params = {
        "w0": rng.normal(0, 1 / np.sqrt(z.shape[1]), (hidden, z.shape[1])),
        "b0": np.zeros(hidden),
        "w1": rng.normal(0, 0.1, hidden),
        "b1": np.asarray([float(yt.mean())]),
        "skip": np.zeros(z.shape[1]),
    }
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v2 = {k: np.zeros_like(v) for k, v in params.items()}

    def predict(p: dict[str, Array], zz: Array) -> tuple[Array, Array]:
        h = np.tanh(zz @ p["w0"].T + p["b0"])
        return h @ p["w1"] + p["b1"][0] + zz @ p["skip"], h

    batch = 512
    steps = max(1, int(epochs * len(zt) / batch))
    t = 0
    for t in range(1, steps + 1):
        idx = rng.integers(0, len(zt), batch)
        zb, yb = zt[idx], yt[idx]
        out, h = predict(params, zb)
        g = 2 * (out - yb) / batch
        gh = np.outer(g, params["w1"]) * (1 - h * h)
        grads = {
            "w1": h.T @ g,
            "b1": np.asarray([g.sum()]),
            "skip": zb.T @ g,
            "w0": gh.T @ zb + 1e-4 * params["w0"],
            "b0": gh.sum(axis=0),
        }
        rate = lr * min(1.0, 2 * (1 - t / steps) + 0.05)
        for k, grad in grads.items():
            m[k] = 0.9 * m[k] + 0.1 * grad
            v2[k] = 0.999 * v2[k] + 0.001 * grad * grad
            params[k] -= rate * (m[k] / (1 - 0.9**t)) / (np.sqrt(v2[k] / (1 - 0.999**t)) + 1e-8)
    errors = {"positions": float(len(y)), "held_out": float(len(yv)), "steps": float(t)}
    if len(yv):
        errors["mse"] = float(np.mean((predict(params, zv)[0] - yv) ** 2))
        errors["mse_constant"] = float(np.mean((yt.mean() - yv) ** 2))
    log(
        "held-out deals: mean squared error "
        + (f"{errors['mse']:.1f} (constant {errors['mse_constant']:.1f})" if len(yv) else "n/a")
    )
    return {"mean": mean, "std": std, **params}, errors


def save_value(path: str | Path, meta: dict[str, object], arrays: dict[str, Array]) -> None:
    """Write the network as float16 arrays plus the JSON meta (bytes)."""
    out: dict[str, npt.NDArray[Any]] = {
        k: np.asarray(v, dtype=np.float16) for k, v in arrays.items()
    }
    buf = io.BytesIO()
    out["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    np.savez_compressed(buf, **out)  # type: ignore[arg-type]
    Path(path).write_bytes(buf.getvalue())


def train_value(config: TrainConfig, log: Callable[[str], None] = print) -> dict[str, Any]:
    """``rami train --policy value``: record, fit, save; the summary."""
    from rami.bots.value_net import ValueNet

    start = time.perf_counter()
    kit = kit_of(config.game)
    players = _players(config.game, config.preset, config.players)
    x, y, deals = record_values(
        config.game,
        config.preset,
        players,
        config.samples,
        config.seed,
        config.minutes * 60,
        log,
    )
    names = getattr(kit.value_features, "__module__", "")
    hidden = int(config.net[0])
    arrays, errors = fit_value(
        x, y, deals, hidden, config.epochs, config.imitate_lr, config.seed, log
    )
    meta: dict[str, object] = {
        "game": config.game,
        "preset": config.preset,
        "players": players,
        "policy": "value",
        "features": int(x.shape[1]),
        "hidden": hidden,
        "seed": config.seed,
        "features_from": names,
        "deals": int(deals.max()) + 1,
        **{k: round(v, 2) for k, v in errors.items()},
    }
    save_value(config.out, meta, arrays)
    ValueNet.load(config.out)  # what the bots will read
    seconds = time.perf_counter() - start
    log(f"wrote {config.out} ({Path(config.out).stat().st_size:,} bytes) in {seconds:.0f} s")
    return {**meta, "seconds": round(seconds, 1), "out": str(config.out)}
