"""One WebSocket client of a table: its seat and its bounded, ordered send queue.

The table's parts only ever queue messages here; one writer task per client sends them,
so a slow client never holds up the table or the other clients.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping

from rami.server.limits import dumps

__all__ = ["SEND_QUEUE_BYTES", "SEND_QUEUE_MESSAGES", "Connection"]

log = logging.getLogger(__name__)

SEND_QUEUE_MESSAGES = 128
SEND_QUEUE_BYTES = 2 * 1024 * 1024


class Connection:
    """One WebSocket client of a table: its seat (None: spectator) and its send queue.

    Messages go through a queue drained by one writer task, so a slow client never
    holds up the table or the other clients, and each client gets messages in order.
    The queue is bounded (``SEND_QUEUE_MESSAGES`` messages, ``SEND_QUEUE_BYTES`` of
    encoded text): a client that stops reading is dropped (``overflowed``; ``on_overflow``
    is called once) instead of making the server's memory grow. Its seat stays its own.
    """

    def __init__(
        self,
        seat: int | None,
        sender: Callable[[str], Awaitable[None]],
        on_overflow: Callable[[], None] | None = None,
    ) -> None:
        self.seat = seat
        self._sender = sender
        self._on_overflow = on_overflow
        self.queue: asyncio.Queue[Mapping[str, object] | str | None] = asyncio.Queue()
        self.queued_bytes = 0
        self.closed = False
        self.overflowed = False

    def send(self, message: Mapping[str, object] | str) -> None:
        """Queue a message (a dict, or text already encoded with ``limits.dumps``)."""
        if self.closed:
            return
        size = len(message) if isinstance(message, str) else 256
        if self.queue.qsize() >= SEND_QUEUE_MESSAGES or self.queued_bytes + size > SEND_QUEUE_BYTES:
            self._overflow()
            return
        self.queued_bytes += size
        self.queue.put_nowait(message)

    def _overflow(self) -> None:
        self.overflowed = True
        self.closed = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued_bytes = 0
        self.queue.put_nowait(None)
        log.warning("dropped a client that does not read (seat %s)", self.seat)
        if self._on_overflow is not None:
            self._on_overflow()

    async def run_writer(self) -> None:
        while True:
            message = await self.queue.get()
            if message is None:
                return
            if isinstance(message, str):
                text = message
                self.queued_bytes -= len(text)
            else:
                text = dumps(message)
                self.queued_bytes -= 256
            try:
                await self._sender(text)
            except Exception:  # the client went away; the reader side cleans up
                self.closed = True
                return

    def close(self) -> None:
        self.closed = True
        self.queue.put_nowait(None)
