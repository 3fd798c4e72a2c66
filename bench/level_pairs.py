"""Two bot levels compared on the same deals against the same opponents (issue 25).

A *paired* duplicate measurement of level A against level B (``expert`` against
``hard`` by default): every deal is played once per seat with A in that seat and the
other seats ``--other`` (``medium``), then again with B in the same seat against the
same opponents on the same deal. The figure for a group (one deal, every seat) is A's
mean points a deal less the other seats', less the same for B: the luck of the deal and
of the seat, the same for both, cancels (common random numbers). A and B are also given
the same seed and the same name for their random draws, so their searches sample the
same determinizations: while their moves agree, the two games are the same game.

Figures are in the game's points a deal: Marriage ledger points (higher is better),
Tunisian points (lower is better); 95% intervals over the groups (Student's t).

Run: ``python bench/level_pairs.py GAME [--preset P] [--players N] [--groups G]
[--seed FIRST_DEAL_SEED] [--levels A,B] [--other medium] [--minutes M] [--out F.jsonl]``.
Each group is appended to ``--out`` as it ends; the same command run again skips the
groups already there (a stopped run goes on). With no arguments (``make bench``): one
Tunisian group, kept nowhere. Deal ``g`` of a run is dealt from seed
``FIRST_DEAL_SEED + g`` with dealer ``g mod players``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from rami.bots import make_bot
from rami.games import get_game
from rami.sim.stats import mean_ci

SHARED_NAME = "paired"  # the name both levels draw their randomness under


def play(
    game: str, preset: str, players: int, seed: int, dealer: int, seat: int, level: str, other: str
) -> dict[str, object]:
    """One deal with ``level`` in ``seat`` and ``other`` elsewhere: its points for the
    seat less the others' mean, the seat's moves and its CPU time."""
    spec = get_game(game)
    rules = spec.rules_from({"preset": preset})
    assert spec.new_deal is not None
    state = spec.new_deal(rules, players, seed, dealer)
    see = spec.viewer()
    bots = [make_bot(game, level if s == seat else other, seed) for s in range(players)]
    bots[seat].name = SHARED_NAME
    moves: list[str] = []
    cpu = 0.0
    while not state.is_over:
        s = state.to_move
        assert s is not None
        view = see(state, s)
        if s == seat:
            start = time.process_time()
            action = bots[s].act(view)
            cpu += time.process_time() - start
            moves.append(str(action))
        else:
            action = bots[s].act(view)
        state.apply(action)
    assert state.result is not None
    scores = list(state.result.scores)
    others = [scores[s] for s in range(players) if s != seat]
    return {
        "diff": scores[seat] - sum(others) / len(others),
        "moves": moves,
        "cpu": round(cpu, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="tunisian")
    parser.add_argument("--preset", default=None)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--groups", type=int, default=1, help="default 1: make bench's sample")
    parser.add_argument("--seed", type=int, default=130_000, help="the first deal's seed")
    parser.add_argument("--levels", default="expert,hard")
    parser.add_argument("--other", default="medium")
    parser.add_argument("--minutes", type=float, default=None, help="start no group after")
    parser.add_argument("--out", default=None, help="JSONL file, one line a group (resumable)")
    args = parser.parse_args()
    spec = get_game(args.game)
    players = args.players or (2 if spec.name == "tunisian" else 4)
    preset = args.preset or spec.preset_for(players)
    a, b = [x.strip() for x in args.levels.split(",")]
    out = Path(args.out) if args.out else None
    done: dict[int, dict[str, object]] = {}
    if out is not None and out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short: its group is played again
            done[int(row["group"])] = row
    start = time.monotonic()
    with open(out or os.devnull, "a", encoding="utf-8") as fh:
        for g in range(args.groups):
            if g in done:
                continue
            if args.minutes is not None and time.monotonic() - start > args.minutes * 60:
                break
            seed = args.seed + g
            row: dict[str, object] = {"group": g, "seed": seed}
            for level in (a, b):
                row[level] = [
                    play(spec.name, preset, players, seed, g % players, s, level, args.other)
                    for s in range(players)
                ]
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            done[g] = row
            report(done, a, b, spec.name, preset)


def report(done: dict[int, dict[str, object]], a: str, b: str, game: str, preset: str) -> None:
    rows = [done[g] for g in sorted(done)]

    def mean_diff(row: dict[str, object], level: str) -> float:
        games = row[level]
        assert isinstance(games, list)
        return sum(float(x["diff"]) for x in games) / len(games)

    da = [mean_diff(r, a) for r in rows]
    db = [mean_diff(r, b) for r in rows]
    paired = mean_ci([x - y for x, y in zip(da, db, strict=True)])
    same = sum(
        ga["moves"] == gb["moves"]
        for r in rows
        for ga, gb in zip(r[a], r[b], strict=True)  # type: ignore[call-overload]
    )
    seats = sum(len(r[a]) for r in rows)  # type: ignore[arg-type]
    cpu = {
        lv: sum(float(x["cpu"]) for r in rows for x in r[lv])
        for lv in (a, b)  # type: ignore[attr-defined]
    }
    ea, eb = mean_ci(da), mean_ci(db)
    print(
        f"{game} {preset}: {len(rows)} groups; {a} − {b} {paired.mean:+.2f} ± "
        f"{paired.half_width:.2f} (sd {paired.half_width / 1.96 * len(rows) ** 0.5:.1f}~); "
        f"{a} − other {ea.mean:+.2f} ± {ea.half_width:.2f}; {b} − other {eb.mean:+.2f} ± "
        f"{eb.half_width:.2f}; identical games {same}/{seats}; CPU {a} {cpu[a]:.0f} s, "
        f"{b} {cpu[b]:.0f} s",
        flush=True,
    )


if __name__ == "__main__":
    main()
