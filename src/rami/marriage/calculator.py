"""The Marriage scoring calculator (N-2) and hand analysis (N-3), for ``rami score`` and
``rami analyze``.

Both read what people type at a real table and check it strictly: every problem is an
``InputError`` (or a ``CardError`` for a card that cannot be read) with a one-line
message naming the player, key or card at fault. Both compute with the same functions
the engine uses (``maal``, ``settle``, ``solver``), so they give the engine's numbers.

Decisions (documented in the report to the lead):

- N-2: ``tiplu`` may be null only when nobody saw; when nobody saw, nobody has maal
  (M-12), whatever the tiplu;
  ``seen`` defaults to false; ``finish`` defaults to the finisher's ``qualified`` and
  must agree with it; ``indian`` needs ``in_hand`` for every player but the finisher
  (whose hand is empty). With ``unseen_maal_counts = false`` an unseen player's
  ``maal`` is reported as 0, with the item ``"unseen: maal does not count"``; with
  ``indian`` a capped value adds the item ``"unseen: capped at 14"``.
- N-3: the 22 cards are ``--hand`` plus ``--shown``, or ``--hand`` alone when it
  already holds the shown cards (the sizes tell). Shown melds may be separated by
  ``|`` or ``;``; otherwise they are grouped automatically. When several finishes
  exist, the one keeping the most maal is reported (melds before dublees on a tie).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict

from rami.cards import CARDS, Card, CardError, counts, format_cards, parse_card, parse_cards
from rami.errors import InputError
from rami.marriage.maal import maal
from rami.marriage.melds import is_meld, is_show_meld, wild_kinds
from rami.marriage.rules import MarriageRules, rules_from
from rami.marriage.settle import capped_values, card_points, settle_indian, settle_nepali
from rami.marriage.solver import (
    find_finish,
    finish_discards,
    missing_at_least,
    show_and_finish,
    show_choices,
)

__all__ = ["Analysis", "FinishPlan", "analyze", "format_analysis", "score"]


class FinishPlan(TypedDict):
    """How the hand finishes: its groups under ``melds`` or ``dublees`` (the ``kind``)."""

    kind: str
    melds: NotRequired[list[list[str]]]
    dublees: NotRequired[list[list[str]]]
    discard: str


class Analysis(TypedDict):
    """What ``analyze`` finds (N-3); the JSON of ``rami analyze marriage --json``."""

    can_finish: bool
    finish: FinishPlan | None
    missing: int
    missing_exact: bool  # False: the bounded search stopped, at least ``missing``
    maal: int


_TOP_KEYS = {"rules", "tiplu", "players", "finisher", "finish"}
_TOP_REQUIRED = ("tiplu", "players", "finisher")
_PLAYER_KEYS = {"name", "cards", "seen", "qualified", "exposed_tunnelas", "in_hand"}
_PLAYER_REQUIRED = ("name", "cards")
_PATHS = ("melds", "dublees")


# ---------------------------------------------------------------------------------------
# N-2 scoring


def _check_keys(
    obj: Mapping[str, object], allowed: set[str], required: Sequence[str], where: str
) -> None:
    for key in obj:
        if key not in allowed:
            raise InputError(f"unknown key '{key}' in {where}")
    for key in required:
        if key not in obj:
            raise InputError(f"missing required key '{key}' in {where}")


def _cards(value: object, what: str) -> list[Card]:
    if not isinstance(value, str | list):
        raise InputError(f'{what} must be a list of cards such as ["10♣", "J♣"]')
    try:
        return parse_cards(value)
    except CardError as err:
        raise CardError(f"{what}: {err}") from None


def _check_total_copies(
    hands: Sequence[Sequence[Card]], rules: MarriageRules, tiplu: Card | None
) -> None:
    vec = counts(c for hand in hands for c in hand)
    for k in range(52):
        limit = rules.decks - (1 if tiplu is not None and k == tiplu else 0)
        if vec[k] > limit:
            why = f", as the tiplu {CARDS[k]} is out of play" if limit < rules.decks else ""
            raise CardError(f"too many {CARDS[k]}: {vec[k]} given, the decks hold {limit}{why}")
    if vec[52]:
        raise CardError("JK: Marriage has no printed jokers")


def score(doc: object) -> dict[str, Any]:
    """N-2: read a finished deal's JSON document and return each player's maal and net."""
    if not isinstance(doc, Mapping):
        raise InputError("the document must be a JSON object with 'tiplu', 'players', …")
    _check_keys(doc, _TOP_KEYS, _TOP_REQUIRED, "the document")
    rules = rules_from(doc.get("rules", "nepali"))
    indian = rules.scoring == "indian"

    tiplu_text = doc["tiplu"]
    tiplu: Card | None = None
    if tiplu_text is not None:
        if not isinstance(tiplu_text, str):
            raise InputError("'tiplu' must be a card such as \"J♣\", or null")
        try:
            tiplu = parse_card(tiplu_text)
        except CardError as err:
            raise CardError(f"tiplu: {err}") from None
        if tiplu.is_joker:
            raise CardError("tiplu: Marriage has no printed jokers")

    players = doc["players"]
    if not isinstance(players, list) or not players:
        raise InputError("'players' must be a non-empty list of player objects")
    if not rules.min_players <= len(players) <= rules.max_players:
        raise InputError(
            f"{rules.preset_name} is played by {rules.min_players} to {rules.max_players}"
            f" players, not {len(players)}"
        )
    rules = rules.for_players(len(players))  # M-1: the decks of a table this size
    names: list[str] = []
    hands: list[list[Card]] = []
    seen: list[bool] = []
    qualified: list[str | None] = []
    exposed: list[list[Card]] = []
    in_hand: list[list[Card] | None] = []
    for i, p in enumerate(players, start=1):
        if not isinstance(p, Mapping):
            raise InputError(f"player {i} must be an object with 'name' and 'cards'")
        _check_keys(p, _PLAYER_KEYS, _PLAYER_REQUIRED, f"player {i}")
        name = p["name"]
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"player {i}: 'name' must be a non-empty text")
        if name in names:
            raise InputError(f"two players are named '{name}'")
        names.append(name)
        who = f"player '{name}'"
        hand = _cards(p["cards"], f"{who} cards")
        hands.append(hand)
        is_seen = p.get("seen", False)
        if not isinstance(is_seen, bool):
            raise InputError(f"{who}: 'seen' must be true or false")
        q = p.get("qualified")
        if q is not None and q not in _PATHS:
            raise InputError(f'{who}: \'qualified\' must be "melds", "dublees" or null')
        if is_seen and q is None:
            raise InputError(f"{who} has seen but 'qualified' does not say how (melds or dublees)")
        if q is not None and not is_seen:
            raise InputError(f"{who} qualified with {q} but 'seen' is false")
        if q == "dublees" and not rules.dublees:
            raise InputError(f"{who}: {rules.preset_name} has no dublee path")
        if is_seen and tiplu is None:
            raise InputError(f"{who} has seen, so 'tiplu' must name the tiplu card")
        seen.append(is_seen)
        qualified.append(q)
        ex = _cards(p.get("exposed_tunnelas", []), f"{who} exposed_tunnelas")
        if ex and not rules.deal_tunnela_bonus:
            raise InputError(f"{who}: {rules.preset_name} has no tunnelas exposed at the deal")
        vec = counts(hand)
        for t in ex:
            vec[t] -= 3
            if vec[t] < 0:
                raise InputError(
                    f"{who}: the exposed tunnela {t} {t} {t} must be among the player's cards"
                )
        exposed.append(ex)
        if "in_hand" in p:
            if not indian:
                raise InputError(f"{who}: 'in_hand' is for indian rules only")
            held = _cards(p["in_hand"], f"{who} in_hand")
            vec = counts(hand)
            for c in held:
                vec[c] -= 1
                if vec[c] < 0:
                    raise InputError(f"{who}: in_hand card {c} is not among the player's cards")
            in_hand.append(held)
        else:
            in_hand.append(None)
    _check_total_copies(hands, rules, tiplu)

    finisher_name = doc["finisher"]
    finisher: int | None = None
    if finisher_name is not None:
        if finisher_name not in names:
            raise InputError(f"finisher '{finisher_name}' is not one of the players")
        finisher = names.index(finisher_name)
        if not seen[finisher]:
            raise InputError(f"finisher '{finisher_name}' must have seen (shown) to finish")
    finish = doc.get("finish")
    if finisher is not None:
        q = qualified[finisher]
        if finish is None:
            finish = q
        if finish not in _PATHS:
            raise InputError('\'finish\' must be "melds" or "dublees"')
        if finish != q:
            raise InputError(
                f"finisher '{finisher_name}' showed {q} and so must finish with {q}, not {finish}"
            )
    elif finish is not None and finish not in _PATHS:
        raise InputError('\'finish\' must be "melds", "dublees" or null')

    points: list[int] = []
    items: list[list[str]] = []
    anyone_seen = any(seen)  # M-12: nobody saw, nobody has maal (the engine agrees)
    for i in range(len(names)):
        its: list[str] = []
        if tiplu is None or not anyone_seen:
            pts = 0
        else:
            bonus = qualified[i] == "melds" and rules.deal_tunnela_bonus
            pts, its = maal(hands[i], tiplu, rules, exposed[i], bonus)
        points.append(pts)
        items.append(its)

    if indian:
        hand_points = []
        for i in range(len(names)):
            kept = in_hand[i]
            if i == finisher:
                if kept:
                    raise InputError(
                        f"finisher '{names[i]}' laid every card down; 'in_hand' must be empty"
                    )
                hand_points.append(0)
            elif kept is None:
                raise InputError(f"missing required key 'in_hand' in player '{names[i]}'")
            else:
                hand_points.append(card_points(kept))
        nets = settle_indian(points, seen, hand_points, finisher, rules)
        counted, items = capped_values(points, seen, items, rules)
    else:
        nets = settle_nepali(points, seen, finisher, finish == "dublees", rules)
        counted = []
        for i, pts in enumerate(points):
            if not seen[i] and not rules.unseen_maal_counts:
                if pts:
                    items[i] = ["unseen: maal does not count"]
                pts = 0
            counted.append(pts)
    return {
        "players": [
            {"name": names[i], "maal": counted[i], "maal_items": items[i], "net": nets[i]}
            for i in range(len(names))
        ],
        "total_maal": sum(counted),
    }


# ---------------------------------------------------------------------------------------
# N-3 analysis


def _parse_shown(text: str) -> tuple[list[Card], list[list[Card]] | None]:
    """All shown cards, and their groups when the text separates them with | or ;."""
    if any(sep in text for sep in "|;"):
        parts = [part for part in text.replace(";", "|").split("|") if part.strip()]
        groups = []
        for n, part in enumerate(parts, start=1):
            try:
                groups.append(parse_cards(part))
            except CardError as err:
                raise CardError(f"--shown meld {n}: {err}") from None
        return [c for g in groups for c in g], groups
    try:
        return parse_cards(text), None
    except CardError as err:
        raise CardError(f"--shown: {err}") from None


def _group_shown(
    cards: list[Card], rules: MarriageRules, wilds: frozenset[int]
) -> list[list[Card]]:
    """Group a flat list of shown cards into show melds (or dublees, or indian melds)."""
    vec = counts(cards)
    if not rules.melds_at_least3:
        if rules.dublees and len(cards) == 14 and all(n % 2 == 0 for n in vec):
            return [[CARDS[k], CARDS[k]] for k in range(52) for _ in range(vec[k] // 2)]
        if len(cards) % 3 == 0 and len(cards) >= 9:
            for shows, left in show_choices(vec, rules, len(cards) // 3):
                if not any(left):
                    return [list(m) for m in shows]
        raise InputError(
            "--shown must be three or more natural melds (sequences or tunnelas)"
            + (" or seven dublees" if rules.dublees else "")
        )
    from rami.marriage.solver_indian import indian_finish

    groups = indian_finish(vec, rules, wilds, ())
    if groups is None:
        raise InputError("--shown must be melds with at least three pure ones")
    return [list(g) for g in groups]


def _check_shown(groups: list[list[Card]], rules: MarriageRules, wilds: frozenset[int]) -> str:
    """Validate explicit shown groups; return the path they qualify for."""
    if not rules.melds_at_least3:
        if groups and all(len(g) == 2 for g in groups):
            if not rules.dublees:
                raise InputError(f"{rules.preset_name} has no dublee path")
            if len(groups) != 7 or any(g[0] != g[1] for g in groups):
                raise InputError("--shown dublees must be seven pairs of identical cards")
            return "dublees"
        for g in groups:
            if not is_show_meld(g, rules):
                raise InputError(f"--shown {format_cards(g)} is not a natural sequence or tunnela")
        if len(groups) < 3:
            raise InputError("--shown must hold at least three melds")
        return "melds"
    pure = 0
    for g in groups:
        if is_show_meld(g, rules):
            pure += 1
        elif not is_meld(g, rules, wilds):
            raise InputError(f"--shown {format_cards(g)} is not a valid meld")
    if pure < 3:
        raise InputError("--shown must hold at least three pure melds")
    return "melds"


def _texts(cards: Sequence[int]) -> list[str]:
    return [str(CARDS[c]) for c in cards]


def analyze(hand: str, tiplu: str, shown: str | None = None, rules: object = "nepali") -> Analysis:
    """N-3: whether a seen player's 22 cards can finish now, how, how many cards they
    miss, and the maal they hold. See the module docstring for the conventions."""
    rs = rules_from(rules)
    if not isinstance(hand, str) or not isinstance(tiplu, str):
        raise InputError("--hand and --tiplu must be text")
    try:
        tip = parse_card(tiplu)
    except CardError as err:
        raise CardError(f"--tiplu: {err}") from None
    if tip.is_joker:
        raise CardError("--tiplu: Marriage has no printed jokers")
    try:
        cards = parse_cards(hand)
    except CardError as err:
        raise CardError(f"--hand: {err}") from None
    wilds = wild_kinds(tip)
    total = rs.hand_size + 1
    shown_cards: list[Card] = []
    groups: list[list[Card]] | None = None
    if shown is not None and shown.strip():
        shown_cards, groups = _parse_shown(shown)
    if len(cards) == total and shown_cards:
        rest = counts(cards)
        for c in shown_cards:
            rest[c] -= 1
            if rest[c] < 0:
                raise InputError(
                    f"--hand has {total} cards but not the shown {c}: give the shown cards"
                    " in --hand too, or only the other cards"
                )
        whole = cards
    elif len(cards) + len(shown_cards) == total:
        rest = counts(cards)
        whole = cards + shown_cards
    else:
        raise InputError(
            f"a holding after the draw has {total} cards: --hand has {len(cards)}"
            + (f" and --shown {len(shown_cards)}" if shown_cards else "")
        )
    _check_total_copies([whole], rs, tip)
    if shown_cards:
        if groups is None:
            groups = _group_shown(shown_cards, rs, wilds)
        path = _check_shown(groups, rs, wilds)
    else:
        groups = []
        path = ""

    vec = counts(whole)
    candidates: list[tuple[str, list[list[Card]], Card]] = []
    if groups and path == "dublees":
        need_rest = rest
        for d in finish_discards(need_rest, rs, wilds, len(groups), "dublees"):
            f = find_finish(need_rest, rs, wilds, len(groups), "dublees", d)
            assert f is not None
            pairs = groups + [list(g) for g in f.groups]
            candidates.append(("dublees", pairs, d))
    elif groups:
        extra = [list(g) for g in groups] if rs.melds_at_least3 else []
        for d in finish_discards(rest, rs, wilds, len(groups), "melds", extra):
            f = find_finish(rest, rs, wilds, len(groups), "melds", d, extra)
            assert f is not None
            melds = [list(g) for g in f.groups]
            if not rs.melds_at_least3:
                melds = groups + melds
            candidates.append(("melds", melds, d))
    else:
        if rs.melds_at_least3:
            for d in finish_discards(vec, rs, wilds, 0, "melds"):
                f = find_finish(vec, rs, wilds, 0, "melds", d)
                assert f is not None
                candidates.append(("melds", [list(g) for g in f.groups], d))
        else:
            for shows, f in show_and_finish(vec, rs, wilds):
                melds = [list(m) for m in shows] + [list(g) for g in f.groups]
                candidates.append(("melds", melds, f.discard))
            if rs.dublees:
                for d in finish_discards(vec, rs, wilds, 0, "dublees"):
                    f = find_finish(vec, rs, wilds, 0, "dublees", d)
                    assert f is not None
                    candidates.append(("dublees", [list(g) for g in f.groups], d))

    def kept_maal(discard: Card | None) -> int:
        kept = list(whole)
        if discard is not None:
            kept.remove(discard)
        return maal(kept, tip, rs)[0]

    finish: FinishPlan | None = None
    points = kept_maal(None)
    if candidates:
        best = max(candidates, key=lambda c: (kept_maal(c[2]), c[0] == "melds", -c[2]))
        kind, melds, d = best
        points = kept_maal(d)
        found = [_texts(m) for m in melds]
        if kind == "dublees":
            finish = {"kind": kind, "dublees": found, "discard": str(d)}
        else:
            finish = {"kind": kind, "melds": found, "discard": str(d)}
    count, exact = missing_at_least(vec, rs, tip, groups)
    return {
        "can_finish": finish is not None,
        "finish": finish,
        "missing": count,
        "missing_exact": exact,  # False: the bounded search stopped, at least ``missing``
        "maal": points,
    }


def format_analysis(result: Analysis, ascii: bool = False) -> str:
    """The human text of an ``analyze`` result."""

    def show(texts: Sequence[str]) -> str:
        return " ".join(parse_card(t).text(ascii) for t in texts)

    lines = []
    finish = result.get("finish")
    if result.get("can_finish") and finish:
        kind = finish["kind"]
        groups = finish.get("dublees", []) if kind == "dublees" else finish.get("melds", [])
        lines.append(f"Can finish now with {kind}, discarding {show([finish['discard']])}:")
        lines.append("  " + " | ".join(show(g) for g in groups))
    else:
        n = result.get("missing", 0)
        least = "" if result.get("missing_exact", True) else "at least "
        lines.append(
            f"Cannot finish yet: {least}{n} card{'s' if n != 1 else ''} missing"
            " (exchanges of one card out, one in)."
        )
    lines.append(f"Maal: {result.get('maal', 0)}")
    return "\n".join(lines)
