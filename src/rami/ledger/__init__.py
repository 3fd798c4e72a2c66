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
from typing import TypedDict, TypeGuard

from rami.errors import InputError
from rami.games import get_game

__all__ = ["DealRow", "LedgerResult", "compute", "compute_deal"]


class DealRow(TypedDict):
    """One computed deal, as every game's ledger gives it (the game's own ``result``)."""

    number: int
    dealer: str
    result: dict[str, object]


class LedgerResult(TypedDict):
    """What every game's computed ledger holds (each game adds keys of its own: the
    rules or mode, eliminations, the winner…): ``next_dealer`` is None once it is over."""

    game: str
    players: list[str]
    deals: list[DealRow]
    totals: list[int]
    next_dealer: str | None


def _is_row(deal: object) -> bool:
    return (
        isinstance(deal, dict)
        and isinstance(deal.get("number"), int)
        and isinstance(deal.get("dealer"), str)
        and isinstance(deal.get("result"), dict)
    )


def _is_ledger(result: dict[str, object]) -> TypeGuard[LedgerResult]:
    """Whether a game's computed ledger has the keys every ledger shares."""
    players, deals, totals = result.get("players"), result.get("deals"), result.get("totals")
    after = result.get("next_dealer")
    return (
        isinstance(result.get("game"), str)
        and isinstance(players, list)
        and all(isinstance(p, str) for p in players)
        and isinstance(deals, list)
        and all(_is_row(d) for d in deals)
        and isinstance(totals, list)
        and all(isinstance(t, int) for t in totals)
        and (after is None or isinstance(after, str))
    )


def compute(doc: object, game: str | None = None) -> LedgerResult:
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
    result = spec.ledger(doc)
    if not _is_ledger(result):  # a game's bug, not the user's
        raise InputError(f"{spec.title}'s ledger lacks the keys every ledger has")
    return result


def compute_deal(game: str, doc: object) -> dict[str, object]:
    """One deal's N-2 document scored exactly as ``rami score GAME`` scores it."""
    spec = get_game(game)
    if spec.score_deal is None:
        raise InputError(f"{spec.title} has no deal calculator")
    return spec.score_deal(doc)
