"""Settlement of a Marriage deal (M-13, M-14 ``nepali``; M-15 ``indian``).

Every function returns each seat's net change for the deal; the nets sum to zero.

>>> from rami.marriage.rules import NEPALI
>>> settle_nepali([10, 2, 0], [True, True, False], 0, False, NEPALI)  # M-13 example
[31, -9, -22]
"""

from __future__ import annotations

from collections.abc import Sequence

from rami.cards import CARDS
from rami.marriage.rules import MarriageRules

__all__ = ["capped_values", "card_points", "counted_maal", "settle_indian", "settle_nepali"]


def capped_values(
    value_points: Sequence[int],
    seen: Sequence[bool],
    items: Sequence[Sequence[str]],
    rules: MarriageRules,
) -> tuple[list[int], list[list[str]]]:
    """M-15: the value points that count and their items, for the engine's result and
    ``rami score`` alike (one source): an unseen player's are min(actual, the cap), a
    capped one with the item ``"unseen: capped at 14"`` (``maal.item_parts`` reads it)."""
    cap = rules.unseen_value_cap
    values: list[int] = []
    out: list[list[str]] = []
    for v, s, its in zip(value_points, seen, items, strict=True):
        kept = list(its)
        if not s and v > cap:
            kept.append(f"unseen: capped at {cap}")
            v = cap
        values.append(v)
        out.append(kept)
    return values, out


def counted_maal(
    maal_points: Sequence[int], seen: Sequence[bool], rules: MarriageRules
) -> list[int]:
    """The maal that counts in settlement: an unseen player's counts 0 when the table
    plays ``unseen_maal_counts = false`` (M-12, "murder")."""
    if rules.unseen_maal_counts:
        return list(maal_points)
    return [p if s else 0 for p, s in zip(maal_points, seen, strict=True)]


def settle_nepali(
    maal_points: Sequence[int],
    seen: Sequence[bool],
    finisher: int | None,
    dublee_finish: bool,
    rules: MarriageRules,
) -> list[int]:
    """M-13 / M-14 nets per seat from each seat's maal points (M-12).

    ``unseen_maal_counts`` is applied here (pass the maal as counted by ``maal``). With
    a finisher, each opponent with points S pays T + w − n·S, w being the seen or
    unseen fee plus the dublee bonus; with no finisher each seat gets n·S − T.
    """
    points = counted_maal(maal_points, seen, rules)
    n = len(points)
    total = sum(points)
    if finisher is None:
        return [n * p - total for p in points]
    nets = [0] * n
    for seat in range(n):
        if seat == finisher:
            continue
        fee = rules.seen_fee if seen[seat] else rules.unseen_fee
        if dublee_finish:
            fee += rules.dublee_bonus
        pay = total + fee - n * points[seat]
        nets[seat] -= pay
        nets[finisher] += pay
    return nets


def settle_indian(
    value_points: Sequence[int],
    seen: Sequence[bool],
    hand_points: Sequence[int],
    finisher: int | None,
    rules: MarriageRules,
) -> list[int]:
    """M-15 nets per seat.

    Value points are capped at ``unseen_value_cap`` for an unseen player and settled
    pairwise. With a finisher, every other player pays the finisher the card points
    left in their hand (``hand_points``; the finisher's own entry is ignored); with no
    finisher, every pair settles the difference of their hand points.
    """
    n = len(value_points)
    values = [
        v if s else min(v, rules.unseen_value_cap) for v, s in zip(value_points, seen, strict=True)
    ]
    total = sum(values)
    nets = [n * v - total for v in values]
    if finisher is None:
        hand_total = sum(hand_points)
        for seat in range(n):
            nets[seat] += hand_total - n * hand_points[seat]
        return nets
    for seat in range(n):
        if seat != finisher:
            nets[seat] -= hand_points[seat]
            nets[finisher] += hand_points[seat]
    return nets


def card_points(cards: Sequence[int]) -> int:
    """M-15 card points of a list of cards: 2–10 at face value, J Q K A 10 each."""
    total = 0
    for c in cards:
        rank = CARDS[c].rank
        total += rank if 2 <= rank <= 10 else 10
    return total
