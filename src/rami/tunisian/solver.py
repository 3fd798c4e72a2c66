"""Exact opening and going-out search for Tunisian rami (T-6, T-9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rami.tunisian.melds import Meld

__all__ = ["Opening", "best_opening", "can_go_out", "opening_reaches"]


@dataclass(frozen=True)
class Opening:
    value: int
    melds: tuple[Meld, ...]


def best_opening(hand_counts: Sequence[int]) -> Opening | None:
    raise NotImplementedError


def opening_reaches(hand_counts: Sequence[int], threshold: int) -> bool:
    raise NotImplementedError


def can_go_out(
    hand_counts: Sequence[int], table: Sequence[Meld], opened: bool, threshold: int
) -> bool:
    raise NotImplementedError
