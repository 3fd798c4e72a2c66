"""The WebSocket's typed messages, dispatched by type (issue 22; docs/protocol.md).

Each client message type is one dataclass (``rami.server.messages``) with one handler
in ``SocketDispatch``'s table; the refusals keep the protocol's order (a spectator's
move is ``spectator`` before its text is looked at) and go to the sender only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient

from rami.server import ServerConfig, create_app
from rami.server.dispatch import SocketDispatch
from rami.server.messages import (
    CLIENT_MESSAGES,
    CLIENT_TYPES,
    Auto,
    Hello,
    PlayAction,
    React,
    read_message,
)


def test_every_client_type_has_a_typed_message_and_one_handler() -> None:
    dispatch = SocketDispatch(cast(Any, None), cast(Any, None), cast(Any, None), cast(Any, None))
    assert tuple(CLIENT_MESSAGES) == CLIENT_TYPES
    assert set(dispatch.handlers) == set(CLIENT_TYPES)
    assert all(name == kind.TYPE for name, kind in CLIENT_MESSAGES.items())


def test_a_message_is_read_into_its_type_with_its_fields_as_sent() -> None:
    assert read_message({"type": "action", "action": "draw", "id": "a"}) == PlayAction("a", "draw")
    assert read_message({"type": "auto", "seat": 1, "id": 7}) == Auto(7, 1)
    assert read_message({"type": "react", "key": ["x"]}) == React(None, ["x"])  # checked later
    assert read_message({"type": "hello", "token": None, "id": True}) == Hello(None, None)
    assert read_message({"type": "shout"}) is None
    assert read_message({"type": ["action"]}) is None
    assert read_message({}) is None


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    app = create_app(ServerConfig(db_url=f"sqlite:///{tmp_path / 'd.db'}", bot_delay=0))
    with TestClient(app) as c:
        yield c


def _errors(ws: Any, messages: list[dict[str, object]]) -> list[tuple[object, object]]:
    """Send each message, then a ping; the (code, id) of every error before the pong."""
    for message in messages:
        ws.send_json(message)
    ws.send_json({"type": "ping", "id": "end"})
    seen = []
    while True:
        reply = ws.receive_json()
        if reply["type"] == "pong":
            assert reply["id"] == "end"
            return seen
        if reply["type"] == "error":
            seen.append((reply["code"], reply["id"]))


def test_refusals_by_type_keep_the_protocols_order(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}]
    made = client.post("/api/tables", json={"game": "tunisian", "preset": "1v1", "seats": seats})
    code = made.json()["code"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws:  # a spectator
        ws.send_json({"type": "hello", "token": None})
        assert ws.receive_json()["type"] == "welcome"
        sent: list[dict[str, object]] = [
            {"type": "action", "action": 5, "id": 1},  # spectator first, not bad_message
            {"type": "hello", "id": 2},  # hello is sent once
            {"type": ["action"], "id": 3},
            {"type": "react", "key": "hello", "id": 4},
            {"type": "auto", "seat": "x", "id": 5},  # spectator before the seat's type
        ]
        assert _errors(ws, sent) == [
            ("spectator", 1),
            ("bad_message", 2),
            ("unknown_type", 3),
            ("spectator", 4),
            ("spectator", 5),
        ]
    with client.websocket_connect(f"/ws/tables/{code}") as ws:  # the creator's seat
        ws.send_json({"type": "hello", "token": made.json()["token"]})
        assert ws.receive_json()["type"] == "welcome"
        sent = [
            {"type": "action", "action": 5, "id": "a"},
            {"type": "auto", "seat": "x", "id": "b"},
            {"type": "react", "key": "free text", "id": "c"},
            {"type": "next_deal", "id": "d"},  # the table still waits for its second player
        ]
        assert _errors(ws, sent) == [
            ("bad_message", "a"),
            ("bad_message", "b"),
            ("bad_message", "c"),
            ("not_started", "d"),
        ]
