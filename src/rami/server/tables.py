"""Live tables: the server's cache of tables in memory, and the parts that run them.

One ``asyncio.Lock`` per table (``LiveTable.lock``) serialises everything that reads or
changes its match; engine and database work runs in a worker thread under that lock,
so the event loop stays free for other tables. Around that lock the work is in parts,
each in its own module:

- ``lifecycle``: create, join, start, rematch (``rami.server.lifecycle``);
- ``play``: moves, the next deal, state, hints, the hand's grouping (``rami.server.play``),
  written to the log by ``rami.server.commits``;
- ``seats`` and the turn clock: connections, presence, seats a bot plays for a while
  (``rami.server.seats``, ``rami.server.turn_clock``);
- ``bots``: each table's bot driver (``rami.server.bot_driver``);
- ``broadcast``: each connection its own seat's state (``rami.server.broadcast``);
- replay and records of a table (``rami.server.replay``);
- ``dispatch``: the WebSocket's typed messages by type (``rami.server.dispatch``).

``TableManager`` holds the cache (loading a table replays its log) and catches up with
what other processes stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict

from rami.games import get_game
from rami.server.bot_driver import BotDriver
from rami.server.broadcast import Broadcaster
from rami.server.commits import Commits
from rami.server.config import ServerConfig
from rami.server.dispatch import SocketDispatch
from rami.server.lifecycle import Lifecycle
from rami.server.live import LiveTable
from rami.server.metrics import Metrics
from rami.server.play import Play
from rami.server.protocol import TableError
from rami.server.seat_timer import game_rules
from rami.server.seats import Seats
from rami.server.shared import Shared
from rami.server.storage import EventRecord, Store
from rami.server.turn_clock import TurnClock

__all__ = ["LiveTable", "TableManager"]

log = logging.getLogger(__name__)


class TableManager:
    """Loads tables from the store (replaying their logs), caches them, wires the parts."""

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.shared = Shared(store, config, notify=self.notified)
        self.tables: OrderedDict[str, LiveTable] = OrderedDict()
        self._load_lock = asyncio.Lock()
        self._catching: set[asyncio.Task[None]] = set()
        self.commits = Commits(self.shared)
        self.clock = TurnClock(self.shared, self._timed_out)
        self.broadcast = Broadcaster(self.clock)
        self.bots = BotDriver(self.shared, self.commits, self.broadcast)
        self.play = Play(self.shared, self.commits, self.broadcast, self.bots)
        self.seats = Seats(self.broadcast, self.bots)
        self.lifecycle = Lifecycle(self.shared, self.keep, self.clock, self.broadcast, self.bots)
        self.dispatch = SocketDispatch(self.shared, self.play, self.seats, self.lifecycle)

    @property
    def store(self) -> Store:
        return self.shared.store

    @property
    def config(self) -> ServerConfig:
        return self.shared.config

    @property
    def metrics(self) -> Metrics | None:
        return self.shared.metrics

    @metrics.setter
    def metrics(self, value: Metrics | None) -> None:
        self.shared.metrics = value

    def attach(self) -> None:
        """Call on the running loop: lets worker threads schedule catch-ups."""
        self.shared.loop = asyncio.get_running_loop()

    async def _timed_out(self, live: LiveTable) -> None:
        """A bot took over a seat whose time ran out (lock held): show it, let it play."""
        await self.broadcast.push(live)
        self.bots.kick(live)

    # ------------------------------------------------------------------ other processes

    def notified(self, table_id: int, event: EventRecord | None = None) -> None:
        """Another process changed table ``table_id`` (-1: maybe any): catch up.

        ``event``: the event it stored, carried by its notification (``pubsub``)."""
        for live in list(self.tables.values()):
            if table_id in (-1, live.record.id):
                task = asyncio.create_task(self._catch_up(live, event))
                self._catching.add(task)
                task.add_done_callback(self._catching.discard)

    async def _catch_up(self, live: LiveTable, event: EventRecord | None = None) -> None:
        try:
            async with live.lock:
                if event is not None and event.seq <= live.version:
                    changed = False  # had it already (a conflict's catch-up read it)
                elif event is not None and event.seq == live.version + 1 and _take(live, event):
                    changed = True  # the next event, as stored: no query
                else:
                    changed = await asyncio.to_thread(live.sync, self.store)
                pushed = self.broadcast.pushed.get(live.code, live.version)
                if changed or pushed != live.version:
                    await self.broadcast.push(live)
                    self.broadcast.presence(live)
                if event is not None and self._hand_over(live):
                    return
                self.bots.kick(live)
        except Exception as exc:  # storage down: the next notification or move retries
            log.warning("table %s could not catch up: %s", live.code, exc)

    def _hand_over(self, live: LiveTable) -> bool:
        """Another process stored a move of a table whose bots this one drives with no
        socket of its own there: the players are there, so the bots go there too (it
        takes the lease within ``LEASE_RETRY``) and this process forgets the table.
        Otherwise each process would apply and push every move of every table whose
        players and bots it split (a table is made in one process and played in another:
        bench/server_load --processes 2). Called with the table's lock held."""
        if live.conns or not self.store.holds(live.record.id):
            return False
        for task in (live.task, live.timer_task):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        live.task = live.timer_task = None
        if self.tables.get(live.code) is live:
            del self.tables[live.code]
        self.broadcast.pushed.pop(live.code, None)
        self.bots.forget(live.record.id)
        self.store.release(live.record.id)
        log.info("table %s: played in another process, its bots go there", live.code)
        return True

    # ------------------------------------------------------------------ the cache

    async def get(self, code: str) -> LiveTable:
        code = code.strip().upper()
        live = self.tables.get(code)
        if live is not None:
            self.tables.move_to_end(code)
            return live
        async with self._load_lock:
            live = self.tables.get(code)
            if live is None:
                live = await asyncio.to_thread(self._load, code)
                self._remember(live)
        async with live.lock:
            self.bots.kick(live)
        return live

    def _load(self, code: str) -> LiveTable:
        try:
            record = self.store.load(code) if len(code) <= 16 else None
        except ValueError as exc:  # a stored event this server cannot read
            log.error("table %s cannot be restored: %s", code, exc)
            raise TableError("internal", f"table {code} cannot be restored: {exc}") from None
        if record is None:
            raise TableError("no_table", f"there is no table {code}")
        events, record.events = record.events, []
        try:
            spec = get_game(record.game)
            live = LiveTable(
                record, spec, spec.new_match(game_rules(record.rules), record.players, record.seed)
            )
            for event in events:  # a stored event was accepted once: it replays
                live.log.append(live.replay(event))
        except ValueError as exc:  # the engine no longer accepts this log
            log.error("table %s cannot be restored: %s", code, exc)
            raise TableError("internal", f"table {code} cannot be restored: {exc}") from None
        return live

    async def keep(self, live: LiveTable) -> None:
        """A new table (created or a rematch) enters the cache."""
        async with self._load_lock:
            self._remember(live)

    def _remember(self, live: LiveTable) -> None:
        live.seat_key = self.config.seat_secret or b""
        self.tables[live.code] = live
        while len(self.tables) > self.config.max_live_tables:
            for code, old in self.tables.items():
                if not old.conns and (old.task is None or old.task.done()):
                    del self.tables[code]
                    self.bots.forget(old.record.id)
                    with contextlib.suppress(Exception):
                        self.store.release(old.record.id)
                    break
            else:
                break

    async def close(self) -> None:
        self.shared.closing = True
        tasks = [t.task for t in self.tables.values() if t.task is not None]
        tasks += [t.timer_task for t in self.tables.values() if t.timer_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for live in self.tables.values():
            for conn in list(live.conns):
                conn.close()
        await self.commits.close()


def _take(live: LiveTable, event: EventRecord) -> bool:
    """Apply another process's stored event (lock held); False if the match refuses it
    (then the table is read again from the database)."""
    try:
        played = live.replay(event)
    except Exception:
        log.exception("table %s: notified event %s does not apply", live.code, event.seq)
        live.rebuild()
        return False
    live.log.append(played)
    return True
