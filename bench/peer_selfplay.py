"""Decisions per CPU second of the peers' gin rummy, played the way rami's self-play
benches play: seeded uniformly random legal moves, one decision = one legal list + one
apply. OpenSpiel's C++ ``gin_rummy`` is driven through pyspiel (its chance nodes,
the deal, are sampled in the loop and not counted as decisions); RLCard's pure-Python
``GinRummyGame`` through its judge's legal list. A peer that is not installed is
skipped with a note (``pip install open-spiel 'rlcard==1.2.*'``).

``bench/marriage_selfplay.py --peers`` times these in the same process after its own
run and prints the ratios, so that a ratio is measured under one machine load (issue
27). Run alone: ``python bench/peer_selfplay.py [seconds]``.
"""

from __future__ import annotations

import random
import sys
import time


def openspiel_gin(seconds: float) -> float | str:
    """OpenSpiel ``gin_rummy`` decisions per CPU second, or why it was skipped."""
    try:
        import pyspiel
    except ImportError:
        return "pyspiel not installed"
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(2024)
    decisions = 0
    cpu = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions / (time.process_time() - cpu)


def rlcard_gin(seconds: float) -> float | str:
    """RLCard ``GinRummyGame`` decisions per CPU second, or why it was skipped."""
    try:
        from rlcard.games.gin_rummy.game import GinRummyGame
    except ImportError:
        return "rlcard not installed"
    game = GinRummyGame()
    game.np_random.seed(2024)
    rng = random.Random(2024)
    decisions = 0
    cpu = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.judge.get_legal_actions()))
            decisions += 1
    return decisions / (time.process_time() - cpu)


PEERS = {"OpenSpiel gin_rummy (C++)": openspiel_gin, "RLCard gin game": rlcard_gin}


def peer_rates(seconds: float) -> dict[str, float | str]:
    """Each peer's decisions per CPU second (or the reason it was skipped)."""
    return {name: run(seconds) for name, run in PEERS.items()}


def print_ratios(label: str, rate: float, seconds: float) -> None:
    """Print each peer's rate and ``rate`` against it."""
    for name, got in peer_rates(seconds).items():
        if isinstance(got, str):
            print(f"  {name}: skipped ({got})")
        else:
            print(f"  {name}: {got:,.0f} decisions per CPU second; {label} {rate / got:.2f}×")


def main() -> int:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    for name, got in peer_rates(seconds).items():
        shown = got if isinstance(got, str) else f"{got:,.0f} decisions per CPU second"
        print(f"{name}: {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
