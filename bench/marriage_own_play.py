"""``hard``'s own play in Marriage against greedy (``medium``), issue 25.

One seat plays ``rami.marriage.greedy_bot.own_decide`` (greedy whose discard also counts
the outs it leaves; ``indian``: also taking the discard where the outs grow, ``own_take``),
the three others greedy; every deal is played four times, the own play in each seat
(duplicate deals with seat rotation), and the figure is the own play's ledger points a
deal less greedy's, with a 95% interval over the groups (Student's t).
Each seat decides from its own observation only (``observe_state``: what its view shows).

Run: ``.venv/bin/python bench/marriage_own_play.py [GROUPS] [--seed FIRST_DEAL_SEED]
[--rules nepali|indian]``. ``nepali``: the tuning used deal seeds 70,000 …, the held-out
figure in docs/bots.md seeds 80,000 …. ``indian``: tuning 100,000 … 101,499, held out
130,000 … 131,999.
"""

from __future__ import annotations

import argparse
import time

from rami.marriage import greedy_bot as g
from rami.marriage.game import new_deal
from rami.sim.stats import mean_ci


def play(seed: int, dealer: int, own_seat: int, preset: str = "nepali") -> int:
    """The own play's ledger points in one deal (the others greedy)."""
    state = new_deal({"preset": preset, "max_turns": 400}, 4, seed, dealer)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        obs = g.observe_state(state, seat)
        state.apply(g.own_decide(obs) if seat == own_seat else g.decide(obs))
    assert state.result is not None
    return state.result.scores[own_seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "groups",
        type=int,
        nargs="?",
        default=10,
        help="deals, each played in the four seatings (default 10: a quick run)",
    )
    parser.add_argument("--seed", type=int, default=80_000, help="the first deal's seed")
    parser.add_argument(
        "--rules", choices=("nepali", "indian"), default="nepali", help="the preset (nepali)"
    )
    args = parser.parse_args()
    start = time.process_time()
    diffs: list[float] = []
    for group in range(args.groups):
        seed = args.seed + group
        own = [play(seed, group % 4, seat, args.rules) for seat in range(4)]
        # the ledger sums to zero: greedy's mean is -own/3, so own - greedy = 4/3 own
        diffs.append(sum(own) / 4 * 4 / 3)
    est = mean_ci(diffs)
    print(
        f"{args.rules}: own play - greedy: {est.mean:+.2f} ± {est.half_width:.2f} "
        "ledger points a deal "
        f"({args.groups} groups, deal seeds {args.seed} …; {time.process_time() - start:.0f} s CPU)"
    )


if __name__ == "__main__":
    main()
