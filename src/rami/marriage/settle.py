"""Settlement of a Marriage deal (M-13, M-14 nepali; M-15 indian)."""

from __future__ import annotations

from collections.abc import Sequence

from rami.marriage.rules import MarriageRules

__all__ = ["card_points", "settle_indian", "settle_nepali"]


def settle_nepali(
    maal_points: Sequence[int],
    seen: Sequence[bool],
    finisher: int | None,
    dublee_finish: bool,
    rules: MarriageRules,
) -> list[int]:
    raise NotImplementedError


def settle_indian(
    value_points: Sequence[int],
    seen: Sequence[bool],
    hand_points: Sequence[int],
    finisher: int | None,
    rules: MarriageRules,
) -> list[int]:
    raise NotImplementedError


def card_points(cards: Sequence[int]) -> int:
    raise NotImplementedError
