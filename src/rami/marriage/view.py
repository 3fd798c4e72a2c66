"""What one seat may know of a Marriage deal: the only thing a bot or client receives.

A view holds the seat's own hand, everything public (hand sizes; ``melds``: the shown
melds in ``nepali``, the table melds in ``indian``; exposed tunnelas, shown dublees,
seen flags and paths; the whole discard pile in order, the stock size, the public
history) and nothing else. The tiplu and the wild cards appear only for
a seat that has seen (M-7), or for everyone once the deal is over. A stock draw is
``draw 7♣`` in the drawer's history and ``draw`` in everyone else's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rami.cards import CARDS
from rami.errors import InputError
from rami.marriage.rules import MarriageRules

if TYPE_CHECKING:
    from rami.marriage.game import MarriageState

__all__ = ["build_view", "history"]


_RULES_JSON: dict[MarriageRules, dict[str, Any]] = {}


def _rules_json(rules: MarriageRules) -> dict[str, Any]:
    """The rules' JSON, built once per rules object (views are built often)."""
    doc = _RULES_JSON.get(rules)
    if doc is None:
        doc = _RULES_JSON[rules] = rules.to_json()
    return dict(doc)


def _texts(cards: Any) -> list[str]:
    return [str(CARDS[c]) for c in cards]


def history(state: MarriageState, seat: int | None) -> list[dict[str, Any]]:
    """The event log as ``seat`` may read it (private cards hidden from others)."""
    out: list[dict[str, Any]] = []
    for e in state.events:
        if "move" in e:
            text = (
                e["move"] if seat is not None and e["seat"] == seat else e.get("public", e["move"])
            )
            out.append({"seat": e["seat"], "move": text})
        else:
            out.append({"seat": e["seat"], "event": e["event"]})
    return out


def build_view(state: MarriageState, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of ``state`` for ``seat`` (``None``: a spectator)."""
    n = state.n
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
    ):
        raise InputError(f"seat must be a number from 0 to {n - 1}, or none for a spectator")
    over = state.is_over
    seats = []
    for s in range(n):
        seats.append(
            {
                "seat": s,
                "hand_size": state.sizes[s],
                "melds": [_texts(m) for m in state.melds[s]],
                "exposed_tunnelas": _texts(state.exposed[s]),
                "dublees": _texts(state.dublees[s]),
                "seen": state.seen[s],
                "path": state.path[s],
            }
        )
    view: dict[str, Any] = {
        "game": "marriage",
        "rules": _rules_json(state.rules),
        "players": n,
        "seat": seat,
        "dealer": state.dealer,
        "to_move": state.to_move,
        "phase": state.phase,
        "turn": state.turn,
        "seats": seats,
        "discard_pile": _texts(state.pile),
        "stock_size": len(state.stock),
        "tiplu_picked": state.tiplu_picked,
        "taken": None if state.taken is None else str(CARDS[state.taken]),
        "history": history(state, seat),
    }
    knows = over or (seat is not None and state.seen[seat])
    if seat is not None:
        hand = state.hands[seat]
        view["hand"] = [str(CARDS[c]) for c in range(52) for _ in range(hand[c])]
        view["seen"] = state.seen[seat]
        to_move = state.to_move == seat
        view["legal_actions"] = [str(a) for a in state.legal_actions()] if to_move else []
    if knows and state.tiplu_picked and state.tiplu is not None:
        view["tiplu"] = str(state.tiplu)
        view["wild_cards"] = _texts(sorted(state.wilds))
    if over and state.result is not None:
        view["result"] = {
            "scores": list(state.result.scores),
            "winner": state.result.winner,
            "details": state.result.details,
        }
    return view
