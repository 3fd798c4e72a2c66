"""The toy rummy's rules: a small shoe, short hands, a turn cap and a few deals a match."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from rami.cards import CARDS, Card
from rami.errors import InputError

__all__ = ["PRESETS", "ToyRules", "rules_from"]


@dataclass(frozen=True)
class ToyRules:
    """Two suits (♠ ♥) of ranks A … ``top``; ``hand_size`` cards each; a meld is a pair
    of one rank or a run of two or more in one suit; knock when the rest of the hand is
    all melds."""

    preset: str = "classic"
    players: int = 2
    top: int = 8  # highest rank in the shoe (A=1)
    hand_size: int = 4
    max_turns: int | None = 60
    deals: int = 3

    def shoe(self) -> list[Card]:
        return [CARDS[suit * 13 + r] for suit in (0, 1) for r in range(self.top)]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


PRESETS = {"classic": ToyRules(), "short": ToyRules(preset="short", top=6, hand_size=3)}


def rules_from(spec: object) -> ToyRules:
    """A preset name, ``{"preset": …, option: value}``, or ``ToyRules``; ``InputError`` if bad."""
    if isinstance(spec, ToyRules):
        return spec
    if spec is None:
        spec = "classic"
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, Mapping):
        raise InputError("toy rules are a preset name or an object of options")
    name = spec.get("preset", "classic")
    if name not in PRESETS:
        raise InputError(f"unknown toy preset {name!r}: choose {', '.join(PRESETS)}")
    known = {f.name for f in fields(ToyRules)}
    changes = {k: v for k, v in spec.items() if k != "preset"}
    unknown = sorted(set(changes) - known)
    if unknown:
        raise InputError(f"unknown toy option {unknown[0]!r}")
    return replace(PRESETS[name], **changes)
