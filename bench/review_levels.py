"""Does the review measure something real? ``easy`` should lose more points a decision
than ``hard`` (issue 24, part 4).

Deals of ``hard`` against ``easy`` (Marriage ``nepali``, four players: hard, easy, hard,
easy; Tunisian rami ``1v1``: hard, easy, the seats swapped every other deal), seeded;
every seat is reviewed (``rami.review.review``, from its own view) and its points lost
per decision kept. Per deal the two levels' means are paired: the figure is the mean
difference easy − hard over the deals with a 95% interval (Student's t), and each
level's own mean with its interval.

Run: ``nice -n 10 .venv/bin/python bench/review_levels.py GAME DEALS [--samples N]
[--seed S] [--minutes M]`` (GAME ``marriage`` or ``tunisian``); it stops after
``--minutes`` of wall time (default 3) with the deals done so far. With no arguments
(``make bench``) a 3-deal Tunisian sample; the closing figures came from 60-80 deals.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from rami.bots import make_bot
from rami.games import get_game
from rami.review import review

TABLES = {"marriage": ("nepali", 4), "tunisian": ("1v1", 2)}
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 8: 2.31, 10: 2.23, 15: 2.13}


def t95(df: int) -> float:
    """Student's t quantile for a 95% two-sided interval."""
    if df <= 0:
        return math.inf
    best = min((k for k in T95 if k >= df), default=None)
    return T95[best] if best is not None else 1.96 + 2.5 / df


def interval(xs: list[float]) -> str:
    if len(xs) < 2:
        return f"{xs[0] if xs else 0:+.3f} (n={len(xs)})"
    half = t95(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{statistics.fmean(xs):+.3f} ± {half:.3f} (n={len(xs)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="tunisian", choices=sorted(TABLES))
    parser.add_argument("deals", nargs="?", type=int, default=3, help="3: make bench's sample")
    parser.add_argument("--samples", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=3.0)
    args = parser.parse_args()
    game = get_game(args.game)
    preset, seats = TABLES[args.game]
    rules = game.rules_from({"preset": preset})
    assert game.new_deal is not None
    stop = time.monotonic() + 60 * args.minutes
    per_level: dict[str, list[float]] = {"hard": [], "easy": []}
    paired: list[float] = []
    decisions = {"hard": 0, "easy": 0}
    for n in range(args.deals):
        if time.monotonic() > stop:
            break
        seed = args.seed * 1000 + n
        levels = ["hard" if (s + n) % 2 == 0 else "easy" for s in range(seats)]
        bots = [make_bot(args.game, lv, seed * 10 + s) for s, lv in enumerate(levels)]
        state = game.new_deal(rules, seats, seed, n % seats)
        while not state.is_over:
            mover = state.to_move
            assert mover is not None
            state.apply(bots[mover].act(state.view(mover)))
        lost: dict[str, list[float]] = {"hard": [], "easy": []}
        for s, lv in enumerate(levels):
            got = review(state, s, samples=args.samples, seed=seed, cache=False)
            lost[lv] += [d.loss for d in got.decisions]
            decisions[lv] += len(got.decisions)
        means = {lv: statistics.fmean(xs) for lv, xs in lost.items() if xs}
        for lv, m in means.items():
            per_level[lv].append(m)
        if len(means) == 2:
            paired.append(means["easy"] - means["hard"])
        print(
            f"deal {n + 1}: hard {means.get('hard', 0):.3f}, easy {means.get('easy', 0):.3f} "
            f"{game.points_label} lost a decision",
            flush=True,
        )
    print(f"{args.game} {preset}, {len(paired)} deals, samples {args.samples}, seed {args.seed}")
    for lv in ("hard", "easy"):
        print(f"  {lv}: {interval(per_level[lv])} lost a decision ({decisions[lv]} decisions)")
    print(f"  easy − hard: {interval(paired)} a decision (95% interval over deals)")


if __name__ == "__main__":
    main()
