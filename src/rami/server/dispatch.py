"""The table's WebSocket messages, dispatched by type to one handler each.

``read_message`` (``rami.server.messages``) makes the typed message; the handler table,
keyed by the message type, sends it to the part of the server that holds its work
(play, seats, lifecycle). Every refusal goes back to the sending client only.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from rami.server.connection import Connection
from rami.server.lifecycle import Lifecycle
from rami.server.limits import BadJSON, loads
from rami.server.live import LiveTable
from rami.server.messages import (
    CLIENT_TYPES,
    Arrange,
    Auto,
    ClientMessage,
    Hello,
    HintRequest,
    NextDeal,
    Ping,
    PlayAction,
    React,
    Rematch,
    Resume,
    Start,
    message_ref,
    read_message,
)
from rami.server.play import Play
from rami.server.protocol import TableError
from rami.server.seats import Seats
from rami.server.shared import Shared

__all__ = ["SocketDispatch"]

log = logging.getLogger(__name__)

M = TypeVar("M", bound=ClientMessage)
Handler = Callable[[LiveTable, Connection, ClientMessage], Awaitable[None]]


class SocketDispatch:
    """One handler per client message type; ``handle`` decodes, types and dispatches."""

    def __init__(self, shared: Shared, play: Play, seats: Seats, lifecycle: Lifecycle) -> None:
        self.shared = shared
        self.play = play
        self.seats = seats
        self.lifecycle = lifecycle
        self.handlers: dict[str, Handler] = {}
        self._on(Hello, self._hello)
        self._on(PlayAction, self._action)
        self._on(NextDeal, self._next_deal)
        self._on(Start, self._start)
        self._on(HintRequest, self._hint)
        self._on(Ping, self._ping)
        self._on(Resume, self._resume)
        self._on(Auto, self._auto)
        self._on(React, self._react)
        self._on(Rematch, self._rematch)
        self._on(Arrange, self._arrange)

    def _on(
        self, kind: type[M], handler: Callable[[LiveTable, Connection, M], Awaitable[None]]
    ) -> None:
        """Register ``handler`` for messages of ``kind`` (it receives that type only)."""

        async def typed(live: LiveTable, conn: Connection, message: ClientMessage) -> None:
            assert isinstance(message, kind)
            await handler(live, conn, message)

        self.handlers[kind.TYPE] = typed

    async def handle(self, live: LiveTable, conn: Connection, raw: str) -> None:
        """One message from a client; every refusal goes back to that client only."""
        ref: object = None
        try:
            try:
                doc = loads(raw)
            except BadJSON as exc:
                raise TableError("bad_json", f"the message is {exc}") from None
            if not isinstance(doc, dict):
                raise TableError("bad_json", "a message must be a JSON object")
            ref = message_ref(doc)
            message = read_message(doc)
            if message is None:
                raise TableError(
                    "unknown_type",
                    f"unknown message type {doc.get('type')!r}: "
                    f"use one of {', '.join(CLIENT_TYPES)}",
                )
            await self.handlers[message.TYPE](live, conn, message)
        except TableError as exc:
            log.info("refused code=%s table=%s seat=%s", exc.code, live.code, conn.seat)
            if self.shared.metrics is not None:
                self.shared.metrics.refused.labels(exc.code).inc()
            conn.send(exc.to_message(ref))

    def _ack(self, live: LiveTable, conn: Connection, message: ClientMessage) -> None:
        conn.send({"type": "ack", "id": message.ref, "version": live.version})

    async def _hello(self, live: LiveTable, conn: Connection, message: Hello) -> None:
        raise TableError("bad_message", "hello is sent once, first")

    async def _ping(self, live: LiveTable, conn: Connection, message: Ping) -> None:
        conn.send({"type": "pong", "id": message.ref})

    async def _action(self, live: LiveTable, conn: Connection, message: PlayAction) -> None:
        started = time.perf_counter()
        await self.play.act(live, conn.seat, message.action, conn, message.ref)
        if self.shared.metrics is not None:
            self.shared.metrics.move_seconds.observe(time.perf_counter() - started)

    async def _next_deal(self, live: LiveTable, conn: Connection, message: NextDeal) -> None:
        await self.play.next_deal(live, conn.seat, conn, message.ref)

    async def _start(self, live: LiveTable, conn: Connection, message: Start) -> None:
        await self.lifecycle.start(live, conn.seat)
        self._ack(live, conn, message)

    async def _hint(self, live: LiveTable, conn: Connection, message: HintRequest) -> None:
        hint = await self.play.hint(live, conn.seat)
        conn.send({"type": "hint", "id": message.ref, **hint})

    async def _resume(self, live: LiveTable, conn: Connection, message: Resume) -> None:
        await self.seats.resume(live, conn.seat)
        self._ack(live, conn, message)

    async def _auto(self, live: LiveTable, conn: Connection, message: Auto) -> None:
        await self.seats.hand_to_bot(live, conn.seat, message.seat)
        self._ack(live, conn, message)

    async def _react(self, live: LiveTable, conn: Connection, message: React) -> None:
        self.seats.react(live, conn.seat, message.key)

    async def _rematch(self, live: LiveTable, conn: Connection, message: Rematch) -> None:
        new = await self.lifecycle.rematch(live, conn.seat)
        conn.send({"type": "rematch", "id": message.ref, "code": new})

    async def _arrange(self, live: LiveTable, conn: Connection, message: Arrange) -> None:
        groups = await self.play.arrange(live, conn.seat)
        conn.send({"type": "arrangement", "id": message.ref, "groups": groups})
