"""The typed contents of a ``.rami`` record and how they are built from, and replayed
through, the engine (game-neutral: everything goes through the registry's ``Game``).

A ``MatchRecord`` is what ``rami.records.read`` returns and ``write`` prints. Each
``DealRecord`` whose seed is revealed (a deal that is over) rebuilds the engine's states
move by move (``replay``, ``states``); a deal still in play holds only its public moves.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, cast

from rami.engine import Event, GameState
from rami.errors import IllegalAction, InputError
from rami.games import Game, Match, RecordedMatch, get_game
from rami.records.shuffle import commitment, shuffle_salt
from rami.views import JsonValue

__all__ = [
    "FORMAT_VERSION",
    "ChanceStep",
    "DealRecord",
    "JsonValue",
    "MatchRecord",
    "Move",
    "RecordError",
    "ResultRecord",
    "SeatInfo",
    "StandingRecord",
    "Step",
    "deal_record",
    "json_object",
    "load_state",
    "match_record",
    "steps_of",
]

FORMAT_VERSION = 1

# a value of a rules option or of a settlement: whatever JSON holds (``rami.views``)


class RecordError(InputError):
    """A record that cannot be read or does not replay: one line naming where and why."""


@dataclass(frozen=True)
class SeatInfo:
    """A seat as the header lists it: the player's name, ``human`` or ``bot``, a bot's level."""

    name: str
    kind: str = "human"
    level: str | None = None


@dataclass(frozen=True)
class Move:
    """One applied action: its seat, canonical text, and the card it got (a draw's or a
    take's card; ``None`` when hidden or when the action gets none)."""

    seat: int
    action: str
    card: str | None = None


@dataclass(frozen=True)
class ChanceStep:
    """What chance decided (``rami.engine.Chance``): ``deal`` (the whole shoe in dealing
    order), ``tiplu``, ``reshuffle`` (the new stock, next draw first)."""

    kind: str
    cards: tuple[str, ...]


Step = Move | ChanceStep


@dataclass(frozen=True)
class ResultRecord:
    """How a deal ended: the winner (``None``: nobody), each seat's points (the game's
    scores: Marriage's nets, Tunisian rami's deal points) and the settlement's details."""

    winner: int | None
    points: tuple[int, ...]
    settlement: tuple[tuple[str, JsonValue], ...]  # the game's details, key by key


@dataclass(frozen=True)
class StandingRecord:
    """The match's standing after its last recorded deal (informative)."""

    totals: tuple[int, ...]
    over: bool
    winners: tuple[int, ...]


class _Persistent(Protocol):
    def to_json(self) -> Mapping[str, object]: ...


class _Clonable(Protocol):
    def clone(self) -> GameState: ...


@dataclass(frozen=True)
class DealRecord:
    """One deal: who dealt, the shuffle commitment, and (once over) seed, salt, cards, moves.

    ``steps`` interleaves the moves and chance in the order they happened (the ``deal``
    chance first). ``hands`` are the cards each seat was dealt, ``pile`` the cards turned
    up at the start. A deal still in play has ``seed is None`` and public moves only.
    """

    game: str
    rules: Mapping[str, JsonValue]
    players: int
    number: int  # 1-based
    dealer: int
    active: tuple[bool, ...]
    commitment: str | None = None
    seed: int | None = None
    salt: str | None = None
    hands: tuple[tuple[str, ...], ...] | None = None
    pile: tuple[str, ...] = ()
    steps: tuple[Step, ...] = ()
    result: ResultRecord | None = None
    # where each step was read (0 for a record built in memory): error messages only
    step_lines: tuple[int, ...] = field(default=(), compare=False, repr=False)

    @property
    def revealed(self) -> bool:
        """The seed is revealed, so the deal replays through the engine."""
        return self.seed is not None

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(s for s in self.steps if isinstance(s, Move))

    def start_doc(self) -> dict[str, object]:
        """The game's ``load_deal`` document of the deal as dealt (``RecordError`` while
        the deal is in play: its seed is not revealed)."""
        if self.seed is None:
            raise RecordError(
                f"deal {self.number} is still in play: its seed and cards are not revealed"
            )
        return {
            "rules": dict(self.rules),
            "seats": self.players,
            "seed": self.seed,
            "dealer": self.dealer,
            "active": list(self.active),
            "actions": [],
        }

    def start(self) -> GameState:
        """The deal as dealt, before any move (needs the revealed seed)."""
        return load_state(get_game(self.game), self.start_doc())

    def replay(self) -> Iterator[tuple[Move, GameState]]:
        """Each move with the deal's state just after it (one state, updated in place:
        clone it to keep it). The record was checked when it was read."""
        state = self.start()
        for move in self.moves:
            try:
                state.apply(move.action, move.seat)
            except IllegalAction as exc:
                raise RecordError(f"deal {self.number}: '{move.action}': {exc}") from None
            yield move, state

    def states(self) -> list[GameState]:
        """The state before the first move, then after each move (independent copies)."""
        state = self.start()
        out = [_clone(state)]
        for _, after in self.replay_from(state):
            out.append(_clone(after))
        return out

    def replay_from(self, state: GameState) -> Iterator[tuple[Move, GameState]]:
        for move in self.moves:
            state.apply(move.action, move.seat)
            yield move, state

    def final_state(self) -> GameState:
        """The state after the last move."""
        state = self.start()
        for _ in self.replay_from(state):
            pass
        return state


@dataclass(frozen=True)
class MatchRecord:
    """A match (or a single deal) with its header and deals, as a ``.rami`` file holds it."""

    game: str
    preset: str
    rules: Mapping[str, JsonValue]  # every rule option (the rules' ``to_json``), preset too
    players: int
    seats: tuple[SeatInfo, ...]
    date: str
    deals: tuple[DealRecord, ...]
    standing: StandingRecord | None = None
    version: int = FORMAT_VERSION


# --------------------------------------------------------------------------- building


def load_state(game: Game, doc: Mapping[str, object]) -> GameState:
    """A deal rebuilt from its ``to_json`` layout (``Game.load_deal``): ``RecordError``
    if the game cannot or the moves do not replay."""
    if game.load_deal is None:
        raise RecordError(f"{game.title} deals cannot be rebuilt from a record")
    try:
        return game.load_deal(doc)
    except IllegalAction as exc:
        raise RecordError(str(exc)) from None


def _clone(state: GameState) -> GameState:
    clone = getattr(state, "clone", None)
    if clone is None:
        raise RecordError("this game's deals cannot be copied")
    return cast(_Clonable, state).clone()


def json_value(value: object) -> JsonValue:
    """``value`` as JSON would give it back (tuples become lists)."""
    back: JsonValue = json.loads(json.dumps(value, ensure_ascii=False))
    return back


def json_object(value: Mapping[str, object]) -> dict[str, JsonValue]:
    """A mapping as JSON would give it back (``json_value`` of an object)."""
    back = json_value(value)
    assert isinstance(back, dict)
    return back


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"the deal's {what} is not a whole number: {value!r}")
    return value


def _result(state: GameState) -> ResultRecord | None:
    result = state.result
    if result is None:
        return None
    details = json_object(result.details)
    return ResultRecord(
        result.winner, tuple(result.scores), tuple((str(k), v) for k, v in details.items())
    )


def steps_of(events: Sequence[Event]) -> list[Step]:
    """The moves and chance of a deal's events, in order (a record's ``steps``)."""
    steps: list[Step] = []
    for event in events:
        action, seat = event.get("action"), event.get("seat")
        if action is not None and seat is not None:
            steps.append(Move(seat, action, event.get("card")))
        chance = event.get("chance")
        if chance is not None:
            steps.append(ChanceStep(chance["kind"], tuple(chance["cards"])))
    return steps


def _public_moves(state: GameState) -> list[Step]:
    """A deal in play: its moves as a spectator sees them, a card only where it is public."""
    history = [h for h in state.view(None).get("history") or () if "move" in h]
    actions = [e for e in state.events if e.get("action") is not None]
    steps: list[Step] = []
    for entry, event in zip(history, actions, strict=False):
        action = event.get("action") or ""
        seat = event.get("seat")
        if seat is None:
            continue
        card = event.get("card")
        if "news" in event:  # an action the view words itself (T-9's face-down farcha)
            steps.append(Move(seat, str(entry.get("move") or "")))
            continue
        shown = entry.get("move") != action and card is not None  # "take 7♣" vs "draw"
        steps.append(Move(seat, action, card if shown else None))
    return steps


def deal_record(
    game: Game,
    state: GameState,
    number: int,
    *,
    salt: str | None = None,
    reveal: bool | None = None,
) -> DealRecord:
    """The record of deal ``state`` (numbered from 1); ``salt`` for its commitment.

    ``reveal`` (default: once the deal is over) writes the seed, the salt, every card
    dealt and drawn and the result; otherwise only the public moves and the commitment.
    """
    doc = cast(_Persistent, state).to_json()
    if doc.get("start") is not None:
        raise RecordError("a deal set up from chosen cards has no shuffle to record")
    seed = _whole(doc["seed"], "seed")
    players = _whole(doc["seats"], "seat count")
    flags = doc.get("active")
    active = tuple(bool(a) for a in flags) if isinstance(flags, list | tuple) and flags else None
    commit = commitment(seed, salt) if salt is not None else None
    rules = doc["rules"]
    head = DealRecord(
        game=game.name,
        rules=json_object(rules) if isinstance(rules, Mapping) else {},
        players=players,
        number=number,
        dealer=_whole(doc["dealer"], "dealer"),
        active=active or (True,) * players,
        commitment=commit,
    )
    if not (state.is_over if reveal is None else reveal):
        return dataclasses.replace(head, steps=tuple(_public_moves(state)))
    start = load_state(game, {**doc, "actions": []})
    hands = tuple(tuple(start.view(s).get("hand") or ()) for s in range(players))
    return dataclasses.replace(
        head,
        seed=seed,
        salt=salt if commit is not None else None,
        hands=hands,
        pile=tuple(start.view(None).get("discard_pile") or ()),
        steps=tuple(steps_of(state.events)),
        result=_result(state),
    )


def _rules_doc(game: Game, rules: object) -> dict[str, JsonValue]:
    return json_object(game.rules_from(rules).to_json())


def match_record(
    game: Game,
    match: Match,
    seats: Sequence[SeatInfo],
    *,
    seed: int | None,
    date: str,
    reveal_current: bool | None = None,
) -> MatchRecord:
    """The record of ``match``: every deal (``RecordedMatch.deal_docs``), the header, the
    standing.

    ``seed`` is the match seed the deals' salts derive from (None: no commitments).
    The deal in play is revealed only once it is over (``reveal_current`` overrides).
    """
    if isinstance(match, RecordedMatch):
        docs = match.deal_docs()
        states = [load_state(game, doc) for doc in docs[:-1]] + [match.current]
    else:
        states = [match.current]
    deals = tuple(
        deal_record(
            game,
            state,
            i + 1,
            salt=shuffle_salt(seed, i) if seed is not None else None,
            reveal=reveal_current if i == len(states) - 1 else True,
        )
        for i, state in enumerate(states)
    )
    st = match.standing()
    standing = StandingRecord(
        tuple(st["totals"]), bool(st["game_over"]), tuple(st.get("winners") or ())
    )
    return _header(game, match.current, seats, date, deals, standing)


def single_deal_record(
    game: Game, state: GameState, seats: Sequence[SeatInfo], *, date: str, salt: str | None
) -> MatchRecord:
    """A record of one deal played on its own (``rami simulate --unit deal``)."""
    deal = deal_record(game, state, 1, salt=salt)
    return _header(game, state, seats, date, (deal,), None)


def _header(
    game: Game,
    state: GameState,
    seats: Sequence[SeatInfo],
    date: str,
    deals: tuple[DealRecord, ...],
    standing: StandingRecord | None,
) -> MatchRecord:
    rules = _rules_doc(game, cast(_Persistent, state).to_json()["rules"])
    players = state.num_players
    if len(seats) != players:
        raise RecordError(f"{len(seats)} seats named for a table of {players}")
    return MatchRecord(
        game=game.name,
        preset=str(rules.get("preset", "")),
        rules=rules,
        players=players,
        seats=tuple(seats),
        date=date,
        deals=deals,
        standing=standing,
    )
