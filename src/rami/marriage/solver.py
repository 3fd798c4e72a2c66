"""Exact Marriage finish solvers (M-8, M-9) and the N-3 missing count."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rami.cards import Card
from rami.marriage.rules import MarriageRules

__all__ = [
    "Finish",
    "arrange",
    "dublee_count",
    "find_finish",
    "finish_discards",
    "max_show_melds",
    "missing",
    "show_meld_options",
]


@dataclass(frozen=True)
class Finish:
    kind: str  # "melds" | "dublees"
    groups: tuple[tuple[Card, ...], ...]
    discard: Card


def show_meld_options(hand: Sequence[int], rules: MarriageRules) -> list[tuple[Card, ...]]:
    raise NotImplementedError


def max_show_melds(hand: Sequence[int], rules: MarriageRules, limit: int) -> int:
    raise NotImplementedError


def dublee_count(hand: Sequence[int]) -> int:
    raise NotImplementedError


def arrange(
    hand: Sequence[int], rules: MarriageRules, wilds: frozenset[int]
) -> list[tuple[Card, ...]] | None:
    raise NotImplementedError


def finish_discards(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    shown_melds: int,
    path: str,
    extra_melds: Sequence[Sequence[int]] = (),
) -> list[Card]:
    raise NotImplementedError


def find_finish(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    shown_melds: int,
    path: str,
    discard: Card,
    extra_melds: Sequence[Sequence[int]] = (),
) -> Finish | None:
    raise NotImplementedError


def missing(
    hand: Sequence[int], rules: MarriageRules, tiplu: Card, shown: Sequence[Sequence[int]]
) -> int:
    raise NotImplementedError
