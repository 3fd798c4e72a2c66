"""The ``search`` bot: information-set Monte Carlo over greedy simulations.

At a decision greedy's rules do not settle (which card to discard; in some games also
whether to draw or take: the game kit's ``candidates``), the bot:

1. lists a few candidate moves, the greedy move first (``candidates``);
2. repeatedly samples the cards it cannot see, consistent with its view (the game
   kit's ``sample``: other hands, the stock's order, any hidden chance card), and for
   each candidate plays the sampled deal on with the greedy policy for every seat, for
   about one round, then scores the position for itself in points (``leaf_value``: the
   exact result if the deal ended, otherwise an estimate of what the deal would bring);
3. plays the candidate with the best mean, but leaves the greedy move only for one
   that beats it by more than ``margin`` standard errors of the paired difference (the
   game's ``search_margin``; zero plays the best mean). Every candidate sees the same
   samples (common random numbers), so the comparison measures the move, not the luck.

The budget per decision is a time (``budget_ms``, default 200 ms) or a number of
samples (``iterations``: the same moves on any machine). A time budget is kept: the
bot does not start a sample it expects to overrun, and abandons one that does.
"""

from __future__ import annotations

import time
from typing import Any

from rami.bots.base import Bot
from rami.bots.kit import kit_of
from rami.engine import Action
from rami.errors import IllegalAction, InputError
from rami.views import TypedView, own_seat

__all__ = ["SearchBot"]


_RESERVE = 0.005  # seconds of a time budget kept for choosing the move


class SearchBot(Bot):
    """Determinized Monte Carlo search with greedy simulations (``hard``)."""

    name = "search"

    def __init__(
        self,
        game: str,
        seed: int = 0,
        budget_ms: float | None = 200.0,
        iterations: int | None = None,
        width: int = 4,
        max_steps: int = 400,
        margin: float | None = None,
    ) -> None:
        super().__init__(seed)
        if budget_ms is None and iterations is None:
            raise InputError("a search bot needs a time budget or a number of iterations")
        self.game = game
        self.kit = kit_of(game)
        self.budget_ms = budget_ms
        self.iterations = iterations
        self.width = width
        self.max_steps = max_steps
        self.margin = self.kit.search_margin if margin is None else margin
        self.last_iterations = 0

    def choose(self, view: TypedView) -> Action:
        start = time.perf_counter()
        ad = self.kit
        legal = list(view.legal)
        if len(legal) == 1:
            return legal[0]
        obs = ad.observe(view)
        moves = ad.candidates(obs, self.width)
        if len(moves) <= 1:
            return moves[0] if moves else ad.decide(obs)
        seat = own_seat(view)
        rng = self.rng(view, "search")
        values: list[list[float]] = [[] for _ in moves]
        done = 0
        deadline = None
        if self.budget_ms is not None:
            deadline = start + self.budget_ms / 1000.0 - _RESERVE
        cost = 0.0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            now = time.perf_counter()
            if deadline is not None and done and now + cost > deadline:
                break
            state = ad.sample(view, rng, None)
            row: list[float] = []
            for move in moves:
                value = self._simulate(state.clone(), move, seat, deadline)
                if value is None:
                    break  # out of time: a partial sample would unpair the comparison
                row.append(value)
            if len(row) < len(moves):
                break
            for i, value in enumerate(row):
                values[i].append(value)
            done += 1
            spent = time.perf_counter() - now
            cost = spent if done == 1 else max(spent, 0.7 * cost + 0.3 * spent)
        self.last_iterations = done
        if not done:
            return moves[0]
        return moves[self._pick(values)]

    def _pick(self, values: list[list[float]]) -> int:
        """The candidate to play: the greedy move (index 0) unless another one beats it
        by more than ``self.margin`` standard errors of their paired difference.

        Every candidate was simulated on the same samples, so differences are paired;
        demanding a clear margin keeps sampling noise from overruling a good default.
        """
        base = values[0]
        n = len(base)
        best, best_mean = 0, 0.0
        for i in range(1, len(values)):
            diffs = [a - b for a, b in zip(values[i], base, strict=True)]
            mean = sum(diffs) / n
            if n > 1:
                var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
                se = (var / n) ** 0.5
            else:
                se = abs(mean)
            if mean > self.margin * se and mean > best_mean:
                best, best_mean = i, mean
        return best

    def _simulate(
        self, state: Any, move: Action, seat: int, deadline: float | None
    ) -> float | None:
        """Play ``move`` then greedy for everyone about one round; the value for ``seat``
        (``None`` if the deadline passed first)."""
        ad = self.kit
        state.apply(move)
        stop = state.turn + ad.turns_ahead(state.num_players)
        steps = 0
        while not state.is_over and state.turn < stop and steps < self.max_steps:
            if deadline is not None and time.perf_counter() > deadline:
                return None
            action = ad.policy(state)
            try:
                state.apply(action)
            except IllegalAction:
                state.apply(state.legal_actions()[0])
            steps += 1
        return ad.leaf_value(state, seat)
