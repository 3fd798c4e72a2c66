"""CPU µs a Gymnasium step against random opponents (``RamiGymEnv(..., opponents="random")``:
the learner's decision, then the opponents' until it is to move again), per table.

The same seeded episodes (random legal ids) are played ``--passes`` times and the best
pass is printed: steadier on a busy machine than a rate over a few seconds
(``bench/rl_env.py``'s Gymnasium rows). The step count is printed too: two trees that
play the same episodes print the same count. Runs on old trees by its path
(``scripts/bench_side_by_side.py OLD NEW --bench "$PWD/bench/gym_steps.py"``).

Run: ``PYTHONPATH=src python bench/gym_steps.py [--passes N] [--episodes N]``.
"""

from __future__ import annotations

import argparse
import random
import time

from rami.rl.gym_env import RamiGymEnv

TABLES = (
    ("tunisian", "1v1", 2),
    ("tunisian", "ffa", 4),
    ("tunisian", "2v2", 4),
    ("marriage", "nepali", 4),
    ("marriage", "indian", 4),
)


def best_step(
    game: str, preset: str, players: int, episodes: int, passes: int
) -> tuple[float, int]:
    """CPU µs per step of the best pass, and the steps of a pass."""
    env = RamiGymEnv(game, preset, players, opponents="random")

    def one_pass() -> int:
        rng = random.Random(7)
        steps = 0
        for episode in range(episodes):
            env.reset(seed=1000 + episode)
            while True:
                ids = env.legal_ids()
                _o, _r, term, trunc, _i = env.step(ids[rng.randrange(len(ids))])
                steps += 1
                if term or trunc:
                    break
        return steps

    one_pass()  # the engine's memos warm, as in a long run
    best = float("inf")
    steps = 0
    for _ in range(passes):
        start = time.thread_time()
        steps = one_pass()
        best = min(best, time.thread_time() - start)
    return best / steps * 1e6, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--episodes", type=int, default=25)
    args = parser.parse_args()
    print("Gymnasium step vs random opponents, CPU µs (best pass; the same seeded episodes):")
    for game, preset, players in TABLES:
        micros, steps = best_step(game, preset, players, args.episodes, args.passes)
        print(f"  {game} {preset} {players}p {micros:8.2f} µs a step ({steps} steps a pass)")


if __name__ == "__main__":
    main()
