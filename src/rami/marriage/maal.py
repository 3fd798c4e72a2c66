"""Maal and value points (M-12 ``nepali``, M-15 ``indian``): the best grouping of the
tiplu copies, jhiplus and poplus a player holds.

Only three kinds matter (jhiplu, tiplu copy, poplu), plus exposed tunnelas, so the best
grouping is found by trying every number of marriages (at most two with three decks).

>>> from rami.cards import parse_card, parse_cards
>>> from rami.marriage.rules import NEPALI
>>> maal(parse_cards("10♣ J♣ Q♣"), parse_card("J♣"), NEPALI)
(10, ['marriage 10♣ J♣ Q♣: 10'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rami.cards import CARDS, Card, format_cards
from rami.marriage.melds import jhiplu, poplu
from rami.marriage.rules import MarriageRules

__all__ = ["ITEM_KINDS", "NOTE_KINDS", "MaalItem", "item_parts", "maal"]

# M-12: points by number of identical cards held (0, 1, 2, 3)
_NEPALI_NEIGHBOUR = (0, 2, 5, 10)  # jhiplu, poplu
_NEPALI_TIPLU = (0, 3, 7, 10)  # only two copies are in play with three decks
_NEPALI_MARRIAGES = (0, 10, 30)
_NEPALI_TUNNELA_NEIGHBOUR = 20  # exposed jhiplu or poplu tunnela
_NEPALI_TUNNELA_JOKER = 10  # exposed tunnela of ordinary jokers
_NEPALI_TUNNELA_OTHER = 5
# M-15: value points per card
_INDIAN_TIPLU = 4
_INDIAN_NEIGHBOUR = 2
_INDIAN_MARRIAGE = 14


def _rate(table: Sequence[int], n: int) -> int:
    """Points for ``n`` identical cards; beyond the table (more decks) by whole sets."""
    top = len(table) - 1
    return (n // top) * table[top] + table[n % top] if n > top else table[n]


def maal(
    cards: Sequence[int],
    tiplu: Card,
    rules: MarriageRules,
    exposed_tunnelas: Sequence[Card] = (),
    bonus_eligible: bool = False,
) -> tuple[int, list[str]]:
    """Points of a player's final ``cards`` (a list of cards, not a count vector).

    ``nepali`` (M-12): the best non-overlapping grouping of the table's items. An
    exposed tunnela (``exposed_tunnelas``: one card per tunnela exposed at the deal)
    scores its bonus only when ``bonus_eligible`` (exposed at the deal and seen by
    showing melds); its three cards then count in that item only. ``indian`` (M-15):
    value points, tiplu copy 4, jhiplu and poplu 2, a marriage 14.
    Returns the points and one text per item, e.g. ``"jhiplu 10♣ 10♣: 5"``.
    """
    tiplu = CARDS[tiplu]
    low, high = jhiplu(tiplu), poplu(tiplu)
    n_low = sum(1 for c in cards if c == low)
    n_tip = sum(1 for c in cards if c == tiplu)
    n_high = sum(1 for c in cards if c == high)
    items: list[tuple[str, list[Card], int]] = []
    if rules.scoring == "indian":
        marriages = min(n_low, n_tip, n_high)
        rates = (_INDIAN_NEIGHBOUR, _INDIAN_TIPLU, _INDIAN_NEIGHBOUR, _INDIAN_MARRIAGE)
        counts = (n_low - marriages, n_tip - marriages, n_high - marriages)
        points = (
            marriages * rates[3]
            + counts[0] * rates[0]
            + counts[1] * rates[1]
            + counts[2] * rates[2]
        )
        if marriages:
            items.append(("marriage", [low, tiplu, high] * marriages, marriages * rates[3]))
        for name, card, n, rate in (
            ("jhiplu", low, counts[0], rates[0]),
            ("tiplu", tiplu, counts[1], rates[1]),
            ("poplu", high, counts[2], rates[2]),
        ):
            if n:
                items.append((name, [card] * n, n * rate))
        return points, [_item_text(*item) for item in items]

    if bonus_eligible:
        for t in exposed_tunnelas:
            t = CARDS[t]
            if sum(1 for c in cards if c == t) < 3:
                raise ValueError(f"exposed tunnela {t} is not among the cards")
            if t in (low, high):
                bonus = _NEPALI_TUNNELA_NEIGHBOUR
                if t == low:
                    n_low -= 3
                else:
                    n_high -= 3
            elif t % 13 == tiplu % 13:
                bonus = _NEPALI_TUNNELA_JOKER
                if t == tiplu:  # only with more than three decks
                    n_tip -= 3
            else:
                bonus = _NEPALI_TUNNELA_OTHER
            items.append(("tunnela", [t] * 3, bonus))
    best: tuple[int, int] | None = None
    for m in range(min(n_low, n_tip, n_high) + 1):
        value = (
            _rate(_NEPALI_MARRIAGES, m)
            + _rate(_NEPALI_NEIGHBOUR, n_low - m)
            + _rate(_NEPALI_TIPLU, n_tip - m)
            + _rate(_NEPALI_NEIGHBOUR, n_high - m)
        )
        if best is None or value > best[0]:
            best = (value, m)
    assert best is not None
    _, m = best
    if m:
        items.append(("marriage", [low, tiplu, high] * m, _rate(_NEPALI_MARRIAGES, m)))
    for name, card, n, table in (
        ("jhiplu", low, n_low - m, _NEPALI_NEIGHBOUR),
        ("tiplu", tiplu, n_tip - m, _NEPALI_TIPLU),
        ("poplu", high, n_high - m, _NEPALI_NEIGHBOUR),
    ):
        if n:
            items.append((name, [card] * n, _rate(table, n)))
    return sum(points for _, _, points in items), [_item_text(*item) for item in items]


def _item_text(name: str, cards: list[Card], points: int) -> str:
    return f"{name} {format_cards(cards)}: {points}"


# The item names ``maal`` writes: codes that pages word in their language (issue 21)
ITEM_KINDS = ("marriage", "jhiplu", "tiplu", "poplu", "tunnela")
# the notes settlement adds on an unseen player's line, read as kinds without cards:
# ``capped`` (M-15, ``settle.capped_values``) and ``uncounted`` (M-12's option)
NOTE_KINDS = {"unseen: capped at ": "capped", "unseen: maal does not count": "uncounted"}


class MaalItem(NamedTuple):
    """One maal item as parts, for front ends that word it themselves."""

    kind: str  # one of ITEM_KINDS, or a note's kind (NOTE_KINDS: no cards)
    cards: list[str]
    points: int


def item_parts(text: str) -> MaalItem:
    """``"tiplu 8♥ 8♥: 6"`` → ``MaalItem("tiplu", ["8♥", "8♥"], 6)``: the inverse of the
    item texts ``maal`` returns (their names are codes, not English words); a note
    (``"unseen: capped at 14"``) reads as ``MaalItem("capped", [], 14)``."""
    for prefix, note in NOTE_KINDS.items():
        tail = text.removeprefix(prefix)
        if tail != text and (tail.isdigit() if note == "capped" else not tail):
            return MaalItem(note, [], int(tail or 0))
    kind, _, rest = text.partition(" ")
    cards, sep, points = rest.rpartition(": ")
    if kind not in ITEM_KINDS or not sep or not points.lstrip("-").isdigit():
        raise ValueError(f"not a maal item: {text!r}")
    return MaalItem(kind, cards.split(), int(points))
