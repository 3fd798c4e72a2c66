"""Two ``rami serve`` processes on one PostgreSQL (issue 14): a table's two players are
connected to different processes, each sees the other's moves pushed (LISTEN/NOTIFY), a
whole deal is played; one process is killed and the game goes on through the other."""

from __future__ import annotations

import json
import signal
import time
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("psycopg")
httpx = pytest.importorskip("httpx")
sync_client = pytest.importorskip("websockets.sync.client")

from server_process import free_port, start_server, stop  # noqa: E402


def receive(ws: Any, test: Any, limit: int = 400) -> dict[str, Any]:
    for _ in range(limit):
        message: dict[str, Any] = json.loads(ws.recv(timeout=15))
        if test(message):
            return message
    raise AssertionError("expected message did not come")


def hello(port: int, code: str, token: str) -> tuple[Any, dict[str, Any]]:
    ws = sync_client.ClientConnection.__enter__(  # closed by the test's finally
        sync_client.connect(f"ws://127.0.0.1:{port}/ws/tables/{code}")
    )
    ws.send(json.dumps({"type": "hello", "token": token}))
    state = receive(ws, lambda m: m["type"] == "state")
    return ws, state


def choose(view: dict[str, Any]) -> str:
    legal = view["legal_actions"]
    discards = [a for a in legal if a.startswith("discard")]
    return "draw" if "draw" in legal else (discards or legal)[0]


def test_two_processes_share_a_table_and_survive_one_killed(pg_cluster: Any) -> None:
    url = pg_cluster.new_database()
    ports = [free_port(), free_port()]
    procs = [start_server(url, ports[0]), start_server(url, ports[1])]
    sockets: list[Any] = []
    try:
        a, b = (f"http://127.0.0.1:{p}" for p in ports)
        made = httpx.post(
            f"{a}/api/tables",
            json={
                "game": "tunisian",
                "preset": "1v1",
                "seats": [{}, {}],
                "options": {"max_turns": 16},
            },
        ).json()
        code = made["code"]
        invite = {"invite": made["invite"]}
        joined = httpx.post(f"{b}/api/tables/{code}/join", json=invite).json()  # other process
        tokens = [made["token"], joined["token"]]
        deadline = time.time() + 10  # process a hears of b's join by NOTIFY, a moment later
        while httpx.get(f"{a}/api/tables/{code}").json()["status"] != "playing":
            assert time.time() < deadline, "process a never heard of the join"
            time.sleep(0.05)
        ws0, s0 = hello(ports[0], code, tokens[0])
        ws1, s1 = hello(ports[1], code, tokens[1])
        sockets = [ws0, ws1]
        assert s0["table"]["status"] == s1["table"]["status"] == "playing"
        states = [s0, s1]
        acked = 0
        for step in range(200):
            view = states[0]["view"]
            if view["result"] is not None:
                break
            mover = view["to_move"]
            ws = sockets[mover]
            action = choose(states[mover]["view"])
            ws.send(json.dumps({"type": "action", "action": action, "id": step}))
            ack = receive(ws, lambda m: m["type"] in ("ack", "error"))
            assert ack["type"] == "ack", ack
            acked = ack["version"]
            # both players' sockets get the new state, whichever process they are on
            states = [
                receive(s, lambda m, v=acked: m["type"] == "state" and m["version"] >= v)
                for s in sockets
            ]
        assert states[0]["view"]["result"] is not None, "the deal did not end"
        assert states[1]["view"]["result"] == states[0]["view"]["result"]

        procs[0].send_signal(signal.SIGKILL)  # player 0's process dies
        procs[0].wait(timeout=10)
        ws0.close()
        ws0, again = hello(ports[1], code, tokens[0])  # reconnects to the other one
        sockets[0] = ws0
        assert again["version"] >= acked and again["view"]["result"] is not None
        ws0.send(json.dumps({"type": "next_deal", "id": "n"}))
        assert receive(ws0, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        state = receive(ws0, lambda m: m["type"] == "state" and m["view"]["result"] is None)
        mover = state["view"]["to_move"]
        if mover == 0:
            ws0.send(json.dumps({"type": "action", "action": choose(state["view"]), "id": "x"}))
            assert receive(ws0, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        summary = httpx.get(f"{b}/api/tables/{code}").json()
        assert summary["version"] > acked and summary["status"] == "playing"
    finally:
        for ws in sockets:
            ws.close()
        for proc in procs:
            stop(proc)


def bot_moves(port: int) -> float:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics").text
    return sum(
        float(line.split()[-1])
        for line in text.splitlines()
        if line.startswith("rami_bot_think_seconds_count")
    )


def test_one_process_drives_the_bots_and_another_takes_over(pg_cluster: Any) -> None:
    url = pg_cluster.new_database()
    ports = [free_port(), free_port()]
    procs = [start_server(url, ports[0]), start_server(url, ports[1])]
    sockets: list[Any] = []
    try:
        made = httpx.post(
            f"http://127.0.0.1:{ports[0]}/api/tables",
            json={"game": "tunisian", "preset": "1v1", "seats": [{}, {"kind": "bot"}]},
        ).json()
        code, token = made["code"], made["token"]
        httpx.get(f"http://127.0.0.1:{ports[1]}/api/tables/{code}")  # both hold the table

        def play(port: int, moves: int) -> int:
            ws, state = hello(port, code, token)
            sockets.append(ws)
            made_moves = 0
            while made_moves < moves:
                if state["view"]["result"] is not None:  # the bot went out early: deal again
                    ws.send(json.dumps({"type": "next_deal"}))
                    ack = receive(ws, lambda m: m["type"] in ("ack", "error"))
                    assert ack["type"] == "ack", ack
                    made_moves += 1
                    state = receive(
                        ws, lambda m: m["type"] == "state" and m["view"]["result"] is None
                    )
                    continue
                if state["view"]["to_move"] != 0:  # the bot's turn: it must move by itself
                    state = receive(
                        ws, lambda m, v=state["version"]: m["type"] == "state" and m["version"] > v
                    )
                    continue
                ws.send(json.dumps({"type": "action", "action": choose(state["view"])}))
                ack = receive(ws, lambda m: m["type"] in ("ack", "error"))
                assert ack["type"] == "ack", ack
                made_moves += 1
                state = receive(
                    ws, lambda m, v=ack["version"]: m["type"] == "state" and m["version"] >= v
                )
            ws.close()
            version: int = state["version"]
            return version

        before = play(ports[1], 6)
        # the bots follow the player: process 0 (the table's maker, which drove them
        # first) hands them to process 1, where the player's socket is
        counts = [bot_moves(p) for p in ports]
        assert counts[1] > 0, counts
        played = counts[0]
        before = play(ports[1], 6)
        assert bot_moves(ports[0]) == played  # one process drives them, not both
        procs[1].send_signal(signal.SIGKILL)  # the driver dies
        procs[1].wait(timeout=10)
        after = play(ports[0], 6)  # the survivor takes the bots over (lease freed)
        assert after > before and bot_moves(ports[0]) > played
    finally:
        for ws in sockets:
            ws.close()
        for proc in procs:
            stop(proc)
