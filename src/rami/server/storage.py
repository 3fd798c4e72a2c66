"""Durable storage of tables: their set-up, their seats and each table's event log.

A table's state is never stored as such: it is rebuilt by replaying the event log over
a new match made from the stored rules and seed (DESIGN: the event log is the
persistence format). The log is append-only and numbered; a move is acknowledged only
after the transaction that appends it has committed, so a server that is killed loses
nothing it acknowledged. SQLite by default; any SQLAlchemy URL (PostgreSQL, …) works.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Final, Literal

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import ConnectionPoolEntry

from rami.engine import Action, read_action
from rami.errors import InputError
from rami.views import RulesJson

__all__ = [
    "ACTION",
    "CHANNEL",
    "NEXT_DEAL",
    "Conflict",
    "EventKind",
    "EventRecord",
    "SeatRecord",
    "Store",
    "TableRecord",
    "event_payload",
    "hash_token",
    "new_token",
    "parse_payload",
    "token_matches",
]

metadata = MetaData()

tables_t = Table(
    "rami_tables",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(16), unique=True, nullable=False),
    Column("game", String(32), nullable=False),
    Column("rules", JSON, nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("invite", String(32), nullable=True),  # the right to take a free seat (0002)
)

seats_t = Table(
    "rami_seats",
    metadata,
    Column("table_id", Integer, ForeignKey("rami_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human | bot
    Column("level", String(16), nullable=True),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=True),  # set once a human claims the seat
)

events_t = Table(
    "rami_events",
    metadata,
    Column("table_id", Integer, ForeignKey("rami_tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # action | next_deal
    Column("seat", Integer, nullable=True),
    Column("data", String(400), nullable=False),
    Column("created_at", Float, nullable=False),
)

# Built once: a fresh ``insert().values(...)`` per move cost more CPU than SQLite's own
# work (statement building and cache keys; bench/server_load, py-spy).
_INSERT_EVENT = insert(events_t)

# PostgreSQL NOTIFY channel: payload "<table id> <origin>" for a change of seats or status,
# "<table id> <origin> <seq> <kind> <seat or -> <data>" for a new event (``event_payload``)
CHANNEL = "rami_events"
TABLE_LOCKS = 7_346_002  # first key of the advisory locks (the second is the table id)
BOT_LEASES = 7_346_003  # first key of the locks saying which process drives a table's bots

# PostgreSQL, a batch of tables (group commit): one statement, so one round trip, for all
# the tables' locks and one for all their notifications, whatever the batch's size.
# ``unnest`` yields the ids in the array's order, so the locks are taken in that order.
_LOCK_TABLES = text(
    f"SELECT count(pg_advisory_xact_lock({TABLE_LOCKS}, t)) "
    "FROM unnest(CAST(:ids AS integer[])) AS t"
)
_INSERT_EVENTS = text(
    "INSERT INTO rami_events (table_id, seq, kind, seat, data, created_at) "
    "SELECT t, s, k, st, d, CAST(:now AS float8) FROM unnest(CAST(:ids AS integer[]), "
    "CAST(:seqs AS integer[]), CAST(:kinds AS text[]), CAST(:seats AS integer[]), "
    "CAST(:datas AS text[])) AS e(t, s, k, st, d)"
)
_NOTIFY_TABLES = text(
    f"SELECT count(pg_notify('{CHANNEL}', p)) FROM unnest(CAST(:payloads AS text[])) AS p"
)


class Conflict(Exception):
    """Another process stored the event first (the caller catches up and retries)."""


_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud easily
CODE_LENGTH = 6


def new_token() -> str:
    """A seat's secret: unguessable, URL-safe."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """Only hashes are stored, so a leaked database does not let anyone act for a seat."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def token_matches(token: str | None, stored_hash: str | None) -> bool:
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def new_code() -> str:
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(CODE_LENGTH))


@dataclass
class SeatRecord:
    seat: int
    kind: str
    level: str | None
    name: str
    token_hash: str | None = None


EventKind = Literal["action", "next_deal"]
ACTION: Final = "action"
NEXT_DEAL: Final = "next_deal"


@dataclass(frozen=True)
class EventRecord:
    """One event of a table's log: a seat's action or the start of the next deal.

    An action is held as the engine's canonical ``Action`` (the value ``apply`` returned
    when it was played), so rebuilding a match replays typed actions; its text (``data``)
    is made only to store it or to notify the other processes. A stored row is read once
    (``read``), when its table is loaded.
    """

    seq: int
    kind: EventKind
    seat: int | None
    action: Action | None = None  # kind "action" only

    def __post_init__(self) -> None:
        if (self.action is None) != (self.kind == NEXT_DEAL):
            raise InputError(f"a {self.kind} event with action {self.action!r}")

    @cached_property
    def data(self) -> str:
        """The stored form: the action's canonical text, "" for the next deal."""
        return "" if self.action is None else self.action.text()

    @classmethod
    def read(cls, seq: int, kind: str, seat: int | None, data: str) -> EventRecord:
        """A stored row or a notification's event, read once (``ValueError`` if unreadable:
        an unknown kind, an action's text that does not parse).

        Rows stored before the typed log (or by an older server) hold any text the engine
        accepted then; the engine still reads it (``apply`` normalises what it is given).
        """
        if kind == ACTION:
            return cls(seq, ACTION, seat, read_action(data))
        if kind == NEXT_DEAL:
            return cls(seq, NEXT_DEAL, seat)
        raise InputError(f"unknown event kind {kind!r}")


@dataclass
class TableRecord:
    id: int
    code: str
    game: str
    rules: RulesJson  # the options plus the table's turn_seconds
    players: int
    seed: int
    status: str
    created_at: float
    seats: list[SeatRecord] = field(default_factory=list)
    events: list[EventRecord] = field(default_factory=list)
    invite: str | None = None


def event_payload(table_id: int, origin: str, event: EventRecord) -> str:
    """A notification that carries its event: the other processes apply it as it is,
    without reading it back (three queries per move in each: bench/server_load)."""
    seat = "-" if event.seat is None else str(event.seat)
    return f"{table_id} {origin} {event.seq} {event.kind} {seat} {event.data}"


def parse_payload(payload: str) -> tuple[int, str, EventRecord | None] | None:
    """(table id, origin, event or None) of a notification; None if it is not one."""
    parts = payload.split(" ", 5)
    if not parts[0].isdigit() or len(parts) < 2:
        return None
    table_id, origin = int(parts[0]), parts[1]
    if len(parts) != 6 or not parts[2].isdigit() or not (parts[4] == "-" or parts[4].isdigit()):
        return table_id, origin, None  # a change of seats or status (or an older sender)
    seat = None if parts[4] == "-" else int(parts[4])
    try:
        event = EventRecord.read(int(parts[2]), parts[3], seat, parts[5])
    except ValueError:  # not readable here: the receiver reads the table again
        return table_id, origin, None
    return table_id, origin, event


def _sqlite_pragmas(busy_ms: int) -> Callable[[DBAPIConnection, ConnectionPoolEntry], None]:
    def on_connect(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
        # WAL: readers never wait for the writer, and a commit is one append to the log.
        # synchronous=NORMAL keeps every committed move across a killed server (kill -9);
        # only a power cut or OS crash may lose the last moments (docs/protocol.md).
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    return on_connect


class Store:
    """The tables, seats and event logs in one SQL database (synchronous calls)."""

    def __init__(self, url: str, busy_ms: int = 5000) -> None:
        kwargs: dict[str, object] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas(busy_ms))
        from rami.server.db import upgrade

        upgrade(self.engine)
        #: PostgreSQL: several processes may share this database (locks, NOTIFY)
        self.shared = self.engine.dialect.name == "postgresql"
        #: names this process in its notifications, so that it skips its own (pubsub)
        self.origin = secrets.token_hex(6)
        self._write_lock = threading.Lock()
        self._lease_guard = threading.Lock()
        self._lease_conn: Connection | None = None
        self._leased: set[int] = set()  # tables whose bots' lease this process holds

    def close(self) -> None:
        if self._lease_conn is not None:
            self._lease_conn.close()
        self.engine.dispose()

    @contextlib.contextmanager
    def writing(self) -> Iterator[Connection]:
        """A write transaction (for the other tables of the database too: replay links).

        SQLite allows one writer at a time, and a second one
        waits in SQLite's busy handler, which sleeps in steps of up to 100 ms: taking
        turns on a lock in this process instead keeps acknowledgements fast."""
        if self.shared:
            with self.engine.begin() as conn:
                yield conn
            return
        with self._write_lock, self.engine.begin() as conn:
            yield conn

    def lease(self, table_id: int) -> bool:
        """PostgreSQL: may this process drive the table's bots? (One process at a time.)

        A session advisory lock on a connection this process keeps open: it is held
        until ``release`` or until the process dies, when another process takes over.
        Always True on SQLite (one process).
        """
        if not self.shared:
            return True
        with self._lease_guard:
            if table_id in self._leased:  # held already: no query (one per human move)
                return True
            if self._lease_conn is None:
                self._lease_conn = self.engine.connect().execution_options(
                    isolation_level="AUTOCOMMIT"
                )
            try:
                got = self._lease_conn.execute(
                    select(func.pg_try_advisory_lock(BOT_LEASES, table_id))
                ).scalar()
            except Exception:
                self._lease_conn.invalidate()
                self._lease_conn = None  # the leases went with the connection
                self._leased.clear()
                raise
            if got:
                self._leased.add(table_id)
            return bool(got)

    def holds(self, table_id: int) -> bool:
        """Does this process hold the table's bot lease already? (No query.)"""
        return not self.shared or table_id in self._leased

    def release(self, table_id: int) -> None:
        """Let another process drive this table's bots (the table left this process)."""
        if not self.shared:
            return
        with self._lease_guard:
            if self._lease_conn is not None and table_id in self._leased:
                self._leased.discard(table_id)
                self._lease_conn.execute(select(func.pg_advisory_unlock(BOT_LEASES, table_id)))

    def ping(self) -> None:
        """Raise if the database does not answer (``/readyz``)."""
        with self.engine.connect() as conn:
            conn.execute(select(1))

    # ---------------------------------------------------------------- tables

    def create_table(
        self,
        game: str,
        rules: RulesJson,
        players: int,
        seed: int,
        status: str,
        seats: Sequence[SeatRecord],
    ) -> TableRecord:
        """Insert a table and its seats in one transaction, under a fresh unique code."""
        for _ in range(20):
            code = new_code()
            now = time.time()
            try:
                with self.writing() as conn:
                    result = conn.execute(
                        insert(tables_t).values(
                            code=code,
                            game=game,
                            rules=rules,
                            players=players,
                            seed=seed,
                            status=status,
                            created_at=now,
                        )
                    )
                    key = result.inserted_primary_key
                    assert key is not None
                    table_id = int(key[0])
                    conn.execute(
                        insert(seats_t),
                        [
                            {
                                "table_id": table_id,
                                "seat": s.seat,
                                "kind": s.kind,
                                "level": s.level,
                                "name": s.name,
                                "token_hash": s.token_hash,
                            }
                            for s in seats
                        ],
                    )
            except IntegrityError:
                continue  # code already taken: draw another
            return TableRecord(
                table_id, code, game, rules, players, seed, status, now, list(seats), []
            )
        raise RuntimeError("could not find a free table code")

    def load(self, code: str) -> TableRecord | None:
        """A table with its seats and its whole event log, or None (``ValueError`` if a
        stored event cannot be read: ``EventRecord.read``)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.code == code)).first()
            if row is None:
                return None
            record = TableRecord(
                id=row.id,
                code=row.code,
                game=row.game,
                rules=dict(row.rules),
                players=row.players,
                seed=row.seed,
                status=row.status,
                created_at=row.created_at,
                invite=row.invite,
            )
            for s in conn.execute(
                select(seats_t).where(seats_t.c.table_id == row.id).order_by(seats_t.c.seat)
            ):
                record.seats.append(SeatRecord(s.seat, s.kind, s.level, s.name, s.token_hash))
            for e in conn.execute(
                select(events_t).where(events_t.c.table_id == row.id).order_by(events_t.c.seq)
            ):
                record.events.append(EventRecord.read(e.seq, e.kind, e.seat, e.data))
        return record

    def existing_codes(self, codes: Iterable[str]) -> list[str]:
        wanted = list(codes)
        if not wanted:
            return []
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables_t.c.code).where(tables_t.c.code.in_(wanted)))
            found = {r.code for r in rows}
        return [c for c in wanted if c in found]

    # ---------------------------------------------------------------- changes

    def append_event(self, table_id: int, event: EventRecord) -> None:
        """Append one event; commits before returning.

        ``Conflict`` if ``seq`` is taken: another process sharing the database stored a
        move first. On PostgreSQL the table's advisory lock serialises appends across
        processes, and the other processes are told (``NOTIFY``) when this commits.
        """
        try:
            with self.writing() as conn:
                if self.shared:
                    conn.execute(select(func.pg_advisory_xact_lock(TABLE_LOCKS, table_id)))
                self._insert_event(conn, table_id, event)
                if self.shared:
                    payload = event_payload(table_id, self.origin, event)
                    conn.execute(select(func.pg_notify(CHANNEL, payload)))
        except IntegrityError:
            raise Conflict(f"event {event.seq} of table {table_id} is already stored") from None

    def append_events(self, events: Sequence[tuple[int, EventRecord]]) -> None:
        """Append the events of several tables in one transaction (``rami.server.groupcommit``).

        All or nothing: ``Conflict`` (a taken sequence number) or any other error stores
        none of them.
        """
        tables = sorted({table_id for table_id, _ in events})
        try:
            with self.writing() as conn:
                if self.shared:
                    self._append_shared(conn, tables, events)
                    return
                now = time.time()
                conn.execute(
                    _INSERT_EVENT,
                    [
                        {
                            "table_id": table_id,
                            "seq": e.seq,
                            "kind": e.kind,
                            "seat": e.seat,
                            "data": e.data,
                            "created_at": now,
                        }
                        for table_id, e in events
                    ],
                )
        except IntegrityError:
            raise Conflict(f"an event of tables {tables} is already stored") from None

    def _append_shared(
        self, conn: Connection, tables: list[int], events: Sequence[tuple[int, EventRecord]]
    ) -> None:
        """PostgreSQL: three statements whatever the batch's size (five round trips with
        BEGIN and COMMIT): the tables' advisory locks in table order, so that two
        processes' batches cannot deadlock; the rows (one INSERT, not executemany); the
        notifications, each carrying its event (``event_payload``)."""
        conn.execute(_LOCK_TABLES, {"ids": tables})
        conn.execute(
            _INSERT_EVENTS,
            {
                "now": time.time(),
                "ids": [t for t, _ in events],
                "seqs": [e.seq for _, e in events],
                "kinds": [e.kind for _, e in events],
                "seats": [e.seat for _, e in events],
                "datas": [e.data for _, e in events],
            },
        )
        payloads = [event_payload(t, self.origin, e) for t, e in events]
        conn.execute(_NOTIFY_TABLES, {"payloads": payloads})

    def _notify(self, conn: Connection, table_id: int) -> None:
        if self.shared:
            conn.execute(select(func.pg_notify(CHANNEL, f"{table_id} {self.origin}")))

    def events_since(self, table_id: int, seq: int) -> tuple[list[EventRecord], TableRecord]:
        """The events after ``seq``, and the table's current seats and status."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).one()
            record = TableRecord(
                row.id,
                row.code,
                row.game,
                dict(row.rules),
                row.players,
                row.seed,
                row.status,
                row.created_at,
            )
            for s in conn.execute(
                select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
            ):
                record.seats.append(SeatRecord(s.seat, s.kind, s.level, s.name, s.token_hash))
            events = [
                EventRecord.read(e.seq, e.kind, e.seat, e.data)
                for e in conn.execute(
                    select(events_t)
                    .where(events_t.c.table_id == table_id, events_t.c.seq > seq)
                    .order_by(events_t.c.seq)
                )
            ]
        return events, record

    @staticmethod
    def _insert_event(conn: Connection, table_id: int, e: EventRecord) -> None:
        row = {"table_id": table_id, "seq": e.seq, "kind": e.kind, "seat": e.seat, "data": e.data}
        conn.execute(_INSERT_EVENT, {**row, "created_at": time.time()})

    def set_invite(self, table_id: int, invite: str) -> None:
        with self.writing() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(invite=invite))

    def claim_seat(self, table_id: int, seat: int, token_hash: str, name: str) -> bool:
        """Give an unclaimed human seat to a player; False if someone was faster."""
        with self.writing() as conn:
            result = conn.execute(
                update(seats_t)
                .where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.seat == seat,
                    seats_t.c.kind == "human",
                    seats_t.c.token_hash.is_(None),
                )
                .values(token_hash=token_hash, name=name)
            )
            self._notify(conn, table_id)
            return bool(result.rowcount == 1)

    def start(self, table_id: int, bots: dict[int, tuple[str, str]]) -> None:
        """Turn the given open seats into bots ``(level, name)`` and start the table."""
        with self.writing() as conn:
            for seat, (level, name) in bots.items():
                conn.execute(
                    update(seats_t)
                    .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                    .values(kind="bot", level=level, name=name, token_hash=None)
                )
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(status="playing"))
            self._notify(conn, table_id)
