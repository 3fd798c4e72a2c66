"""Marriage melds (M-4, M-6) and the wild cards of a tiplu (Terms)."""

from __future__ import annotations

from collections.abc import Sequence

from rami.cards import Card
from rami.marriage.rules import MarriageRules

__all__ = ["is_meld", "is_pure_meld", "is_show_meld", "jhiplu", "poplu", "wild_kinds"]


def jhiplu(tiplu: Card) -> Card:
    raise NotImplementedError


def poplu(tiplu: Card) -> Card:
    raise NotImplementedError


def wild_kinds(tiplu: Card | None) -> frozenset[int]:
    raise NotImplementedError


def is_meld(cards: Sequence[int], rules: MarriageRules, wilds: frozenset[int]) -> bool:
    raise NotImplementedError


def is_show_meld(cards: Sequence[int], rules: MarriageRules) -> bool:
    raise NotImplementedError


def is_pure_meld(cards: Sequence[int], rules: MarriageRules) -> bool:
    raise NotImplementedError
