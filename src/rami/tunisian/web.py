"""Tunisian rami on the web server (``Game.web``): hints, auto-group, scorekeeper.

Each hook reads one seat's view only. Moved here from ``rami.server`` so that the
server names no game.
"""

from __future__ import annotations

from pathlib import Path

from rami.cards import Card, counts, parse_cards
from rami.server.arrange import sorted_rest as _rest
from rami.server.arrange import take_group as _take
from rami.server.hooks import WebHooks
from rami.tunisian.rules import PRESETS
from rami.tunisian.view import tunisian_view
from rami.views import GameView

__all__ = ["HOOKS"]


def notes(view: GameView) -> list[dict[str, object]]:
    """Before opening: the best man3a the hand holds against the threshold (T-6)."""
    view = tunisian_view(view)
    seat = view.get("seat")
    hand = list(view.get("hand") or ())
    if seat is None or not hand or view.get("phase") == "over":
        return []
    if view["seats"][seat]["opened"]:
        return []
    from rami.tunisian.solver import best_opening

    threshold = int(view.get("threshold") or PRESETS["1v1"].opening_threshold)
    # melds staged this turn count towards the man3a (T-6): the hint adds what the rest
    # of the hand can still lay to them
    staged = [m for m in view.get("table") or () if m.get("staged") and m.get("owner") == seat]
    staged_value = sum(int(m.get("value") or 0) for m in staged)
    opening = best_opening(counts(parse_cards(" ".join(hand))))
    value = staged_value + (0 if opening is None else opening.value)
    if value < threshold:
        return [{"key": "hint_no_opening", "value": value, "threshold": threshold}]
    melds = [" ".join(m["cards"]) for m in staged]
    if opening is not None:
        melds += [" ".join(str(c) for c in m.cards) for m in opening.melds]
    return [{"key": "hint_opening", "value": value, "threshold": threshold, "melds": melds}]


def arrange(cards: list[Card], view: GameView) -> list[list[Card]]:
    """The best opening the hand holds (T-6), then the rest."""
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


LEDGER_EXAMPLE = {
    "game": "tunisian",
    "mode": "1v1",
    "players": ["Sami", "Ines"],
    "deals": [{"winner": "Sami", "players": [{}, {"opened": True, "hand": ["JK", "K♠"]}]}],
}

HOOKS = WebHooks(
    notes=notes,
    arrange=arrange,
    ledger_example=LEDGER_EXAMPLE,
    client=Path(__file__).parent / "client",
)
