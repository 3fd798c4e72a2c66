"""Tunisian rami's fixed action space (integer ids), one numbering per rules object.

Blocks, in id order (see ``docs/rl.md``):

- ``draw``, ``take`` (T-8): one id each;
- ``discard c``: one id per card kind, the joker included (53);
- ``meld …``: every meld of T-4 in its canonical card order: runs of one suit on
  positions 1 … 14 (the ace low or high), 3 to 14 long, with no joker or one joker at
  any position; brelans and carrés, with at most one joker (T-4);
- ``add c @i`` / ``swap c @i`` (T-7): a card laid off on, or swapped for the joker of,
  table meld ``i``, for ``i`` below ``(52 * decks + jokers) // 3`` (the most melds a
  table can hold).

The numbering depends only on the rules, never on a deal.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations

from rami.action_space import ActionSpace
from rami.cards import CARDS, JOKER, Card
from rami.engine import Action, GameState
from rami.tunisian.melds import make_meld, position_card
from rami.tunisian.rules import TunisianRules, rules_from

__all__ = ["action_space", "owns", "table_cap"]


def _melds() -> Iterator[tuple[Card, ...]]:
    for suit in range(4):
        for low in range(1, 13):
            for high in range(low + 2, 15):
                natural = [position_card(p, suit) for p in range(low, high + 1)]
                yield make_meld(natural).cards
                for j in range(high - low + 1):
                    cards = list(natural)
                    cards[j] = JOKER
                    yield make_meld(cards).cards
    for rank in range(13):
        for size in (3, 4):
            for suits in combinations(range(4), size):
                yield make_meld([CARDS[s * 13 + rank] for s in suits]).cards
        for size in (2, 3):
            for suits in combinations(range(4), size):
                yield make_meld([*(CARDS[s * 13 + rank] for s in suits), JOKER]).cards


def table_cap(rules: TunisianRules) -> int:
    """The most melds a table can hold: every card of the shoe in melds of three."""
    return (52 * rules.decks + rules.jokers) // 3


@cache
def _space(rules: TunisianRules) -> ActionSpace:
    cap = table_cap(rules)
    blocks: list[tuple[str, str, list[Action]]] = [
        ("draw", "draw from the stock", [Action("draw")]),
        ("take", "take the top discard (T-8)", [Action("take")]),
        (
            "discard",
            "discard this card (ends the turn; the last card goes out, T-9)",
            [Action("discard", (c,)) for c in CARDS],
        ),
        ("meld", "lay this meld (T-4, T-6)", [Action("meld", m) for m in _melds()]),
        (
            "add",
            f"lay a card off on table meld @0 … @{cap - 1} (T-7)",
            [Action("add", (c,), i) for i in range(cap) for c in CARDS],
        ),
        (
            "swap",
            f"swap a card for the joker of table meld @0 … @{cap - 1} (T-7)",
            [Action("swap", (c,), i) for i in range(cap) for c in CARDS[:52]],
        ),
    ]
    return ActionSpace(f"tunisian/{rules.mode}", blocks)


def action_space(rules: object) -> ActionSpace:
    """The action space of Tunisian rami under ``rules`` (a mode name, options or rules)."""
    return _space(rules_from(rules))


def owns(state: GameState) -> bool:
    """Whether ``state`` is a Tunisian rami deal."""
    from rami.tunisian.game import TunisianState

    return isinstance(state, TunisianState)
