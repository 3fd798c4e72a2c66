"""Decisions per CPU second of bots playing each other, the seat's view included.

One decision is what the simulator and the environments do for a bot's turn: build the
seat's view as the engine hands it to bots (the typed view, ``Game.typed_view``; a tree
from before typed views builds the JSON view), the bot's ``act`` on it, and ``apply``.
Tables: Marriage ``nepali`` (4 players) and Tunisian rami ``1v1`` and ``ffa``, each
with ``random`` and ``greedy`` at every seat, seeded deals capped at 200 turns, for a
few CPU seconds each. Timed by this process's CPU clock (steadier on a busy machine).
Digests of the moves played make two trees comparable: they must be equal.

Run: ``.venv/bin/python bench/bot_selfplay.py [CPU seconds per row]``; before/after:
``scripts/bench_side_by_side.py OLD NEW --bench "bench/bot_selfplay.py 3"``.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from collections.abc import Callable
from typing import Any

from rami.bots import make_bot
from rami.games import get_game

TABLES = (("marriage", "nepali", 4), ("tunisian", "1v1", 2), ("tunisian", "ffa", 4))


def run(game: str, preset: str, players: int, level: str, seconds: float) -> tuple[float, str]:
    """(decisions per CPU second, digest of the first 20 deals' moves)."""
    spec = get_game(game)
    typed = getattr(spec, "typed_view", None)
    see: Callable[[Any, int], Any] = (
        (lambda state, seat: typed(state, seat))
        if typed is not None
        else (lambda s, seat: s.view(seat))
    )
    h = hashlib.sha256()
    decisions = 0
    spent = 0.0
    seed = 0
    while spent < seconds or seed < 20:
        bots = [make_bot(game, level, seed * 10 + s) for s in range(players)]
        state = spec.new_match({"preset": preset, "max_turns": 200}, players, seed).current
        start = time.process_time()
        moves = []
        while not state.is_over:
            seat = state.to_move
            moves.append(state.apply(bots[seat].act(see(state, seat))))
        spent += time.process_time() - start
        decisions += len(moves)
        if seed < 20:
            h.update(" ".join(map(str, moves)).encode())
        seed += 1
    return decisions / spent, h.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seconds", nargs="?", type=float, default=3.0, help="CPU s per row")
    opts = parser.parse_args()
    print("bot self-play, decisions per CPU second (view + act + apply):")
    for game, preset, players in TABLES:
        for level in ("random", "greedy"):
            rate, digest = run(game, preset, players, level, opts.seconds)
            print(f"  {game} {preset:6s} {level:6s} {rate:9.0f} /s   moves {digest}")


if __name__ == "__main__":
    main()
