"""The table's log grows here: a move applied to the match, stored, and committed.

A move is acknowledged only after its commit. The engine checks it all-or-nothing; a
storage failure puts the match back as logged (by replay), so memory and the database
never disagree. Runs under the table's lock.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from typing import NoReturn

from rami.engine import Action
from rami.errors import IllegalAction, NotYourTurn
from rami.server.groupcommit import GroupCommitter
from rami.server.live import LiveTable
from rami.server.protocol import TableError
from rami.server.shared import Shared
from rami.server.storage import Conflict, EventKind, EventRecord

__all__ = ["Commits"]

log = logging.getLogger(__name__)


class Commits:
    """Apply an event to a table's match, store it and commit it (lock held by the caller)."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        store = shared.store
        self._writer = (
            None
            if store.shared
            else concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="rami-writer")
        )
        # the moves of all tables are committed in groups (SQLite and PostgreSQL)
        self._group: GroupCommitter | None = GroupCommitter(store)

    async def commit(
        self, live: LiveTable, kind: EventKind, seat: int | None, move: Action | str | None
    ) -> None:
        """Play ``move`` (a client's text or a bot's ``Action``; None for the next deal) and
        store the event, the action as the deal applied it (``LiveTable.play``).

        Runs the commit in the store's writer thread (SQLite: one writer at a time).

        SQLite takes one write transaction at a time: commits queued on a lock inside the
        shared worker pool kept its threads waiting while views and bot moves queued
        behind them; one thread of their own keeps the pool free (bench/server_load).
        PostgreSQL commits in parallel: there the shared pool is used. The moves' writes
        go to the group committer (``rami.server.groupcommit``) on both.
        """
        if self._group is not None:
            await self._commit_grouped(live, kind, seat, move)
            return
        if self._writer is None:
            await asyncio.to_thread(self._commit, live, kind, seat, move)
            return
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._writer, self._commit, live, kind, seat, move)

    def _commit(
        self, live: LiveTable, kind: EventKind, seat: int | None, move: Action | str | None
    ) -> None:
        """Apply, then append to the log and commit; undo by replay if storage fails.

        Runs in a worker thread under the table's lock.
        """
        event = self._apply(live, kind, seat, move)
        try:
            self.shared.store.append_event(live.record.id, event)
        except Exception as exc:
            self._not_stored(live, event, exc)
        live.log.append(event)

    def _apply(
        self, live: LiveTable, kind: EventKind, seat: int | None, move: Action | str | None
    ) -> EventRecord:
        """Play the event on the match (worker thread, lock held); the event to store."""
        try:
            return live.play(kind, seat, move)
        except NotYourTurn as exc:
            raise TableError("not_your_turn", str(exc)) from None
        except IllegalAction as exc:  # nothing changed; the rule id travels with it
            raise TableError("illegal", str(exc), exc.rule, exc.key) from None
        except ValueError as exc:  # InputError, CardError: nothing changed
            raise TableError("illegal", str(exc)) from None
        except Exception as exc:  # an engine bug: make sure the match is as logged
            log.exception("engine failed on %s %r at table %s", kind, str(move), live.code)
            live.rebuild()
            raise TableError("internal", "the server could not play this move") from exc

    def _not_stored(self, live: LiveTable, event: EventRecord, exc: Exception) -> NoReturn:
        """Storing ``event`` failed: the match goes back to the log (worker thread, locked)."""
        if isinstance(exc, Conflict):  # another process stored a move first: take it
            live.rebuild()
            live.sync(self.shared.store)
            if self.shared.loop is not None:
                self.shared.loop.call_soon_threadsafe(self.shared.notify, live.record.id)
            raise TableError("conflict", "another move was played first; try again") from None
        log.error("could not store event %s of table %s: %s", event.seq, live.code, exc)
        live.rebuild()
        raise TableError("unavailable", "the move could not be saved; try again") from exc

    async def _commit_grouped(
        self, live: LiveTable, kind: EventKind, seat: int | None, move: Action | str | None
    ) -> None:
        """``_commit`` with the write in a group commit (``rami.server.groupcommit``): the
        same steps in the committer's thread, the commit shared with other tables' moves;
        the caller acknowledges only once this returns, after the commit."""
        assert self._group is not None

        def prepare() -> tuple[int, EventRecord]:
            return live.record.id, self._apply(live, kind, seat, move)

        def settle(event: EventRecord, error: Exception | None) -> None:
            if error is not None:
                self._not_stored(live, event, error)
            live.log.append(event)

        await asyncio.wrap_future(self._group.submit(prepare, settle))

    async def close(self) -> None:
        """Finish the writes in flight and stop the writer threads."""
        if self._writer is not None:
            self._writer.shutdown(wait=True)
        if self._group is not None:
            await asyncio.to_thread(self._group.close)
