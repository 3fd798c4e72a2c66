"""What one seat may know of a Marriage deal: the only thing a bot or client receives.

A view holds the seat's own hand, everything public (hand sizes; ``melds``: the shown
melds in ``nepali``, the table melds in ``indian``; exposed tunnelas, shown dublees,
seen flags and paths; the whole discard pile in order, the stock size, the public
history) and nothing else. The tiplu and the wild cards appear only for
a seat that has seen (M-7), or for everyone once the deal is over. A stock draw is
``draw 7♣`` in the drawer's history and ``draw`` in everyone else's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, NotRequired, TypedDict, TypeGuard, cast

from rami.cards import CARDS
from rami.errors import InputError
from rami.marriage.rules import MarriageRules
from rami.view_cache import ViewCache, action_texts
from rami.views import EventArgs, GameView, HistoryEntry, RulesJson, SeatView

if TYPE_CHECKING:
    from rami.engine import Event
    from rami.marriage.game import MarriageState

__all__ = [
    "FinishJson",
    "MarriageDetails",
    "MarriagePlayerResult",
    "MarriageResultJson",
    "MarriageSeatView",
    "MarriageView",
    "build_view",
    "history",
    "is_marriage_view",
    "marriage_view",
    "partial_view",
]


class MarriageSeatView(SeatView):
    """What everyone sees of a seat: its shown melds, exposed tunnelas, dublees, path."""

    melds: list[list[str]]
    exposed_tunnelas: list[str]
    dublees: list[str]
    seen: bool  # M-7
    path: str | None  # "melds" or "dublees" once chosen (M-6, M-9)


class FinishJson(TypedDict):
    """How the finisher went out (M-8): the groups of the final hand and the discard."""

    kind: str
    groups: list[list[str]]
    discard: str


class MarriagePlayerResult(TypedDict):
    """One seat's settlement (M-12 … M-15) in ``MarriageDetails.players``."""

    seat: int
    seen: bool
    path: str | None
    maal: int  # as it counts: indian caps an unseen player's (M-15, with an item saying so)
    maal_items: list[str]
    hand: list[str]
    cards: list[str]
    net: int
    card_points: NotRequired[int]  # indian scoring (M-15)
    table_melds: NotRequired[list[list[str]]]  # indian table melding (M-10)
    shown_melds: NotRequired[list[list[str]]]  # nepali (M-6)
    exposed_tunnelas: NotRequired[list[str]]
    dublees: NotRequired[list[str]]


class MarriageDetails(TypedDict):
    """``DealResult.details`` of a Marriage deal: the JSON-ready explanation of its nets."""

    tiplu: str | None
    finisher: int | None
    finish: FinishJson | None
    reason: str | None
    turns: int
    players: list[MarriagePlayerResult]


class MarriageResultJson(TypedDict):
    scores: list[int]
    winner: int | None
    details: MarriageDetails


class MarriageView(GameView):
    """A Marriage view (see the module docstring); keys of a seated view are NotRequired."""

    seats: list[MarriageSeatView]
    tiplu_picked: bool
    taken: str | None  # the card taken from the pile this turn
    seen: NotRequired[bool]  # a seat's own view only
    tiplu: NotRequired[str]  # only once the seat has seen (M-7) or the deal is over
    wild_cards: NotRequired[list[str]]
    # M-10: the mover's table melds as the turn found them, once it laid cards this turn
    # (public: everyone saw them laid); what ``takeback`` returns to
    turn_start_melds: NotRequired[list[list[str]]]
    result: NotRequired[MarriageResultJson]  # once the deal is over


def is_marriage_view(view: GameView) -> TypeGuard[MarriageView]:
    """Whether ``view`` is a Marriage deal's view (the game's typed accessor)."""
    return view["game"] == "marriage"


def marriage_view(view: GameView) -> MarriageView:
    """``view`` as a Marriage view; ``InputError`` if it is another game's."""
    if not is_marriage_view(view):
        raise InputError(f"expected a Marriage view, not a {view.get('game')!r} one")
    return view


_RULES_JSON: dict[MarriageRules, RulesJson] = {}


def _rules_json(rules: MarriageRules, cache: ViewCache) -> RulesJson:
    """The rules' JSON, built once per rules object and kept by the state's views."""
    kept = cache.rules_json
    if kept is not None and kept[0] is rules:
        return dict(kept[1])
    doc = _RULES_JSON.get(rules)
    if doc is None:
        doc = _RULES_JSON[rules] = rules.to_json()
    cache.rules_json = (rules, doc)
    return dict(doc)


_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS[:52])  # card index -> its text


def _texts(cards: Iterable[int]) -> list[str]:
    text = _TEXT
    return [text[c] for c in cards]


def _entry(e: Event, seat: int | None) -> HistoryEntry:
    """One event as ``seat`` may read it (a stock draw's card only for the drawer).

    Moves read ``{"seat": s, "move": text}`` (``draw 7♣`` for the drawer, ``draw`` for
    the others; a take names its card, which was face up), the table's news
    ``{"seat": s, "event": text}``; chance outcomes never show.
    """
    text = e["action"]
    if text is None:
        code, args = event_words(e)
        out: HistoryEntry = {"seat": e["seat"], "event": e.get("text", ""), "code": code}
        out["args"] = args
        out["news"] = e.get("news", "")
        return out
    card = e.get("card")
    if card is not None and (text == "take" or (seat is not None and e["seat"] == seat)):
        text = f"{text} {card}"
    return {"seat": e["seat"], "move": text}


def event_words(e: Event) -> tuple[str, EventArgs]:
    """A table event's code and words (``HistoryEntry``): what every front end words it
    from, in each language (the key ``ev_<code>``). A new event: a branch here and the
    key ``ev_<code>`` in each ``static/i18n/*.json``."""
    news = e.get("news")
    data = e.get("data") or {}
    seat = e["seat"]
    if news == "deal":  # M-2: the dealer turns up the pile's first card
        return "deals_turned", {"seat": _int(data.get("dealer")), "card": str(data.get("card"))}
    if news == "tiplu":  # M-7
        return "tiplu_picked", {}
    if news == "see" and seat is not None:
        return "sees", {"seat": seat}
    if news == "restock":  # M-11
        how = "recycle_shuffled" if data.get("shuffled", True) else "recycle_turned"
        return how, {"n": _int(data.get("size"))}
    if news == "end":
        if seat is not None:
            return "finishes", {"seat": seat}
        turns = data.get("reason") == "max_turns"
        return ("no_finisher_turns" if turns else "no_finisher_stock"), {}
    return str(news), {}


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


def _cache(state: MarriageState) -> ViewCache:
    """The state's view cache, made afresh for a new events list (see ``rami.view_cache``)."""
    try:
        cache: ViewCache | None = state._view_cache
    except AttributeError:  # a state built without one (a clone, an unpickled state)
        cache = None
    if cache is None or cache.events is not state.events:
        cache = state._view_cache = ViewCache(state.events)
    return cache


def history(state: MarriageState, seat: int | None) -> list[HistoryEntry]:
    """The event log as ``seat`` may read it (private cards hidden from others)."""
    return _cache(state).history(seat, _entry)


def _hand(counts: Iterable[int]) -> list[str]:
    """A hand's card texts in card index order."""
    cards: list[str] = []
    for c, count in enumerate(counts):
        if count:
            cards += [_TEXT[c]] * count
    return cards


def _legal_texts(state: MarriageState) -> list[str]:
    actions = state.legal_actions()  # fills state._legal, the list the texts are kept for
    return _cache(state).legal_texts(state._legal, lambda: action_texts(actions))


def build_view(state: MarriageState, seat: int | None) -> MarriageView:
    """The JSON-ready view of ``state`` for ``seat`` (``None``: a spectator)."""
    n = state.n
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
    ):
        raise InputError(f"seat must be a number from 0 to {n - 1}, or none for a spectator")
    over = state.is_over
    text = _TEXT
    seats: list[MarriageSeatView] = []
    for s in range(n):
        exposed = state.exposed[s]
        dublees = state.dublees[s]
        seats.append(
            {
                "seat": s,
                "hand_size": state.sizes[s],
                "melds": [[text[c] for c in m] for m in state.melds[s]],
                "exposed_tunnelas": [text[c] for c in exposed] if exposed else [],
                "dublees": [text[c] for c in dublees] if dublees else [],
                "seen": state.seen[s],
                "path": state.path[s],
            }
        )
    view: MarriageView = {
        "game": "marriage",
        "rules": _rules_json(state.rules, _cache(state)),
        "players": n,
        "seat": seat,
        "dealer": state.dealer,
        "to_move": state.to_move,
        "phase": state.phase,
        "turn": state.turn,
        "seats": seats,
        "discard_pile": _texts(state.pile),
        "stock_size": len(state.stock),
        "tiplu_picked": state.tiplu_picked,
        "taken": None if state.taken is None else _TEXT[state.taken],
        "history": history(state, seat),
    }
    if state.base is not None:
        view["turn_start_melds"] = [[text[c] for c in m] for m in state.base]
    knows = over or (seat is not None and state.seen[seat])
    if seat is not None:
        view["hand"] = _hand(state.hands[seat])
        view["seen"] = state.seen[seat]
        view["legal_actions"] = _legal_texts(state) if state.to_move == seat else []
    if knows and state.tiplu_picked and state.tiplu is not None:
        view["tiplu"] = str(state.tiplu)
        view["wild_cards"] = _texts(sorted(state.wilds))
    if over and state.result is not None:
        view["result"] = {
            "scores": list(state.result.scores),
            "winner": state.result.winner,
            "details": state.result.details,
        }
    return view


# the keys ``partial_view`` builds by itself (what the random bot reads)
_PARTIAL = frozenset(
    ("game", "seat", "to_move", "phase", "turn", "hand", "history", "legal_actions")
)


def partial_view(state: MarriageState, seat: int, keys: frozenset[str]) -> GameView:
    """Only ``keys`` of ``build_view(state, seat)``, with the same values (a test compares
    them): a bot that reads a few keys gets these instead of the whole view. A key it
    does not build comes from the whole view."""
    if not keys <= _PARTIAL or isinstance(seat, bool) or not 0 <= seat < state.n:
        full: Mapping[str, object] = build_view(state, seat)  # also: a bad seat's error
        return cast(GameView, {k: full[k] for k in keys if k in full})
    to_move = state.to_move
    out: dict[str, object] = {}
    if "game" in keys:
        out["game"] = "marriage"
    if "seat" in keys:
        out["seat"] = seat
    if "to_move" in keys:
        out["to_move"] = to_move
    if "phase" in keys:
        out["phase"] = state.phase
    if "turn" in keys:
        out["turn"] = state.turn
    if "hand" in keys:
        out["hand"] = _hand(state.hands[seat])
    if "history" in keys:
        out["history"] = history(state, seat)
    if "legal_actions" in keys:
        out["legal_actions"] = _legal_texts(state) if to_move == seat else []
    return cast(GameView, out)
