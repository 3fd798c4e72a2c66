"""The table WebSocket (docs/protocol.md): hello, per-seat views, acks, errors, bots.

Every refusal is an ``error`` message to the sender only, and the table's version does
not move; every accepted action is acknowledged after it is stored, then each connection
gets its own seat's view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rami.server import ServerConfig, create_app

Message = dict[str, Any]


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """The app on SQLite and on PostgreSQL (the ``db_url`` fixture of conftest.py)."""
    app = create_app(ServerConfig(db_url=db_url, bot_delay=0))
    with TestClient(app) as c:
        yield c


def new_table(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> Message:
    body = {"game": "tunisian", "preset": "1v1", "seats": seats, **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    made: Message = response.json()
    return made


def two_humans(client: TestClient) -> tuple[str, list[str]]:
    made = new_table(client, [{"kind": "human"}, {"kind": "human"}])
    joined = client.post(f"/api/tables/{made['code']}/join", json={"name": "Bo"}).json()
    return made["code"], [made["token"], joined["token"]]


def until(ws: Any, test: Callable[[Message], bool], limit: int = 200) -> Message:
    """The first message passing ``test`` (the others are skipped)."""
    for _ in range(limit):
        message: Message = ws.receive_json()
        if test(message):
            return message
    raise AssertionError("expected message did not come")


def hello(ws: Any, token: str | None) -> Message:
    """Say hello; return the first state (after the welcome)."""
    ws.send_json({"type": "hello", "token": token})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    state: Message = ws.receive_json()
    assert state["type"] == "state" and state["seat"] == welcome["seat"]
    return state


def is_state(message: Message) -> bool:
    return bool(message["type"] == "state")


def test_each_seat_gets_its_own_view_and_spectators_the_public_one(client: TestClient) -> None:
    code, tokens = two_humans(client)
    path = f"/ws/tables/{code}"
    with (
        client.websocket_connect(path) as a,
        client.websocket_connect(path) as b,
        client.websocket_connect(path) as spectator,
    ):
        states = [hello(a, tokens[0]), hello(b, tokens[1]), hello(spectator, None)]
        assert [s["seat"] for s in states] == [0, 1, None]
        assert states[2]["view"]["hand"] is None and states[2]["view"]["legal_actions"] == []
        mover = states[0]["view"]["to_move"]
        sockets = [a, b]
        action = states[mover]["view"]["legal_actions"][0]
        sockets[mover].send_json({"type": "action", "action": action, "id": "m1"})
        ack = until(sockets[mover], lambda m: m["type"] == "ack")
        assert ack == {"type": "ack", "id": "m1", "version": 1}
        for ws, seat in ((a, 0), (b, 1), (spectator, None)):
            state = until(ws, lambda m: is_state(m) and m["version"] == 1)
            assert state["seat"] == seat
            assert state["view"]["seat"] == seat
            assert (state["view"]["hand"] is None) == (seat is None)
            assert state["view"]["history"][-1]["move"] == action


def test_errors_go_to_the_sender_and_change_nothing(client: TestClient) -> None:
    code, tokens = two_humans(client)
    path = f"/ws/tables/{code}"
    with client.websocket_connect(path) as a, client.websocket_connect(path) as b:
        states = [hello(a, tokens[0]), hello(b, tokens[1])]
        mover = states[0]["view"]["to_move"]
        me, other = [a, b][mover], [a, b][1 - mover]
        legal = states[mover]["view"]["legal_actions"][0]
        sent: list[tuple[Any, Any, str]] = [
            (me, "{not json", "bad_json"),
            (me, "[1, 2]", "bad_json"),
            (me, {"type": "shout", "id": 1}, "unknown_type"),
            (me, {"id": 2}, "unknown_type"),
            (me, {"type": "action", "id": 3}, "bad_message"),
            (me, {"type": "action", "action": 7, "id": 4}, "bad_message"),
            (me, {"type": "action", "action": "discard 99♣", "id": 5}, "illegal"),
            (me, {"type": "action", "action": "take", "id": 6}, "illegal"),
            (me, {"type": "next_deal", "id": 7}, "deal_not_over"),
            (me, {"type": "hello", "token": tokens[mover], "id": 8}, "bad_message"),
            (other, {"type": "action", "action": legal, "id": 9}, "not_your_turn"),
        ]
        for ws, message, expected in sent:
            if isinstance(message, str):
                ws.send_text(message)
            else:
                ws.send_json(message)
            error = until(ws, lambda m: m["type"] in ("error", "ack", "state"))
            assert error["type"] == "error" and error["code"] == expected, (message, error)
            assert error["message"]
            if isinstance(message, dict) and "id" in message:
                assert error["id"] == message["id"]
        me.send_bytes(b"\x00\x01")
        assert until(me, lambda m: m["type"] == "error")["code"] == "bad_json"
        me.send_json({"type": "ping", "id": "p"})
        assert until(me, lambda m: m["type"] != "presence") == {"type": "pong", "id": "p"}
        state = client.get(f"/api/tables/{code}/view").json()
        assert state["version"] == 0


def test_hello_is_required_and_checked(client: TestClient) -> None:
    code, tokens = two_humans(client)
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ws.send_json({"type": "action", "action": "draw"})
        assert ws.receive_json()["code"] == "hello_first"
        ws.send_text("oops")
        assert ws.receive_json()["code"] == "bad_json"
        ws.send_json({"type": "hello", "token": 12})
        assert ws.receive_json()["code"] == "bad_message"
        state = hello(ws, tokens[1])
        assert state["seat"] == 1
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ws.send_json({"type": "hello", "token": "someone-elses"})
        assert ws.receive_json()["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect("/ws/tables/NOSUCH") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["code"] == "no_table"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_spectators_cannot_act(client: TestClient) -> None:
    code, _tokens = two_humans(client)
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        hello(ws, None)
        for kind in ("action", "next_deal", "hint", "start"):
            ws.send_json({"type": kind, "action": "draw", "id": kind})
            error = ws.receive_json()
            assert (error["type"], error["code"], error["id"]) == ("error", "spectator", kind)


def test_reconnecting_gets_the_current_view_and_presence(client: TestClient) -> None:
    code, tokens = two_humans(client)
    path = f"/ws/tables/{code}"
    with client.websocket_connect(path) as a:
        first = hello(a, tokens[0])
        assert first["table"]["seats"][0]["online"] is True
        assert first["table"]["seats"][1]["online"] is False
        with client.websocket_connect(path) as b:
            hello(b, tokens[1])
            seen = until(a, lambda m: m["type"] == "presence")
            assert seen["seats"][1]["online"] is True
        gone = until(a, lambda m: m["type"] == "presence")
        assert gone["seats"][1]["online"] is False
    with client.websocket_connect(path) as again:
        state = hello(again, tokens[0])
        assert state["version"] == first["version"]
        assert state["view"]["hand"] == first["view"]["hand"]


def test_bots_answer_over_the_socket(client: TestClient) -> None:
    made = new_table(client, [{"kind": "human"}, {"kind": "bot", "level": "random"}])
    with client.websocket_connect(f"/ws/tables/{made['code']}") as ws:
        state = hello(ws, made["token"])
        for _ in range(3):
            if state["view"]["to_move"] != 0:
                state = until(ws, lambda m: is_state(m) and m["view"]["to_move"] == 0)
            legal = state["view"]["legal_actions"]
            action = "draw" if "draw" in legal else next(a for a in legal if "discard" in a)
            ws.send_json({"type": "action", "action": action})
            until(ws, lambda m: m["type"] == "ack")
            state = until(ws, is_state)
        moves = [e for e in state["view"]["history"] if e.get("seat") == 1 and "move" in e]
        assert moves, "the bot has not moved"
        ws.send_json({"type": "hint", "id": "h"})
        hint = until(ws, lambda m: m["type"] == "hint")
        assert hint["id"] == "h" and "notes" in hint and "suggestion" in hint


def test_start_over_the_socket_fills_free_seats(client: TestClient) -> None:
    made = new_table(
        client,
        [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "human"}],
        preset="ffa",
    )
    with client.websocket_connect(f"/ws/tables/{made['code']}") as ws:
        state = hello(ws, made["token"])
        assert state["table"]["status"] == "waiting"
        ws.send_json({"type": "action", "action": "draw", "id": 1})
        assert ws.receive_json()["code"] == "not_started"
        ws.send_json({"type": "start", "id": 2})
        started = until(ws, lambda m: is_state(m) and m["table"]["status"] == "playing")
        assert [s["kind"] for s in started["table"]["seats"]] == ["human", "bot", "bot", "bot"]


def test_the_log_stores_the_deals_canonical_text(client: TestClient) -> None:
    """A move typed in any accepted form is logged as the deal logs it (one text)."""
    code, tokens = two_humans(client)
    path = f"/ws/tables/{code}"
    with client.websocket_connect(path) as a, client.websocket_connect(path) as b:
        states = [hello(a, tokens[0]), hello(b, tokens[1])]
        mover = states[0]["view"]["to_move"]
        canonical = states[mover]["view"]["legal_actions"][0]  # the dealer's discard (T-2)
        assert canonical.startswith("discard ")
        typed = "DISCARD  " + canonical.split()[1].replace("♣", "c").replace("♦", "d")
        typed = typed.replace("♥", "h").replace("♠", "s")
        [a, b][mover].send_json({"type": "action", "action": typed, "id": "t"})
        assert until([a, b][mover], lambda m: m["type"] == "ack")["version"] == 1
    manager = client.app.state.manager  # type: ignore[attr-defined]
    record = manager.store.load(code)
    assert [e.data for e in record.events] == [canonical]
