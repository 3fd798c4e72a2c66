"""Deal scoring (T-10) and elimination (T-13) for Tunisian rami."""

from __future__ import annotations

from collections.abc import Sequence

from rami.tunisian.rules import TunisianRules

__all__ = ["apply_totals", "deal_points", "hand_points"]


def hand_points(cards: Sequence[int], rules: TunisianRules) -> int:
    raise NotImplementedError


def deal_points(
    hands: Sequence[Sequence[int]],
    opened: Sequence[bool],
    winner: int | None,
    rules: TunisianRules,
) -> list[int]:
    raise NotImplementedError


def apply_totals(
    totals_before: Sequence[int],
    points: Sequence[int],
    eliminated_before: Sequence[bool],
    rules: TunisianRules,
) -> tuple[list[int], list[bool], bool, list[int] | None]:
    raise NotImplementedError
