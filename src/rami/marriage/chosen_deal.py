"""A Marriage deal with chosen cards (``MarriageState.from_setup``): the cards read and
checked against the shoe (M-1), the rest laid below the stock in a seeded order (M-2).

Also the table's checks every builder shares: the seat count, the decks, the dealer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rami.cards import CARDS, Card, CardError, check_copies, parse_cards
from rami.engine import chance_rng
from rami.errors import InputError
from rami.marriage.rules import MarriageRules, rules_from

__all__ = ["Chosen", "check_table", "choose", "read_cards"]


class Chosen(NamedTuple):
    """A chosen deal laid out: rules, hands, discard pile, stock (top first), the reserved
    tiplu and the document ``to_json`` saves as ``start``."""

    rules: MarriageRules
    hands: list[list[int]]
    pile: list[int]
    stock: list[int]
    tiplu: Card | None
    doc: dict[str, object]


def choose(
    rules: object,
    hands: Sequence[str | Sequence[int]],
    discard: str | Sequence[int] | None,
    stock: str | Sequence[int],
    tiplu: str | int | None,
    dealer: int,
    seed: int,
) -> Chosen:
    """The deal of ``MarriageState.from_setup`` (see there), checked: ``InputError``
    says what is wrong."""
    players = len(hands)
    r = rules_from(rules).for_players(players)
    check_table(r, players, dealer)
    hand_lists = [read_cards(h, f"hand of seat {i}") for i, h in enumerate(hands)]
    for i, h in enumerate(hand_lists):
        if len(h) != r.hand_size:
            raise InputError(f"seat {i} must be dealt {r.hand_size} cards, not {len(h)}")
    stock_top = read_cards(stock, "stock")
    tiplu_card: Card | None = None
    if tiplu is not None:
        one = read_cards(tiplu if isinstance(tiplu, str) else [tiplu], "tiplu")
        if len(one) != 1:
            raise InputError("the tiplu is one card")
        tiplu_card = CARDS[one[0]]
    used = [c for h in hand_lists for c in h] + stock_top
    pile = read_cards(discard, "discard pile") if discard is not None else []
    used += pile
    if tiplu_card is not None:
        used.append(tiplu_card)
    try:
        check_copies(used, r.decks)
    except CardError as exc:
        raise InputError(str(exc)) from None
    rest_counts = [r.decks] * 52 + [0]
    for c in used:
        rest_counts[c] -= 1
    rest = [c for c in range(52) for _ in range(rest_counts[c])]
    chance_rng(seed, 0, "setup").shuffle(rest)
    if not pile:
        pile = [rest.pop()]
    full_stock = stock_top + rest
    if not full_stock:
        raise InputError("the stock may not be empty at the start of a deal")
    setup: dict[str, object] = {
        "hands": [[str(CARDS[c]) for c in h] for h in hand_lists],
        "discard": [str(CARDS[c]) for c in pile],
        "stock": [str(CARDS[c]) for c in full_stock],
        "tiplu": None if tiplu_card is None else str(tiplu_card),
    }
    return Chosen(r, hand_lists, pile, full_stock, tiplu_card, setup)


def check_table(rules: MarriageRules, players: int, dealer: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int):
        raise InputError("the number of players must be a whole number")
    if not rules.min_players <= players <= rules.max_players:
        raise InputError(
            f"{rules.preset_name} Marriage is for {rules.min_players}–{rules.max_players} "
            f"players, not {players} (M-1)"
        )
    if players * rules.hand_size + 2 > 52 * rules.decks:
        raise InputError(f"{rules.decks} decks cannot deal to {players} players")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise InputError(f"dealer must be a seat number from 0 to {players - 1}")


def read_cards(cards: str | Sequence[int] | Sequence[str] | None, what: str) -> list[int]:
    if cards is None:
        return []
    try:
        if isinstance(cards, str):
            return [int(c) for c in parse_cards(cards)]
        out: list[int] = []
        for i, c in enumerate(cards, start=1):
            if isinstance(c, Card):
                out.append(int(c))
            elif isinstance(c, str):
                out.append(int(parse_cards([c])[0]))
            elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 52:
                out.append(c)
            else:
                raise InputError(f"bad card {c!r} (item {i}) in {what}")
        return out
    except CardError as exc:
        raise InputError(f"{what}: {exc}") from None
