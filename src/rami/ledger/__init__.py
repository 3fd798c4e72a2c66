"""The scorekeeper's ledger: a whole evening of deals played with real cards (issue 15).

A ledger document names the game, its rules (or mode), the players in seat order, the
first dealer and the deals entered so far. ``compute(doc)`` recomputes everything from
scratch with the engine's own calculators (``rami score``): each deal's result, the
dealer of every deal, the running totals and, for Tunisian rami, eliminations and the
winner. Editing or undoing a deal is just computing the changed document again, so the
web page (``/score``) and the terminal (``rami ledger``) keep no rules of their own.

Every bad entry raises ``InputError`` (or ``CardError``) with one line naming the deal
and the player at fault; nothing is half-applied because nothing is stored here.
"""

from __future__ import annotations

from collections.abc import Mapping

from rami.errors import InputError
from rami.games import get_game

__all__ = ["compute", "compute_deal"]


def compute(doc: object, game: str | None = None) -> dict[str, object]:
    """The whole ledger computed from its document (``game`` overrides ``doc["game"]``)."""
    if not isinstance(doc, Mapping):
        raise InputError("the ledger must be a JSON object with 'game', 'players', 'deals'")
    name = game if game is not None else doc.get("game")
    if name is None:
        raise InputError("missing required key 'game' in the ledger")
    spec = get_game(name)
    if game is not None and doc.get("game", spec.name) != spec.name:
        raise InputError(f"this ledger is for {doc.get('game')!r}, not {spec.name}")
    if spec.ledger is None:
        raise InputError(f"{spec.title} has no scorekeeper's ledger")
    return spec.ledger(doc)


def compute_deal(game: str, doc: object) -> dict[str, object]:
    """One deal's N-2 document scored exactly as ``rami score GAME`` scores it."""
    spec = get_game(game)
    if spec.score_deal is None:
        raise InputError(f"{spec.title} has no deal calculator")
    return spec.score_deal(doc)
