"""Faults during play: ``kill -9`` of the server, a locked database, restarts.

Plays Tunisian 1v1 tables over HTTP on loopback (humans on both seats, and tables of a
human against a bot), and between moves kills the server with SIGKILL and restarts it,
or holds the SQLite database locked for a while. Every move the server acknowledged
(HTTP 200 with its version) must still be there afterwards: ``lost acked moves`` must be
0, and every bot table must move again by itself after the lock (``stalled bots`` 0).
Bounded: ``--faults`` faults (default 8), a few seconds each. Exit status 1 otherwise.
"""

from __future__ import annotations

import argparse
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-c", "from rami.cli import main; main()", "serve"]
    command += ["--port", str(port), "--db", str(db), "--bot-delay", "0.05", "--no-limits"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


def choose(view: dict[str, Any]) -> str | None:
    """A move for the seat, or None when the seat is no longer to move (a bot moved first)."""
    legal = view["legal_actions"]
    if not legal:
        return None
    discards = [a for a in legal if a.startswith("discard")]
    return "draw" if "draw" in legal else (discards or legal)[0]


class Table:
    def __init__(self, code: str, tokens: list[str | None]) -> None:
        self.code = code
        self.tokens = tokens
        self.acked = 0  # highest version the server acknowledged to us


def play_round(client: httpx.Client, tables: list[Table], counts: dict[str, int]) -> None:
    """One move (or a next deal) on every table whose human is to move."""
    for t in tables:
        try:
            state = client.get(f"/api/tables/{t.code}/view").json()
            view = state["view"]
            if view["result"] is not None:
                if state["table"]["status"] != "playing":
                    continue
                token = next(tok for tok in t.tokens if tok)
                path, body = f"/api/tables/{t.code}/next-deal", None
            else:
                token = t.tokens[view["to_move"]]
                if token is None:
                    continue  # the bot's turn
                seat_view = client.get(
                    f"/api/tables/{t.code}/view", headers={"Authorization": f"Bearer {token}"}
                ).json()["view"]
                move = choose(seat_view)
                if move is None:
                    continue
                path, body = f"/api/tables/{t.code}/actions", {"action": move}
            response = client.post(path, json=body, headers={"Authorization": f"Bearer {token}"})
        except httpx.HTTPError:
            counts["connection errors"] += 1
            continue
        if response.status_code == 200:
            t.acked = max(t.acked, response.json()["version"])
            counts["acked moves"] += 1
        elif response.status_code == 503:
            counts["refused while locked"] += 1
        elif response.status_code != 409:
            counts["other errors"] += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--faults", type=int, default=8)
    args = parser.parse_args()
    counts = dict.fromkeys(
        ["kills", "locks", "acked moves", "refused while locked", "connection errors"], 0
    )
    counts["other errors"] = 0
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "faults.db"
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        proc = start(db, port)
        tables: list[Table] = []
        with httpx.Client(base_url=base, timeout=10) as client:
            for i in range(max(2, min(args.tables, 40))):
                seats = [{}, {"kind": "bot", "level": "random"}] if i % 2 else [{}, {}]
                made = client.post(
                    "/api/tables", json={"game": "tunisian", "preset": "1v1", "seats": seats}
                ).json()
                tokens: list[str | None] = [made["token"], None]
                if not i % 2:
                    tokens[1] = client.post(
                        f"/api/tables/{made['code']}/join", json={"invite": made["invite"]}
                    ).json()["token"]
                tables.append(Table(made["code"], tokens))
            for fault in range(max(1, min(args.faults, 40))):
                for _ in range(3):
                    play_round(client, tables, counts)
                if fault % 2 == 0:
                    proc.send_signal(signal.SIGKILL)
                    proc.wait()
                    counts["kills"] += 1
                    proc = start(db, port)
                else:
                    lock = sqlite3.connect(db, isolation_level=None, timeout=10)
                    lock.execute("BEGIN EXCLUSIVE")
                    counts["locks"] += 1
                    play_round(client, tables, counts)
                    time.sleep(1.0)
                    lock.execute("ROLLBACK")
                    lock.close()
            play_round(client, tables, counts)
            time.sleep(3.0)  # bots whose move failed during a lock must go on by themselves
            lost = stalled = 0
            for t in tables:
                state = client.get(f"/api/tables/{t.code}/view").json()
                lost += max(0, t.acked - state["version"])
                if t.tokens[1] is None:  # a bot table: the bot must not be stuck
                    deadline = time.time() + 10
                    while time.time() < deadline:
                        view = client.get(f"/api/tables/{t.code}/view").json()["view"]
                        if view["result"] is not None or view["to_move"] != 1:
                            break
                        time.sleep(0.1)
                    else:
                        stalled += 1
        proc.terminate()
        proc.wait(timeout=10)
    print(f"server_faults: {len(tables)} tables, {args.faults} faults")
    print(
        "| kills | locks | acked moves | lost acked moves | refused while locked "
        "| stalled bots | errors |"
    )
    print("|---|---|---|---|---|---|---|")
    errors = counts["other errors"]
    print(
        f"| {counts['kills']} | {counts['locks']} | {counts['acked moves']} | {lost} | "
        f"{counts['refused while locked']} | {stalled} | {errors} |"
    )
    return 1 if lost or stalled or errors or not counts["acked moves"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
