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

from collections.abc import Callable, Mapping

from rami.errors import InputError
from rami.games import get_game

__all__ = ["DEAL_SCORERS", "LEDGERS", "compute", "compute_deal", "maal_cards"]


def _marriage(doc: Mapping[str, object]) -> dict[str, object]:
    from rami.ledger.marriage import ledger

    return ledger(doc)


def _tunisian(doc: Mapping[str, object]) -> dict[str, object]:
    from rami.ledger.tunisian import ledger

    return ledger(doc)


#: The ledger of each game in the registry (``rami.games``), by the game's name.
LEDGERS: dict[str, Callable[[Mapping[str, object]], dict[str, object]]] = {
    "marriage": _marriage,
    "tunisian": _tunisian,
}


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
    return LEDGERS[spec.name](doc)


def _marriage_deal(doc: object) -> dict[str, object]:
    from rami.ledger.marriage import score_deal

    return score_deal(doc)


def _tunisian_deal(doc: object) -> dict[str, object]:
    from rami.tunisian.calculator import score

    return score(doc)


#: One deal's N-2 document scored as ``rami score GAME`` does (Marriage adds ``pairs``).
DEAL_SCORERS: dict[str, Callable[[object], dict[str, object]]] = {
    "marriage": _marriage_deal,
    "tunisian": _tunisian_deal,
}


def compute_deal(game: str, doc: object) -> dict[str, object]:
    """One deal's N-2 document scored exactly as ``rami score GAME`` scores it."""
    return DEAL_SCORERS[get_game(game).name](doc)


def maal_cards(tiplu: str, rules: object = "nepali") -> dict[str, object]:
    """The maal cards of a tiplu, for the tapping pad (the client knows no rules)."""
    from rami.ledger.marriage import maal_cards as _maal_cards

    return _maal_cards(tiplu, rules)
