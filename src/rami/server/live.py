"""A table in memory: its stored record, its match, its log and who is at it.

Everything that reads or changes a ``LiveTable`` holds its one ``lock``; the parts of the
server (``rami.server.tables`` lists them) share that lock and nothing else per table.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

from rami.engine import Action
from rami.errors import InputError
from rami.games import Game, Match
from rami.server.bots import SeatBot
from rami.server.protocol import TableError
from rami.server.records import ShuffleInfo, shuffle_info
from rami.server.seat_timer import game_rules, seat_code_matches
from rami.server.storage import (
    ACTION,
    NEXT_DEAL,
    EventKind,
    EventRecord,
    SeatRecord,
    Store,
    TableRecord,
    token_matches,
)
from rami.views import RulesJson

if TYPE_CHECKING:
    from rami.server.connection import Connection

__all__ = ["ACTION", "NEXT_DEAL", "LiveTable", "SeatSummary", "TableSummaryJson"]


class SeatSummary(TypedDict):
    """A seat in a table's summary (``protocol.SeatInfo`` on the wire)."""

    seat: int
    kind: str
    level: str | None
    name: str
    claimed: bool
    online: bool
    auto: bool


class TableSummaryJson(TypedDict):
    """A table's summary (``protocol.TableSummary`` on the wire)."""

    code: str
    game: str
    title: str
    preset: str
    rules: RulesJson
    players: int
    status: str
    seats: list[SeatSummary]
    turn_seconds: int | None
    rematch: str | None
    version: int
    created_at: float
    shuffle: ShuffleInfo


@dataclass
class LiveTable:
    """A table in memory. Change it only while holding ``lock``."""

    record: TableRecord
    spec: Game
    match: Match
    log: list[EventRecord] = field(default_factory=list)
    online: dict[int, int] = field(default_factory=dict)
    conns: set[Connection] = field(default_factory=set)
    bots: dict[int, SeatBot] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task[None] | None = None
    auto: set[int] = field(default_factory=set)  # human seats a bot plays for now
    timer_task: asyncio.Task[None] | None = None
    timer_key: tuple[int, int | None] | None = None
    deadline: float | None = None  # event-loop time when the mover's time runs out
    rematch: str | None = None  # the code of the table that continues this one
    seat_key: bytes = b""  # the server's key of the seat codes (none: codes are off)

    @property
    def turn_seconds(self) -> int | None:
        value = self.record.rules.get("turn_seconds")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    @property
    def game_rules(self) -> RulesJson:
        return game_rules(self.record.rules)

    @property
    def code(self) -> str:
        return self.record.code

    @property
    def seats(self) -> list[SeatRecord]:
        return self.record.seats

    @property
    def version(self) -> int:
        return len(self.log)

    @property
    def status(self) -> str:
        if self.record.status == "waiting":
            return "waiting"
        return "over" if self.match.is_over else "playing"

    def seat_for_token(self, token: str | None) -> int | None:
        """The seat ``token`` opens; None for no token (a spectator); ``bad_token`` else."""
        if token is None or token == "":
            return None
        for s in self.seats:
            if token_matches(token, s.token_hash):
                return s.seat
        for s in self.seats:  # a short seat code opens the seat too
            if seat_code_matches(token, s.token_hash, self.seat_key):
                return s.seat
        raise TableError("bad_token", "this token belongs to no seat of this table")

    def opens_seat(self, token: str | None) -> bool:
        """Whether ``token`` opens a seat here (a bad token: no, and no error)."""
        try:
            return self.seat_for_token(token) is not None
        except TableError:
            return False

    def bot_to_move(self) -> int | None:
        if self.status != "playing":
            return None
        current = self.match.current
        if current.is_over:
            return None
        seat = current.to_move
        if seat is None or (self.seats[seat].kind != "bot" and seat not in self.auto):
            return None
        return seat

    def human_to_move(self) -> int | None:
        """The human seat to move that no bot plays for (the one a turn timer runs for)."""
        if self.status != "playing" or self.match.current.is_over:
            return None
        seat = self.match.current.to_move
        if seat is None or self.seats[seat].kind != "human" or seat in self.auto:
            return None
        return seat

    def check_playing(self) -> None:
        """Refuse a move while the table waits for players or once its match is over."""
        status = self.status
        if status == "waiting":
            raise TableError("not_started", "the table is waiting for players: start it first")
        if status == "over":
            raise TableError("match_over", "the match is over")

    def summary(self) -> TableSummaryJson:
        rules = self.record.rules
        return {
            "code": self.code,
            "game": self.spec.name,
            "title": self.spec.title,
            "preset": str(rules.get("preset", "")),
            "rules": rules,
            "players": self.record.players,
            "status": self.status,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": s.level,
                    "name": s.name,
                    "claimed": s.kind == "bot" or s.token_hash is not None,
                    "online": s.kind == "bot" or self.online.get(s.seat, 0) > 0,
                    "auto": s.seat in self.auto,
                }
                for s in self.seats
            ],
            "turn_seconds": self.turn_seconds,
            "rematch": self.rematch,
            "version": self.version,
            "created_at": self.record.created_at,
            "shuffle": shuffle_info(self.match, self.record.seed),
        }

    # ------------------------------------------------------------------ the log

    def play(self, kind: EventKind, seat: int | None, move: Action | str | None) -> EventRecord:
        """Apply a new event to the match (``ValueError`` if it is refused, and then
        nothing changed): ``move`` is a client's text or a bot's ``Action`` for an action,
        None for the next deal. Returns the event as the log keeps it (the next number,
        the canonical ``Action`` the deal applied; the deal checks the seat to move)."""
        seq = self.version + 1
        if kind == ACTION:
            if move is None:
                raise InputError("an action event names no action")
            return EventRecord(seq, ACTION, seat, self.match.apply(move, seat))
        if kind == NEXT_DEAL:
            self.match.next_deal()
            return EventRecord(seq, NEXT_DEAL, seat)
        raise InputError(f"unknown event kind {kind!r}")

    def replay(self, event: EventRecord) -> EventRecord:
        """Apply one logged event to the match (``ValueError`` if it is refused); the
        event as the log keeps it (its action the canonical one)."""
        if event.action is None:
            self.match.next_deal()
            return event
        applied = self.match.apply(event.action, event.seat)
        if applied is event.action:  # already canonical (the deal kept it as it is)
            return event
        return EventRecord(event.seq, ACTION, event.seat, applied)

    def rebuild(self) -> None:
        """Make the match again from the seed and the logged events."""
        self.match = self.spec.new_match(self.game_rules, self.record.players, self.record.seed)
        for event in self.log:
            self.replay(event)

    def sync(self, store: Store) -> bool:
        """Replay what other processes stored since our version (worker thread, locked).

        True when anything a client sees changed: events, the status or the seats.
        """
        events, record = store.events_since(self.record.id, self.version)
        for event in events:
            self.log.append(self.replay(event))
        seats = [(s.kind, s.level, s.name, s.token_hash) for s in self.seats]
        self.record.seats = record.seats
        status_changed = self.record.status != record.status
        self.record.status = record.status
        fresh = [(s.kind, s.level, s.name, s.token_hash) for s in record.seats]
        return bool(events) or status_changed or seats != fresh
