"""The JSON shapes that cross modules, typed so that mypy checks their keys.

A view (``state.view(seat)``) is what one seat may know; every game's view extends
``GameView`` with its own keys (``rami.marriage.view.MarriageView``,
``rami.tunisian.view.TunisianView``), and each game's view module offers a ``TypeGuard``
that narrows a ``GameView`` to its own. A match view is a deal's view plus the match's
``Standing`` under ``match``. These are plain dicts at run time: the JSON on the wire
is what ``docs/protocol.md`` documents, unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import Field
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, NotRequired, Protocol, TypedDict, cast

from rami.errors import InputError

if TYPE_CHECKING:
    from rami.cards import Card
    from rami.engine import Action

__all__ = [
    "Decision",
    "EventArgs",
    "GameView",
    "GenericSeat",
    "GenericView",
    "HistoryEntry",
    "JsonObject",
    "JsonValue",
    "OptionValue",
    "PublicValue",
    "Rules",
    "RulesJson",
    "SeatPart",
    "SeatView",
    "Standing",
    "StandingDeal",
    "TypedView",
    "legal_texts",
    "own_seat",
    "seat_entries",
    "typed_view",
]

#: A JSON document built to be sent or saved (read-only containers, so any list or dict
#: of JSON values fits; a TypedDict is only a ``Mapping[str, object]`` to mypy).
JsonValue = str | int | float | bool | None | Sequence["JsonValue"] | Mapping[str, "JsonValue"]
JsonObject = dict[str, JsonValue]

#: A public number of an event as a view shows it (the values of ``rami.engine.EventData``).
PublicValue = int | str | bool | list[int] | None

#: A rule option's value: options are flat (see ``rami.options``).
OptionValue = str | int | bool | None
#: Rules as JSON (``rules.to_json()``): ``{"preset": name, option: value, …}``.
RulesJson = dict[str, OptionValue]


class Rules(Protocol):
    """What code for any game may ask of a game's rules (a frozen dataclass of options).

    A game's ``rules_from(spec)`` reads an unchecked ``spec`` (a preset name, an object
    of options, a rules object or ``None``) and returns its own rules type.
    """

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def preset_name(self) -> str: ...

    @property
    def hand_size(self) -> int: ...

    def to_json(self) -> RulesJson: ...


#: The words of a table event (``HistoryEntry.args``): the i18n placeholders' values;
#: ``seat`` is a seat number, which front ends show as that seat's name.
EventArgs = dict[str, int | str]


class HistoryEntry(TypedDict):
    """One entry of a view's ``history``: a move (``move``) or a table event (``event``).

    A table event carries its ``code`` and ``args``: front ends word it from these, in
    every language (the key ``ev_<code>`` of ``static/i18n/*.json``; ``rami.event_words``
    in the terminal); ``news`` is the engine's family of the event (``deal``,
    ``restock``, ``end``, …). ``event`` is the same in English, kept for old clients and
    records: no reader parses it.
    """

    seat: int | None
    move: NotRequired[str]
    event: NotRequired[str]
    code: NotRequired[str]
    args: NotRequired[EventArgs]
    news: NotRequired[str]
    # public numbers some games add (Tunisian rami: the meld's index, opening values, …)
    meld: NotRequired[PublicValue]
    value: NotRequired[PublicValue]
    threshold: NotRequired[PublicValue]
    size: NotRequired[PublicValue]
    winner: NotRequired[PublicValue]
    reason: NotRequired[PublicValue]
    points: NotRequired[PublicValue]


class SeatView(TypedDict):
    """What every game's view tells of each seat (games add their own keys)."""

    seat: int
    hand_size: int


class StandingDeal(TypedDict):
    """One finished deal in a match's standing."""

    deal: int
    dealer: int
    winner: int | None
    points: list[int]  # this deal's points (Tunisian) or nets (Marriage) per seat
    totals: list[int]  # the running totals after it
    # Tunisian rami (T-11, T-13)
    reason: NotRequired[str | None]
    totals_before: NotRequired[list[int]]
    eliminated: NotRequired[list[int]]  # seats eliminated by this deal


class Standing(TypedDict):
    """A match's public standing, one shape for every game (``Match.standing()``)."""

    deal_number: int
    dealer: int
    totals: list[int]
    game_over: bool
    winners: list[int] | None
    deals: list[StandingDeal]
    deals_total: NotRequired[int]  # Marriage: the number of deals agreed (M-16)
    # Tunisian rami (T-13)
    team_totals: NotRequired[list[int] | None]
    eliminated: NotRequired[list[bool]]
    elimination: NotRequired[int]


class GameView(TypedDict):
    """The keys every game's view holds, with one meaning (docs/protocol.md)."""

    game: str
    rules: RulesJson
    players: int
    seat: int | None  # None: a spectator
    dealer: int
    to_move: int | None  # None once the deal is over
    phase: str
    turn: int
    discard_pile: list[str]
    stock_size: int
    history: list[HistoryEntry]
    hand: NotRequired[list[str] | None]  # the seat's own cards (a spectator has none)
    legal_actions: NotRequired[list[str]]  # the seat's own legal moves (empty if not its turn)
    match: NotRequired[Standing]  # in a match's view (``Match.view``)


def own_seat(view: GameView | TypedView) -> int:
    """The seat whose view this is; ``InputError`` for a spectator's (bots act from a seat)."""
    seat = view["seat"] if isinstance(view, dict) else view.seat
    if seat is None:
        raise InputError("a spectator's view has no seat to act from")
    return seat


def seat_entries(view: GameView) -> list[SeatView]:
    """The view's public seat entries, for code written for any game (each game's view
    types its own; read the game-specific keys with ``.get``)."""
    seats = view.get("seats")
    return seats if isinstance(seats, list) else []


class SeatPart(Protocol):
    """What every game's typed view tells of each seat (games add their own fields)."""

    @property
    def seat(self) -> int: ...
    @property
    def hand_size(self) -> int: ...


class GenericSeat(NamedTuple):
    seat: int
    hand_size: int


class TypedView(Protocol):
    """A seat's view as a typed value: what bots, hints, the review and the RL encoders
    read (cards as ``Card``, legal moves as ``Action``, melds as tuples), built by the
    game's engine (``Game.typed_view``). ``to_json()`` makes the wire's JSON
    (``GameView``) from it, the one place a view turns into text; each game's view holds
    exactly what its JSON holds, nothing the seat may not see. These are the fields every
    game's view has; each game's typed view (a ``NamedTuple``: immutable, no instance
    dict, and built in one C call, where a frozen dataclass's field-by-field init cost a
    third of a view) adds its own: ``rami.tunisian.view.TunisianTypedView``,
    ``rami.marriage.view.MarriageTypedView``.

    The history's entries stay the JSON entries (``HistoryEntry``), shared between views
    of one state: read-only.
    """

    @property
    def game(self) -> str: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> int: ...
    @property
    def seat(self) -> int | None: ...  # None: a spectator
    @property
    def dealer(self) -> int: ...
    @property
    def to_move(self) -> int | None: ...  # None once the deal is over
    @property
    def phase(self) -> str: ...
    @property
    def turn(self) -> int: ...
    @property
    def hand(self) -> tuple[Card, ...] | None: ...  # own cards, card order (None: spectator)
    @property
    def discard_pile(self) -> tuple[Card, ...]: ...  # bottom first
    @property
    def stock_size(self) -> int: ...
    @property
    def history(self) -> tuple[HistoryEntry, ...]: ...
    @property
    def legal(self) -> tuple[Action, ...]: ...  # own legal moves (empty if not to move)
    @property
    def legal_texts(self) -> tuple[str, ...]: ...  # their texts, as the JSON lists them
    @property
    def seats(self) -> Sequence[SeatPart]: ...  # by seat number

    def to_json(self) -> GameView:
        """The view as the wire's JSON (docs/protocol.md)."""
        ...

    def seats_active(self) -> tuple[bool, ...]:
        """Per seat, whether it is still in the deal (T-13; always, in most games)."""
        ...


class Decision(NamedTuple):
    """A seat's decision point: the part of its view that names it
    (``rami.bots.base.decision_key``) and its legal moves, nothing else. What a bot that
    reads no more of the view (``Bot.decision_only``: the random bot) is handed instead of the
    whole view, the same move for a fraction of the cost (``Game.decision``; built
    without the view by the kernel, ``rami.kernel.Deal.decision``). Every field is the
    view's own, so nothing the seat may not know."""

    seat: int
    history_size: int  # len(view.history): the view has one entry per event of the deal
    turn: int
    phase: str
    hand_size: int  # len(view.hand)
    legal: tuple[Action, ...]  # the seat's legal moves (empty if not its turn)
    legal_texts: tuple[str, ...]  # their canonical texts

    @classmethod
    def of(cls, view: TypedView) -> Decision:
        """The decision point ``view`` shows (``InputError`` for a spectator's view)."""
        hand = view.hand
        return cls(
            own_seat(view),
            len(view.history),
            view.turn,
            view.phase,
            0 if hand is None else len(hand),
            view.legal,
            view.legal_texts,
        )


def legal_texts(view: TypedView) -> list[str]:
    """The legal moves' canonical texts, as the JSON view lists them (kept by the view:
    the engine's texts, made once per position)."""
    return list(view.legal_texts)


class GenericView(NamedTuple):
    """The typed view of a game that has no typed view of its own (``Game.seat_view`` and
    ``Game.view_from_json`` unset): the common part read from its JSON, which it keeps."""

    game: str
    rules: Rules
    players: int
    seat: int | None
    dealer: int
    to_move: int | None
    phase: str
    turn: int
    hand: tuple[Card, ...] | None
    discard_pile: tuple[Card, ...]
    stock_size: int
    history: tuple[HistoryEntry, ...]
    legal: tuple[Action, ...]
    legal_texts: tuple[str, ...]
    seats: tuple[GenericSeat, ...]
    doc: GameView

    def to_json(self) -> GameView:
        return self.doc

    def seats_active(self) -> tuple[bool, ...]:
        return (True,) * self.players

    @classmethod
    def from_json(cls, doc: GameView, rules: Rules) -> GenericView:
        from rami.cards import parse_card
        from rami.engine import read_action

        hand = doc.get("hand")
        return cls(
            doc["game"],
            rules,
            doc["players"],
            doc["seat"],
            doc["dealer"],
            doc["to_move"],
            doc["phase"],
            doc["turn"],
            None if hand is None else tuple(map(parse_card, hand)),
            tuple(map(parse_card, doc["discard_pile"])),
            doc["stock_size"],
            tuple(doc["history"]),
            tuple(map(read_action, doc.get("legal_actions") or ())),
            tuple(doc.get("legal_actions") or ()),
            tuple(GenericSeat(e["seat"], e["hand_size"]) for e in seat_entries(doc)),
            doc,
        )


def typed_view(view: TypedView | GameView | Mapping[str, object]) -> TypedView:
    """``view`` as a typed view: itself, or a JSON view read back by its game
    (``Game.view_from_json``) so that a consumer fed JSON (a test, a saved view) reads the
    same values as one fed the engine's typed view. ``InputError`` if it is malformed."""
    if isinstance(view, tuple) or not isinstance(view, Mapping):
        return view  # a game's typed view (JSON views are objects, typed ones tuples:
        # tested first, the cheaper test, Mapping's being an ABC's)
    from rami.games import get_game

    if not isinstance(view.get("game"), str):
        raise InputError("a view must be a JSON object naming its game")
    spec = get_game(cast(str, view["game"]))
    doc = cast(GameView, view)
    try:
        if spec.view_from_json is not None:
            return spec.view_from_json(doc)
        rules = spec.rules_from(doc.get("rules"))
        return GenericView.from_json(doc, rules)
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"a malformed {spec.title} view: {exc}") from None
