"""What one seat may know of a Marriage deal: the only thing a bot or client receives.

A view holds the seat's own hand, everything public (hand sizes; ``melds``: the shown
melds in ``nepali``, the table melds in ``indian``; exposed tunnelas, shown dublees,
seen flags and paths; the whole discard pile in order, the stock size, the public
history) and nothing else. The tiplu and the wild cards appear only for
a seat that has seen (M-7), or for everyone once the deal is over. A stock draw is
``draw 7♣`` in the drawer's history and ``draw`` in everyone else's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import compress
from typing import TYPE_CHECKING, NamedTuple, NotRequired, TypedDict, TypeGuard

from rami.cards import CARDS, Card
from rami.engine import DealResult
from rami.errors import InputError
from rami.marriage.rules import MarriageRules
from rami.memo import GenerationMemo
from rami.views import EventArgs, GameView, HistoryEntry, RulesJson, SeatView, TypedView

if TYPE_CHECKING:
    from rami.engine import Action, Event
    from rami.marriage.game import MarriageState

__all__ = [
    "FinishJson",
    "MarriageDetails",
    "MarriagePlayerResult",
    "MarriageResultJson",
    "MarriageSeat",
    "MarriageSeatView",
    "MarriageTypedView",
    "MarriageView",
    "build_view",
    "history",
    "is_marriage_view",
    "marriage_typed",
    "marriage_view",
    "seat_view",
    "view_from_json",
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


def history(state: MarriageState, seat: int | None) -> tuple[HistoryEntry, ...]:
    """The event log as ``seat`` may read it (private cards hidden from others)."""
    return state.view_cache().history(seat, _entry)


Cards = tuple[Card, ...]


class MarriageSeat(NamedTuple):
    """What everyone sees of a seat (``MarriageSeatView`` on the wire)."""

    seat: int
    hand_size: int
    melds: tuple[Cards, ...]
    exposed_tunnelas: Cards
    dublees: Cards
    seen: bool  # M-7
    path: str | None  # "melds" or "dublees" once chosen (M-6, M-9)


class MarriageTypedView(NamedTuple):
    """A Marriage seat's view as a typed value (see the module docstring and
    ``rami.views.TypedView``); ``to_json`` is the wire's ``MarriageView``. The tiplu and
    the wild cards are None unless the seat may know them (M-7)."""

    game: str
    rules: MarriageRules
    players: int
    seat: int | None  # None: a spectator
    dealer: int
    to_move: int | None  # None once the deal is over
    phase: str
    turn: int
    hand: tuple[Card, ...] | None  # the seat's own cards in card order (None: spectator)
    discard_pile: tuple[Card, ...]  # bottom first
    stock_size: int
    history: tuple[HistoryEntry, ...]
    legal: tuple[Action, ...]  # the seat's own legal moves (empty if not its turn)
    legal_texts: tuple[str, ...]  # their canonical texts (the JSON's legal_actions)
    seats: tuple[MarriageSeat, ...]
    tiplu_picked: bool
    taken: Card | None  # the card taken from the pile this turn
    seen: bool | None  # a seat's own (None: a spectator's view)
    tiplu: Card | None
    wild_cards: Cards | None
    turn_start_melds: tuple[Cards, ...] | None  # M-10
    result: DealResult[MarriageDetails] | None  # once the deal is over

    def seats_active(self) -> tuple[bool, ...]:
        """Every seat plays the whole deal."""
        return (True,) * self.players

    def to_json(self) -> MarriageView:
        text = _TEXT
        view: MarriageView = {
            "game": "marriage",
            "rules": _rules_doc(self.rules),
            "players": self.players,
            "seat": self.seat,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "phase": self.phase,
            "turn": self.turn,
            "seats": [
                {
                    "seat": e.seat,
                    "hand_size": e.hand_size,
                    "melds": [[text[c] for c in m] for m in e.melds],
                    "exposed_tunnelas": [text[c] for c in e.exposed_tunnelas],
                    "dublees": [text[c] for c in e.dublees],
                    "seen": e.seen,
                    "path": e.path,
                }
                for e in self.seats
            ],
            "discard_pile": [text[c] for c in self.discard_pile],
            "stock_size": self.stock_size,
            "tiplu_picked": self.tiplu_picked,
            "taken": None if self.taken is None else text[self.taken],
            "history": list(self.history),
        }
        if self.turn_start_melds is not None:
            view["turn_start_melds"] = [[text[c] for c in m] for m in self.turn_start_melds]
        if self.seat is not None:
            view["hand"] = [text[c] for c in self.hand or ()]
            view["seen"] = bool(self.seen)
            view["legal_actions"] = list(self.legal_texts)
        if self.tiplu is not None:
            view["tiplu"] = text[self.tiplu]
            view["wild_cards"] = _texts(self.wild_cards or ())
        if self.result is not None:
            view["result"] = {
                "scores": list(self.result.scores),
                "winner": self.result.winner,
                "details": self.result.details,
            }
        return view


# the rules' JSON by the rules object's identity (an entry holds its rules, so the id is
# not reused while it lives): a frozen dataclass's hash, all its options hashed afresh
# on each call, cost more than the copy
_RULES_BY_ID: dict[int, tuple[MarriageRules, RulesJson]] = {}


def _rules_doc(rules: MarriageRules) -> RulesJson:
    """The rules' JSON (a fresh dict), built once per rules object."""
    hit = _RULES_BY_ID.get(id(rules))
    if hit is not None and hit[0] is rules:
        return dict(hit[1])
    doc = _RULES_JSON.get(rules)
    if doc is None:
        doc = _RULES_JSON[rules] = rules.to_json()
    if len(_RULES_BY_ID) >= 256:  # a few rules objects a process: bounded all the same
        _RULES_BY_ID.clear()
    _RULES_BY_ID[id(rules)] = (rules, doc)
    return dict(doc)


_KINDS = range(len(CARDS))


_HANDS: GenerationMemo[bytes, Cards] = GenerationMemo(
    50_000, name="marriage.view.hands", shared=True
)


def _hand_cards(counts: Sequence[int]) -> Cards:
    """A hand's cards in card index order, kept per hand (a seat's hand is read in the
    views of several positions before it changes); the held kinds picked in C
    (``compress``), not by a Python test of all the counts."""
    key = bytes(counts)  # a count is at most the shoe's decks (M-1)
    found = _HANDS.table.get(key)
    if found is not None:
        return found
    cards: list[Card] = []
    for c in compress(_KINDS, counts):
        count = counts[c]
        if count == 1:
            cards.append(CARDS[c])
        else:
            cards += [CARDS[c]] * count
    return _HANDS.remember(key, tuple(cards))


_WILDS: dict[frozenset[int], Cards] = {}  # the wild kinds -> their cards, sorted


def _wild_cards(wilds: frozenset[int]) -> Cards:
    found = _WILDS.get(wilds)
    if found is None:
        if len(_WILDS) > 1024:  # a few per tiplu: bounded all the same
            _WILDS.clear()
        found = _WILDS[wilds] = tuple([CARDS[c] for c in sorted(wilds)])
    return found


_new = tuple.__new__
_NO_MOVES: tuple[tuple[Action, ...], tuple[str, ...]] = ((), ())


def seat_view(state: MarriageState, seat: int | None) -> MarriageTypedView:
    """The typed view of ``state`` for ``seat`` (``None``: a spectator)."""
    n = state.num_players
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
    ):
        raise InputError(f"seat must be a number from 0 to {n - 1}, or none for a spectator")
    over = state.is_over
    sizes, melds, seen, path = state.sizes, state.melds, state.seen, state.path
    exposed, dublees = state.exposed, state.dublees
    seats = tuple(
        [
            _new(
                MarriageSeat,
                (
                    s,
                    sizes[s],
                    tuple(melds[s]),
                    tuple(exposed[s] or ()),
                    tuple(dublees[s] or ()),
                    seen[s],
                    path[s],
                ),
            )
            for s in range(n)
        ]
    )
    knows = over or (seat is not None and seen[seat])
    tiplu = state.tiplu if knows and state.tiplu_picked else None
    base = state.base
    to_move = state.to_move
    taken = state.taken
    legal, texts = state.legal_pair() if seat is not None and to_move == seat else _NO_MOVES
    # positionally, in ``MarriageTypedView``'s field order, in one C call (the keyword
    # call through the NamedTuple's ``__new__`` cost a good part of the view)
    return _new(
        MarriageTypedView,
        (
            "marriage",
            state.rules,
            n,
            seat,
            state.dealer,
            to_move,
            state.phase,
            state.turn,
            None if seat is None else _hand_cards(state.hands[seat]),  # hand
            tuple([CARDS[c] for c in state.pile]),  # discard_pile
            len(state.stock),  # stock_size
            history(state, seat),
            legal,
            texts,  # legal_texts
            seats,
            state.tiplu_picked,
            None if taken is None else CARDS[taken],  # taken
            None if seat is None else seen[seat],  # seen
            tiplu,
            None if tiplu is None else _wild_cards(state.wilds),  # wild_cards
            None if base is None else tuple(base),  # turn_start_melds
            state.result if over else None,  # result
        ),
    )


def build_view(state: MarriageState, seat: int | None) -> MarriageView:
    """The JSON-ready view of ``state`` for ``seat`` (``None``: a spectator): the typed
    view's JSON."""
    return seat_view(state, seat).to_json()


def marriage_typed(view: TypedView | GameView) -> MarriageTypedView:
    """``view`` as a Marriage typed view (a JSON view read back); ``InputError`` if it
    is another game's."""
    if isinstance(view, MarriageTypedView):
        return view
    if isinstance(view, dict):
        return view_from_json(view)
    raise InputError(f"expected a Marriage view, not a {view.game!r} one")


def view_from_json(doc: GameView) -> MarriageTypedView:
    """A Marriage JSON view read back as the typed view it was made from (a consumer fed
    JSON reads the same values); ``InputError`` if it is another game's."""
    from rami.cards import cards_from_texts
    from rami.marriage.rules import rules_from
    from rami.memo import rules_of
    from rami.view_cache import action_of

    view = marriage_view(doc)

    def cards(texts: Sequence[str]) -> Cards:
        return tuple(cards_from_texts(texts))

    def card_of(text: str) -> Card:
        return cards_from_texts((text,))[0]

    hand = view.get("hand")
    taken = view["taken"]
    tiplu = view.get("tiplu")
    wilds = view.get("wild_cards")
    base = view.get("turn_start_melds")
    result = view.get("result")
    seen = view.get("seen")
    return MarriageTypedView(
        game="marriage",
        rules=rules_of(view["rules"], rules_from),
        players=view["players"],
        seat=view["seat"],
        dealer=view["dealer"],
        to_move=view["to_move"],
        phase=view["phase"],
        turn=view["turn"],
        hand=None if hand is None else cards(hand),
        discard_pile=cards(view["discard_pile"]),
        stock_size=view["stock_size"],
        history=tuple(view["history"]),
        legal=tuple(map(action_of, view.get("legal_actions") or ())),
        legal_texts=tuple(view.get("legal_actions") or ()),
        seats=tuple(
            MarriageSeat(
                e["seat"],
                e["hand_size"],
                tuple(cards(m) for m in e["melds"]),
                cards(e["exposed_tunnelas"]),
                cards(e["dublees"]),
                e["seen"],
                e["path"],
            )
            for e in view["seats"]
        ),
        tiplu_picked=view["tiplu_picked"],
        taken=None if taken is None else card_of(taken),
        seen=None if view["seat"] is None else bool(seen),
        tiplu=None if tiplu is None else card_of(tiplu),
        wild_cards=None if tiplu is None else cards(wilds or ()),
        turn_start_melds=None if base is None else tuple(cards(m) for m in base),
        result=None
        if result is None
        else DealResult(tuple(result["scores"]), result["winner"], result["details"]),
    )
