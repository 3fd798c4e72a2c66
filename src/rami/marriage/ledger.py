"""The Marriage ledger (M-2, M-12 … M-16) on the N-2 calculator.

A deal entry is the N-2 document of ``rami score marriage`` with the players in seat
order and two conveniences a table wants: a player's maal may be given as a number
(``"maal": 12``) instead of cards, and, with ``indian`` rules, the card points left in
hand as a number (``"hand_points": 35``) instead of ``in_hand`` cards. A deal given
entirely by cards is scored by ``rami.marriage.calculator.score`` itself; numbers are
checked (a maal that no hand can hold is refused) and settled by the same settlement
functions (``rami.marriage.settle``), so both ways give the engine's nets.

Each deal also gets its settlement per pair (who pays whom, M-13: every pair settles
the difference of their maal, and each opponent pays the finisher the fee), found by
settling each pair as a two-player table; the pairs add up to the nets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from rami.cards import CARDS, CardError, parse_card, parse_cards
from rami.errors import InputError
from rami.games import get_game
from rami.ledger.common import check_keys, deals_of, names_of, seat_of, whole
from rami.marriage import calculator
from rami.marriage.maal import maal
from rami.marriage.melds import jhiplu, poplu
from rami.marriage.rules import MarriageRules, rules_from
from rami.marriage.settle import card_points, counted_maal, settle_indian, settle_nepali

__all__ = ["attainable_maal", "ledger", "maal_cards", "score_deal"]

_LEDGER_KEYS = {"game", "rules", "players", "first_dealer", "deals", "title"}
_DEAL_KEYS = {"tiplu", "players", "finisher", "finish"}
_ENTRY_KEYS = {
    "seen",
    "qualified",
    "maal",
    "cards",
    "exposed_tunnelas",
    "in_hand",
    "hand_points",
}


def _rules(spec: object) -> MarriageRules:
    return rules_from(spec)


@lru_cache(maxsize=32)
def attainable_maal(rules: MarriageRules, bonus_eligible: bool) -> frozenset[int]:
    """Every maal one player's final cards can score (M-12 / M-15), found by scoring
    every possible holding of tiplu copies, jhiplus, poplus and exposed tunnelas with
    the engine's ``maal``. A number outside this set is a typo."""
    tiplu = parse_card("7♣")
    low, high = jhiplu(tiplu), poplu(tiplu)
    others = [c for c in CARDS[:52] if c % 13 != tiplu % 13 and c not in (low, high)]
    jokers = [c for c in CARDS[:52] if c % 13 == tiplu % 13 and c != tiplu]
    size = rules.hand_size
    values: set[int] = set()
    tunnelas = rules.deal_tunnela_bonus and bonus_eligible and rules.decks >= 3
    for n_low in range(rules.decks + 1):
        for n_tip in range(rules.decks):
            for n_high in range(rules.decks + 1):
                base = n_low + n_tip + n_high
                if base > size:
                    continue
                cards = [low] * n_low + [tiplu] * n_tip + [high] * n_high
                values.add(maal(cards, tiplu, rules)[0])
                if not tunnelas:
                    continue
                neighbours = [t for t, n in ((low, n_low), (high, n_high)) if n >= 3]
                for mask in range(1 << len(neighbours)):
                    exposed = [t for i, t in enumerate(neighbours) if mask >> i & 1]
                    for n_jokers in range(len(jokers) + 1):
                        for n_other in range(len(others) + 1):
                            extra = jokers[:n_jokers] + others[:n_other]
                            if base + 3 * len(extra) > size:
                                break
                            hand = cards + [c for c in extra for _ in range(3)]
                            values.add(maal(hand, tiplu, rules, exposed + extra, True)[0])
    return frozenset(values)


def maal_cards(tiplu_text: object, rules_spec: object = "nepali") -> dict[str, object]:
    """The cards that are maal with this tiplu, and how many of each the decks hold
    (the tiplu card itself is out of play, M-7), for the page's tapping pad."""
    rules = _rules(rules_spec)
    if not isinstance(tiplu_text, str):
        raise InputError('the tiplu must be a card such as "J♣"')
    try:
        tiplu = parse_card(tiplu_text)
    except CardError as err:
        raise CardError(f"tiplu: {err}") from None
    if tiplu.is_joker:
        raise CardError("tiplu: Marriage has no printed jokers")
    low, high = jhiplu(tiplu), poplu(tiplu)
    return {
        "tiplu": str(tiplu),
        "maal": [
            {"kind": "jhiplu", "card": str(low), "copies": rules.decks},
            {"kind": "tiplu", "card": str(tiplu), "copies": rules.decks - 1},
            {"kind": "poplu", "card": str(high), "copies": rules.decks},
        ],
        "ordinary_jokers": [str(c) for c in CARDS[:52] if c % 13 == tiplu % 13 and c != tiplu],
        "tunnela_bonus": rules.deal_tunnela_bonus,
        "dublees": rules.dublees,
        "indian": rules.scoring == "indian",
    }


def pairs(
    names: Sequence[str],
    points: Sequence[int],
    seen: Sequence[bool],
    finisher: int | None,
    dublee_finish: bool,
    hand_points: Sequence[int] | None,
    rules: MarriageRules,
) -> list[dict[str, object]]:
    """Who pays whom in this deal: each pair settled as a two-player table with the
    engine's settlement (the finisher's fee only in the finisher's pairs)."""
    out: list[dict[str, object]] = []
    n = len(names)
    for i in range(n):
        for j in range(i + 1, n):
            fin = 0 if finisher == i else 1 if finisher == j else None
            pts, sn = [points[i], points[j]], [seen[i], seen[j]]
            if hand_points is None:
                net = settle_nepali(pts, sn, fin, dublee_finish, rules)[0]
            else:
                # with a finisher elsewhere, these two settle only their value points
                settles_hand = fin is not None or finisher is None
                hp = [hand_points[i], hand_points[j]] if settles_hand else [0, 0]
                net = settle_indian(pts, sn, hp, fin, rules)[0]
            if net:
                payer, payee = (j, i) if net > 0 else (i, j)
                out.append({"from": names[payer], "to": names[payee], "points": abs(net)})
    return out


def score_deal(doc: object) -> dict[str, Any]:
    """``rami score marriage`` on one N-2 document, plus the settlement per pair."""
    result = calculator.score(doc)
    assert isinstance(doc, Mapping)
    rules = _rules(doc.get("rules", "nepali"))
    players = doc["players"]
    names = [p["name"] for p in players]
    seen = [bool(p.get("seen", False)) for p in players]
    finisher = names.index(doc["finisher"]) if doc["finisher"] is not None else None
    dublee = finisher is not None and players[finisher].get("qualified") == "dublees"
    hand = None
    if rules.scoring == "indian":
        hand = [_card_points(p.get("in_hand", [])) for p in players]
    points = [p["maal"] for p in result["players"]]
    result["pairs"] = pairs(names, points, seen, finisher, dublee, hand, rules)
    return result


def _card_points(cards: object) -> int:
    """M-15 card points of an ``in_hand`` list the calculator has already checked."""
    if not isinstance(cards, str | list):  # as ``parse_cards`` says it
        raise CardError(f"expected a list of cards, got {type(cards).__name__}")
    return card_points(parse_cards(cards))


def _deal(
    entry: object, names: list[str], rules: MarriageRules, rules_spec: object, where: str
) -> dict[str, Any]:
    """One deal of the ledger scored; ``where`` ("deal 3") starts every error."""
    try:
        return _deal_inner(entry, names, rules, rules_spec)
    except (InputError, CardError) as err:
        raise type(err)(f"{where}: {err}") from None


def _deal_inner(
    entry: object, names: list[str], rules: MarriageRules, rules_spec: object
) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        raise InputError("a deal must be an object with 'players' and 'finisher'")
    check_keys(entry, _DEAL_KEYS, ("players",), "the deal")
    rows = entry["players"]
    if not isinstance(rows, list) or len(rows) != len(names):
        raise InputError(f"'players' must hold one entry per player ({len(names)}), in seat order")
    indian = rules.scoring == "indian"
    finisher_value = entry.get("finisher")
    finisher = None if finisher_value is None else seat_of(finisher_value, names, "finisher")
    docs: list[dict[str, object]] = []
    numbers: list[int | None] = []
    hand_numbers: list[int | None] = []
    for seat, row in enumerate(rows):
        who = f"player '{names[seat]}'"
        if not isinstance(row, Mapping):
            raise InputError(f'{who} must be an object such as {{"seen": true, "maal": 5}}')
        check_keys(row, _ENTRY_KEYS, (), who)
        p: dict[str, object] = {"name": names[seat], "cards": row.get("cards", [])}
        for key in ("seen", "qualified", "exposed_tunnelas"):
            if key in row:
                p[key] = row[key]
        if "seen" in row and row["seen"] and "qualified" not in row:
            p["qualified"] = "melds"  # a table says "seen"; the dublee path says so
        number = None
        if row.get("maal") is not None:
            if row.get("cards") or row.get("exposed_tunnelas"):
                raise InputError(f"{who}: give the maal as a number or as cards, not both")
            number = whole(row["maal"], f"{who}: the maal")
        numbers.append(number)
        hand_number = None
        if indian:
            if row.get("hand_points") is not None:
                if "in_hand" in row:
                    raise InputError(f"{who}: give 'hand_points' or 'in_hand', not both")
                if seat == finisher and row["hand_points"]:
                    raise InputError(f"{who} finished, so no card points are left in hand")
                hand_number = whole(row["hand_points"], f"{who}: the card points in hand")
                if seat != finisher:
                    p["in_hand"] = []
            elif "in_hand" in row:
                p["in_hand"] = row["in_hand"]
            elif seat != finisher:
                p["in_hand"] = []
        elif "in_hand" in row or "hand_points" in row:
            raise InputError(f"{who}: card points in hand are for indian rules only")
        hand_numbers.append(hand_number)
        docs.append(p)
    doc: dict[str, object] = {
        "rules": rules_spec,
        "tiplu": entry.get("tiplu"),
        "players": docs,
        "finisher": None if finisher is None else names[finisher],
    }
    if "finish" in entry:
        doc["finish"] = entry["finish"]
    result = score_deal(doc)
    result["finisher_name"] = doc["finisher"]
    if all(n is None for n in numbers) and all(h is None for h in hand_numbers):
        return result

    seen = [bool(p.get("seen", False)) for p in docs]
    anyone_seen = any(seen)
    points: list[int] = []
    items: list[list[str]] = []
    for seat, (number, row) in enumerate(zip(numbers, result["players"], strict=True)):
        if number is None:
            points.append(row["maal"])
            items.append(row["maal_items"])
            continue
        who = f"player '{names[seat]}'"
        if number and not anyone_seen:
            raise InputError(f"{who}: nobody saw the tiplu, so nobody has maal (M-12)")
        eligible = docs[seat].get("qualified") == "melds"
        possible = attainable_maal(rules, eligible)
        if number not in possible:
            near = sorted(possible, key=lambda v: (abs(v - number), v))[:2]
            raise InputError(
                f"{who}: no hand scores a maal of {number}"
                f" (the nearest possible: {' or '.join(map(str, sorted(near)))})"
            )
        points.append(number)
        items.append([f"entered: {number}"] if number else [])
    finish_path = None if finisher is None else docs[finisher].get("qualified")
    dublee = finish_path == "dublees"
    if indian:
        hand = [
            h if h is not None else _card_points(docs[s].get("in_hand", []))
            for s, h in enumerate(hand_numbers)
        ]
        hand = [0 if s == finisher else h for s, h in enumerate(hand)]
        nets = settle_indian(points, seen, hand, finisher, rules)
        cap = rules.unseen_value_cap  # M-15, as settle_indian counts it
        counted = [v if s else min(v, cap) for v, s in zip(points, seen, strict=True)]
    else:
        hand = None
        nets = settle_nepali(points, seen, finisher, dublee, rules)
        counted = counted_maal(points, seen, rules)
    return {
        "players": [
            {"name": names[s], "maal": counted[s], "maal_items": items[s], "net": nets[s]}
            for s in range(len(names))
        ],
        "total_maal": sum(counted),
        "pairs": pairs(names, counted, seen, finisher, dublee, hand, rules),
        "finisher_name": doc["finisher"],
    }


def ledger(doc: Mapping[str, object]) -> dict[str, object]:
    """The whole Marriage ledger (M-16): each deal's nets, dealer and running balances."""
    check_keys(doc, _LEDGER_KEYS, ("players",), "the ledger")
    rules_spec = doc.get("rules", "nepali")
    rules = _rules(rules_spec)
    spec = get_game("marriage")
    names = names_of(doc["players"], spec.players_for(rules))
    first = seat_of(doc.get("first_dealer", 0), names, "first_dealer")
    step = 1 if rules.clockwise else -1  # M-2: the deal passes in the direction of play
    balances = [0] * len(names)
    out: list[dict[str, object]] = []
    for number, entry in enumerate(deals_of(doc)):
        result = _deal(entry, names, rules, rules_spec, f"deal {number + 1}")
        nets = [p["net"] for p in result["players"]]
        balances = [b + n for b, n in zip(balances, nets, strict=True)]
        out.append(
            {
                "number": number + 1,
                "dealer": names[(first + number * step) % len(names)],
                "finisher": result.pop("finisher_name"),
                "result": result,
                "balances": list(balances),
            }
        )
    best = max(balances) if out else 0
    return {
        "game": "marriage",
        "rules": rules.to_json(),
        "players": names,
        "deals": out,
        "totals": balances,
        "sum": sum(balances),
        "next_dealer": names[(first + len(out) * step) % len(names)],
        "leaders": [n for n, b in zip(names, balances, strict=True) if b == best] if out else [],
    }
