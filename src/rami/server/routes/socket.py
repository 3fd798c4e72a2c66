"""The table's WebSocket ``/ws/tables/{code}``: a hello with the seat's token first,
then the client's messages, each handled by type (``rami.server.dispatch``), and the
table's messages through the connection's bounded queue (``rami.server.connection``).
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from rami.server.connection import Connection
from rami.server.guards import Refusals
from rami.server.limits import BadJSON, dumps, loads
from rami.server.live import LiveTable
from rami.server.messages import Hello, read_message
from rami.server.protocol import TableError
from rami.server.routes.common import find
from rami.server.tables import TableManager

__all__ = ["HELLO_TIMEOUT", "router"]

HELLO_TIMEOUT = 30.0

router = APIRouter()


@router.websocket("/ws/tables/{code}")
async def table_socket(websocket: WebSocket, code: str) -> None:
    await websocket.accept()
    mgr: TableManager = websocket.app.state.manager
    try:
        live, seat = await _hello(websocket, mgr, code)
    except (WebSocketDisconnect, TimeoutError):
        return
    if live is None:
        return
    reader = asyncio.current_task()
    busy = False

    def drop() -> None:  # the client stopped reading: stop waiting for its messages
        if mgr.metrics is not None:
            mgr.metrics.dropped.inc()
        if not busy and reader is not None:
            reader.cancel()

    refusals = Refusals(websocket.send_text)  # one rate_limited reply per burst
    conn = Connection(seat, refusals.send, on_overflow=drop)
    bucket = websocket.app.state.limiter.message_bucket()
    writer = asyncio.create_task(conn.run_writer())
    await mgr.seats.connect(live, conn)
    try:
        while not conn.overflowed:
            try:
                message = await websocket.receive()
            except asyncio.CancelledError:
                if conn.overflowed:
                    break
                raise
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                conn.send(TableError("bad_json", "send JSON text, not binary").to_message())
                continue
            if bucket is not None and not bucket.take():
                refusals.refuse(conn, text, bucket)
                continue
            busy = True
            await mgr.dispatch.handle(live, conn, text)
            busy = False
    except WebSocketDisconnect:
        pass
    finally:
        await mgr.seats.disconnect(live, conn)
        if conn.overflowed:
            writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(writer, timeout=2)
    if conn.overflowed:
        with contextlib.suppress(Exception):
            await websocket.close(1008, "too slow: messages were not read")


def _first_hello(raw: str | None) -> tuple[Hello | TableError, object]:
    """The hello a socket must open with, or the error that answers anything else, with
    the message's ``id`` as sent (a refusal echoes it)."""
    try:
        doc = loads(raw) if raw is not None else None
    except BadJSON:
        doc = None
    if not isinstance(doc, dict):
        return TableError("bad_json", "the message is not a JSON object"), None
    message = read_message(doc)
    if not isinstance(message, Hello):
        return TableError("hello_first", 'send {"type": "hello", "token": …} first'), doc.get("id")
    if message.token is not None and not isinstance(message.token, str):
        return TableError("bad_message", "'token' must be text or null"), doc.get("id")
    return message, doc.get("id")


async def _hello(
    websocket: WebSocket, mgr: TableManager, code: str
) -> tuple[LiveTable | None, int | None]:
    """Wait for the client's hello; answer errors until it comes. Closes on a bad one."""

    async def refuse(exc: TableError, close_code: int, ref: object) -> tuple[None, None]:
        await websocket.send_text(dumps(exc.to_message(ref)))
        await websocket.close(close_code)
        return None, None

    while True:
        message = await asyncio.wait_for(websocket.receive(), timeout=HELLO_TIMEOUT)
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect()
        hello, raw_id = _first_hello(message.get("text"))
        if isinstance(hello, TableError):
            await websocket.send_text(dumps(hello.to_message(raw_id)))
            continue
        token = hello.token if isinstance(hello.token, str) else None
        try:
            live = await find(websocket, mgr, code, token)
        except TableError as exc:
            return await refuse(exc, 4429 if exc.code == "rate_limited" else 4404, hello.ref)
        try:
            seat = live.seat_for_token(token)
        except TableError as exc:
            return await refuse(exc, 4403, hello.ref)
        return live, seat
