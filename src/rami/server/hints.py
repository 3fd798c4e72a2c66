"""Hints for a player who asks: built from that seat's own view, never from the state.

A hint is a move a bot would play from the same view, plus notes on the seat's own
cards from the solvers: in Marriage how close a seen hand is to finishing (N-3) or which
pure melds an unseen hand can show (M-6); in Tunisian rami the best man3a the hand holds
against the current threshold (T-6). Because only the view goes in, a hint can never
tell an unseen player the tiplu or anyone another seat's cards (M-7).

Notes are ``{"key": …, …values}`` so that the page words them in the player's language.
"""

from __future__ import annotations

import logging

from rami.cards import counts, parse_cards
from rami.errors import IllegalAction, InputError
from rami.marriage.view import MarriageView, is_marriage_view
from rami.server.bots import make_seat_bot
from rami.tunisian.view import TunisianView, is_tunisian_view
from rami.views import GameView

__all__ = ["hint_for"]

log = logging.getLogger(__name__)

# Solvers that other parts of the project are still completing may raise this.
_SOLVER_ERRORS = (NotImplementedError, ValueError, KeyError, TypeError, IndexError)


def hint_for(game: str, view: GameView, level: str, seed: int) -> dict[str, object]:
    """A suggested move and notes for the seat whose ``view`` this is."""
    suggestion: str | None = None
    if view.get("legal_actions"):
        try:
            suggestion = str(make_seat_bot(game, level, seed).act(view))
        except (*_SOLVER_ERRORS, IllegalAction, InputError) as exc:
            log.warning("hint bot failed: %s", exc)
    notes: list[dict[str, object]] = []
    try:
        if is_marriage_view(view):
            notes = _marriage_notes(view)
        elif is_tunisian_view(view):
            notes = _tunisian_notes(view)
    except _SOLVER_ERRORS as exc:
        log.warning("hint analysis failed: %s", exc)
    return {"suggestion": suggestion, "notes": notes}


def _marriage_notes(view: MarriageView) -> list[dict[str, object]]:
    seat = view.get("seat")
    hand = list(view.get("hand") or ())
    if seat is None or not hand or view.get("phase") == "over":
        return []
    me = view["seats"][seat]
    legal = list(view.get("legal_actions") or ())
    notes: list[dict[str, object]] = []
    tiplu = view.get("tiplu")
    if not view.get("seen"):
        shows = [a[len("show ") :] for a in legal if a.startswith("show ")]
        if shows:
            notes.append({"key": "hint_can_show", "melds": shows[:6]})
        from rami.marriage.rules import rules_from
        from rami.marriage.solver import max_show_melds

        rules = rules_from(view.get("rules"))
        have = len(me.get("melds") or ()) + len(me.get("exposed_tunnelas") or ())
        pure = max_show_melds(counts(parse_cards(" ".join(hand))), rules, 3 - have)
        notes.append({"key": "hint_pure_melds", "count": have + pure, "need": 3})
        return notes
    finishes = [a[len("finish ") :] for a in legal if a.startswith("finish ")]
    if finishes:
        notes.append({"key": "hint_can_finish", "discards": finishes})
        return notes
    if tiplu and me.get("path") != "dublees" and not (view.get("rules") or {}).get("table_melding"):
        from rami.marriage.calculator import analyze

        shown = [*me.get("melds", ()), *([t] * 3 for t in me.get("exposed_tunnelas", ()))]
        cards = [*hand, *(c for m in shown for c in m)]
        if len(cards) == 22:  # N-3 looks at the 22 cards after the draw
            shown_text = ", ".join(" ".join(m) for m in shown) or None
            result = analyze(" ".join(cards), tiplu, shown_text, view.get("rules"))
            count = result.get("missing")
            exact = result.get("missing_exact", True)
            # A bounded search (issue 12) only knows that at least ``count`` are missing.
            note: dict[str, object] = {
                "key": "hint_missing" if exact else "hint_missing_at_least",
                "count": count,
            }
            if not exact:
                note["at_least"] = True
            notes.append(note)
            if result.get("maal") is not None:
                notes.append({"key": "hint_maal", "points": result["maal"]})
    return notes


def _tunisian_notes(view: TunisianView) -> list[dict[str, object]]:
    seat = view.get("seat")
    hand = list(view.get("hand") or ())
    if seat is None or not hand or view.get("phase") == "over":
        return []
    if view["seats"][seat].get("opened"):
        return []
    from rami.tunisian.solver import best_opening

    threshold = int(view.get("threshold") or 71)
    opening = best_opening(counts(parse_cards(" ".join(hand))))
    if opening is None or opening.value < threshold:
        return [
            {
                "key": "hint_no_opening",
                "value": 0 if opening is None else opening.value,
                "threshold": threshold,
            }
        ]
    return [
        {
            "key": "hint_opening",
            "value": opening.value,
            "threshold": threshold,
            "melds": [" ".join(str(c) for c in m.cards) for m in opening.melds],
        }
    ]
