"""What the web server asks of a game, beside the engine protocol (``Game.web``).

Every hook reads one seat's view only (never the state), so what it returns is what
that seat may know. A game without a hook simply gets nothing there: no notes, no
aids, its hand sorted by suit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rami.cards import Card
from rami.views import GameView

if TYPE_CHECKING:
    from fastapi import APIRouter

__all__ = ["WebHooks"]

View = GameView


@dataclass(frozen=True)
class WebHooks:
    """A game's hooks for the table page, the hints and the scorekeeper's page."""

    # Hints: the solvers' notes on the seat's own cards, ``{"key": …, …values}``.
    notes: Callable[[View], list[dict[str, object]]] | None = None
    # What the table page shows beside the view (wild cards by name, maal…).
    aids: Callable[[View], dict[str, object]] | None = None
    # Auto-group: the hand's cards in groups (melds first); every card exactly once.
    arrange: Callable[[list[Card], View], list[list[Card]]] | None = None
    # The scorekeeper's API: examples of a ledger and of one N-2 deal for the schema,
    # and routes of the game's own (``/api/score/NAME/…``), added with the error responses.
    ledger_example: Mapping[str, object] | None = None
    deal_example: Mapping[str, object] | None = None
    add_routes: Callable[[APIRouter, dict[int | str, dict[str, object]]], None] | None = None
    # The browser's per-game code: a folder of ES modules (``table.js`` for the table page,
    # ``score.js`` for the scorekeeper's entry form), served at ``/static/games/NAME/`` and
    # announced by ``/api/games``, so that the generic pages never name a game.
    client: Path | None = None
    # The card a view shows that sets the wild cards (a replay's frames show it), if any.
    wild_card: Callable[[View], str | None] | None = None
