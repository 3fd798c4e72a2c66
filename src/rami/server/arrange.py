"""Auto-group: an arrangement of a seat's own hand proposed by the solvers.

The page shows the hand in these groups (the player may reorder afterwards). Built
from the seat's view only, like hints, by the game's ``WebHooks.arrange`` (Marriage: pure
melds, dublees, near-melds, the rest; Tunisian: the best opening, the rest). Every card
of the hand is in exactly one group.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from rami.cards import Card, counts, parse_cards, sort_key
from rami.games import get_game
from rami.views import GameView

__all__ = ["arrange_hand"]

log = logging.getLogger(__name__)
_SOLVER_ERRORS = (NotImplementedError, ValueError, KeyError, TypeError, IndexError)


def take_group(left: list[int], group: Sequence[int]) -> bool:
    """Take ``group`` out of the counts ``left`` if all its cards are there."""
    need = counts(group)
    if any(left[k] < n for k, n in enumerate(need) if n):
        return False
    for k, n in enumerate(need):
        left[k] -= n
    return True


def sorted_rest(left: list[int], cards: Sequence[Card]) -> list[Card]:
    """The cards of ``cards`` still counted in ``left``, sorted by suit."""
    pool = list(left)
    out: list[Card] = []
    for c in sorted(cards, key=sort_key):
        if pool[c] > 0:
            pool[c] -= 1
            out.append(c)
    return out


def arrange_hand(game: str, view: GameView) -> list[list[str]]:
    """Groups of the view's hand, as card texts; one group sorted by suit if no solver helps."""
    hand = list(view.get("hand") or ())
    if not hand:
        return []
    cards = parse_cards(" ".join(hand))
    try:
        hooks = get_game(game).web
        arrange = hooks().arrange if hooks is not None else None
        groups = arrange(cards, view) if arrange is not None else [sorted(cards, key=sort_key)]
    except _SOLVER_ERRORS as exc:
        log.warning("auto-group failed: %s", exc)
        groups = [sorted(cards, key=sort_key)]
    out = [[str(c) for c in g] for g in groups if g]
    if sorted(c for g in out for c in g) != sorted(hand):  # never lose or invent a card
        return [sorted(hand)]
    return out
