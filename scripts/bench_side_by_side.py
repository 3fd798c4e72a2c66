"""Run benches on two source trees, interleaved, and print their figures side by side.

The machines are noisy, so a before/after pair is only meaningful when both sides run in
the same session: this script alternates the trees round by round and reports each figure's
median over the rounds.

    python scripts/bench_side_by_side.py OLD_TREE NEW_TREE --rounds 3 \\
        --bench "bench/marriage_selfplay.py 5" --bench "bench/tunisian_selfplay.py 5"

Each tree is a checkout (``git worktree add --detach /tmp/old <commit>``); a bench runs with
``PYTHONPATH=<tree>/src`` from inside that tree. A figure is every number on an output
line; lines are matched between the trees by their text with the numbers taken out.
"""

from __future__ import annotations

import argparse
import re
import shlex
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

# a figure: digits not glued to a word ("1v1", "4p", "marriage_v0" stay in the line's text,
# so the lines of different tables do not fall together)
NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w])")


def run(tree: Path, bench: str) -> dict[str, list[float]]:
    """The figures of one run: line shape -> numbers on that line."""
    env = {"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, *shlex.split(bench)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        raise SystemExit(f"error: {bench} failed in {tree}: {out.stderr.strip()[-300:]}")
    figures: dict[str, list[float]] = {}
    repeats: dict[str, int] = defaultdict(int)
    for line in out.stdout.splitlines():
        numbers = [float(n.replace(",", "")) for n in NUMBER.findall(line)]
        if numbers:
            shape = " ".join(NUMBER.sub("#", line).split())  # padding aside
            # lines that differ only in their numbers ("0 jokers", "1 joker") stay apart:
            # the second of a shape is "shape (2)", and so on
            repeats[shape] += 1
            seen = repeats[shape]
            figures[shape if seen == 1 else f"{shape} ({seen})"] = numbers
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--bench", action="append", required=True, help="script and args")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--match", default="", help="only lines containing this text")
    opts = parser.parse_args()
    for tree in (opts.old, opts.new):
        if not (tree / "src" / "rami").is_dir():
            parser.error(f"{tree} is not a rami checkout (no src/rami)")
    for bench in opts.bench:
        seen: dict[Path, dict[str, list[list[float]]]] = {
            opts.old: defaultdict(list),
            opts.new: defaultdict(list),
        }
        for _ in range(opts.rounds):
            for tree in (opts.old, opts.new):
                for shape, numbers in run(tree, bench).items():
                    seen[tree][shape].append(numbers)
        print(f"== {bench} ({opts.rounds} rounds, medians; old | new | new/old of the first)")
        for shape, old_runs in seen[opts.old].items():
            new_runs = seen[opts.new].get(shape)
            if not new_runs or opts.match not in shape:
                continue
            old = [statistics.median(col) for col in zip(*old_runs, strict=False)]
            new = [statistics.median(col) for col in zip(*new_runs, strict=False)]
            ratio = f"{new[0] / old[0]:.3f}" if old and old[0] else "-"
            print(f"  {shape}\n    old {old}\n    new {new}\n    ratio {ratio}")
        for shape, new_runs in seen[opts.new].items():
            if shape not in seen[opts.old] and opts.match in shape:
                new = [statistics.median(col) for col in zip(*new_runs, strict=False)]
                print(f"  {shape}\n    new only {new}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
