"""The result of a finished Marriage deal: each seat's maal (M-12), the settlement
(Nepali M-13, M-14; Indian M-15) and the JSON-ready explanation the table shows.

Read from the deal's public properties when it ends (``MarriageState._close``); the
figures come from ``rami.marriage.maal`` and ``rami.marriage.settle``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rami.cards import CARDS
from rami.engine import DealResult
from rami.marriage.conditions import DUBLEES_PATH, MELDS_PATH
from rami.marriage.maal import maal
from rami.marriage.settle import capped_values, card_points, settle_indian, settle_nepali

if TYPE_CHECKING:
    from rami.marriage.game import MarriageState
    from rami.marriage.view import FinishJson, MarriageDetails, MarriagePlayerResult

__all__ = ["settle"]


def settle(state: MarriageState) -> DealResult[MarriageDetails]:
    """The finished deal's maal and settlement (M-12 … M-15) and the JSON-ready
    explanation (``DealResult.details``)."""
    rules = state.rules
    n = state.num_players
    tiplu = state.tiplu
    seen, path, exposed, hands = state.seen, state.path, state.exposed, state.hands
    finisher, finish = state.finisher, state.finish
    anyone_seen = any(seen) and tiplu is not None
    points: list[int] = []
    items: list[list[str]] = []
    cards_of = [state.final_cards(s) for s in range(n)]
    for s in range(n):
        if not anyone_seen or tiplu is None:
            points.append(0)
            items.append([])
            continue
        bonus = seen[s] and path[s] == MELDS_PATH and bool(exposed[s])
        pts, its = maal(cards_of[s], tiplu, rules, tuple(exposed[s]), bonus)
        if not seen[s] and not rules.unseen_maal_counts:
            pts, its = 0, []  # M-12 option: an unseen player's maal counts nothing
        points.append(pts)
        items.append(list(its))
    players: list[MarriagePlayerResult] = []
    if rules.scoring == "indian":
        in_hand = [
            0 if s == finisher else card_points([c for c in range(52) for _ in range(hands[s][c])])
            for s in range(n)
        ]
        nets = settle_indian(points, seen, in_hand, finisher, rules)
        points, items = capped_values(points, seen, items, rules)  # M-15, as shown
    else:
        in_hand = []
        dublee_finish = finish is not None and finish.kind == DUBLEES_PATH
        nets = settle_nepali(points, seen, finisher, dublee_finish, rules)
    for s in range(n):
        entry: MarriagePlayerResult = {
            "seat": s,
            "seen": seen[s],
            "path": path[s],
            "maal": points[s],
            "maal_items": items[s],
            "hand": [str(CARDS[c]) for c in range(52) for _ in range(hands[s][c])],
            "cards": [str(CARDS[c]) for c in sorted(cards_of[s])],
            "net": nets[s],
        }
        if in_hand:
            entry["card_points"] = in_hand[s]
        if rules.table_melding:
            entry["table_melds"] = [[str(c) for c in m] for m in state.melds[s]]
        else:
            entry["shown_melds"] = [[str(c) for c in m] for m in state.melds[s]]
            entry["exposed_tunnelas"] = [str(c) for c in exposed[s]]
            entry["dublees"] = [str(c) for c in state.dublees[s]]
        players.append(entry)
    finish_doc: FinishJson | None = None
    if finish is not None:
        finish_doc = {
            "kind": finish.kind,
            "groups": [[str(c) for c in g] for g in finish.groups],
            "discard": str(finish.discard),
        }
    details: MarriageDetails = {
        "tiplu": None if tiplu is None or not state.tiplu_picked else str(tiplu),
        "finisher": finisher,
        "finish": finish_doc,
        "reason": state.end_reason,
        "turns": state.turn,
        "players": players,
    }
    return DealResult(tuple(nets), finisher, details)
