"""CPU cost of the Tunisian engine's part of an RL step: ``legal_actions()`` + ``apply``.

The workload is the one ``bench/rl_env.py`` drives through PettingZoo, without the
wrapper and the encoder: fresh seeded deals, a uniformly random legal action at each
step (the hands are new, so the opening solver meets hands it has not seen). Per mode
it prints µs of CPU per step, and the share of the steps by kind (who moves, opened or
not, draw or play). A second, untimed pass prints a digest of every legal list and
applied action over fixed seeds: two trees with the same digests list the same legal
actions in the same order (the figures differ, the digests must not). Further digests
cover what a refactor of the engine must keep: each deal's result and its JSON round trip,
every seat's view and RL observation (``encode_state`` and ``encode`` of the view), the
PettingZoo env's legal ids, and the greedy bot's moves in seeded self-play.

Run: ``PYTHONPATH=src python bench/tunisian_legal.py [steps per mode] [digest steps]``.
The machine may be shared: compare figures of one run (``scripts/bench_side_by_side.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from collections import Counter

from rami.bots import make_bot
from rami.tunisian.game import TunisianState, new_deal
from rami.tunisian.observation import encoder
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


def _result(state: TunisianState) -> str:
    result = state.result
    return "" if result is None else f"{result.scores}|{result.winner}|{result.details}"


def state_digest(mode: str, seats: int, steps: int, seed: int) -> str:
    """Results, JSON round trips, every seat's view and RL observations of random play."""
    rng = random.Random(seed)
    rules = rules_from({"preset": mode, "max_turns": 60})
    enc_state = encoder(seats, rules)
    enc_view = encoder(seats, rules)
    h = hashlib.sha256()
    done = 0
    while done < steps:
        state = new_deal(rules, seats, rng.randrange(2**31), rng.randrange(seats))
        while done < steps:
            for seat in (None, *range(seats)):
                view = state.view(seat)
                h.update(json.dumps(view, sort_keys=True, default=str).encode())
            for seat in range(seats):
                h.update(enc_state.encode_state(state, seat).tobytes())
                h.update(enc_view.encode(state.view(seat)).tobytes())
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
            done += 1
        doc = state.to_json()
        h.update(json.dumps(doc, sort_keys=True).encode())
        again = TunisianState.from_json(doc)
        h.update(json.dumps(again.to_json(), sort_keys=True).encode())
        h.update(json.dumps(again.view(None), sort_keys=True, default=str).encode())
        h.update(_result(state).encode())
    return h.hexdigest()[:16]


def env_digest(mode: str, steps: int, seed: int) -> str:
    """The PettingZoo env's legal ids and rewards, random legal ids picked."""
    from rami.rl import tunisian_v0  # type: ignore[attr-defined]

    env = tunisian_v0.env(preset=mode, max_turns=60)
    rng = random.Random(seed)
    env.reset(seed=seed)
    raw = env.unwrapped
    h = hashlib.sha256()
    for _ in range(steps):
        if not env.agents:
            env.reset(seed=rng.randrange(2**31))
        obs, reward, term, trunc, _info = env.last()
        h.update(obs["observation"].tobytes())
        if term or trunc:
            h.update(f"end {reward}".encode())
            env.step(None)
            continue
        ids = raw.legal_ids()
        h.update(",".join(map(str, ids)).encode())
        env.step(ids[rng.randrange(len(ids))])
    return h.hexdigest()[:16]


def bot_digest(mode: str, seats: int, deals: int) -> str:
    """The greedy bot's moves in seeded self-play, and each deal's result."""
    h = hashlib.sha256()
    rules = rules_from({"preset": mode, "max_turns": 60})
    for seed in range(deals):
        bots = [make_bot("tunisian", "greedy", seed * 10 + s) for s in range(seats)]
        state = new_deal(rules, seats, seed, seed % seats)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            h.update(str(state.apply(bots[seat].act(state.view(seat)))).encode())
        h.update(_result(state).encode())
    return h.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("steps", nargs="?", type=int, default=100_000, help="timed, per mode")
    parser.add_argument("check", nargs="?", type=int, default=20_000, help="digest, per mode")
    parser.add_argument("--state", type=int, default=0, help="view/observation digest steps")
    parser.add_argument("--bots", type=int, default=4, help="greedy self-play deals per mode")
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
    if opts.state:
        print("\nviews, observations, results, env ids, greedy bots (must match between trees):")
        for (mode, seats, _turns), seed in zip(MODES, (17, 18, 19), strict=True):
            print(f"  tunisian {mode:3s} states  {state_digest(mode, seats, opts.state, seed)}")
            print(f"  tunisian {mode:3s} env ids {env_digest(mode, opts.state, seed)}")
            print(f"  tunisian {mode:3s} greedy  {bot_digest(mode, seats, opts.bots)}")


if __name__ == "__main__":
    main()
