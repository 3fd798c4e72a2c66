"""Auto-group: an arrangement of a seat's own hand proposed by the solvers.

The page shows the hand in these groups (the player may reorder afterwards). Built
from the seat's view only, like hints. Marriage: pure melds first (the greedy cover of
the solver's show melds, rule M-6), then dublees (pairs, M-9), then near-melds (two
cards of a suit one or two apart), then the rest. Tunisian: the best opening the hand
holds (T-6), then the rest. Every card of the hand is in exactly one group.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from rami.cards import Card, counts, parse_cards, sort_key
from rami.views import GameView, RulesJson

__all__ = ["arrange_hand"]

log = logging.getLogger(__name__)
_SOLVER_ERRORS = (NotImplementedError, ValueError, KeyError, TypeError, IndexError)


def _take(left: list[int], group: Sequence[int]) -> bool:
    need = counts(group)
    if any(left[k] < n for k, n in enumerate(need) if n):
        return False
    for k, n in enumerate(need):
        left[k] -= n
    return True


def _rest(left: list[int], cards: Sequence[Card]) -> list[Card]:
    pool = list(left)
    out: list[Card] = []
    for c in sorted(cards, key=sort_key):
        if pool[c] > 0:
            pool[c] -= 1
            out.append(c)
    return out


def _marriage_groups(cards: list[Card], rules_doc: RulesJson) -> list[list[Card]]:
    from rami.marriage.rules import rules_from
    from rami.marriage.solver import show_meld_options

    rules = rules_from(rules_doc)
    left = counts(cards)
    groups: list[list[Card]] = []
    options = sorted(show_meld_options(left, rules), key=len, reverse=True)
    progress = True
    while progress:
        progress = False
        for meld in options:
            if _take(left, meld):
                groups.append(list(meld))
                progress = True
                break
    for k in range(len(left)):  # dublees: two identical cards
        while k < 52 and left[k] >= 2:
            left[k] -= 2
            groups.append([Card(k), Card(k)])
    rest = _rest(left, cards)
    near: list[list[Card]] = []
    loose: list[Card] = []
    i = 0
    while i < len(rest):
        a = rest[i]
        b = rest[i + 1] if i + 1 < len(rest) else None
        if b is not None and a < 52 and b < 52 and a // 13 == b // 13 and 0 < b % 13 - a % 13 <= 2:
            near.append([a, b])
            i += 2
        else:
            loose.append(a)
            i += 1
    return [*groups, *near, *([loose] if loose else [])]


def _tunisian_groups(cards: list[Card]) -> list[list[Card]]:
    from rami.tunisian.solver import best_opening

    left = counts(cards)
    groups: list[list[Card]] = []
    opening = best_opening(left)
    if opening is not None:
        for meld in opening.melds:
            if _take(left, meld.cards):
                groups.append(list(meld.cards))
    rest = _rest(left, cards)
    return [*groups, *([rest] if rest else [])]


def arrange_hand(game: str, view: GameView) -> list[list[str]]:
    """Groups of the view's hand, as card texts; one group sorted by suit if no solver helps."""
    hand = list(view.get("hand") or ())
    if not hand:
        return []
    cards = parse_cards(" ".join(hand))
    try:
        if game == "marriage":
            groups = _marriage_groups(cards, view.get("rules"))
        elif game == "tunisian":
            groups = _tunisian_groups(cards)
        else:
            groups = [sorted(cards, key=sort_key)]
    except _SOLVER_ERRORS as exc:
        log.warning("auto-group failed: %s", exc)
        groups = [sorted(cards, key=sort_key)]
    out = [[str(c) for c in g] for g in groups if g]
    if sorted(c for g in out for c in g) != sorted(hand):  # never lose or invent a card
        return [sorted(hand)]
    return out
