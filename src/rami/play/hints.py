"""Hints for the ``?`` command: what the solvers say about the player's own cards.

Only the seat's view is read (its hand, its shown melds, the tiplu once it has seen,
the public table), so a hint can never reveal anything the player may not know.
Marriage: whether the hand can show or finish now, otherwise how many cards it still
misses, and the maal it holds. Tunisian rami: the best opening and its value, or
whether the hand can go out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rami.cards import Card, counts, parse_card, parse_cards
from rami.engine import Action

__all__ = ["hint_lines"]

_SHOW_MELDS = 3  # M-6
_SHOW_DUBLEES = 7  # M-6


def _cards(texts: Sequence[str]) -> list[Card]:
    return parse_cards(list(texts))


def _verbs(view: Mapping[str, Any]) -> list[Action]:
    return [Action.parse(t) for t in view.get("legal_actions") or ()]


def _me(view: Mapping[str, Any]) -> Mapping[str, Any]:
    seat = view.get("seat")
    for s in view.get("seats") or ():
        if s.get("seat") == seat:
            return dict(s)
    return {}


def hint_lines(view: Mapping[str, Any]) -> list[str]:
    """One to three lines of advice for the seat of ``view``; never raises."""
    try:
        if view.get("game") == "marriage":
            return _marriage(view)
        return _tunisian(view)
    except Exception as exc:  # a hint must never end the game
        return [f"no hint available ({type(exc).__name__})"]


# ---------------------------------------------------------------------- Marriage


def _marriage(view: Mapping[str, Any]) -> list[str]:
    from rami.marriage.maal import maal
    from rami.marriage.rules import rules_from
    from rami.marriage.solver import dublee_count, max_show_melds, missing_at_least

    rules = rules_from(view.get("rules"))
    hand = _cards(view.get("hand") or [])
    me = _me(view)
    legal = _verbs(view)
    phase = view.get("phase")
    lines: list[str] = []
    if phase == "expose":
        exposes = [str(a.cards[0]) for a in legal if a.kind == "expose"]
        if exposes:
            lines.append(
                "you may expose a tunnela of " + ", ".join(exposes) + ": it counts as a shown "
                "meld and may earn a bonus (M-3, M-12)"
            )
        else:
            lines.append("you hold no tunnela: type 'pass'")
        return lines
    vec = counts(hand)
    top = (view.get("discard_pile") or [None])[-1]
    if not me.get("seen"):
        shown = len(me.get("melds") or []) + len(me.get("exposed_tunnelas") or [])
        dublees = len(me.get("dublees") or [])
        if phase == "play" and any(a.kind in ("show", "dublee", "see") for a in legal):
            lines.append("you can show now and see the tiplu: type 'show' (or 'show all')")
        have = shown + max_show_melds(vec, rules, _SHOW_MELDS - shown)
        text = f"you hold {min(have, _SHOW_MELDS)} of the {_SHOW_MELDS} pure melds needed to show"
        if rules.dublees_allowed(int(view.get("players") or 0)):
            pairs = dublees + dublee_count(vec)
            text += f", and {min(pairs, _SHOW_DUBLEES)} of {_SHOW_DUBLEES} dublees"
        lines.append(text)
        if phase == "draw" and top is not None and any(a.kind == "take" for a in legal):
            more = counts([*hand, parse_card(top)])
            if shown + max_show_melds(more, rules, _SHOW_MELDS - shown) > have:
                lines.append(f"taking {top} would give you another pure meld")
        return lines
    tiplu = parse_card(view["tiplu"])
    finishes = [str(a.cards[0]) for a in legal if a.kind == "finish"]
    shown_melds = [_cards(m) for m in me.get("melds") or []]
    shown_melds += [[parse_card(t)] * 3 for t in me.get("exposed_tunnelas") or []]
    shown_melds += [[parse_card(d)] * 2 for d in me.get("dublees") or []]
    if finishes:
        lines.append("you can finish: " + " or ".join(f"'finish {c}'" for c in finishes[:4]))
    elif phase == "play":
        gap, exact = missing_at_least(vec, rules, tiplu, shown_melds)
        least = "" if exact else "at least "
        lines.append(f"{least}{gap} card{'s' if gap != 1 else ''} missing before you can finish")
    elif phase == "draw" and top is not None and any(a.kind == "take" for a in legal):
        lines.append(f"the top discard is {top}; draw or take, then ask again")
    own = [*hand]
    for m in shown_melds:
        own.extend(m)
    exposed = tuple(parse_card(t) for t in me.get("exposed_tunnelas") or [])
    bonus = me.get("path") == "melds" and bool(exposed)
    points, items = maal(own, tiplu, rules, exposed, bonus)
    detail = f": {', '.join(items)}" if items else ""
    lines.append(f"your maal now: {points}{detail}")
    return lines


# ---------------------------------------------------------------------- Tunisian


def _tunisian(view: Mapping[str, Any]) -> list[str]:
    from rami.tunisian.melds import make_meld
    from rami.tunisian.solver import best_opening, can_go_out

    hand = _cards(view.get("hand") or [])
    me = _me(view)
    threshold = int(view.get("threshold") or 0)
    phase = view.get("phase")
    legal = _verbs(view)
    if phase == "first_discard":
        return ["the dealer's first turn is a discard only: 'x CARD' (T-2)"]
    if view.get("first_round"):
        return ["nobody may open during the first round (T-3): draw and discard"]
    opened = bool(me.get("opened"))
    lines: list[str] = []
    if not opened:
        staged = int(view.get("staged_value") or 0)
        best = best_opening(counts(hand))
        value = best.value if best is not None else 0
        melds = " · ".join(m.text() for m in best.melds) if best is not None else ""
        if staged >= threshold:
            lines.append(f"your opening ({staged}) is complete: lay more, or discard")
            return lines
        if staged:
            lines.append(f"laid so far: {staged} of the {threshold} needed")
        if staged + value >= threshold and phase == "play":
            lines.append(f"best opening {staged + value}: {melds} (type 'open')")
        elif best is not None:
            lines.append(f"best opening {staged + value} ({melds}); it needs {threshold}")
        else:
            lines.append(f"your hand holds no meld yet; the opening needs {threshold}")
        top = (view.get("discard_pile") or [None])[-1]
        if phase == "draw" and top is not None and any(a.kind == "take" for a in legal):
            more = best_opening(counts([*hand, parse_card(top)]))
            if more is not None:
                lines.append(f"take {top} and you can open with {more.value}")
        return lines
    if phase == "play":
        table = [make_meld(_cards(m["cards"])) for m in view.get("table") or []]
        if can_go_out(counts(hand), table, True, threshold):
            lines.append("you can go out this turn: lay everything but one card, then discard it")
        lays = sum(1 for a in legal if a.kind in ("meld", "add", "swap"))
        if lays:
            lines.append(f"{lays} ways to lay cards now: 'lay', 'add' and 'swap' list them")
        best = best_opening(counts(hand))
        if best is not None:
            lines.append("melds in your hand: " + " · ".join(m.text() for m in best.melds))
    if not lines:
        lines.append("draw first, then ask again")
    return lines
