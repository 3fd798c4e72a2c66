"""CPU µs a Marriage step (legal actions + apply) of seeded random play, and digests of
what was legal, to compare two trees.

For each preset (``nepali``, ``indian``; four players) it prints µs of CPU per step
over ``steps`` steps of uniformly random legal play. Untimed passes then print digests
over fixed seeds: of every legal list and applied action and each deal's result (the
finisher's arrangement included), of the PettingZoo env's legal ids, and of the greedy
bot's moves in deals it plays against itself; with ``--state N``, of every seat's view
(and the spectator's), RL observation (``encode_state`` and ``encode`` of the view), each
deal's JSON round trip and result at every step of seeded deals, two and four players
(nepali and indian), and the env's observations. Two trees with the same digests list the
same legal actions in the same order and their bots play the same moves (the figures
differ, the digests must not).

Run: ``PYTHONPATH=src python bench/marriage_legal.py [steps] [digest steps] [--state N]``. The
machine may be shared: compare figures of one run (``scripts/bench_side_by_side.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time

from rami.bots import make_bot
from rami.marriage.game import MarriageState, new_deal
from rami.marriage.observation import encoder

PRESETS = ("nepali", "indian")
PLAYERS = 4


def timed(preset: str, steps: int, seed: int = 5) -> float:
    """CPU µs a step (``legal_actions`` + ``apply``) of random play."""
    rng = random.Random(seed)
    done = 0
    cpu = 0.0
    while done < steps:
        state = new_deal({"preset": preset, "max_turns": 300}, PLAYERS, rng.randrange(2**31))
        start = time.thread_time()
        n = 0
        while not state.is_over and done + n < steps:
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
            n += 1
        cpu += time.thread_time() - start
        done += n
    return cpu / done * 1e6


def _result(state: MarriageState) -> str:
    result = state.result
    return "" if result is None else f"{result.scores}|{result.winner}|{result.details}"


def legal_digest(preset: str, steps: int, seed: int) -> str:
    """Every legal list, applied action and deal result of seeded random play."""
    rng = random.Random(seed)
    h = hashlib.sha256()
    done = 0
    while done < steps:
        state = new_deal({"preset": preset, "max_turns": 300}, PLAYERS, rng.randrange(2**31))
        while not state.is_over and done < steps:
            legal = state.legal_actions()
            h.update("|".join(str(a) for a in legal).encode())
            h.update(str(state.apply(legal[int(rng.random() * len(legal))])).encode())
            done += 1
        h.update(_result(state).encode())
    return h.hexdigest()[:16]


def state_digest(preset: str, players: int, steps: int, seed: int) -> str:
    """Every seat's view and RL observation, results and JSON round trips of random play."""
    rng = random.Random(seed)
    rules = {"preset": preset, "max_turns": 80}
    enc_state = encoder(players, rules)
    enc_view = encoder(players, rules)
    h = hashlib.sha256()
    done = 0
    while done < steps:
        state = new_deal(rules, players, rng.randrange(2**31), rng.randrange(players))
        while done < steps:
            for seat in (None, *range(players)):
                h.update(json.dumps(state.view(seat), sort_keys=True, default=str).encode())
            for seat in range(players):
                h.update(enc_state.encode_state(state, seat).tobytes())
                h.update(enc_view.encode(state.view(seat)).tobytes())
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
            done += 1
        doc = state.to_json()
        h.update(json.dumps(doc, sort_keys=True).encode())
        again = MarriageState.from_json(doc)
        h.update(json.dumps(again.to_json(), sort_keys=True).encode())
        h.update(json.dumps(again.view(None), sort_keys=True, default=str).encode())
        h.update(_result(state).encode())
    return h.hexdigest()[:16]


def env_digest(preset: str, steps: int, seed: int, observations: bool = False) -> str:
    """The PettingZoo env's legal ids and rewards (and observations), random legal ids
    picked."""
    from rami.rl import marriage_v0

    env = marriage_v0.env(preset=preset, players=PLAYERS, max_turns=200)
    rng = random.Random(seed)
    env.reset(seed=seed)
    raw = env.unwrapped
    h = hashlib.sha256()
    for _ in range(steps):
        if not env.agents:
            env.reset(seed=rng.randrange(2**31))
        obs, reward, term, trunc, _info = env.last()
        if observations:
            h.update(obs["observation"].tobytes())
        if term or trunc:
            h.update(f"end {reward}".encode())
            env.step(None)
            continue
        ids = raw.legal_ids()
        h.update(",".join(map(str, ids)).encode())
        env.step(ids[rng.randrange(len(ids))])
    return h.hexdigest()[:16]


def bot_digest(preset: str, deals: int) -> str:
    """The greedy bot's moves, four of them at a table, seeded deals."""
    h = hashlib.sha256()
    for seed in range(deals):
        bots = [make_bot("marriage", "greedy", seed * 10 + s) for s in range(PLAYERS)]
        state = new_deal({"preset": preset, "max_turns": 300}, PLAYERS, seed, seed % PLAYERS)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            h.update(str(state.apply(bots[seat].act(state.view(seat)))).encode())
        h.update(_result(state).encode())
    return h.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("steps", nargs="?", type=int, default=20_000, help="timed, per preset")
    parser.add_argument("digest_steps", nargs="?", type=int, default=20_000)
    parser.add_argument("--state", type=int, default=0, help="view/observation digest steps")
    args = parser.parse_args()
    print("CPU µs a step (legal actions + apply), random play, 4 players:")
    for preset in PRESETS:
        print(f"  {preset:7s} {timed(preset, args.steps):8.2f} µs")
    print("digests (must be equal between trees):")
    for preset in PRESETS:
        print(f"  {preset:7s} legal lists {legal_digest(preset, args.digest_steps, 11)}")
        print(f"  {preset:7s} env ids     {env_digest(preset, args.digest_steps, 12)}")
        print(f"  {preset:7s} greedy bots {bot_digest(preset, max(2, args.digest_steps // 4000))}")
    if args.state:
        print("views, observations, JSON round trips, results (must be equal between trees):")
        for preset in PRESETS:
            for players, seed in ((2, 21), (4, 22)):
                code = state_digest(preset, players, args.state, seed)
                print(f"  {preset:7s} {players}p states  {code}")
            print(f"  {preset:7s} env obs    {env_digest(preset, args.state, 23, True)}")


if __name__ == "__main__":
    main()
