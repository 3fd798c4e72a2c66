"""Events from other server processes: PostgreSQL ``LISTEN``/``NOTIFY``.

When several ``rami serve`` processes share one PostgreSQL database, any of them may
store a table's next event; each one that holds the table in memory must then catch up
and push the new views to its own sockets. Every change is announced with
``NOTIFY rami_events, '<table id> <origin> …'`` in the transaction that makes it (so it is
sent on commit only); a thread per process listens and hands the table ids to the event
loop. A new event travels in its notification (``storage.event_payload``): the other
processes apply it without reading it back; a change of seats or status makes them read
the table again.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

from sqlalchemy.engine import make_url

from rami.server.storage import CHANNEL, EventRecord, parse_payload

__all__ = ["Listener"]

log = logging.getLogger(__name__)


class Listener:
    """Calls ``on_change(table_id, event or None)`` on ``loop`` for every notification of
    the channel from another process (``-1, None``: catch up on every table)."""

    def __init__(
        self,
        url: str,
        loop: asyncio.AbstractEventLoop,
        on_change: Callable[[int, EventRecord | None], None],
        origin: str = "",
    ) -> None:
        """``origin``: this process's ``Store.origin``; its own notifications are skipped
        (it has applied its own changes already; catching up on each cost three queries
        per move in every process: bench/server_load --processes 2)."""
        parts = make_url(url)
        self._dsn = parts.set(drivername="postgresql").render_as_string(hide_password=False)
        self._loop = loop
        self._on_change = on_change
        self._origin = origin
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rami-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self._dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._loop.call_soon_threadsafe(self._on_change, -1, None)  # catch up on all
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            parsed = parse_payload(note.payload)
                            if parsed is not None and parsed[1] != self._origin:
                                table_id, _, event = parsed
                                self._loop.call_soon_threadsafe(self._on_change, table_id, event)
            except Exception as exc:  # the database went away: listen again shortly
                if self._stop.is_set():
                    return
                log.warning("LISTEN %s lost (%s); reconnecting", CHANNEL, exc)
                self._stop.wait(1.0)
