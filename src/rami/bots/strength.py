"""The measured strength of the bot levels, as shipped with rami (``rami/bots/ladder/``).

``make ladder`` runs ``rami ladder`` for each game and preset and writes one small JSON
per preset (``GAME-PRESET.json``, with the command that made it). The lobby
(``GET /api/games``), ``rami play --level`` help and docs/bots.md read them here, so a
player sees how strong a bot is where they pick it. Reading needs no extra package.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import TypedDict

__all__ = ["LADDER_DIR", "ShippedStrength", "bot_strength", "shipped_ladder", "strength_line"]

LADDER_DIR = Path(__file__).resolve().parent / "ladder"


class PointsVsMedium(TypedDict):
    mean: float
    ci95: list[float] | None
    groups: int


class ShippedStrength(TypedDict):
    """One level's shipped figures: its OpenSkill rating with the 95% interval, and its
    points per deal against ``medium`` (None where the ladder had no such pair)."""

    rating: float
    ci95: list[float]
    points_vs_medium: PointsVsMedium | None


@functools.cache
def shipped_ladder(game: str, preset: str) -> dict[str, object] | None:
    """The shipped ladder document of a game's preset, or None (read once per process)."""
    path = LADDER_DIR / f"{game}-{preset}.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def _pair(value: object) -> list[float] | None:
    if not isinstance(value, list) or len(value) != 2:
        return None
    low, high = _number(value[0]), _number(value[1])
    return [low, high] if low is not None and high is not None else None


def bot_strength(game: str, preset: str) -> dict[str, ShippedStrength]:
    """``{level: {"rating", "ci95", "points_vs_medium"}}`` from the shipped ladder (empty
    when none ships); malformed entries are left out rather than shown wrong."""
    doc = shipped_ladder(game, preset)
    table = doc.get("strength") if doc else None
    out: dict[str, ShippedStrength] = {}
    if not isinstance(table, dict):
        return out
    for level, entry in table.items():
        if not isinstance(entry, dict):
            continue
        rating, ci95 = _number(entry.get("rating")), _pair(entry.get("ci95"))
        if rating is None or ci95 is None:
            continue
        vs = entry.get("points_vs_medium")
        points: PointsVsMedium | None = None
        if isinstance(vs, dict) and _number(vs.get("mean")) is not None:
            groups = vs.get("groups")
            points = {
                "mean": float(vs["mean"]),
                "ci95": _pair(vs.get("ci95")),
                "groups": groups if isinstance(groups, int) else 0,
            }
        out[str(level)] = {"rating": rating, "ci95": ci95, "points_vs_medium": points}
    return out


def strength_line(game: str, presets: tuple[str, ...], levels: tuple[str, ...]) -> str:
    """One line per preset for help texts: "nepali: easy 21 [17–25], medium 25 [21–29]…"."""
    parts = []
    for preset in presets:
        table = bot_strength(game, preset)
        shown = [
            f"{level} {table[level]['rating']:.0f} "
            f"[{table[level]['ci95'][0]:.0f}–{table[level]['ci95'][1]:.0f}]"
            for level in levels
            if level in table
        ]
        if shown:
            parts.append(f"{preset}: {', '.join(shown)}")
    return "; ".join(parts)
