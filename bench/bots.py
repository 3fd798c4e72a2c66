"""Decisions per second of each bot, and the search bot's decision time against its budget.

Each bot plays seat 0 of seeded deals against greedy players (Marriage ``nepali``, or
``indian`` with ``--rules indian``, four players; Tunisian rami ``1v1``) for a few
seconds; only its own decisions are timed (the view is built before the clock starts).
For the search bots the p50 and p95 decision times are printed next to the budget, over
the decisions where search ran (more than one candidate move), and the run fails if p95
exceeds the budget (``hard`` and ``expert`` have iteration budgets: their times are held
against the issue's aims, 1 s and 3 s, and they play four times as long).

Run: ``.venv/bin/python bench/bots.py [seconds per bot] [--wall] [--rules indian]
[--game marriage] [--levels hard,expert]``. Decisions are timed with the process's CPU
clock by default: on a machine shared with other jobs (``make bench`` must pass on a
busy 2-core machine) the wall clock measures the queue for a core, not the bot.
``--wall`` times with the wall clock instead (a quiet machine); ``--cpu`` is
kept as the default's name.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from rami.bots import make_bot
from rami.bots.ismcts import ISMCTSBot
from rami.bots.search import SearchBot

LEVELS = ("random", "greedy", "easy", "search:50ms", "search", "hard", "expert")
# Budgets in ms: the search bot's own time budget; the aims for the IS-MCTS levels,
# whose budgets are iterations (issue 13: hard p95 <= 1 s, expert <= 3 s a decision).
BUDGETS = {"search:50ms": 50.0, "search": 200.0, "hard": 1000.0, "expert": 3000.0}


def new_deal(game: str, seed: int) -> Any:
    if game == "marriage":
        from rami.marriage.game import new_deal as deal

        return deal({"preset": MARRIAGE_RULES, "max_turns": 400}, 4, seed, seed % 4)
    from rami.tunisian.game import new_deal as tdeal

    return tdeal({"preset": "1v1", "max_turns": 300}, 2, seed, seed % 2)


CLOCK = time.process_time  # time.perf_counter with --wall
MARRIAGE_RULES = "nepali"  # --rules


def run(game: str, level: str, seconds: float) -> tuple[int, float, list[float]]:
    """(decisions, seconds spent deciding, times of the decisions where search ran)."""
    players = 4 if game == "marriage" else 2
    decisions = 0
    spent = 0.0
    searched: list[float] = []
    seed = 0
    start = CLOCK()
    while CLOCK() - start < seconds:
        bot = make_bot(game, level, seed)
        others = [make_bot(game, "greedy", seed * 10 + s) for s in range(players)]
        state = new_deal(game, seed)
        seed += 1
        while not state.is_over and CLOCK() - start < seconds:
            seat = state.to_move
            view = state.view(seat)
            if seat != 0:
                state.apply(others[seat].act(view))
                continue
            t0 = CLOCK()
            action = bot.act(view)
            dt = CLOCK() - t0
            decisions += 1
            spent += dt
            if isinstance(bot, (SearchBot, ISMCTSBot)) and bot.last_iterations:
                searched.append(dt)
                bot.last_iterations = 0
            state.apply(action)
    return decisions, spent, searched


def main() -> None:
    parser = argparse.ArgumentParser(description="decisions per second of every bot level")
    parser.add_argument("seconds", nargs="?", type=float, default=4.0, help="per level")
    clock = parser.add_mutually_exclusive_group()
    clock.add_argument("--cpu", action="store_true", help="time with the CPU clock (the default)")
    clock.add_argument("--wall", action="store_true", help="time with the wall clock")
    parser.add_argument(
        "--rules", choices=("nepali", "indian"), default="nepali", help="Marriage's preset"
    )
    parser.add_argument("--game", choices=("marriage", "tunisian"), help="one game only")
    parser.add_argument("--levels", help="comma-separated levels (default: all of LEVELS)")
    args = parser.parse_args()
    seconds = args.seconds
    levels = tuple(args.levels.split(",")) if args.levels else LEVELS
    games = (args.game,) if args.game else ("marriage", "tunisian")
    global MARRIAGE_RULES
    MARRIAGE_RULES = args.rules
    if args.wall:
        global CLOCK
        CLOCK = time.perf_counter
    over = []
    for game in games:
        for level in levels:
            slow = level in ("hard", "expert")  # a few seconds hold only a few decisions
            decisions, spent, searched = run(game, level, seconds * (4 if slow else 1))
            rate = decisions / spent if spent else 0.0
            line = f"{game:9} {level:12} {rate:10,.0f} decisions/s ({decisions} decisions)"
            if level in BUDGETS and searched:
                ms = sorted(t * 1e3 for t in searched)
                p50 = statistics.median(ms)
                p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
                budget = BUDGETS[level]
                ok = p95 <= budget
                line += (
                    f"; searched {len(ms)}: p50 {p50:.1f} ms, p95 {p95:.1f} ms, "
                    f"budget {budget:.0f} ms {'ok' if ok else 'OVER'}"
                )
                if not ok:
                    over.append(f"{game} {level}")
            print(line, flush=True)
    if over:
        raise SystemExit(f"search over its budget at p95: {', '.join(over)}")


if __name__ == "__main__":
    main()
