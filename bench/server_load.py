"""Load on one ``rami serve`` process: N tables of real WebSocket clients on loopback.

Each table is Tunisian (four seats): ``--humans 1`` plays one scripted human against
three bots, ``--humans 4`` four scripted humans. A scripted human waits ``--think``
seconds (±50 %) when it is to move, sends its move over its socket and times the
acknowledgement (stored and committed). Printed: acknowledgement latency p50/p95/p99,
errors, the server's CPU (share of one core) and memory. Bounded: at most 400 tables,
``--seconds`` of play (default 20). Exit status 1 if any error or the server died.

    python bench/server_load.py --tables 100 --humans 1 --seconds 30
    python bench/server_load.py --db postgresql+psycopg://postgres@127.0.0.1:5432/rami

The clients run on the same machine as the server (loopback only), so they share its
cores: figures are a lower bound of what the server alone would do.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

try:  # the clients parse every state message: orjson keeps their share of the cores small
    from orjson import loads as parse
except ImportError:
    parse = json.loads

MAX_TABLES = 400


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def start_server(db: str, port: int, bot_delay: float) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-c", "from rami.cli import main; main()", "serve"]
    command += ["--port", str(port), "--db", db, "--bot-delay", str(bot_delay), "--no-limits"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []


def choose(view: dict[str, Any]) -> str:
    legal = view["legal_actions"]
    discards = [a for a in legal if a.startswith("discard")]
    return "draw" if "draw" in legal else (discards or legal)[0]


async def human(
    url: str, token: str, seat: int, think: float, until: float, stats: Stats, rng: random.Random
) -> None:
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        pending_version = -1
        while time.perf_counter() < until:
            try:
                left = max(0.1, until - time.perf_counter())
                raw = await asyncio.wait_for(ws.recv(), timeout=left)
            except TimeoutError:
                return
            message = parse(raw)
            kind = message["type"]
            if kind == "ack" and sent_at is not None:
                stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            elif kind == "error":
                if message["code"] not in ("not_your_turn", "deal_not_over"):
                    stats.errors.append(f"{message['code']}: {message['message']}")
                sent_at = None
            elif kind == "state" and sent_at is None and message["version"] > pending_version:
                view = message["view"]
                if view["result"] is not None:
                    if seat != 0 or message["table"]["status"] != "playing":
                        continue
                    payload = {"type": "next_deal", "id": message["version"]}
                elif view["to_move"] == seat and view["legal_actions"]:
                    payload = {"type": "action", "action": choose(view), "id": message["version"]}
                else:
                    continue
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                pending_version = message["version"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps(payload))


async def run(args: argparse.Namespace, bases: list[str]) -> Stats:
    stats = Stats()
    rng = random.Random(1)
    seats_spec = [{"kind": "human"}] * args.humans + [{"kind": "bot", "level": args.level}] * (
        4 - args.humans
    )
    players: list[tuple[str, str, int]] = []
    async with httpx.AsyncClient(base_url=bases[0], timeout=30) as client:
        for _ in range(args.tables):
            made = (
                await client.post(
                    "/api/tables", json={"game": "tunisian", "preset": "ffa", "seats": seats_spec}
                )
            ).json()
            code = made["code"]
            players.append((code, made["token"], 0))
            for _ in range(1, args.humans):
                invite = {"invite": made["invite"]}
                joined = (await client.post(f"/api/tables/{code}/join", json=invite)).json()
                players.append((code, joined["token"], joined["seat"]))
    ws_bases = [base.replace("http://", "ws://") for base in bases]
    until = time.perf_counter() + args.seconds
    tasks = [
        human(
            f"{ws_bases[i % len(ws_bases)]}/ws/tables/{code}",
            token,
            seat,
            args.think,
            until,
            stats,
            rng,
        )
        for i, (code, token, seat) in enumerate(players)
    ]
    results = await asyncio.gather(*tasks, return_exceptions=True)
    stats.errors += [f"client: {r!r}" for r in results if isinstance(r, BaseException)]
    return stats


def gc_summary(texts: list[str]) -> str:
    """Garbage-collection passes of the server(s), from ``rami_gc_pause_seconds``."""
    count = total = slow = 0.0
    for text in texts:
        for line in text.splitlines():
            if line.startswith("rami_gc_pause_seconds_count"):
                count += float(line.split()[-1])
            elif line.startswith("rami_gc_pause_seconds_sum"):
                total += float(line.split()[-1])
            elif line.startswith("rami_gc_pause_seconds_bucket") and 'le="0.01"' in line:
                slow -= float(line.split()[-1])
            elif line.startswith("rami_gc_pause_seconds_bucket") and 'le="+Inf"' in line:
                slow += float(line.split()[-1])
    return (
        f"server GC: {count:.0f} passes, {total * 1e3:.0f} ms in all, {slow:.0f} passes over 10 ms"
    )


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--humans", type=int, choices=(1, 4), default=1)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.5, help="human pause before a move")
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--level", default="greedy")
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite)")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes sharing --db (PostgreSQL); players alternate between them",
    )
    args = parser.parse_args()
    args.tables = max(1, min(args.tables, MAX_TABLES))
    args.seconds = max(1.0, min(args.seconds, 300.0))
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{tmp}/load.db"
        if args.processes > 1 and not db.startswith("postgresql"):
            raise SystemExit("--processes > 1 needs --db postgresql://…")
        ports = [free_port() for _ in range(max(1, min(args.processes, 4)))]
        procs = [start_server(db, port, args.bot_delay) for port in ports]
        try:
            cpu0, t0 = sum(cpu_seconds(p.pid) for p in procs), time.perf_counter()
            mine0 = cpu_seconds(os.getpid())
            stats = asyncio.run(run(args, [f"http://127.0.0.1:{port}" for port in ports]))
            elapsed = time.perf_counter() - t0
            gc_line = gc_summary([httpx.get(f"http://127.0.0.1:{p}/metrics").text for p in ports])
            cpu = (sum(cpu_seconds(p.pid) for p in procs) - cpu0) / elapsed
            client_cpu = (cpu_seconds(os.getpid()) - mine0) / elapsed
            rss = sum(rss_mb(p.pid) for p in procs)
            alive = all(p.poll() is None for p in procs)
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
    lat = stats.latencies
    kind = "1 human + 3 bots" if args.humans == 1 else "4 humans"
    backend = db.split(":")[0]
    print(
        f"server_load: {args.tables} tables of {kind}, {args.seconds:.0f} s, db {backend}, "
        f"{len(ports)} server process(es)"
    )
    print(
        "| tables | acked moves | p50 ms | p95 ms | p99 ms | max ms | errors | server CPU "
        "| server RSS MB | clients CPU | load avg |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print(
        f"| {args.tables} | {len(lat)} | {percentile(lat, 0.5) * 1e3:.1f} | "
        f"{percentile(lat, 0.95) * 1e3:.1f} | {percentile(lat, 0.99) * 1e3:.1f} | "
        f"{(max(lat) if lat else float('nan')) * 1e3:.1f} | {len(stats.errors)} | "
        f"{cpu:.0%} | {rss:.0f} | {client_cpu:.0%} | {os.getloadavg()[0]:.1f} |"
    )
    print(gc_line)
    for error in stats.errors[:5]:
        print("  error:", error)
    if not alive:
        print("server_load: the server died", file=sys.stderr)
    return 1 if stats.errors or not alive or not lat else 0


if __name__ == "__main__":
    raise SystemExit(main())
