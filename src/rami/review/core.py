"""The move-by-move review: each decision of one seat valued from that seat's view.

For every decision of the seat with more than one legal move, from ``state.view(seat)``
at that moment (nothing the seat could not see):

1. **Exact answers first**: the game's solvers may settle the decision (``exact``: a
   finish or going out is possible now, a card on the pile completes the hand). The
   best move is then the solver's; the loss of another move is still measured by the
   playouts below, on the two moves only.
2. **Elsewhere, playouts**: ``samples`` determinizations of the view (the bot kit's
   ``sample``, weighted by the opponent model as ``hard`` is), the **same** ones for
   every candidate (common random numbers). On each, a candidate is played, then the
   seat's own policy and the others' greedy policy for one round, and the position is
   valued for the seat in the game's points by the leaf ``hard`` uses (the exact result
   if the deal ended). Every legal move is a candidate; after 8 and 16 samples the
   candidates clearly beaten (3 standard errors of the paired difference below the
   best) stop, except the move taken and greedy's.
3. **Loss**: the mean paired difference between the best candidate and the move taken,
   with its standard error, the best being chosen on one half of the samples and the
   difference measured on the other (and the other way round): the best of twenty noisy
   means would otherwise find a loss in noise. The best move shown is the best mean
   over all the samples. The label compares the loss with the game's thresholds
   (``ReviewHooks.thresholds``); a loss within two standard errors of zero is ``good``:
   noise does not make a mistake.

Deterministic: the samples derive from ``seed`` and the view, so a review is a function
of the deal, the seat and its parameters (which is what the cache keys on).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from rami.bots.base import decision_key
from rami.bots.kit import BotKit
from rami.bots.opponent_model import model_of
from rami.engine import Action
from rami.errors import IllegalAction
from rami.review.hooks import ReviewHooks
from rami.views import GameView, TypedView, own_seat, typed_view

__all__ = [
    "LABELS",
    "Decision",
    "DecisionJson",
    "Label",
    "Progress",
    "Review",
    "ReviewJson",
    "evaluate",
    "label_of",
]

Label = Literal["good", "inaccuracy", "mistake", "blunder"]
LABELS: tuple[Label, ...] = ("good", "inaccuracy", "mistake", "blunder")
Progress = Callable[[int, int], None]  # (decisions done, decisions in all)

PRUNE_AT = (8, 16)  # samples after which clearly beaten candidates stop
PRUNE_SE = 3.0  # ... when this many standard errors below the best
NOISE_SE = 2.0  # a loss within this many standard errors of zero is labelled good


class DecisionJson(TypedDict):
    index: int
    move: str
    best: str
    loss: float
    stderr: float
    label: Label
    why: str | None


class ReviewJson(TypedDict):
    seat: int
    decisions: list[DecisionJson]
    points_lost: float
    accuracy: float
    game: str
    unit: str
    points_per_decision: float
    samples: int
    thresholds: list[float]


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: the move at ``index`` of the deal's actions."""

    index: int
    move: str
    best: str
    loss: float  # expected points lost against ``best`` (0 when the move is the best)
    stderr: float
    label: Label
    why: str | None
    exact: bool = False  # the best move is the solvers' (not the playouts')

    def to_json(self) -> DecisionJson:
        return {
            "index": self.index,
            "move": self.move,
            "best": self.best,
            "loss": round(self.loss, 3),
            "stderr": round(self.stderr, 3),
            "label": self.label,
            "why": self.why,
        }


@dataclass(frozen=True)
class Review:
    """A seat's decisions in one deal, with the summary."""

    game: str
    seat: int
    decisions: tuple[Decision, ...]
    unit: str  # what the game's points are called ("ledger", "points")
    samples: int
    thresholds: tuple[float, float, float]

    @property
    def points_lost(self) -> float:
        """Expected points lost over the deal (the sum over the decisions)."""
        return sum(d.loss for d in self.decisions)

    @property
    def points_per_decision(self) -> float:
        return self.points_lost / len(self.decisions) if self.decisions else 0.0

    @property
    def accuracy(self) -> float:
        """Percent of the decisions labelled good (100 with no decision to make)."""
        if not self.decisions:
            return 100.0
        good = sum(d.label == "good" for d in self.decisions)
        return 100.0 * good / len(self.decisions)

    def to_json(self) -> ReviewJson:
        return {
            "seat": self.seat,
            "decisions": [d.to_json() for d in self.decisions],
            "points_lost": round(self.points_lost, 3),
            "accuracy": round(self.accuracy, 1),
            "game": self.game,
            "unit": self.unit,
            "points_per_decision": round(self.points_per_decision, 3),
            "samples": self.samples,
            "thresholds": list(self.thresholds),
        }

    @classmethod
    def from_json(cls, doc: ReviewJson) -> Review:
        """The review ``to_json`` wrote (the cache)."""
        low, mid, high = (float(x) for x in doc["thresholds"])
        return cls(
            game=doc["game"],
            seat=int(doc["seat"]),
            decisions=tuple(
                Decision(
                    index=int(d["index"]),
                    move=str(d["move"]),
                    best=str(d["best"]),
                    loss=float(d["loss"]),
                    stderr=float(d["stderr"]),
                    label=d["label"],
                    why=d["why"],
                    exact=False,
                )
                for d in doc["decisions"]
            ),
            unit=doc["unit"],
            samples=int(doc["samples"]),
            thresholds=(low, mid, high),
        )


def label_of(loss: float, stderr: float, thresholds: Sequence[float]) -> Label:
    """The label of a loss: ``good`` below the first threshold or within noise."""
    if loss <= NOISE_SE * stderr:
        return "good"
    label: Label = "good"
    for name, limit in zip(LABELS[1:], thresholds, strict=True):
        if loss >= limit:
            label = name
    return label


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    if not n:
        return 0.0, 0.0
    mean = sum(xs) / n
    if n < 2:
        return mean, 0.0
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, math.sqrt(var / n)


def _cross_fitted(
    values: dict[Action, list[float]], alive: list[Action], taken: Action, n: int
) -> list[float]:
    """Per sample, the best move's value less the taken move's, the best being chosen on
    the *other* half of the samples (odd against even): the maximum over many noisy
    means would otherwise count noise as a loss (the winner's curse)."""
    halves = (range(0, n, 2), range(1, n, 2))
    out: list[float] = []
    for pick, judge in ((halves[0], halves[1]), (halves[1], halves[0])):
        best = max(alive, key=lambda c: (sum(values[c][i] for i in pick), c == taken))
        out += [values[best][i] - values[taken][i] for i in judge]
    return out


def _playout(kit: BotKit[Any, Any], state: Any, move: Action, seat: int, stop: int) -> float:
    """``move``, then the seat's own policy and greedy for the others to the depth cut;
    the position's value for ``seat`` in the game's points."""
    try:
        state.apply(move)
    except IllegalAction:
        # A sample shows the seat its own view, so its legal moves are the view's; should
        # a game's determinizer ever differ, the seat's own policy moves instead of a crash.
        state.apply((kit.own_policy or kit.policy)(state))
    own = kit.own_policy or kit.policy
    steps = 0
    while not state.is_over and state.turn < stop and steps < 400:
        action = own(state) if state.to_move == seat else kit.policy(state)
        try:
            state.apply(action)
        except IllegalAction:
            state.apply(state.legal_actions()[0])
        steps += 1
    return float((kit.tree_leaf or kit.leaf_value)(state, seat))


def evaluate(
    kit: BotKit[Any, Any],
    hooks: ReviewHooks,
    view: TypedView | GameView,
    taken: Action,
    index: int,
    samples: int,
    seed: int = 0,
    thresholds: Sequence[float] | None = None,
) -> Decision:
    """Review the move ``taken`` at the decision ``view`` shows (see the module docstring);
    ``thresholds`` default to the hooks' for the view's rules."""
    view = typed_view(view)
    legal = view.legal
    seat = own_seat(view)
    verdict = hooks.exact(view)
    if verdict is not None and verdict.best == taken:
        return Decision(index, str(taken), str(taken), 0.0, 0.0, "good", None, exact=True)
    own_move = kit.decide(kit.observe(view))
    if verdict is not None:
        candidates = [verdict.best, taken]
    else:
        candidates = [taken] + [a for a in legal if a != taken]
    keep = {taken, own_move} | ({verdict.best} if verdict is not None else set())
    model = model_of(view, kit.wilds(view), kit.play_step(view))
    weights = model.weights()
    rng = random.Random(f"review:{seed}:{decision_key(view)}")
    stop = view.turn + view.players
    values: dict[Action, list[float]] = {c: [] for c in candidates}
    alive = list(candidates)
    for i in range(samples):
        sample = kit.sample(view, rng, weights)
        for c in alive:
            values[c].append(_playout(kit, sample.clone(), c, seat, stop))
        if i + 1 in PRUNE_AT and len(alive) > 2:
            top = max(alive, key=lambda c: sum(values[c]))
            kept = []
            for c in alive:
                if c in keep or c == top:
                    kept.append(c)
                    continue
                mean, se = _mean_se([a - b for a, b in zip(values[top], values[c], strict=True)])
                if mean <= PRUNE_SE * se:
                    kept.append(c)
            alive = kept
    if verdict is not None:
        best = verdict.best
        diffs = [a - b for a, b in zip(values[best], values[taken], strict=True)]
    else:
        best = max(alive, key=lambda c: (sum(values[c]), c == taken, c == own_move))
        diffs = _cross_fitted(values, alive, taken, samples)
    loss, se = _mean_se(diffs)
    loss = max(0.0, loss)
    if best == taken:
        loss, se = 0.0, 0.0
    if thresholds is None:
        thresholds = hooks.thresholds(view.rules.to_json())
    label = label_of(loss, se, thresholds)
    why: str | None = None
    if best != taken:
        why = verdict.why if verdict is not None else hooks.why(view, taken, best)
    return Decision(index, str(taken), str(best), loss, se, label, why, exact=verdict is not None)
