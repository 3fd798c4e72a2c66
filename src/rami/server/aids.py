"""What the table page shows a seat beside its view, computed from that view only.

Marriage, once the seat has seen (M-7): the wild cards by name (tiplu, jhiplu, poplu,
and the tiplu's rank in the other suits, the ordinary jokers) and the seat's current
maal (M-12, M-15) counted over its own cards exactly as the settlement counts them.
Nothing here is hidden from the seat: the tiplu and its own cards are in its view.
The page never works these out itself (no rules in the client).
"""

from __future__ import annotations

import logging

from rami.cards import parse_card, parse_cards
from rami.marriage.view import MarriageView, is_marriage_view
from rami.views import GameView

__all__ = ["table_aids"]

log = logging.getLogger(__name__)
_ERRORS = (NotImplementedError, ValueError, KeyError, TypeError, IndexError)


def _marriage_aids(view: MarriageView) -> dict[str, object]:
    seat = view.get("seat")
    tiplu_text = view.get("tiplu")
    if seat is None or not tiplu_text or not view.get("seen"):
        return {}
    from rami.marriage.maal import maal
    from rami.marriage.melds import jhiplu, poplu
    from rami.marriage.rules import rules_from

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


def _marriage_settlement(view: MarriageView) -> list[dict[str, object]]:
    """M-13: each seat's net split into fees (seen/unseen, dublee bonus) and maal differences.

    The engine's own settlement is run again with the fees set to 0: what is left of
    each net is the pairwise maal part, the rest the fees. Nepali scoring only.
    """
    import dataclasses

    from rami.marriage.rules import rules_from
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


def table_aids(game: str, view: GameView) -> dict[str, object]:
    """Extra facts for the seat whose ``view`` this is ({} when there is nothing to add)."""
    try:
        if game == "marriage" and is_marriage_view(view):
            aids = _marriage_aids(view)
            if view.get("result"):
                aids["settlement"] = _marriage_settlement(view)
            return aids
    except _ERRORS as exc:
        log.warning("table aids failed: %s", exc)
    return {}
