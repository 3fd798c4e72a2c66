"""Tunisian rami's part of the move-by-move review (``rami.review``; docs/review.md).

Saved deals and games in their ``to_json`` layouts, the decisions the exact search
settles (going out this turn, T-9, with ``solver.can_go_out``; the pile's top card that
lets the hand go out, T-8) and one-line reasons read from the solvers (the best opening,
T-6; a discard that an opened opponent lays off, T-7). Everything reads one seat's view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rami.cards import JOKER, Card
from rami.engine import Action
from rami.errors import IllegalAction, InputError
from rami.review.hooks import ReviewHooks, Verdict
from rami.tunisian import greedy_bot as g
from rami.tunisian.match import Match
from rami.tunisian.solver import best_opening, can_go_out
from rami.views import TypedView

__all__ = ["HOOKS"]

_TAKE = Action("take")
_DRAW = Action("draw")


def _deals_of(doc: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """A saved deal (``TunisianState.to_json``) or game (``Match.to_json``)."""
    if doc.get("game") != "tunisian":
        return None
    if doc.get("kind") != "match":
        return [dict(doc)] if "actions" in doc else None
    Match.from_json(doc)  # InputError says what is wrong
    match = Match(doc["rules"], doc["seed"])
    out: list[dict[str, Any]] = []
    for number, actions in enumerate(doc["deals"]):
        if number:
            try:
                match.next_deal()
            except IllegalAction as exc:  # checked by from_json above
                raise InputError(str(exc)) from None
        for text in actions:
            match.apply(text)
        if actions:
            out.append(match.current.to_json())
    return out


def _value(hand: list[int]) -> int:
    best = best_opening(hand)
    return 0 if best is None else best.value


def _exact(view: TypedView) -> Verdict | None:
    obs = g.observe(view)
    step = g.going_out_step(obs)
    if step is not None:
        return Verdict(step, f"you could go out this turn: {step} first (T-9)")
    if obs.phase == "draw" and _TAKE in obs.legal and _DRAW in obs.legal and obs.pile:
        opened = obs.opened[obs.seat]
        if opened and sum(obs.hand) >= 2:
            table = [m for m, _o in obs.table]
            with_top = obs.hand[:]
            with_top[obs.pile[-1]] += 1
            if can_go_out(with_top, table, True, 0):
                return Verdict(_TAKE, f"{Card(obs.pile[-1])} lets you go out: take it")
    return None


def _why(view: TypedView, taken: Action, best: Action) -> str | None:
    obs = g.observe(view)
    opened = obs.opened[obs.seat]
    if {taken, best} == {_TAKE, _DRAW} and obs.pile:
        top = Card(obs.pile[-1])
        if best == _TAKE and not opened:
            with_top = obs.hand[:]
            with_top[obs.pile[-1]] += 1
            value = _value(with_top)
            if value >= obs.threshold:
                return f"taking {top} lets you open with {value} points (T-6, T-8)"
        return None
    if taken.kind != "discard" or not taken.cards:
        return None
    c = int(taken.cards[0])
    if c == int(JOKER):
        return "this discard throws away a joker"
    fits = g.table_fits(obs.table)
    if c in fits and any(obs.opened[s] for s in obs.opponents()):
        return f"{taken.cards[0]} fits a meld on the table: an opened opponent lays it off (T-7)"
    if not opened and best.kind == "discard" and best.cards:
        b = int(best.cards[0])
        without_taken = obs.hand[:]
        without_taken[c] -= 1
        without_best = obs.hand[:]
        without_best[b] -= 1
        lost, kept = _value(without_taken), _value(without_best)
        if lost < kept:
            return (
                f"this discard lowers your best opening to {lost} points; "
                f"discarding {best.cards[0]} keeps {kept} (T-6)"
            )
    if best.kind != "discard":
        return f"{best} first: it sheds cards before the discard"
    return None


def _checked_deals(doc: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    try:
        return _deals_of(doc)
    except (TypeError, KeyError, AttributeError) as exc:
        raise InputError(f"the saved Tunisian document is damaged ({exc})") from None


HOOKS = ReviewHooks(
    deals_of=_checked_deals,
    exact=_exact,
    why=_why,
    thresholds=lambda rules: (3.0, 8.0, 15.0),  # deal points: an unopened hand pays 100 (T-10)
    samples=128,
)
