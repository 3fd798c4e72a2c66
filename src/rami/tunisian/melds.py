"""Tunisian rami melds (T-4), their values (T-5), lay-offs and joker swaps (T-7)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rami.cards import Card

__all__ = ["Meld", "add_to_meld", "make_meld", "meld_options", "swap_joker"]


@dataclass(frozen=True)
class Meld:
    kind: str
    cards: tuple[Card, ...]
    joker_as: Card | None = None

    @property
    def value(self) -> int:
        raise NotImplementedError

    @property
    def has_joker(self) -> bool:
        raise NotImplementedError

    def text(self, ascii: bool = False) -> str:
        raise NotImplementedError


def make_meld(cards: Sequence[Card]) -> Meld:
    raise NotImplementedError


def meld_options(hand_counts: Sequence[int]) -> list[Meld]:
    raise NotImplementedError


def add_to_meld(meld: Meld, card: Card) -> Meld | None:
    raise NotImplementedError


def swap_joker(meld: Meld, card: Card) -> Meld | None:
    raise NotImplementedError
