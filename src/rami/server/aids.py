"""What the table page shows a seat beside its view, computed from that view only.

Marriage, once the seat has seen (M-7): the wild cards by name (tiplu, jhiplu, poplu,
and the tiplu's rank in the other suits, the ordinary jokers) and the seat's current
maal (M-12, M-15) counted over its own cards exactly as the settlement counts them.
Nothing here is hidden from the seat: the tiplu and its own cards are in its view.
The page never works these out itself (no rules in the client).
"""

from __future__ import annotations

import logging

from rami.games import get_game
from rami.views import GameView

__all__ = ["table_aids"]

log = logging.getLogger(__name__)
_ERRORS = (NotImplementedError, ValueError, KeyError, TypeError, IndexError)


def table_aids(game: str, view: GameView) -> dict[str, object]:
    """Extra facts for the seat whose ``view`` this is ({} when there is nothing to add)."""
    try:
        hooks = get_game(game).web
        aids = hooks().aids if hooks is not None else None
        if aids is not None:
            return aids(view)
    except _ERRORS as exc:
        log.warning("table aids failed: %s", exc)
    return {}
