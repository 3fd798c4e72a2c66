"""Environment steps per second of rami's RL wrappers, side by side with RLCard's
gin-rummy env and OpenSpiel's C++ ``gin_rummy``, and the observation encoder's time.

Every env is driven the same way, from Python, with uniformly random *legal* actions:
one step = read the acting player's observation and legal mask, pick, apply. rami's
PettingZoo loop is ``env.last()`` + ``env.step(id)``; RLCard's is ``env.step(action)``
(which returns the next state's observation and legal actions); OpenSpiel's is
``observation_tensor()`` + ``legal_actions()`` + ``apply_action`` (chance outcomes
sampled in the same loop). Each picks uniformly from the env's list of legal ids (RLCard's
``state["legal_actions"]``, OpenSpiel's ``legal_actions()``, rami's ``legal_ids()``, kept
per position next to the mask); one extra rami row picks by scanning the int8 mask with
``np.flatnonzero`` instead, to show what that costs. A Gymnasium step plays the learner's
decision and then the opponents' until the learner is to move again (in 1v1 about two
decisions), while an RLCard or OpenSpiel step is one decision: the Gymnasium rows give
both, steps and decisions per second, and the decisions row is the one to compare.
The OpenSpiel game's own per-call costs (``legal_actions``, the tensors,
``apply_action``, ``clone``) are printed in CPU µs. The encoder figures are the time
of ``Encoder.encode(view)`` alone, the view built beforehand, and of
``Encoder.encode_state(state, seat)`` (the fast path the envs call: the same vector
without building the view), by the wall clock and by the thread's CPU time (steadier on
a shared machine). The PettingZoo step's own cost is split in CPU µs a step: the env
loop against the engine and encoder alone replaying the same moves, the difference
being the wrappers' share (``wrapper_share``). RLCard and OpenSpiel are
skipped (with a note) when not installed: ``pip install 'rlcard==1.2.*' open-spiel``.

Run: ``.venv/bin/python bench/rl_env.py [seconds per env] [--encoder-only | --envs-only]``
(``--envs-only``: the environment lines alone, for a shorter side-by-side run). The machine's
load shows in the calibration line (a million Python additions): compare figures within one
run.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from rami.games import GAMES
from rami.rl import marriage_v0, tunisian_v0
from rami.rl.gym_env import RamiGymEnv
from rami.rl.observation import encoder_for


def calibrate(clock: Callable[[], float] = time.perf_counter) -> float:
    start = clock()
    x = 0
    for i in range(1_000_000):
        x += i
    return (clock() - start) * 1e3


def timed(seconds: float, step: Callable[[], None]) -> tuple[float, float]:
    """Steps per second of ``step`` over about ``seconds``: by the wall clock, and per
    second of this thread's CPU time (what a busy machine disturbs less)."""
    n = 0
    start = time.perf_counter()
    cpu = time.thread_time()
    end = start + seconds
    while True:
        for _ in range(50):
            step()
        n += 50
        now = time.perf_counter()
        if now >= end:
            return n / (now - start), n / (time.thread_time() - cpu)


def pettingzoo_loop(env: Any, seed: int, scan_mask: bool = False) -> Callable[[], None]:
    rng = random.Random(seed)
    env.reset(seed=seed)
    raw = env.unwrapped

    def step() -> None:
        if not env.agents:
            env.reset(seed=rng.randrange(2**31))
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.step(None)
            return
        ids = np.flatnonzero(obs["action_mask"]) if scan_mask else raw.legal_ids()
        env.step(int(ids[rng.randrange(len(ids))]))

    return step


def wrapper_share(env: Any, steps: int, rounds: int = 3) -> tuple[float, float]:
    """CPU µs a step of the PettingZoo loop (``last()`` + ``legal_ids()`` + ``step(id)``)
    and of the engine and encoder alone (``legal_actions()``, ``encode_state``, ``apply``)
    on the same moves: random moves are recorded once, then both loops replay them in
    turn (so both find the engine's memos warm), best of ``rounds``. The difference is
    what the wrappers cost a step (observe, mask, ids, step's bookkeeping, PettingZoo's
    wrapper); the random pick is in neither."""
    raw = env.unwrapped
    rng = random.Random(5)
    deals: list[tuple[int, list[tuple[int, int]]]] = []
    n = 0
    while n < steps:
        seed = rng.randrange(2**31)
        env.reset(seed=seed)
        played: list[tuple[int, int]] = []
        while env.agents:
            _o, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            ids = raw.legal_ids()
            chosen = ids[rng.randrange(len(ids))]
            played.append((chosen, raw.space.ids_of(raw.state.legal_actions()).index(chosen)))
            env.step(chosen)
        deals.append((seed, played))
        n += len(played)

    def wrapped() -> None:
        for seed, played in deals:
            env.reset(seed=seed)
            for chosen, _k in played:
                env.last()
                raw.legal_ids()
                env.step(chosen)

    def bare() -> None:
        for seed, played in deals:
            env.reset(seed=seed)
            state, encoder = raw.state, raw.encoder
            for _c, k in played:
                legal = state.legal_actions()
                encoder.encode_state(state, state.to_move)
                state.apply(legal[k])

    bare()
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        for i, loop in enumerate((wrapped, bare)):
            start = time.thread_time()
            loop()
            best[i] = min(best[i], (time.thread_time() - start) / n * 1e6)
    return best[0], best[1]


def moves(env: RamiGymEnv) -> int:
    """The decisions (applied moves) of the env's current deal so far."""
    assert env.state is not None
    return sum(1 for e in env.state.events if e["action"] is not None)


def gym_loop(env: RamiGymEnv, seed: int) -> tuple[Callable[[], None], Callable[[], int]]:
    """The step of a Gymnasium loop, and a count of the decisions played so far: a step
    is the learner's decision and then the bots' until the learner is to move again."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    done = [-moves(env)]  # the bots' moves before the first step are not the loop's

    def step() -> None:
        ids = env.legal_ids()
        _o, _r, term, trunc, _i = env.step(ids[rng.randrange(len(ids))])
        if term or trunc:
            done[0] += moves(env)
            env.reset(seed=rng.randrange(2**31))
            done[0] -= moves(env)

    return step, lambda: done[0] + moves(env)


def gym_rows(seconds: float, figures: dict[str, tuple[float, float]]) -> None:
    """The Gymnasium rows: steps per second, and decisions per second (a Gymnasium step
    plays the opponent's decisions too; RLCard's and OpenSpiel's steps are one decision
    each, so the decisions row is the one to compare with them)."""
    step, decisions = gym_loop(RamiGymEnv(opponents="random"), 1)
    before = decisions()
    start, cpu = time.perf_counter(), time.thread_time()
    rate, cpu_rate = timed(seconds, step)
    wall, used = time.perf_counter() - start, time.thread_time() - cpu
    n = decisions() - before
    name = "rami Gymnasium tunisian 1v1 vs random"
    figures[name] = (rate, cpu_rate)
    print(f"  {name:42s} {rate:10,.0f} {cpu_rate:10,.0f}")
    name = "rami Gymnasium tunisian 1v1, decisions"
    figures[name] = (n / wall, n / used)
    print(f"  {name:42s} {n / wall:10,.0f} {n / used:10,.0f}")


def rlcard_loop(seed: int) -> Callable[[], None] | str:
    try:
        import rlcard
    except ImportError:
        return "rlcard not installed (pip install 'rlcard==1.2.*')"
    env = rlcard.make("gin-rummy", config={"seed": seed})
    rng = random.Random(seed)
    box: dict[str, Any] = {}

    def restart() -> None:
        box["state"], box["player"] = env.reset()

    restart()

    def step() -> None:
        legal = list(box["state"]["legal_actions"])
        box["state"], box["player"] = env.step(legal[rng.randrange(len(legal))])
        if env.is_over():
            restart()

    return step


def openspiel_loop(
    name: str, params: dict[str, Any], seed: int, observer: bool = False
) -> Callable[[], None] | str:
    """One OpenSpiel step: ``observation_tensor()`` (a list of floats), or with
    ``observer`` OpenSpiel's observation object (``make_observation(game)``, whose
    ``set_from`` fills a numpy ``tensor`` in place: no list), then ``legal_actions()``
    and ``apply_action``; the chance nodes before it are sampled in the same step."""
    try:
        import pyspiel
        from open_spiel.python.observation import make_observation

        import rami.rl.openspiel  # noqa: F401  (registers rami's games)
    except ImportError:
        return "open_spiel not installed (pip install open-spiel)"
    game = pyspiel.load_game(name, params)
    rng = random.Random(seed)
    box = {"state": game.new_initial_state()}
    seen = make_observation(game) if observer else None

    def step() -> None:
        state = box["state"]
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        if state.is_terminal():
            box["state"] = game.new_initial_state()
            return
        if seen is None:
            state.observation_tensor()
        else:
            seen.set_from(state, state.current_player())
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])

    return step


def openspiel_calls(seconds: float) -> dict[str, float] | str:
    """CPU microseconds per call of ``python_rami_tunisian`` 1v1 during random play:
    ``legal_actions()``, ``observation_tensor()``, a second tensor call on the same
    position (``information_state_tensor(player)``), ``apply_action`` and ``clone()``
    (every tenth position); then, over half as long, on fresh positions taken in turn,
    the observer's ``set_from`` (``make_observation``) and ``observation_tensor`` through
    OpenSpiel's C++ path (``pyspiel.State.observation_tensor``: what a C++ caller gets;
    it builds a new initial state to learn the tensor's size); and the chance phase of a
    deal (``chance_outcomes`` and ``apply_action`` for every card of the shoe), per deal."""
    try:
        import pyspiel
        from open_spiel.python.observation import make_observation

        import rami.rl.openspiel  # noqa: F401  (registers rami's games)
    except ImportError:
        return "open_spiel not installed (pip install open-spiel)"
    game = pyspiel.load_game("python_rami_tunisian", {"max_turns": 200})
    rng = random.Random(1)
    clock = time.thread_time
    spent = dict.fromkeys(("legal_actions", "observation_tensor", "second tensor"), 0.0)
    spent.update(apply_action=0.0, clone=0.0)
    n = clones = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        while not state.is_terminal():
            player = state.current_player()
            t0 = clock()
            legal = state.legal_actions()
            t1 = clock()
            state.observation_tensor()
            t2 = clock()
            state.information_state_tensor(player)
            t3 = clock()
            if n % 10 == 0:
                state.clone()
                clones += 1
            t4 = clock()
            state.apply_action(legal[rng.randrange(len(legal))])
            t5 = clock()
            spent["legal_actions"] += t1 - t0
            spent["observation_tensor"] += t2 - t1
            spent["second tensor"] += t3 - t2
            spent["clone"] += t4 - t3
            spent["apply_action"] += t5 - t4
            n += 1
    out = {k: v / (clones if k == "clone" else n) * 1e6 for k, v in spent.items()}
    seen = make_observation(game)
    cpp = pyspiel.State.observation_tensor
    deal = "deal: the chance phase, per deal"
    spent = {"observer set_from": 0.0, "observation_tensor, C++ path": 0.0, deal: 0.0}
    count = dict.fromkeys(spent, 0)
    end = time.perf_counter() + seconds / 2
    while time.perf_counter() < end:
        t0 = clock()
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        spent[deal] += clock() - t0
        count[deal] += 1
        while not state.is_terminal():
            player = state.current_player()
            key = "observer set_from" if n % 2 else "observation_tensor, C++ path"
            t0 = clock()
            if n % 2:
                seen.set_from(state, player)
            else:
                cpp(state, player)
            spent[key] += clock() - t0
            count[key] += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
    out.update({k: v / max(1, count[k]) * 1e6 for k, v in spent.items()})
    out["deal: per card of the shoe"] = out[deal] / len(game.shoe)
    return out


def openspiel_share(
    name: str, params: dict[str, Any], steps: int, rounds: int = 3
) -> tuple[float, float, float] | str:
    """CPU µs a decision of the OpenSpiel loop on recorded random deals, the deal's chance
    nodes included (``chance_outcomes()`` + ``apply_action`` per card): with
    ``observation_tensor()``, with the observer's ``set_from``, and the engine and encoder
    alone on the same moves (the deal built by the game's hook from the same shoe order:
    ``legal_actions()``, ``encode_state``, ``apply``). Loops in turn, the engine's memos
    warm for all, best of ``rounds``; the random picks are in none."""
    try:
        import pyspiel
        from open_spiel.python.observation import make_observation

        import rami.rl.openspiel  # noqa: F401  (registers rami's games)
    except ImportError:
        return "open_spiel not installed (pip install open-spiel)"
    game = pyspiel.load_game(name, params)
    rng = random.Random(5)
    deals: list[tuple[list[int], list[tuple[int, int]]]] = []
    n = 0
    while n < steps:
        state = game.new_initial_state()
        order = []
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            order.append(rng.choices(outcomes, probs)[0])
            state.apply_action(order[-1])
        played = []
        while not state.is_terminal():
            legal = state.legal_actions()
            chosen = legal[rng.randrange(len(legal))]
            ids = game.space.ids_of(state.engine.legal_actions())
            played.append((chosen, ids.index(chosen)))
            state.apply_action(chosen)
        deals.append((order, played))
        n += len(played)
    seen = make_observation(game)

    def looped(observer: bool) -> None:
        for order, played in deals:
            state = game.new_initial_state()
            for card in order:
                state.chance_outcomes()
                state.apply_action(card)
            for chosen, _k in played:
                if observer:
                    seen.set_from(state, state.current_player())
                else:
                    state.observation_tensor()
                state.legal_actions()
                state.apply_action(chosen)

    hooks, rules, players = game.hooks, game.rules, game.players
    encoder = encoder_for(hooks.deal(rules, players, deals[0][0], game.seed).view(0))

    def bare() -> None:
        for order, played in deals:
            engine = hooks.deal(rules, players, order, game.seed)
            for _c, k in played:
                legal = engine.legal_actions()
                encoder.encode_state(engine, engine.to_move)
                engine.apply(legal[k])

    bare()
    loops = (lambda: looped(False), lambda: looped(True), bare)
    best = [float("inf")] * 3
    for _ in range(rounds):
        for i, loop in enumerate(loops):
            start = time.thread_time()
            loop()
            best[i] = min(best[i], (time.thread_time() - start) / n * 1e6)
    return best[0], best[1], best[2]


def encoder_times(game: str, preset: str, players: int) -> tuple[float, float, float]:
    """Microseconds per encode (reading the history afresh, and incrementally) and per
    ``state.view(to_move)`` (legal actions computed beforehand: they are the engine's)."""
    rng = random.Random(1)
    views = []
    viewing = 0.0
    for seed in range(4):
        rules = {"preset": preset, "max_turns": 150}
        state = GAMES[game].new_match(rules, players, seed).current
        while not state.is_over:
            legal = state.legal_actions()
            start = time.perf_counter()
            views.append(state.view(state.to_move))
            viewing += time.perf_counter() - start
            state.apply(rng.choice(legal))
    enc = encoder_for(views[0])
    start = time.perf_counter()
    for v in views:
        enc.reset()
        enc.encode(v)
    fresh = (time.perf_counter() - start) / len(views) * 1e6
    enc.reset()
    start = time.perf_counter()
    for v in views:
        enc.encode(v)
    incremental = (time.perf_counter() - start) / len(views) * 1e6
    return fresh, incremental, viewing / len(views) * 1e6


def fast_encoder_times(
    game: str,
    preset: str,
    players: int,
    clock: Callable[[], float] = time.perf_counter,
    alone: bool = False,
) -> tuple[float, float]:
    """Microseconds per ``Encoder.encode_state(state, to_move)`` (what the envs call: no
    view built), incrementally (the seat's planes kept between calls) and from scratch
    (``reset()`` before each call), timed by ``clock`` during random play. With
    ``time.thread_time`` the figure is this thread's CPU time (less sensitive to a busy
    machine than the wall clock; the clock's own cost is taken off). ``alone``: the
    incremental calls only, as an env makes them (between two calls the engine runs, no
    from-scratch call: its ~100 µs over a fresh vector evict the kept planes from the
    caches and add several µs to the next incremental call); the from-scratch figure is
    then 0."""
    rng = random.Random(1)
    incremental = fresh = 0.0
    calls = 0
    overhead = _clock_cost(clock)
    for seed in range(4):
        rules = {"preset": preset, "max_turns": 150}
        state = GAMES[game].new_match(rules, players, seed).current
        enc = encoder_for(state.view(0))
        scratch = encoder_for(state.view(0))
        while not state.is_over:
            legal = state.legal_actions()
            seat = state.to_move
            assert seat is not None
            start = clock()
            enc.encode_state(state, seat)
            middle = clock()
            incremental += middle - start - overhead
            if not alone:
                scratch.reset()
                scratch.encode_state(state, seat)
                fresh += clock() - middle - overhead
            calls += 1
            state.apply(rng.choice(legal))
    return incremental / calls * 1e6, fresh / calls * 1e6


def replayed_minimums(game: str, preset: str, players: int, rounds: int = 7) -> tuple[float, float]:
    """The steadier figures: µs per ``encode_state`` call as an env makes them, and per
    PettingZoo step (``last()`` + ``legal_ids()`` + ``step(id)``), each the sum over a
    fixed sequence of calls of that call's fastest time in ``rounds`` replays, divided by
    the calls. A busy machine adds to some calls of a round, seldom to the same call in
    every round, so these move less than a rate over a few seconds (the engine's memos are
    warm after the first replay: these figures are below the loops' own)."""
    clock = time.perf_counter
    rng = random.Random(1)
    rules = {"preset": preset, "max_turns": 150}
    picks: list[tuple[int, list[int]]] = []
    for seed in range(4):
        state = GAMES[game].new_match(rules, players, seed).current
        chosen = []
        while not state.is_over:
            k = rng.randrange(len(state.legal_actions()))
            chosen.append(k)
            state.apply(state.legal_actions()[k])
        picks.append((seed, chosen))
    calls = sum(len(c) for _, c in picks)
    best = [1.0] * calls
    for _ in range(rounds):
        i = 0
        for seed, chosen in picks:
            state = GAMES[game].new_match(rules, players, seed).current
            enc = encoder_for(state.view(0))
            for k in chosen:
                legal = state.legal_actions()
                seat = state.to_move
                assert seat is not None
                start = clock()
                enc.encode_state(state, seat)
                spent = clock() - start
                if spent < best[i]:
                    best[i] = spent
                i += 1
                state.apply(legal[k])
    encoding = sum(best) / calls * 1e6
    module = tunisian_v0 if game == "tunisian" else marriage_v0
    env = module.env(preset, players, max_turns=150)
    raw = env.unwrapped
    deals: list[tuple[int, list[int | None]]] = []
    steps = 0
    while steps < 4000:
        seed = rng.randrange(2**31)
        env.reset(seed=seed)
        played: list[int | None] = []
        while env.agents:
            _o, _r, term, trunc, _i = env.last()
            if term or trunc:
                played.append(None)
                env.step(None)
                continue
            ids = raw.legal_ids()
            played.append(ids[rng.randrange(len(ids))])
            env.step(played[-1])
        deals.append((seed, played))
        steps += len(played)
    fastest = [1.0] * steps
    for _ in range(rounds):
        i = 0
        for seed, played in deals:
            env.reset(seed=seed)
            for action in played:
                start = clock()
                env.last()
                if action is not None:
                    raw.legal_ids()
                env.step(action)
                spent = clock() - start
                if spent < fastest[i]:
                    fastest[i] = spent
                i += 1
    return encoding, sum(fastest) / steps * 1e6


def _clock_cost(clock: Callable[[], float]) -> float:
    """Seconds one reading of ``clock`` adds to a timed interval (best of 5)."""
    best = 1.0
    for _ in range(5):
        start = clock()
        for _ in range(1000):
            clock()
        best = min(best, (clock() - start) / 1001)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description="RL environment steps per second vs peers")
    parser.add_argument("seconds", nargs="?", type=float, default=3.0, help="per environment")
    parser.add_argument(
        "--encoder-only", action="store_true", help="only the encoder lines (no environments)"
    )
    parser.add_argument(
        "--envs-only",
        action="store_true",
        help="only the environment lines (no encoder lines): a shorter side-by-side run",
    )
    args = parser.parse_args()
    seconds = args.seconds
    print(
        f"calibration: 1M Python additions in {calibrate():.0f} ms wall,"
        f" {calibrate(time.thread_time):.0f} ms CPU (idle machine: ~30 ms)"
    )
    if not args.envs_only:
        encoder_lines()
    if args.encoder_only:
        return
    env_lines(seconds)


def encoder_lines() -> None:
    """The observation encoder's lines (``--encoder-only`` prints only these)."""
    print("\nobservation encoder (µs per call; aim ≤ 20 µs) and state.view (µs per call):")
    for game, preset, players in (
        ("tunisian", "1v1", 2),
        ("tunisian", "2v2", 4),
        ("marriage", "nepali", 4),
        ("marriage", "indian", 4),
    ):
        fresh, inc, view = encoder_times(game, preset, players)
        print(
            f"  {game} {preset} {players}p: {inc:7.1f} incremental, {fresh:7.1f} from scratch;"
            f" view {view:7.1f}"
        )
    print(
        "\nfast encoder, encode_state (µs per call; what the envs call, no view built;"
        " wall clock, then CPU time):"
    )
    for game, preset, players in (
        ("tunisian", "1v1", 2),
        ("tunisian", "2v2", 4),
        ("marriage", "nepali", 4),
        ("marriage", "indian", 4),
    ):
        inc, fresh = fast_encoder_times(game, preset, players)
        cpu_inc, cpu_fresh = fast_encoder_times(game, preset, players, time.thread_time)
        print(
            f"  {game} {preset} {players}p: {inc:7.1f} incremental, {fresh:7.1f} from scratch;"
            f" CPU {cpu_inc:7.1f} incremental, {cpu_fresh:7.1f} from scratch"
        )
    print(
        "\nfast encoder alone, encode_state incremental (µs per call; as an env calls it, no"
        " from-scratch call in between; wall clock, then CPU time; aim ≤ 20 µs):"
    )
    for game, preset, players in (
        ("tunisian", "1v1", 2),
        ("tunisian", "2v2", 4),
        ("marriage", "nepali", 4),
        ("marriage", "indian", 4),
    ):
        inc, _ = fast_encoder_times(game, preset, players, alone=True)
        cpu_inc, _ = fast_encoder_times(game, preset, players, time.thread_time, alone=True)
        print(f"  {game} {preset} {players}p: {inc:7.1f} alone; CPU {cpu_inc:7.1f} alone")
    print("\nreplayed, per-call minimum of 7 replays (µs; steadier on a busy machine, memos warm):")
    for game, preset, players in (
        ("tunisian", "1v1", 2),
        ("tunisian", "ffa", 4),
        ("tunisian", "2v2", 4),
        ("marriage", "nepali", 4),
        ("marriage", "indian", 4),
    ):
        encoding, stepping = replayed_minimums(game, preset, players)
        print(
            f"  {game} {preset} {players}p: encode_state {encoding:6.2f},"
            f" PettingZoo step {stepping:6.2f}"
        )


def env_lines(seconds: float) -> None:
    """The environments' lines: steps per second, the wrappers' share, the ratios."""
    # Each rami row of one game plays other deals (its own seed): the engine memoises
    # hands' melds and openings, and a row replaying the deals of a row before it would
    # find them all remembered (about a quarter faster than fresh deals, measured).
    rows: list[tuple[str, Callable[[], None] | str]] = [
        ("rami tunisian_v0 1v1 (PettingZoo)", pettingzoo_loop(tunisian_v0.env(max_turns=200), 1)),
        (
            "rami tunisian_v0 1v1 raw_env (no wrapper)",
            pettingzoo_loop(tunisian_v0.raw_env(max_turns=200), 2),
        ),
        (
            "rami tunisian_v0 1v1 mask scanned (flatnonzero)",
            pettingzoo_loop(tunisian_v0.env(max_turns=200), 3, scan_mask=True),
        ),
        ("rami tunisian_v0 ffa (PettingZoo)", pettingzoo_loop(tunisian_v0.env(mode="ffa"), 1)),
        (
            "rami marriage_v0 nepali 4p (PettingZoo)",
            pettingzoo_loop(marriage_v0.env(players=4, max_turns=200), 1),
        ),
        (
            "rami marriage_v0 indian 4p (PettingZoo)",
            pettingzoo_loop(marriage_v0.env(preset="indian", players=4, max_turns=200), 1),
        ),
        (
            "rami OpenSpiel python_rami_tunisian",
            openspiel_loop("python_rami_tunisian", {"max_turns": 200}, 1),
        ),
        (
            "rami OpenSpiel python_rami_tunisian observer",
            openspiel_loop("python_rami_tunisian", {"max_turns": 200}, 1, observer=True),
        ),
        (
            "rami OpenSpiel python_rami_marriage nepali 4p",
            openspiel_loop("python_rami_marriage", {"players": 4, "max_turns": 200}, 1),
        ),
        ("RLCard gin-rummy", rlcard_loop(1)),
        ("OpenSpiel gin_rummy (C++)", openspiel_loop("gin_rummy", {}, 1)),
    ]
    print(
        f"\nenvironment steps per second (random legal actions, {seconds:.0f} s each;"
        " wall clock, then per CPU second):"
    )
    figures: dict[str, tuple[float, float]] = {}
    for name, loop in rows:
        if isinstance(loop, str):
            print(f"  {name:42s} skipped: {loop}")
            continue
        rate, cpu_rate = timed(seconds, loop)
        figures[name] = (rate, cpu_rate)
        print(f"  {name:42s} {rate:10,.0f} {cpu_rate:10,.0f}")
        if name == "rami marriage_v0 indian 4p (PettingZoo)":
            gym_rows(seconds, figures)
    print(
        "\nPettingZoo step, CPU µs a step: the env loop, the engine and encoder alone on the"
        " same moves, the wrappers' share (the difference):"
    )
    share_steps = max(2000, int(seconds * 5000))
    for label, make in (
        ("tunisian_v0 1v1", lambda: tunisian_v0.env(max_turns=200)),
        ("marriage_v0 nepali 4p", lambda: marriage_v0.env(players=4, max_turns=200)),
        (
            "marriage_v0 indian 4p",
            lambda: marriage_v0.env(preset="indian", players=4, max_turns=200),
        ),
    ):
        whole, alone = wrapper_share(make(), share_steps)
        print(
            f"  {label:24s} env {whole:6.1f}, engine+encoder {alone:6.1f},"
            f" wrappers {whole - alone:5.1f}"
        )
    print(
        "\nOpenSpiel step, CPU µs a decision (the deal's chance nodes included): the loop with"
        " the tensor list, with the observer, the engine and encoder alone on the same moves,"
        " the wrapper's share (list, observer):"
    )
    for label, name, params in (
        ("python_rami_tunisian 1v1", "python_rami_tunisian", {"max_turns": 200}),
        (
            "python_rami_marriage nepali 4p",
            "python_rami_marriage",
            {"players": 4, "max_turns": 200},
        ),
    ):
        share = openspiel_share(name, params, share_steps)
        if isinstance(share, str):
            print(f"  {label:30s} skipped: {share}")
            continue
        listed, observed, alone = share
        print(
            f"  {label:30s} list {listed:6.1f}, observer {observed:6.1f},"
            f" engine+encoder {alone:6.1f}, wrapper {listed - alone:5.1f} / {observed - alone:5.1f}"
        )
    calls = openspiel_calls(seconds)
    print("\nOpenSpiel python_rami_tunisian 1v1, CPU µs per call (random play):")
    if isinstance(calls, str):
        print(f"  skipped: {calls}")
    else:
        for name, micros in calls.items():
            print(f"  {name:42s} {micros:8.1f}")
    base = figures.get("RLCard gin-rummy")
    if base:
        print("\nratio to RLCard gin-rummy (aim ≥ 2×; wall clock, then CPU):")
        for name, (rate, cpu_rate) in figures.items():
            if name.startswith("rami"):
                print(f"  {name:42s} {rate / base[0]:6.2f}× {cpu_rate / base[1]:6.2f}× RLCard")
    gin = figures.get("OpenSpiel gin_rummy (C++)")
    if gin:
        print("\nratio to OpenSpiel gin_rummy (wall clock, then CPU):")
        for name, (rate, cpu_rate) in figures.items():
            if name.startswith("rami"):
                print(f"  {name:42s} {rate / gin[0]:6.2f}× {cpu_rate / gin[1]:6.2f}× OpenSpiel")


if __name__ == "__main__":
    main()
