"""Maal and value points (M-12 nepali, M-15 indian): the best grouping of a player's cards."""

from __future__ import annotations

from collections.abc import Sequence

from rami.cards import Card
from rami.marriage.rules import MarriageRules

__all__ = ["maal"]


def maal(
    cards: Sequence[int],
    tiplu: Card,
    rules: MarriageRules,
    exposed_tunnelas: Sequence[Card] = (),
    bonus_eligible: bool = False,
) -> tuple[int, list[str]]:
    raise NotImplementedError
