"""Hostile input and slow clients (issue 14): refused with an error, never a 500 or a dead
socket, and memory stays bounded; bots carry on by themselves after a storage fault."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from rami.server import ServerConfig, create_app
from rami.server.connection import SEND_QUEUE_MESSAGES, Connection
from rami.server.limits import MAX_JSON_DEPTH, BadJSON, dumps, loads

TUNISIAN_1V1 = {"game": "tunisian", "preset": "1v1", "seats": [{"kind": "human"}] * 2}
JSON = {"Content-Type": "application/json"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'rami.db'}", bot_delay=0, db_busy_ms=50)
    with TestClient(create_app(cfg), raise_server_exceptions=False) as c:
        yield c


def two_humans(client: TestClient) -> tuple[str, list[str]]:
    made = client.post("/api/tables", json=TUNISIAN_1V1).json()
    joined = client.post(f"/api/tables/{made['code']}/join", json={}).json()
    return made["code"], [made["token"], joined["token"]]


def test_loads_refuses_nan_depth_and_cleans_surrogates() -> None:
    for bad in ("NaN", '{"a": Infinity}', "[" * 1000 + "]" * 1000, "{oops"):
        with pytest.raises(BadJSON):
            loads(bad)
    assert loads("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) is not None
    assert loads('{"a\\ud800": "x\\udc00"}') == {"a\ufffd": "x\ufffd"}
    assert loads('"[[[[" ') == "[[[["  # brackets inside strings do not count
    assert dumps({"x": float("nan"), "y": "\ud800"}) == '{"x":null,"y":"\ufffd"}'


def test_http_bodies_with_surrogates_or_nan_get_clear_errors(client: TestClient) -> None:
    code, tokens = two_humans(client)
    auth = {**JSON, "Authorization": f"Bearer {tokens[0]}"}
    other = client.post("/api/tables", json=TUNISIAN_1V1).json()["code"]
    bodies = [
        ("/api/tables", '{"game": "tunisian\\ud800", "seats": []}', {400}),
        ("/api/tables", '{"game": "tunisian", "seats": [], "options": {"x": NaN}}', {400}),
        ("/api/tables", '{"game": "tunisian", "name": "\\ud800", "seats": [{}, {}]}', {201}),
        (f"/api/tables/{code}/actions", '{"action": "discard \\ud800"}', {409}),
        (f"/api/tables/{code}/actions", '{"action": NaN}', {400}),
        (f"/api/tables/{code}/actions", "[" * 2000 + "]" * 2000, {400}),
        (f"/api/tables/{other}/join", '{"name": "\\udfff"}', {200}),
    ]
    for path, body, statuses in bodies:
        response = client.post(path, content=body.encode(), headers=auth)
        assert response.status_code in statuses, (body, response.text)
        if response.status_code >= 400:
            assert response.json()["error"]["message"], response.text
    assert client.get(f"/api/tables/{code}/view").json()["version"] == 0


def test_huge_headers_and_bodies_are_refused(client: TestClient) -> None:
    response = client.get("/api/games", headers={"X-Big": "a" * 100_000})
    assert response.status_code == 431
    response = client.post("/api/tables", content=b"[" + b"1," * 100_000 + b"1]", headers=JSON)
    assert response.status_code == 413


def test_websocket_survives_deep_json_nan_and_echoed_surrogates(client: TestClient) -> None:
    code, tokens = two_humans(client)
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ws.send_text('{"type": "hello\\ud800"}')  # refused during hello, echoed: still alive
        assert ws.receive_json()["code"] == "hello_first"
        ws.send_json({"type": "hello", "token": tokens[0]})
        assert ws.receive_json()["type"] == "welcome"
        assert ws.receive_json()["type"] == "state"
        for text, expected in [
            ("[" * 1000 + "]" * 1000, {"bad_json"}),
            ('{"type": "ping", "id": NaN}', {"bad_json"}),
            ('{"type": "sh\\ud800out", "id": "\\udc00"}', {"unknown_type"}),
            ('{"type": "action", "action": "discard 7\\ud800"}', {"illegal", "not_your_turn"}),
            ("x" * 100_000, {"bad_json"}),
        ]:
            ws.send_text(text)
            message = ws.receive_json()
            while message["type"] == "presence":
                message = ws.receive_json()
            assert message["type"] == "error" and message["code"] in expected, (text, message)
            ws.send_json({"type": "ping", "id": "p"})
            assert ws.receive_json() == {"type": "pong", "id": "p"}


def test_a_client_that_does_not_read_is_dropped_and_its_queue_bounded() -> None:
    async def scenario() -> tuple[Connection, int]:
        blocked = asyncio.Event()
        dropped: list[bool] = []

        async def never_returns(_text: str) -> None:
            await blocked.wait()

        conn = Connection(None, never_returns, on_overflow=lambda: dropped.append(True))
        writer = asyncio.create_task(conn.run_writer())
        for i in range(10 * SEND_QUEUE_MESSAGES):
            conn.send(dumps({"type": "state", "n": i, "pad": "x" * 1000}))
            await asyncio.sleep(0)
        size = conn.queue.qsize()
        writer.cancel()
        assert dropped == [True]
        return conn, size

    conn, size = asyncio.run(scenario())
    assert conn.overflowed and conn.closed and size <= 1


def test_bots_go_on_by_themselves_after_the_database_was_locked(tmp_path: Path) -> None:
    db = tmp_path / "rami.db"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", bot_delay=0.6, db_busy_ms=50)
    seats = [{}, {"kind": "bot", "level": "random"}]
    with TestClient(create_app(cfg)) as client:
        made = client.post("/api/tables", json={**TUNISIAN_1V1, "seats": seats}).json()
        code, auth = made["code"], {"Authorization": f"Bearer {made['token']}"}

        def view() -> dict[str, Any]:
            state: dict[str, Any] = client.get(f"/api/tables/{code}/view", headers=auth).json()
            return state

        def my_turn(after: int) -> dict[str, Any]:
            deadline = time.time() + 30
            while time.time() < deadline:
                state = view()
                if state["view"]["to_move"] == 0 and state["version"] > after:
                    return state
                time.sleep(0.05)
            raise AssertionError("the bot did not move again")

        state = my_turn(-1)
        while True:  # play up to a discard: then the bot is to move
            legal = state["view"]["legal_actions"]
            action = "draw" if "draw" in legal else next(a for a in legal if "discard" in a)
            response = client.post(
                f"/api/tables/{code}/actions", json={"action": action}, headers=auth
            )
            assert response.status_code == 200, response.text
            state = response.json()
            if "discard" in action:
                break
        lock = sqlite3.connect(db, isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")  # the bot's move cannot be saved for a while
        version = state["version"]
        time.sleep(1.5)
        assert view()["version"] == version  # refused, nothing changed
        lock.execute("ROLLBACK")
        lock.close()
        assert my_turn(version)["version"] > version


def test_probing_table_codes_is_throttled(client: TestClient) -> None:
    code, _tokens = two_humans(client)
    statuses = [client.get(f"/api/tables/ZZZ{i:03d}").status_code for i in range(40)]
    assert statuses[:20] == [404] * 20 and set(statuses[20:]) == {429}
    refused = client.get(f"/api/tables/{code}")  # even a real code, while out of misses
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    assert "try again" in refused.json()["error"]["message"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["code"] == "rate_limited"


def test_joins_and_messages_are_throttled(client: TestClient) -> None:
    codes = []
    for _ in range(40):
        response = client.post("/api/tables", json=TUNISIAN_1V1)
        if response.status_code != 201:
            break
        codes.append(response.json()["code"])
    assert len(codes) == 30 and response.status_code == 429
    assert client.post(f"/api/tables/{codes[0]}/join", json={}).status_code == 429
    with client.websocket_connect(f"/ws/tables/{codes[0]}") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "welcome"
        for i in range(100):
            ws.send_json({"type": "ping", "id": i})
        replies = [ws.receive_json() for _ in range(101)]
        kinds = [m.get("code", m["type"]) for m in replies if m["type"] != "presence"]
        assert kinds.count("pong") >= 60 and "rate_limited" in kinds


def test_health_readiness_and_metrics(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready"}
    code, tokens = two_humans(client)
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        state = [ws.receive_json(), ws.receive_json()][1]
        mover = state["view"]["to_move"]
        ws.send_json({"type": "action", "action": "draw" if mover == 0 else "take", "id": 1})
        ws.send_json({"type": "shout"})
        while ws.receive_json().get("code") != "unknown_type":  # both handled: then scrape
            pass
        text = client.get("/metrics").text
    assert "rami_live_tables 1.0" in text and "rami_sockets" in text
    assert 'rami_refused_messages_total{code="unknown_type"}' in text
    assert "rami_move_seconds_bucket" in text and "rami_bot_think_seconds" in text
