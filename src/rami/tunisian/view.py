"""What one seat may know of a Tunisian rami deal: the only thing a bot or client gets.

A view holds the seat's own hand, everything public (hand sizes, the table melds, the
discard pile in order, the stock's size, openings, the public history) and, for the
seat to move, its legal actions. It never holds another seat's cards, the stock's order
or the deal's seed. Cards drawn from the stock are hidden from everyone but the
drawer; a card taken from the discard pile was face up, so it is public. The winner's
last card (the farcha, T-9) is thrown face down: it is off the visible pile and only
its thrower reads it (``farcha``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from typing import TYPE_CHECKING, NamedTuple, NotRequired, TypedDict, TypeGuard

from rami.cards import CARDS, Card
from rami.engine import DealResult
from rami.errors import InputError
from rami.memo import GenerationMemo
from rami.tunisian.melds import Meld
from rami.tunisian.rules import TunisianRules
from rami.views import EventArgs, GameView, HistoryEntry, RulesJson, SeatView, TypedView

if TYPE_CHECKING:
    from rami.engine import Action, Event, EventData
    from rami.tunisian.game import TunisianState

TableMeld = tuple[Meld, int]  # a table meld and its owner (``rami.tunisian.game``)

__all__ = [
    "Farcha",
    "FarchaJson",
    "MeldJson",
    "TunisianDetails",
    "TunisianResultJson",
    "TunisianSeat",
    "TunisianSeatView",
    "TunisianTypedView",
    "TunisianView",
    "build_view",
    "is_tunisian_view",
    "meld_json",
    "public_event",
    "seat_view",
    "tunisian_typed",
    "tunisian_view",
    "view_from_json",
]


class TunisianSeatView(SeatView):
    team: int | None  # 2v2: 0 (seats 0, 2) or 1 (seats 1, 3)
    active: bool
    opened: bool  # T-6
    opening_value: int | None


class MeldJson(TypedDict):
    """A table meld: its index (``@N``), cards, owner seat, value and joker role (T-7)."""

    index: int
    kind: str
    cards: list[str]
    owner: int
    value: int
    joker_as: str | None
    staged: bool  # laid this turn, before the opening is complete (T-6)


class FarchaJson(TypedDict):
    """The winner's last card, thrown face down (T-9): off the visible pile, named to
    its thrower only (``card`` is ``None`` for everyone else)."""

    seat: int
    card: str | None


class TunisianDetails(TypedDict):
    """``DealResult.details`` of a Tunisian deal (T-9 … T-11)."""

    reason: str
    hands: list[list[str]]
    opened: list[bool]
    opening_values: list[int | None]
    points: list[int]
    active: list[bool]
    turns: int
    team_points: NotRequired[list[int]]  # 2v2


class TunisianResultJson(TypedDict):
    scores: list[int]
    winner: int | None
    details: TunisianDetails


class TunisianView(GameView):
    """A Tunisian rami view (see the module docstring); ``legal_actions`` is always there."""

    mode: str
    team: int | None
    teams: list[list[int]] | None
    first_round: bool
    seats: list[TunisianSeatView]
    table: list[MeldJson]
    threshold: int  # the value an opening needs now (T-6)
    staged_value: int
    must_open: bool  # T-8: the taken discard obliges the seat to open this turn
    result: TunisianResultJson | None
    farcha: FarchaJson | None  # T-9: the deal was won; its last card lies face down


def is_tunisian_view(view: GameView) -> TypeGuard[TunisianView]:
    """Whether ``view`` is a Tunisian deal's view (the game's typed accessor)."""
    return view["game"] == "tunisian"


def tunisian_view(view: GameView) -> TunisianView:
    """``view`` as a Tunisian rami view; ``InputError`` if it is another game's."""
    if not is_tunisian_view(view):
        raise InputError(f"expected a Tunisian rami view, not a {view.get('game')!r} one")
    return view


_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)  # card index (joker last) -> text
_KINDS = range(len(_TEXT))
_RULES_JSON: dict[TunisianRules, RulesJson] = {}


_MELD_PARTS: dict[Meld, tuple[str, tuple[str, ...], int, str | None]] = {}
_MELD_PARTS_CAP = 100_000  # a memo, not a leak: bounded by the memory budget (rami.memo)
_MELD_PARTS_MEMO = GenerationMemo.over(
    _MELD_PARTS, _MELD_PARTS_CAP, name="tunisian.view.meld_parts", shared=True
)


# the same parts by the meld object's identity: a table's melds are the same objects from
# view to view, and a frozen dataclass's hash (a tuple of its fields, hashed afresh each
# call) cost more than the rest of the meld's JSON. An entry holds its meld, so its id is
# not reused while the entry lives; at most _BY_ID_CAP entries (then all dropped).
_BY_ID: dict[int, tuple[Meld, tuple[str, tuple[str, ...], int, str | None]]] = {}
_BY_ID_CAP = 4096


def meld_json(index: int, meld: Meld, owner: int, staged: bool = False) -> MeldJson:
    """A table meld as JSON: its index, cards, owner seat, value and joker role."""
    hit = _BY_ID.get(id(meld))
    if hit is not None and hit[0] is meld:
        parts = hit[1]
    else:
        found = _MELD_PARTS.get(meld)
        if found is None:  # melds are frozen: their texts and value are computed once
            joker_as = None if meld.joker_as is None else _TEXT[meld.joker_as]
            found = _MELD_PARTS_MEMO.remember(
                meld, (meld.kind, tuple([_TEXT[c] for c in meld.cards]), meld.value, joker_as)
            )
        if len(_BY_ID) >= _BY_ID_CAP:
            _BY_ID.clear()
        _BY_ID[id(meld)] = (meld, found)
        parts = found
    kind, cards, value, joker_as = parts
    return {
        "index": index,
        "kind": kind,
        "cards": list(cards),
        "owner": owner,
        "value": value,
        "joker_as": joker_as,
        "staged": staged,
    }


_PUBLIC_NUMBERS = ("value", "threshold", "size", "winner", "reason", "points")


def event_words(event: Event) -> tuple[str, EventArgs]:
    """A table event's code and words (``HistoryEntry``): what every front end words it
    from, in each language (the key ``ev_<code>``). A new event: a branch here and the
    key ``ev_<code>`` in each ``static/i18n/*.json``."""
    news = event.get("news")
    data = event.get("data") or {}
    seat = event["seat"]
    if news == "deal":
        dealer = data.get("dealer", seat)
        return "deals", {"seat": dealer if isinstance(dealer, int) else 0}
    if news == "position":
        return "position", {}
    if news == "open" and seat is not None:  # T-6
        return "opens", {"seat": seat, **_numbers(data, "value", "threshold")}
    if news == "restock":  # T-11
        return "restock", _numbers(data, n="size")
    if news == "end":
        winner = data.get("winner")
        if isinstance(winner, int):
            return "goes_out", {"seat": winner}
        stock = data.get("reason") == "stock"
        return ("no_winner_stock" if stock else "no_winner_turns"), {}
    return str(news), {}


def _numbers(data: EventData, *names: str, **renamed: str) -> EventArgs:
    """The event's numbers ``names`` (and ``renamed``: word -> data key) as its words."""
    out: EventArgs = {}
    for word, key in [*((n, n) for n in names), *renamed.items()]:
        value = data.get(key)
        if isinstance(value, int):
            out[word] = value
    return out


def public_event(event: Event, seat: int | None) -> HistoryEntry:
    """One history entry as ``seat`` may read it (the marriage view's shape).

    Moves are ``{"seat": s, "move": text}``: a stock draw reads ``draw 7♣`` for the
    drawer and ``draw`` for everyone else; a take names its card, which was face up;
    the winner's last discard, thrown face down (T-9), reads ``farcha 9♣`` for the
    winner and ``farcha`` for everyone else.
    Other entries are ``{"seat": s, "event": text}`` plus their public numbers; chance
    outcomes never show.
    """
    text = event["action"]
    data = event.get("data")
    if text is not None:
        if event.get("news") == "farcha":
            thrower = event["seat"]
            move = f"farcha {text.partition(' ')[2]}" if thrower == seat else "farcha"
            return {"seat": thrower, "move": move}
        card = event.get("card")
        if card is not None and (text == "take" or event["seat"] == seat):
            text = f"{text} {card}"
        out: HistoryEntry = {"seat": event["seat"], "move": text}
        if data is not None and "meld" in data:
            out["meld"] = data["meld"]
        return out
    code, args = event_words(event)
    out = {"seat": event["seat"], "event": event.get("text", ""), "code": code, "args": args}
    out["news"] = event.get("news", "")
    if data is not None:  # the public numbers, in the order of ``_PUBLIC_NUMBERS``
        if "value" in data:
            out["value"] = data["value"]
        if "threshold" in data:
            out["threshold"] = data["threshold"]
        if "size" in data:
            out["size"] = data["size"]
        if "winner" in data:
            out["winner"] = data["winner"]
        if "reason" in data:
            out["reason"] = data["reason"]
        if "points" in data:
            out["points"] = data["points"]
    return out


_HANDS: GenerationMemo[int, tuple[Card, ...]] = GenerationMemo(
    50_000, name="tunisian.view.hands", shared=True
)


def _hand_cards(state: TunisianState, seat: int) -> tuple[Card, ...]:
    """The hand of ``seat`` in card index order, as ``Card`` values; kept per packed hand
    (``hand_key``: a hand changes by a card or two a turn, and is read every turn)."""
    key = state.hand_key(seat)
    found = _HANDS.table.get(key)
    if found is not None:
        return found
    counts = state.hand_counts(seat)
    out: list[Card] = []
    for c in compress(_KINDS, counts):
        count = counts[c]
        if count == 1:
            out.append(CARDS[c])
        else:
            out += [CARDS[c]] * count
    return _HANDS.remember(key, tuple(out))


class TunisianSeat(NamedTuple):
    """What everyone sees of a seat (``TunisianSeatView`` on the wire)."""

    seat: int
    team: int | None  # 2v2: 0 (seats 0, 2) or 1 (seats 1, 3)
    active: bool
    hand_size: int
    opened: bool  # T-6
    opening_value: int | None


class Farcha(NamedTuple):
    """The winner's last card, thrown face down (T-9): named to its thrower only."""

    seat: int
    card: Card | None


_TEAMS = ((0, 2), (1, 3))
_NONE: frozenset[int] = frozenset()


def _staged(indices: tuple[int, ...]) -> frozenset[int]:
    return frozenset(indices) if indices else _NONE


class TunisianTypedView(NamedTuple):
    """A Tunisian rami seat's view as a typed value (see the module docstring and
    ``rami.views.TypedView``); ``to_json`` is the wire's ``TunisianView``."""

    game: str
    rules: TunisianRules
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
    mode: str
    team: int | None
    teams: tuple[tuple[int, int], ...] | None
    first_round: bool
    # per seat (the seats' entries, by columns: ``seats`` makes the entries)
    hand_sizes: tuple[int, ...]
    active: tuple[bool, ...]  # T-13
    opened: tuple[bool, ...]  # T-6
    opening_values: tuple[int | None, ...]
    table: tuple[TableMeld, ...]  # (meld, owner), by index (``@N``)
    staged: frozenset[int]  # the table indices laid this turn before the opening (T-6)
    threshold: int  # the value an opening needs now (T-6)
    staged_value: int
    must_open: bool  # T-8
    result: DealResult[TunisianDetails] | None
    farcha: Farcha | None  # T-9

    def seats_active(self) -> tuple[bool, ...]:
        """Per seat, whether it is still in the game (T-13)."""
        return self.active

    @property
    def seats(self) -> tuple[TunisianSeat, ...]:
        """What everyone sees of each seat, one entry a seat (made on demand: the view
        keeps them by columns, which bots read directly)."""
        teams = self.teams is not None
        return tuple(
            [
                TunisianSeat(s, s % 2 if teams else None, a, size, o, v)
                for s, (size, a, o, v) in enumerate(
                    zip(self.hand_sizes, self.active, self.opened, self.opening_values, strict=True)
                )
            ]
        )

    def to_json(self) -> TunisianView:
        text = _TEXT
        result = self.result
        farcha = self.farcha
        hand = self.hand
        staged = self.staged
        team_of = self.teams is not None
        return {
            "game": "tunisian",
            "mode": self.mode,
            "rules": _rules_doc(self.rules),
            "players": self.players,
            "seat": self.seat,
            "team": self.team,
            "teams": None if self.teams is None else [list(t) for t in self.teams],
            "dealer": self.dealer,
            "to_move": self.to_move,
            "phase": self.phase,
            "turn": self.turn,
            "first_round": self.first_round,
            "seats": [  # the entries of ``seats``, from the columns
                {
                    "seat": s,
                    "team": s % 2 if team_of else None,
                    "active": a,
                    "hand_size": size,
                    "opened": o,
                    "opening_value": v,
                }
                for s, (size, a, o, v) in enumerate(
                    zip(self.hand_sizes, self.active, self.opened, self.opening_values, strict=True)
                )
            ],
            "hand": None if hand is None else [text[c] for c in hand],
            "table": [
                meld_json(i, meld, owner, i in staged) for i, (meld, owner) in enumerate(self.table)
            ],
            "discard_pile": [text[c] for c in self.discard_pile],
            "stock_size": self.stock_size,
            "threshold": self.threshold,
            "staged_value": self.staged_value,
            "must_open": self.must_open,
            "history": list(self.history),
            "legal_actions": list(self.legal_texts),
            "result": None
            if result is None
            else {
                "scores": list(result.scores),
                "winner": result.winner,
                "details": result.details,
            },
            "farcha": None
            if farcha is None
            else {"seat": farcha.seat, "card": None if farcha.card is None else text[farcha.card]},
        }


def _result_json(result: DealResult[TunisianDetails]) -> TunisianResultJson:
    return {"scores": list(result.scores), "winner": result.winner, "details": result.details}


# the rules' JSON by the rules object's identity (an entry holds its rules, so the id is
# not reused while it lives): a frozen dataclass's hash, all its options hashed afresh
# on each call, cost more than the copy
_RULES_BY_ID: dict[int, tuple[TunisianRules, RulesJson]] = {}


def _rules_doc(rules: TunisianRules) -> RulesJson:
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


_new = tuple.__new__
_NO_MOVES: tuple[tuple[Action, ...], tuple[str, ...]] = ((), ())


def seat_view(state: TunisianState, seat: int | None) -> TunisianTypedView:
    """The typed view of ``state`` for ``seat`` (``None``: a spectator).

    Built positionally in one C call (``tuple.__new__``, in ``TunisianTypedView``'s field
    order): the keyword call through the NamedTuple's ``__new__`` was a third of the
    view's cost (tests/test_typed_views.py checks each field against the state)."""
    rules = state.rules
    n = rules.players
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
    ):
        raise InputError(f"seat must be a number from 0 to {n - 1}, or none for a spectator")
    to_move = state.to_move
    teams = rules.teams
    result = state.result
    pile = state.discard_pile
    farcha: Farcha | None = None
    if result is not None and result.winner is not None and pile:  # won: out by a farcha
        farcha = Farcha(result.winner, pile[-1] if seat == result.winner else None)
        pile = pile[:-1]
    legal, texts = state.legal_pair() if seat is not None and seat == to_move else _NO_MOVES
    running = to_move is not None
    return _new(
        TunisianTypedView,
        (
            "tunisian",
            rules,
            n,
            seat,
            state.dealer,
            to_move,
            state.phase,
            state.turn,
            None if seat is None else _hand_cards(state, seat),  # hand
            pile,  # discard_pile
            state.stock_size,
            state.view_cache().history(seat, public_event),
            legal,
            texts,  # legal_texts
            rules.mode,
            None if seat is None or not teams else seat % 2,  # team
            _TEAMS if teams else None,  # teams
            state.first_round,
            state.hand_sizes,
            state.active,
            state.opened,
            state.opening_values,
            state.table,
            _staged(state.staged_melds) if running else _NONE,  # staged
            state.threshold,
            state.staged_value if running else 0,
            state.must_open if running else False,
            result,
            farcha,
        ),
    )


def build_view(state: TunisianState, seat: int | None) -> TunisianView:
    """The JSON-ready view of ``state`` for ``seat`` (``None``: a spectator): the typed
    view's JSON."""
    return seat_view(state, seat).to_json()


def tunisian_typed(view: TypedView | GameView) -> TunisianTypedView:
    """``view`` as a Tunisian rami typed view (a JSON view read back); ``InputError`` if it
    is another game's."""
    if isinstance(view, TunisianTypedView):
        return view
    if isinstance(view, dict):
        return view_from_json(view)
    raise InputError(f"expected a Tunisian rami view, not a {view.game!r} one")


def view_from_json(doc: GameView) -> TunisianTypedView:
    """A Tunisian JSON view read back as the typed view it was made from (a consumer fed
    JSON reads the same values); ``InputError`` if it is another game's."""
    from rami.cards import cards_from_texts
    from rami.memo import rules_of
    from rami.tunisian.melds import make_meld
    from rami.tunisian.rules import rules_from
    from rami.view_cache import action_of

    view = tunisian_view(doc)

    def card_of(text: str) -> Card:
        return cards_from_texts((text,))[0]

    hand = view["hand"]
    farcha = view["farcha"]
    result = view["result"]
    teams = view["teams"]
    table = view["table"]
    return TunisianTypedView(
        game="tunisian",
        rules=rules_of(view["rules"], rules_from),
        players=view["players"],
        seat=view["seat"],
        dealer=view["dealer"],
        to_move=view["to_move"],
        phase=view["phase"],
        turn=view["turn"],
        hand=None if hand is None else tuple(cards_from_texts(hand)),
        discard_pile=tuple(cards_from_texts(view["discard_pile"])),
        stock_size=view["stock_size"],
        history=tuple(view["history"]),
        legal=tuple(map(action_of, view.get("legal_actions") or ())),
        legal_texts=tuple(view.get("legal_actions") or ()),
        mode=view["mode"],
        team=view["team"],
        teams=None if teams is None else tuple((t[0], t[1]) for t in teams),
        first_round=view["first_round"],
        hand_sizes=tuple([e["hand_size"] for e in view["seats"]]),
        active=tuple([e["active"] for e in view["seats"]]),
        opened=tuple([e["opened"] for e in view["seats"]]),
        opening_values=tuple([e["opening_value"] for e in view["seats"]]),
        table=tuple((_meld_of(m["cards"], make_meld, card_of), m["owner"]) for m in table),
        staged=frozenset(m["index"] for m in table if m["staged"]),
        threshold=view["threshold"],
        staged_value=view["staged_value"],
        must_open=view["must_open"],
        result=None
        if result is None
        else DealResult(tuple(result["scores"]), result["winner"], result["details"]),
        farcha=None
        if farcha is None
        else Farcha(farcha["seat"], None if farcha["card"] is None else card_of(farcha["card"])),
    )


_MELDS: GenerationMemo[tuple[str, ...], Meld] = GenerationMemo(
    50_000, name="tunisian.view.melds", shared=True
)


def _meld_of(
    texts: Sequence[str],
    make: Callable[[Sequence[int]], Meld],
    card: Callable[[str], Card],
) -> Meld:
    """The meld a JSON view lists (cards in their laid order), memoised."""
    key = tuple(texts)
    found = _MELDS.table.get(key)
    if found is None:
        found = _MELDS.remember(key, make([card(t) for t in texts]))
    return found
