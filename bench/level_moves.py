"""Where two search levels choose differently, which move is better? (issue 25)

Deals of level B (``hard`` by default) in one seat against ``medium`` (every seat in
turn); at each of B's decisions with a choice, level A (``expert``) is asked too, from
the same view, with the same seed and the same name for its random draws (so the two
searches sample the same determinizations). Where the two moves differ, each is valued
by ``--samples`` playouts *to the end of the deal*, the same determinizations for both
(drawn from the seat's view by the game's determinizer, weighted by the opponent model),
the seat playing its own policy and the others greedy: the figure is A's move less B's in
the seat's points less the others' mean (Marriage ledger; Tunisian points turned round,
so that higher is better for both). The deal goes on with B's move.

A level is a name ``make_bot`` knows (``expert``, ``hard``, ``ismcts:100it``) or an
IS-MCTS variant ``ismcts:ITERATIONSit/KEY=VALUE/…`` with keyword arguments of
``rami.bots.ismcts.ISMCTSBot`` (``rounds``, ``margin``, ``exploration``, ``width``).

Run: ``python bench/level_moves.py GAME [--preset P] [--deals D] [--seed FIRST]
[--levels A1,A2,…,B] [--samples K] [--minutes M]``. The per-decision figures (mean over all
decisions, equal moves counting zero, and over the differing ones) have 95% intervals
over the deals (Student's t), which are the independent units.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from rami.bots import make_bot
from rami.bots.base import Bot
from rami.bots.kit import kit_of
from rami.bots.opponent_model import model_of
from rami.engine import Action
from rami.errors import IllegalAction
from rami.games import get_game
from rami.sim.stats import mean_ci
from rami.views import own_seat

SHARED_NAME = "paired"


def build(game: str, spec: str, seed: int) -> Bot:
    """``make_bot``'s level, or an IS-MCTS variant ``ismcts:Nit/key=value/…``."""
    head, *extra = spec.split("/")
    if not extra:
        bot = make_bot(game, head, seed)
    else:
        from rami.bots.ismcts import ISMCTSBot

        its = int(head.partition(":")[2].removesuffix("it"))
        kwargs: dict[str, Any] = {}
        for item in extra:
            key, _, value = item.partition("=")
            kwargs[key] = float(value) if "." in value else int(value)
        bot = ISMCTSBot(game, seed, iterations=its, **kwargs)
    bot.name = SHARED_NAME
    return bot


def worth(state: Any, seat: int, higher: bool) -> float:
    """The seat's points less the others' mean, higher is better."""
    assert state.result is not None
    scores = list(state.result.scores)
    others = [scores[s] for s in range(len(scores)) if s != seat]
    d = scores[seat] - sum(others) / len(others)
    return d if higher else -d


def playout(kit: Any, state: Any, move: Action, seat: int, higher: bool) -> float:
    own = kit.own_policy or kit.policy
    try:
        state.apply(move)
    except IllegalAction:
        state.apply(own(state))
    steps = 0
    while not state.is_over and steps < 2000:
        action = own(state) if state.to_move == seat else kit.policy(state)
        try:
            state.apply(action)
        except IllegalAction:
            state.apply(state.legal_actions()[0])
        steps += 1
    if not state.is_over:
        return 0.0
    return worth(state, seat, higher)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="tunisian")
    parser.add_argument("--preset", default=None)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--deals", type=int, default=1, help="default 1: make bench's sample")
    parser.add_argument("--seed", type=int, default=120_000)
    parser.add_argument("--levels", default="expert,hard")
    parser.add_argument("--samples", type=int, default=24)
    parser.add_argument("--minutes", type=float, default=None)
    args = parser.parse_args()
    spec = get_game(args.game)
    players = args.players or (2 if spec.name == "tunisian" else 4)
    preset = args.preset or spec.preset_for(players)
    rules = spec.rules_from({"preset": preset})
    higher = spec.name != "tunisian"
    kit = kit_of(spec.name)
    specs = [x.strip() for x in args.levels.split(",")]
    a_specs, b_spec = specs[:-1], specs[-1]
    see = spec.viewer()
    assert spec.new_deal is not None
    start = time.monotonic()
    per_deal: dict[str, list[float]] = {a: [] for a in a_specs}
    differing: dict[str, list[float]] = {a: [] for a in a_specs}
    decisions = 0
    cpu = dict.fromkeys(specs, 0.0)
    for d in range(args.deals):
        if args.minutes is not None and time.monotonic() - start > args.minutes * 60:
            break
        seed = args.seed + d
        seat = d % players
        state = spec.new_deal(rules, players, seed, d % players)
        bots = [make_bot(spec.name, "medium", seed) for _ in range(players)]
        searchers = {x: build(spec.name, x, seed) for x in specs}
        gains: dict[str, list[float]] = {a: [] for a in a_specs}
        while not state.is_over:
            s = state.to_move
            assert s is not None
            view = see(state, s)
            if s != seat or len(view.legal) < 2:
                state.apply(bots[s].act(view))
                continue
            moves: dict[str, Action] = {}
            for x in specs:
                t0 = time.process_time()
                moves[x] = searchers[x].act(view)
                cpu[x] += time.process_time() - t0
            decisions += 1
            mb = moves[b_spec]
            distinct = sorted(set(moves.values()), key=str)
            values: dict[Action, float] = dict.fromkeys(distinct, 0.0)
            if len(distinct) > 1:
                rng = random.Random(f"moves:{seed}:{len(view.history)}")
                model = model_of(view, kit.wilds(view), kit.play_step(view))
                weights = model.weights()
                me = own_seat(view)
                for _ in range(args.samples):
                    sample = kit.sample(view, rng, weights)
                    for m in distinct:
                        values[m] += playout(kit, sample.clone(), m, me, higher) / args.samples
            for a in a_specs:
                g = values[moves[a]] - values[mb]
                gains[a].append(g)
                if moves[a] != mb:
                    differing[a].append(g)
            state.apply(mb)
        parts = []
        for a in a_specs:
            per_deal[a].append(sum(gains[a]) / len(gains[a]) if gains[a] else 0.0)
            est = mean_ci(per_deal[a])
            dif = differing[a]
            dm = mean_ci(dif) if len(dif) > 1 else None
            parts.append(
                f"{a} − {b_spec}: {est.mean:+.3f} ± {est.half_width:.3f} a decision, "
                f"{len(dif)} differ"
                + (f" ({dm.mean:+.2f} ± {dm.half_width:.2f})" if dm else "")
                + f", CPU {cpu[a]:.0f} s"
            )
        print(
            f"{spec.name} {preset} deal {d + 1}, {decisions} decisions (B {cpu[b_spec]:.0f} s): "
            + "; ".join(parts),
            flush=True,
        )


if __name__ == "__main__":
    main()
