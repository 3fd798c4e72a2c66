"""The end of a Marriage deal as the table shows it: hands, maal, fees and who pays whom.

The engine's ``DealResult`` says what each seat gets; a player also wants to know why.
This module turns a finished deal's details into the N-2 document of ``rami score``
(M-12 … M-15) and scores it with the scorekeeper's own functions (``ledger.score_deal``),
so the table's result and ``rami score`` give the same figures by construction, pairwise
payments included (tests/test_deal_end.py holds both equal to the engine's nets).

What it adds per seat: the groups as the engine scored them (shown melds, exposed
tunnelas and dublees first, then the finisher's final groups, M-8 / M-9; another seat's
cards left in hand), the fee part and maal part of a nepali net (M-13), and for indian
scoring the card points paid and the value difference (M-15).
"""

from __future__ import annotations

from typing import TypedDict

from rami.marriage.ledger import score_deal
from rami.marriage.maal import item_parts
from rami.marriage.rules import rules_from
from rami.marriage.view import MarriageDetails, MarriagePlayerResult

__all__ = ["DealEnd", "MaalPart", "Payment", "SeatEnd", "deal_document", "deal_end"]


class Payment(TypedDict):
    """One pair's settlement: ``payer`` pays ``payee`` ``points`` (M-13, M-15)."""

    payer: int
    payee: int
    points: int


class MaalPart(TypedDict):
    """A maal item as ``maal.item_parts`` reads it: its kind (a code), cards and points."""

    kind: str
    cards: list[str]
    points: int


class SeatEnd(TypedDict):
    """One seat's line of the result, every figure from ``rami score``."""

    seat: int
    groups: list[list[str]]  # as scored: shown/exposed/dublees, then final groups
    left: list[str]  # cards still in hand (not part of a group above)
    left_groups: list[list[str]]  # the same cards as the table's auto-group lays them out
    maal: int  # the maal (nepali) or value points (indian) that count
    maal_items: list[str]
    maal_parts: list[MaalPart]  # the same items as codes and figures, worded by pages
    net: int
    fees: int  # nepali: the finisher's fee part of the net (M-13)
    maal_part: int  # nepali: the maal differences; indian: the value difference (M-15)
    card_points: int  # indian: card points left in hand (M-15)
    card_part: int  # indian: what card points give: −own to the finisher, +theirs to the
    # finisher, with no finisher the difference (total − n·own)


class DealEnd(TypedDict):
    """The whole explanation sent with the result (``aids.deal_end``)."""

    scoring: str  # "nepali" or "indian"
    finish_kind: str | None  # "melds", "dublees" or None (nobody finished, M-14)
    seats: list[SeatEnd]
    payments: list[Payment]
    fees: dict[str, int]  # the fees that applied: seen, unseen, dublee bonus (nepali)
    agrees: bool  # the nets of ``rami score`` equal the engine's


def _name(seat: int) -> str:
    return f"seat {seat + 1}"


def deal_document(details: MarriageDetails, rules: object) -> dict[str, object]:
    """The N-2 document of ``rami score marriage`` for a finished deal (M-12 … M-15)."""
    indian = rules_from(rules).scoring == "indian"
    finisher = details["finisher"]
    players: list[dict[str, object]] = []
    for p in details["players"]:
        doc: dict[str, object] = {"name": _name(p["seat"]), "cards": list(p["cards"])}
        if p["seen"]:
            doc["seen"] = True
            doc["qualified"] = p["path"] or "melds"
        tunnelas = list(p.get("exposed_tunnelas", []))
        if tunnelas:
            doc["exposed_tunnelas"] = tunnelas
        if indian and p["seat"] != finisher:
            doc["in_hand"] = list(p["hand"])
        players.append(doc)
    out: dict[str, object] = {
        "rules": rules,
        "tiplu": details["tiplu"],
        "players": players,
        "finisher": None if finisher is None else _name(finisher),
    }
    if details["finish"] is not None:
        out["finish"] = details["finish"]["kind"]
    return out


def _groups(p: MarriagePlayerResult, details: MarriageDetails) -> tuple[list[list[str]], list[str]]:
    """The seat's groups as scored (M-6, M-8, M-9) and the cards left outside them."""
    groups: list[list[str]] = [list(m) for m in p.get("shown_melds", [])]
    groups += [list(m) for m in p.get("table_melds", [])]
    groups += [[c, c, c] for c in p.get("exposed_tunnelas", [])]
    groups += [[c, c] for c in p.get("dublees", [])]
    finish = details["finish"]
    if p["seat"] == details["finisher"] and finish is not None:
        laid = [sorted(g) for g in groups]
        for g in finish["groups"]:  # indian final groups may hold the table melds again
            if sorted(g) in laid:
                laid.remove(sorted(g))
            else:
                groups.append(list(g))
        pool = list(p["hand"])
        for g in finish["groups"]:
            for c in g:
                if c in pool:
                    pool.remove(c)
        if finish["discard"] in pool:
            pool.remove(finish["discard"])
        return groups, pool
    return groups, list(p["hand"])


def deal_end(details: MarriageDetails, rules: object, nets: list[int]) -> DealEnd:
    """Score the finished deal as ``rami score`` does and explain each net (M-12 … M-15)."""
    r = rules_from(rules)
    indian = r.scoring == "indian"
    scored = score_deal(deal_document(details, rules))
    by_name = {_name(p["seat"]): p["seat"] for p in details["players"]}
    finish = details["finish"]
    finish_kind = None if finish is None or details["finisher"] is None else finish["kind"]
    n = len(details["players"])
    counted = [int(p["maal"]) for p in scored["players"]]
    seats: list[SeatEnd] = []
    for p, s in zip(details["players"], scored["players"], strict=True):
        seat = p["seat"]
        groups, left = _groups(p, details)
        net = int(s["net"])
        card_pts = int(p.get("card_points", 0)) if indian else 0
        if indian:
            fees = 0
            maal_part = n * counted[seat] - sum(counted)  # M-15: pairwise value difference
        else:
            # the net without any fee: the pairwise maal differences (M-13)
            maal_part = _nepali_maal_part(counted, seat, details["finisher"])
            fees = net - maal_part
        seats.append(
            {
                "seat": seat,
                "groups": groups,
                "left": left,
                "left_groups": [left] if left else [],
                "maal": counted[seat],
                "maal_items": [str(x) for x in s["maal_items"]],
                "maal_parts": [_part(str(x)) for x in s["maal_items"]],
                "net": net,
                "fees": fees,
                "maal_part": maal_part,
                "card_points": card_pts,
                "card_part": net - maal_part - fees if indian else 0,
            }
        )
    payments: list[Payment] = [
        {
            "payer": by_name[str(x["from"])],
            "payee": by_name[str(x["to"])],
            "points": int(x["points"]),
        }
        for x in scored["pairs"]
    ]
    fee_rules = {} if indian else {"seen_fee": r.seen_fee, "unseen_fee": r.unseen_fee}
    if not indian and r.dublees:
        fee_rules["dublee_bonus"] = r.dublee_bonus
    return {
        "scoring": r.scoring,
        "finish_kind": finish_kind,
        "seats": seats,
        "payments": payments,
        "fees": fee_rules,
        "agrees": [int(s["net"]) for s in scored["players"]] == list(nets),
    }


def _part(text: str) -> MaalPart:
    item = item_parts(text)
    return {"kind": item.kind, "cards": item.cards, "points": item.points}


def _nepali_maal_part(counted: list[int], seat: int, finisher: int | None) -> int:
    """M-13 without fees: with a finisher each other seat pays T − n·S to the finisher,
    with none each seat gets n·S − T (M-14)."""
    n, total = len(counted), sum(counted)
    if finisher is None:
        return n * counted[seat] - total
    if seat != finisher:
        return n * counted[seat] - total
    return sum(total - n * counted[s] for s in range(n) if s != finisher)
