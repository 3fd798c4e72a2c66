"""CPU cost of the Tunisian engine's part of an RL step: ``legal_actions()`` + ``apply``.

The workload is the one ``bench/rl_env.py`` drives through PettingZoo, without the
wrapper and the encoder: fresh seeded deals, a uniformly random legal action at each
step (the hands are new, so the opening solver meets hands it has not seen). Per mode
it prints µs of CPU per step, and the share of the steps by kind (who moves, opened or
not, draw or play). A second, untimed pass prints a digest of every legal list and
applied action over fixed seeds: two trees with the same digests list the same legal
actions in the same order (the figures differ, the digests must not).

Run: ``PYTHONPATH=src python bench/tunisian_legal.py [steps per mode] [digest steps]``.
The machine may be shared: compare figures of one run (``scripts/bench_side_by_side.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time
from collections import Counter

from rami.tunisian.game import TunisianState, new_deal
from rami.tunisian.rules import rules_from

MODES = (("1v1", 2, 200), ("ffa", 4, 400), ("2v2", 4, 400))
# rules options that change what is legal (T-3, T-6, T-8), for the digests only
VARIANT = {"taken_card_in_opening": True, "rediscard_taken": True, "opening_threshold": 51}


def play(mode: str, seats: int, max_turns: int, steps: int, seed: int) -> float:
    """µs of CPU per step over ``steps`` random legal steps of fresh deals."""
    rng = random.Random(seed)
    rules = rules_from({"preset": mode, "max_turns": max_turns})
    pick = rng.random
    done = 0
    cpu = 0.0
    while done < steps:
        state = new_deal(rules, seats, rng.randrange(2**31), rng.randrange(seats))
        start = time.thread_time()
        n = 0
        while not state.is_over and done + n < steps:
            legal = state.legal_actions()
            state.apply(legal[int(pick() * len(legal))])
            n += 1
        cpu += time.thread_time() - start
        done += n
    return cpu / done * 1e6


def kinds(state: TunisianState) -> str:
    seat = state.to_move
    assert seat is not None
    return f"{state.phase}{'' if state.opened[seat] else ' unopened'}"


def digest(
    mode: str, seats: int, max_turns: int, steps: int, seed: int, options: dict[str, object]
) -> tuple[str, Counter[str]]:
    """A digest of every legal list and applied action, and the steps by kind."""
    rng = random.Random(seed)
    rules = rules_from({"preset": mode, "max_turns": max_turns, **options})
    h = hashlib.sha256()
    by_kind: Counter[str] = Counter()
    done = 0
    while done < steps:
        state = new_deal(rules, seats, rng.randrange(2**31), rng.randrange(seats))
        while not state.is_over and done < steps:
            by_kind[kinds(state)] += 1
            legal = state.legal_actions()
            h.update("|".join(str(a) for a in legal).encode())
            action = legal[int(rng.random() * len(legal))]
            h.update(str(state.apply(action)).encode())
            done += 1
    return h.hexdigest()[:16], by_kind


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("steps", nargs="?", type=int, default=100_000, help="timed, per mode")
    parser.add_argument("check", nargs="?", type=int, default=20_000, help="digest, per mode")
    opts = parser.parse_args()
    print("legal_actions + apply, µs of CPU per step (random legal actions, fresh deals):")
    for mode, seats, turns in MODES:
        print(f"  tunisian {mode:3s} {play(mode, seats, turns, opts.steps, 1):7.2f} µs/step")
    print("\nlegal lists over fixed seeds (must match between trees):")
    for (mode, seats, turns), seed in zip(MODES, (7, 8, 9), strict=True):
        for name, options in (("", {}), (" options", VARIANT)):
            code, by_kind = digest(mode, seats, turns, opts.check, seed, options)
            total = sum(by_kind.values())
            shares = ", ".join(f"{k} {v / total:.0%}" for k, v in sorted(by_kind.items()))
            print(f"  tunisian {mode:3s}{name:8s} digest {code} ({shares})")


if __name__ == "__main__":
    main()
