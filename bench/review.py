"""CPU time of the move-by-move review of one seat (issue 24, part 4).

Seeded deals of ``medium`` bots with an ``easy`` seat 0 (Marriage ``nepali``, four
players; Tunisian rami ``1v1``) are played, then seat 0 is reviewed with the default
number of samples (the game's ``ReviewHooks.samples``), the cache off. Printed per game:
decisions reviewed and the CPU seconds of each deal's review (the process's CPU clock:
on a shared machine the wall clock measures the queue for a core), against the aims
(30 s for a nepali deal, 15 s for a Tunisian 1v1 deal). The exit status is 1 when the
median is over its aim.

Run: ``.venv/bin/python bench/review.py [deals per game]`` (default 3).
"""

from __future__ import annotations

import statistics
import sys
import time

from rami.bots import make_bot
from rami.games import get_game
from rami.review import review

TABLES = (("marriage", "nepali", 4, 30.0), ("tunisian", "1v1", 2, 15.0))


def main() -> int:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    failed = False
    for name, preset, seats, aim in TABLES:
        game = get_game(name)
        assert game.new_deal is not None
        rules = game.rules_from({"preset": preset})
        times: list[float] = []
        counts: list[int] = []
        for seed in range(1, deals + 1):
            state = game.new_deal(rules, seats, seed, 0)
            bots = [make_bot(name, "easy" if s == 0 else "medium", s) for s in range(seats)]
            while not state.is_over:
                mover = state.to_move
                assert mover is not None
                state.apply(bots[mover].act(state.view(mover)))
            start = time.process_time()
            got = review(state, 0, cache=False)
            times.append(time.process_time() - start)
            counts.append(len(got.decisions))
        median = statistics.median(times)
        failed |= median > aim
        print(
            f"{name} {preset} ({seats} players), {got.samples} samples: "
            f"{statistics.fmean(counts):.0f} decisions a deal, review CPU "
            f"median {median:.1f} s, max {max(times):.1f} s (aim {aim:.0f} s) over {deals} deals"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
