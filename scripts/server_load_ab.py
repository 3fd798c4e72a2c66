"""Old against new: ``bench/server_load.py`` on two checkouts' servers, interleaved.

Each round runs the same load on the old server, then on the new one (the server is
imported from ``--old-src`` / ``--new-src``), so that both see the same machine; the
rows are printed as they come and then side by side. Extra arguments go to
``server_load.py`` as they are. The old checkout: ``git worktree add --detach
/tmp/oldsrv <commit>``.

    python scripts/server_load_ab.py --old-src /tmp/oldsrv/src --rounds 2 -- --tables 400
    python scripts/server_load_ab.py --old-src /tmp/oldsrv/src -- --tables 200 --humans 4
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "bench"


def one_run(src: str, extra: list[str]) -> tuple[str, str]:
    """The table row and the CPU line of one ``server_load.py`` run with ``src``'s server."""
    env = {**os.environ, "PYTHONPATH": src}
    command = [sys.executable, str(HERE / "server_load.py"), *extra]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
    rows = [
        line for line in done.stdout.splitlines() if line.startswith("| ") and "---" not in line
    ]
    cpu = [line for line in done.stdout.splitlines() if line.startswith("server CPU")]
    if done.returncode != 0:
        print(done.stdout + done.stderr[-3000:], file=sys.stderr)
    return (rows[-1] if len(rows) > 1 else "(no result)"), (cpu[0] if cpu else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-src", required=True, help="the old checkout's src folder")
    parser.add_argument("--new-src", default=str(HERE.parent / "src"))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("extra", nargs="*", help="arguments for server_load.py (after --)")
    args = parser.parse_args()
    for src in (args.old_src, args.new_src):
        if not (Path(src) / "rami").is_dir():
            raise SystemExit(f"{src} holds no rami package")
    rounds = max(1, min(args.rounds, 10))
    results: list[tuple[str, int, str]] = []
    for r in range(1, rounds + 1):
        for side, src in (("old", args.old_src), ("new", args.new_src)):
            row, cpu = one_run(src, args.extra)
            print(f"{side} round {r}: {row}\n  {cpu}", flush=True)
            results.append((side, r, row))
    header = (
        "| side | round | tables | acked moves | p50 ms | p95 ms | p99 ms | max ms | errors "
        "| server CPU | server CPU ms/move | db CPU ms/move | server RSS MB | clients CPU "
        "| load avg |"
    )
    print(f"\nserver_load {' '.join(args.extra)}\n{header}")
    print("|---" * 15 + "|")
    for side, r, row in results:
        print(f"| {side} | {r} {row}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
