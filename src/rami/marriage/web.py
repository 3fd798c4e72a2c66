"""Marriage on the web server (``Game.web``): hints, table aids, auto-group, scorekeeper.

Each hook reads one seat's view only, so it can never tell an unseen player the tiplu
(M-7) or anyone another seat's cards. Moved here from ``rami.server`` so that the server
names no game.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from rami.cards import Card, counts, parse_card, parse_cards
from rami.marriage.game import SHOW_MELDS as _SHOW_MELDS
from rami.marriage.rules import rules_from
from rami.marriage.view import MarriageView, marriage_view
from rami.server.arrange import sorted_rest as _rest
from rami.server.arrange import take_group as _take
from rami.server.hooks import WebHooks
from rami.views import GameView

# The scorekeeper's routes only: the hooks also run without FastAPI (rami.solo, Pyodide).
with contextlib.suppress(ImportError):
    from fastapi import APIRouter, Query
    from fastapi.responses import JSONResponse

if TYPE_CHECKING:
    from rami.marriage.ledger import MaalCards

__all__ = ["HOOKS"]

log = logging.getLogger(__name__)


# ---------------------------------------------------------------------- hints


def notes(view: GameView) -> list[dict[str, object]]:
    """Unseen: the shows possible and the pure melds held (M-6); seen: whether it can
    finish, how many cards it misses (N-3), its maal."""
    view = marriage_view(view)
    seat = view.get("seat")
    hand = list(view.get("hand") or ())
    if seat is None or not hand or view.get("phase") == "over":
        return []
    me = view["seats"][seat]
    legal = list(view.get("legal_actions") or ())
    notes: list[dict[str, object]] = []
    rules = rules_from(view.get("rules"))
    tiplu = view.get("tiplu")
    if not view.get("seen"):
        shows = [a[len("show ") :] for a in legal if a.startswith("show ")]
        if shows:
            notes.append({"key": "hint_can_show", "melds": shows[:6]})
        from rami.marriage.solver import max_show_melds

        have = len(me.get("melds") or ()) + len(me.get("exposed_tunnelas") or ())
        pure = max_show_melds(counts(parse_cards(" ".join(hand))), rules, _SHOW_MELDS - have)
        notes.append({"key": "hint_pure_melds", "count": have + pure, "need": _SHOW_MELDS})
        return notes
    finishes = [a[len("finish ") :] for a in legal if a.startswith("finish ")]
    if finishes:
        notes.append({"key": "hint_can_finish", "discards": finishes})
        return notes
    if tiplu and me.get("path") != "dublees" and not (view.get("rules") or {}).get("table_melding"):
        from rami.marriage.calculator import analyze

        shown = [*me.get("melds", ()), *([t] * 3 for t in me.get("exposed_tunnelas", ()))]
        cards = [*hand, *(c for m in shown for c in m)]
        if len(cards) == rules.hand_size + 1:  # N-3 looks at the cards after the draw
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


# ---------------------------------------------------------------------- table aids


def _aids_seen(view: MarriageView) -> dict[str, object]:
    seat = view.get("seat")
    tiplu_text = view.get("tiplu")
    if seat is None or not tiplu_text or not view.get("seen"):
        return {}
    from rami.marriage.maal import maal
    from rami.marriage.melds import jhiplu, poplu

    rules = rules_from(view.get("rules"))
    tiplu = parse_card(tiplu_text)
    low, high = jhiplu(tiplu), poplu(tiplu)
    others = [
        str(c)
        for c in parse_cards(" ".join(view.get("wild_cards") or ()))
        if c not in (tiplu, low, high)
    ]
    names = [
        {"name": "tiplu", "cards": [str(tiplu)]},
        {"name": "jhiplu", "cards": [str(low)]},
        {"name": "poplu", "cards": [str(high)]},
    ]
    if others:
        names.append({"name": "joker", "cards": others})
    me = view["seats"][seat]
    shown = [c for m in me["melds"] for c in m]
    exposed = me["exposed_tunnelas"]
    dublees = me["dublees"]
    cards = [
        *(view.get("hand") or ()),
        *shown,
        *(c for t in exposed for c in (t, t, t)),
        *(c for d in dublees for c in (d, d)),
    ]
    bonus = me["path"] == "melds" and bool(exposed)
    points, items = maal(
        parse_cards(" ".join(cards)),
        tiplu,
        rules,
        tuple(parse_cards(" ".join(exposed))),
        bonus,
    )
    return {"wild_names": names, "maal": points, "maal_items": items}


def _settlement(view: MarriageView) -> list[dict[str, object]]:
    """M-13: each seat's net split into fees (seen/unseen, dublee bonus) and maal differences.

    The engine's own settlement is run again with the fees set to 0: what is left of
    each net is the pairwise maal part, the rest the fees. Nepali scoring only.
    """
    import dataclasses

    from rami.marriage.settle import settle_nepali

    result = view.get("result")
    if result is None:
        return []
    details = result["details"]
    players = details["players"]
    rules = rules_from(view["rules"])
    if rules.scoring != "nepali" or not players:
        return []
    free = dataclasses.replace(rules, seen_fee=0, unseen_fee=0, dublee_bonus=0)
    finish = details["finish"]
    pairwise = settle_nepali(
        [p["maal"] for p in players],
        [p["seen"] for p in players],
        result["winner"],
        finish is not None and finish["kind"] == "dublees",
        free,
    )
    return [
        {"seat": p["seat"], "net": p["net"], "maal_part": part, "fees": p["net"] - part}
        for p, part in zip(players, pairwise, strict=True)
    ]


def aids(view: GameView) -> dict[str, object]:
    """Wild cards by name and the seat's maal once it has seen; the settlement at the end."""
    view = marriage_view(view)
    out = _aids_seen(view)
    result = view.get("result")
    if result:
        from rami.marriage.deal_end import deal_end

        out["settlement"] = _settlement(view)
        end = deal_end(result["details"], view["rules"], list(result["scores"]))
        for line in end["seats"]:  # the cards left, grouped as the table's Group does
            if line["left"]:
                groups = arrange(parse_cards(" ".join(line["left"])), view)
                line["left_groups"] = [[str(c) for c in g] for g in groups]
        out["deal_end"] = end
    return out


# ---------------------------------------------------------------------- auto-group


def arrange(cards: list[Card], view: GameView) -> list[list[Card]]:
    """Pure melds (the solver's show melds, M-6), dublees (M-9), near-melds, the rest."""
    from rami.marriage.solver import show_meld_options

    rules = rules_from(view.get("rules"))
    left = counts(cards)
    groups: list[list[Card]] = []
    options = sorted(show_meld_options(left, rules), key=len, reverse=True)
    progress = True
    while progress:
        progress = False
        for meld in options:
            if _take(left, meld):
                groups.append(list(meld))
                progress = True
                break
    for k in range(len(left)):  # dublees: two identical cards
        while k < 52 and left[k] >= 2:
            left[k] -= 2
            groups.append([Card(k), Card(k)])
    rest = _rest(left, cards)
    near: list[list[Card]] = []
    loose: list[Card] = []
    i = 0
    while i < len(rest):
        a = rest[i]
        b = rest[i + 1] if i + 1 < len(rest) else None
        if b is not None and a < 52 and b < 52 and a // 13 == b // 13 and 0 < b % 13 - a % 13 <= 2:
            near.append([a, b])
            i += 2
        else:
            loose.append(a)
            i += 1
    return [*groups, *near, *([loose] if loose else [])]


# ---------------------------------------------------------------------- scorekeeper

LEDGER_EXAMPLE = {
    "game": "marriage",
    "rules": "nepali",
    "players": ["Asha", "Bikash", "Chandra"],
    "first_dealer": 0,
    "deals": [
        {
            "tiplu": "J♣",
            "players": [
                {"seen": True, "cards": ["10♣", "J♣", "Q♣"]},
                {"seen": True, "maal": 2},
                {"seen": False},
            ],
            "finisher": "Asha",
        }
    ],
}
DEAL_EXAMPLE = {
    "rules": "nepali",
    "tiplu": "J♣",
    "players": [
        {"name": "A", "cards": ["10♣", "J♣", "Q♣"], "seen": True, "qualified": "melds"},
        {"name": "B", "cards": ["Q♣"], "seen": True, "qualified": "melds"},
        {"name": "C", "cards": [], "seen": False},
    ],
    "finisher": "A",
}


def add_routes(router: APIRouter, errors: dict[int | str, dict[str, object]]) -> None:
    """``GET /api/score/marriage/maal-cards``: the tapping pad's maal cards."""
    from rami.marriage.ledger import maal_cards
    from rami.server.score_api import error_response

    @router.get(
        "/api/score/marriage/maal-cards", tags=["score"], responses=errors, response_model=None
    )
    async def get_maal_cards(
        tiplu: Annotated[str, Query(max_length=8, description="the tiplu, e.g. J♣ or JC")],
        rules: Annotated[str, Query(max_length=20, description="nepali or indian")] = "nepali",
    ) -> MaalCards | JSONResponse:
        """The maal cards of a tiplu (jhiplu, tiplu copies, poplu) with the copies in play,
        and the ordinary jokers, for the page's tapping pad."""

        try:
            return maal_cards(tiplu, rules)
        except ValueError as exc:
            return error_response(str(exc))


def wild_card(view: GameView) -> str | None:
    """The tiplu, once the view shows it (M-7)."""
    tiplu = view.get("tiplu")
    return tiplu if isinstance(tiplu, str) else None


HOOKS = WebHooks(
    notes=notes,
    aids=aids,
    arrange=arrange,
    ledger_example=LEDGER_EXAMPLE,
    deal_example=DEAL_EXAMPLE,
    add_routes=add_routes,
    client=Path(__file__).parent / "client",
    wild_card=wild_card,
)
