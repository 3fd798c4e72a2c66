"""Load on one ``rami serve`` process: N tables of real WebSocket clients on loopback.

Each table is Tunisian (four seats): ``--humans 1`` plays one scripted human against
three bots, ``--humans 4`` four scripted humans. A scripted human waits ``--think``
seconds (±50 %) when it is to move, sends its move over its socket and times the
acknowledgement (stored and committed). Printed: acknowledgement latency p50/p95/p99,
errors, the server's CPU (share of one core), its CPU per move (process CPU seconds
from /proc over the moves stored: a figure a busy machine barely changes, unlike the
latencies), memory and the load average. The servers run with their limits raised
(``--limits-scale``), not off; their logs go to files whose last lines are printed when
the run fails. Bounded: at most 400 tables, ``--seconds`` of play (default 20). Exit
status 1 if any error or the server died.

Old against new: the server is imported from ``PYTHONPATH``, so the same bench drives
any checkout (``PYTHONPATH=/path/to/other/src python bench/server_load.py …``).

    python bench/server_load.py --tables 100 --humans 1 --seconds 30
    python bench/server_load.py --db postgresql+psycopg://postgres@127.0.0.1:5432/rami
    python bench/server_load.py --pg --processes 2   # a throw-away cluster of its own

With ``--pg`` the bench starts its own PostgreSQL cluster (``tests/pg_cluster.py``) and
also prints the database's CPU per move (its backends' CPU from /proc), since on
PostgreSQL part of each move's cost is the database's own work.

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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

try:  # the clients parse every state message: orjson keeps their share of the cores small
    from orjson import loads as parse
except ImportError:
    parse = json.loads

MAX_TABLES = 1000  # 4,000 sockets with --humans 4: within a raised open-file limit


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (PostgreSQL's backends of a postmaster)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat[1]) == pid:
            found.append(int(entry.name))
    return found


def tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its children, those running and those it has reaped
    (a backend whose connection closed: the pool's overflow opens and closes many)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    total = (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
    for p in [pid, *children(pid)]:
        try:
            total += cpu_seconds(p)
        except OSError:
            continue
    return total


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def start_server(
    db: str, port: int, bot_delay: float, limits_scale: float, log_path: Path
) -> subprocess.Popen[bytes]:
    """One ``rami serve`` with its limits raised (not off) and its stderr in ``log_path``.

    A pipe nobody reads fills up and then stalls the server's logging (and so the
    server): the log goes to a file, whose last lines are shown when something fails.
    """
    command = [sys.executable, "-c", "from rami.cli import main; main()", "serve"]
    command += ["--port", str(port), "--db", db, "--bot-delay", str(bot_delay)]
    command += ["--limits-scale", str(limits_scale)]
    with log_path.open("wb") as log_file:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log_file)
    deadline = time.time() + 60
    while time.time() < deadline and proc.poll() is None:
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    print(tail(log_path), file=sys.stderr)
    raise SystemExit("the server did not start")


def tail(log_path: Path, lines: int = 20) -> str:
    """The last lines of a server's log, to show when the bench fails."""
    try:
        text = log_path.read_text(errors="replace")
    except OSError:
        return ""
    last = text.splitlines()[-lines:]
    return "\n".join(f"  server log ({log_path.name}): {line}" for line in last)


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.moves = 0  # events stored at all tables (humans' and bots'), seen by seat 0
        self.play_cpu = 0.0  # the servers' CPU seconds when play began (after the set-up)
        self.play_start = 0.0


def choose(view: dict[str, Any]) -> str:
    legal = view["legal_actions"]
    discards = [a for a in legal if a.startswith("discard")]
    return "draw" if "draw" in legal else (discards or legal)[0]


async def human(
    url: str, token: str, seat: int, think: float, until: float, stats: Stats, rng: random.Random
) -> None:
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await play(ws, seat, think, until, stats, rng)


async def play(
    ws: Any, seat: int, think: float, until: float, stats: Stats, rng: random.Random
) -> None:
    """Answer the table's state messages as a scripted human until ``until``.

    Seat 0 also counts the table's stored events (versions) it saw: the moves the
    server played and stored in that time, the humans' and the bots'.
    """
    sent_at: float | None = None
    pending_version = -1
    first_version: int | None = None
    last_version = 0
    try:
        while time.perf_counter() < until:
            try:
                left = max(0.1, until - time.perf_counter())
                raw = await asyncio.wait_for(ws.recv(), timeout=left)
            except TimeoutError:
                return
            message = parse(raw)
            kind = message["type"]
            if kind == "state":
                if first_version is None:
                    first_version = message["version"]
                last_version = max(last_version, message["version"])
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
    finally:
        if seat == 0 and first_version is not None:
            stats.moves += last_version - first_version


async def run(args: argparse.Namespace, bases: list[str], server_cpu: Callable[[], float]) -> Stats:
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
    stats.play_cpu, stats.play_start = server_cpu(), time.perf_counter()
    until = stats.play_start + args.seconds
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
    """Garbage-collection passes of the server(s) by generation, from ``rami_gc_pause_seconds``."""
    count: dict[str, float] = {}
    total: dict[str, float] = {}
    slow: dict[str, float] = {}
    for text in texts:
        for line in text.splitlines():
            if not line.startswith("rami_gc_pause_seconds"):
                continue
            gen = (
                line.split('generation="', 1)[1].split('"', 1)[0] if "generation=" in line else "?"
            )
            value = float(line.split()[-1])
            if line.startswith("rami_gc_pause_seconds_count"):
                count[gen] = count.get(gen, 0.0) + value
            elif line.startswith("rami_gc_pause_seconds_sum"):
                total[gen] = total.get(gen, 0.0) + value
            elif 'le="0.01"' in line:
                slow[gen] = slow.get(gen, 0.0) - value
            elif 'le="+Inf"' in line:
                slow[gen] = slow.get(gen, 0.0) + value
    parts = [
        f"gen {gen}: {count[gen]:.0f} passes, {total.get(gen, 0.0) * 1e3:.0f} ms, "
        f"{slow.get(gen, 0.0):.0f} over 10 ms"
        for gen in sorted(count)
    ]
    return "server GC: " + ("; ".join(parts) or "no passes")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help=f"1 to {MAX_TABLES}")
    parser.add_argument("--humans", type=int, choices=(1, 4), default=1)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=0.5, help="human pause before a move")
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--level", default="greedy")
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite)")
    parser.add_argument(
        "--pg",
        action="store_true",
        help="start a throw-away PostgreSQL cluster (tests/pg_cluster.py) for --db",
    )
    parser.add_argument(
        "--limits-scale",
        type=float,
        default=50.0,
        help="the servers' rate limits and socket caps this many times as generous "
        "(all clients share one address: 400 tables of 4 humans need 1,600 sockets)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes sharing --db (PostgreSQL); players alternate between them",
    )
    args = parser.parse_args()
    args.tables = max(1, min(args.tables, MAX_TABLES))
    args.seconds = max(1.0, min(args.seconds, 300.0))
    cluster = start_cluster() if args.pg else None
    try:
        return measure(args, cluster)
    finally:
        if cluster is not None:
            cluster.stop()


def start_cluster() -> Any:
    """A throw-away PostgreSQL cluster (the tests' own, ``fsync=off``) on loopback."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from pg_cluster import Cluster, pg_bin

    found = pg_bin()
    if found is None:
        raise SystemExit("--pg: PostgreSQL is not installed")
    cluster = Cluster(found)
    cluster.start()
    return cluster


def postmaster_pid(cluster: Any) -> int:
    return int((cluster.data / "postmaster.pid").read_text().split()[0])


def measure(args: argparse.Namespace, cluster: Any) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        db = cluster.new_database() if cluster is not None else args.db
        db = db or f"sqlite:///{tmp}/load.db"
        db_pid = postmaster_pid(cluster) if cluster is not None else None

        def db_cpu() -> float:
            return tree_cpu(db_pid) if db_pid is not None else 0.0

        if args.processes > 1 and not db.startswith("postgresql"):
            raise SystemExit("--processes > 1 needs --db postgresql://…")
        ports = [free_port() for _ in range(max(1, min(args.processes, 4)))]
        logs = [Path(tmp) / f"server-{i}.log" for i in range(len(ports))]
        procs = [
            start_server(db, port, args.bot_delay, args.limits_scale, log)
            for port, log in zip(ports, logs, strict=True)
        ]
        try:

            def server_cpu() -> float:
                return sum(cpu_seconds(p.pid) for p in procs)

            mine0 = cpu_seconds(os.getpid())
            bases = [f"http://127.0.0.1:{port}" for port in ports]
            db_cpu0 = [0.0]

            def start_cpu() -> float:
                db_cpu0[0] = db_cpu()
                return server_cpu()

            stats = asyncio.run(run(args, bases, start_cpu))
            elapsed = time.perf_counter() - stats.play_start
            server_cpu_s = server_cpu() - stats.play_cpu
            db_cpu_s = db_cpu() - db_cpu0[0]
            gc_line = gc_summary([httpx.get(f"http://127.0.0.1:{p}/metrics").text for p in ports])
            cpu = server_cpu_s / elapsed
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
        logs_tail = "\n".join(tail(log) for log in logs)
    lat = stats.latencies
    # every move of the table is a server's work: the humans' (timed) and the bots'
    moves = stats.moves
    per_move = server_cpu_s / moves * 1e3 if moves else float("nan")
    per_ack = server_cpu_s / len(lat) * 1e3 if lat else float("nan")
    db_per_move = db_cpu_s / moves * 1e3 if moves and db_pid is not None else float("nan")
    kind = "1 human + 3 bots" if args.humans == 1 else "4 humans"
    backend = db.split(":")[0]
    print(
        f"server_load: {args.tables} tables of {kind}, {args.seconds:.0f} s, db {backend}, "
        f"{len(ports)} server process(es)"
    )
    print(
        "| tables | acked moves | p50 ms | p95 ms | p99 ms | max ms | errors | server CPU "
        "| server CPU ms/move | db CPU ms/move | server RSS MB | clients CPU | load avg |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    print(
        f"| {args.tables} | {len(lat)} | {percentile(lat, 0.5) * 1e3:.1f} | "
        f"{percentile(lat, 0.95) * 1e3:.1f} | {percentile(lat, 0.99) * 1e3:.1f} | "
        f"{(max(lat) if lat else float('nan')) * 1e3:.1f} | {len(stats.errors)} | "
        f"{cpu:.0%} | {per_move:.2f} | {db_per_move:.2f} | {rss:.0f} | {client_cpu:.0%} | "
        f"{os.getloadavg()[0]:.1f} |"
    )
    print(gc_line)
    for error in stats.errors[:5]:
        print("  error:", error)
    print(
        f"server CPU {server_cpu_s:.1f} s: {per_move:.2f} ms per stored move ({moves}, humans' "
        f"and bots'), {per_ack:.2f} ms per acknowledged human move ({len(lat)}); "
        f"database CPU {db_cpu_s:.1f} s ({db_per_move:.2f} ms per move); "
        f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    failed = bool(stats.errors) or not alive or not lat
    if not alive:
        print("server_load: the server died", file=sys.stderr)
    if failed and logs_tail:
        print(logs_tail, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
