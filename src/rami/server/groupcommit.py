"""Group commit: the moves of many tables stored in one transaction (SQLite, PostgreSQL).

A commit costs about as much for one row as for fifty: each one is a write transaction,
an append to the write-ahead log and, on SQLite, one writer at a time; on PostgreSQL
also five round trips and as many statements to build, per move when each move commits
alone (per batch here: ``Store.append_events``). Under load the
moves of different tables arrive while the previous commit runs; one thread takes all
that has queued meanwhile (up to ``MAX_BATCH``) and commits it at once. Nothing waits
for a batch to fill: an idle server commits a lone move straight away, a busy one in
groups of the moves that queued during the previous commit.

The promise is unchanged (storage.py): each move's future resolves only after the
transaction holding it has committed, and the table acknowledges the move only then.
A batch that fails is tried again one event at a time, so that one bad event (a taken
sequence number: ``Conflict``) fails alone and the others are still stored.
"""

from __future__ import annotations

import concurrent.futures
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass

from rami.server.storage import EventRecord, Store

__all__ = ["MAX_BATCH", "GroupCommitter", "Prepare", "Settle"]

log = logging.getLogger(__name__)

MAX_BATCH = 256  # events in one transaction at most


#: runs in the committer thread, returns (table id, event to store) or raises: nothing stored
Prepare = Callable[[], tuple[int, EventRecord]]
#: runs in the committer thread after the commit (error None) or when storing failed; what
#: it raises is the caller's error
Settle = Callable[[EventRecord, Exception | None], None]


@dataclass(slots=True)
class _Pending:
    prepare: Prepare
    settle: Settle
    done: concurrent.futures.Future[None]
    table_id: int = 0
    event: EventRecord | None = None


class GroupCommitter:
    """One writer thread that prepares queued moves and stores them in shared transactions.

    ``submit(prepare, settle)``: ``prepare`` plays the move on its table's match (the
    engine's checks; raising refuses it), the event is committed with the others of the
    batch, then ``settle`` records it in the table's log (or undoes the match if storing
    failed). One thread hop per move, as with a plain writer thread; one commit per batch.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="rami-group-commit", daemon=True)
        self._thread.start()
        self.batches = 0  # transactions committed (tests and benches read these)
        self.events = 0

    def submit(self, prepare: Prepare, settle: Settle) -> concurrent.futures.Future[None]:
        """Queue a move; the future resolves once it is committed and settled (or fails)."""
        done: concurrent.futures.Future[None] = concurrent.futures.Future()
        if not self._thread.is_alive():
            done.set_exception(RuntimeError("the group committer is closed"))
            return done
        self._queue.put(_Pending(prepare, settle, done))
        return done

    def close(self) -> None:
        """Store what is queued, then stop the thread."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            try:
                ready = [p for p in batch if self._prepare(p)]
                if ready:
                    self._commit(ready)
            except Exception as exc:  # the writer thread must outlive any one batch
                log.exception("group commit: a batch failed unexpectedly")
                for p in batch:
                    _resolve(p.done, exc)
            if stop:
                return

    @staticmethod
    def _prepare(p: _Pending) -> bool:
        try:
            p.table_id, p.event = p.prepare()
        except Exception as exc:
            _resolve(p.done, exc)
            return False
        return True

    def _commit(self, batch: list[_Pending]) -> None:
        try:
            self.store.append_events([(p.table_id, p.event) for p in batch if p.event])
        except Exception as exc:
            if len(batch) == 1:
                self._settle(batch[0], exc)
                return
            log.info("a batch of %d events failed (%s): storing them one by one", len(batch), exc)
            for p in batch:
                self._commit([p])
            return
        self.batches += 1
        self.events += len(batch)
        for p in batch:
            self._settle(p, None)

    @staticmethod
    def _settle(p: _Pending, error: Exception | None) -> None:
        assert p.event is not None
        try:
            p.settle(p.event, error)
        except Exception as exc:
            _resolve(p.done, exc)
            return
        _resolve(p.done, error)


def _resolve(done: concurrent.futures.Future[None], error: BaseException | None) -> None:
    """Give the waiter its answer, unless it stopped waiting: a request cancelled (its
    socket closed, the server stopping) cancels its future, and setting a cancelled
    future raises, which would end the writer thread and every later commit with it."""
    try:
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(None)
    except concurrent.futures.InvalidStateError:
        pass
