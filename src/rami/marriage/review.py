"""Marriage's part of the move-by-move review (``rami.review``; docs/review.md).

Saved deals and matches in their ``to_json`` layouts, the decisions the solvers settle
(a finish is possible, M-9; the discard on the pile completes the hand, M-5) and the
one-line reasons read from the greedy bot's exact hand measures (cards missing to
finish, pure melds before seeing, M-6; wild cards, M-7). Everything reads one seat's
view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rami.cards import Card
from rami.engine import Action
from rami.errors import InputError
from rami.marriage import greedy_bot as g
from rami.marriage.match import Match
from rami.marriage.rules import rules_from
from rami.review.hooks import ReviewHooks, Verdict
from rami.views import TypedView

__all__ = ["HOOKS"]

_TAKE = Action("take")
_DRAW = Action("draw")


def _deals_of(doc: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """A saved deal (``MarriageState.to_json``) or match (``Match.to_json``) as deals."""
    kind = doc.get("game")
    if kind == "marriage" and "actions" in doc:
        return [dict(doc)]
    if kind != "marriage-match":
        return None
    match = Match.from_json(doc)  # InputError says what is wrong
    out: list[dict[str, Any]] = []
    for rec in match.records:
        out.append(
            {
                "game": "marriage",
                "rules": match.rules.to_json(),
                "seats": match.players,
                "seed": rec.seed,
                "dealer": rec.dealer,
                "active": [True] * match.players,
                "actions": list(rec.actions),
            }
        )
    if match.current.actions:
        out.append(match.current.to_json())
    return out


def _short(d: float) -> str:
    return f"{d:g}"


def _with_top(obs: g.Observation) -> float | None:
    """Cards missing to finish after taking the pile's top card and giving up the best
    other card (None when the top card cannot be taken)."""
    if _TAKE not in obs.legal or not obs.pile:
        return None
    top = obs.pile[-1]
    obs.hand[top] += 1
    try:
        after = g.removal_costs(obs)
    finally:
        obs.hand[top] -= 1
    return min((v for c, v in after.items() if c != top), default=None)


def _exact(view: TypedView) -> Verdict | None:
    obs = g.observe(view)
    finishes = [a for a in obs.legal if a.kind == "finish"]
    if finishes:
        best = g.finish_choice(obs, finishes)
        return Verdict(best, f"you could finish now ({best}, M-9)")
    if obs.phase == "draw" and obs.seen and _DRAW in obs.legal:
        after = _with_top(obs)
        if after is not None and after <= 0 and g.deficiency(obs, obs.hand) > 0:
            top = Card(obs.pile[-1])
            return Verdict(_TAKE, f"{top} finished your hand: take it")
    return None


def _pure_melds(obs: g.Observation, hand: list[int]) -> int:
    suits, _ = g.split_suits(hand, frozenset())
    return sum(g.pure_score(t, obs.rules.tunnela_melds) // 10 for t in suits)


def _why(view: TypedView, taken: Action, best: Action) -> str | None:
    obs = g.observe(view)
    now = g.deficiency(obs, obs.hand)
    if {taken, best} == {_TAKE, _DRAW} and obs.pile:
        top = Card(obs.pile[-1])
        after = _with_top(obs)
        if after is None:
            return None
        if best == _TAKE and after < now:
            return (
                f"taking {top} brings you to {_short(after)} cards from finishing "
                f"(now {_short(now)})"
            )
        if best == _DRAW and after >= now:
            return f"{top} brings you no closer to finishing: a blind draw keeps more chances"
        return None
    if taken.kind != "discard" or not taken.cards:
        return None
    c = int(taken.cards[0])
    if c in obs.wilds:
        return f"{taken.cards[0]} is a wild card: maal and a joker for your hand (M-7, M-12)"
    costs = g.removal_costs(obs)
    if not obs.seen and obs.path != "dublees":
        before = _pure_melds(obs, obs.hand)
        obs.hand[c] -= 1
        after_pure = _pure_melds(obs, obs.hand)
        obs.hand[c] += 1
        if after_pure < before and before <= 3 - obs.shown:
            word = "pure sequence" if obs.hand[c] < 3 else "pure meld"
            if before == 1:
                return f"this discard breaks your only {word} (M-6)"
            return f"this discard breaks one of your {before} pure melds (M-6)"
    if best.kind == "discard" and best.cards:
        b = int(best.cards[0])
        if c in costs and b in costs and costs[c] > costs[b]:
            return (
                f"discarding {taken.cards[0]} leaves you {_short(costs[c])} cards from "
                f"finishing; {best.cards[0]} would leave {_short(costs[b])}"
            )
    if c in costs and costs[c] > now:
        return f"discarding {taken.cards[0]} takes you further from finishing"
    return None


def _thresholds(rules: Mapping[str, Any]) -> tuple[float, float, float]:
    """Ledger points: ``nepali`` deals swing by about ten between seats (M-13); ``indian``
    counts card points too (M-15), some twenty times as many."""
    if rules_from(dict(rules)).scoring == "indian":
        return (4.0, 12.0, 25.0)
    return (1.0, 3.0, 6.0)


def _checked_deals(doc: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    try:
        return _deals_of(doc)
    except (TypeError, KeyError, AttributeError) as exc:
        raise InputError(f"the saved Marriage document is damaged ({exc})") from None


HOOKS = ReviewHooks(
    deals_of=_checked_deals,
    exact=_exact,
    why=_why,
    thresholds=_thresholds,
    samples=80,
)
