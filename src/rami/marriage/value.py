"""A learned value of Marriage positions for the IS-MCTS depth cut (issue 25).

``features(state, seat)`` describes a position from one seat's side: the race estimates
of ``greedy_bot.leaf_value`` at several scales (each seat's chance to finish first
falling with its deficiency, each possible finish settled with the maal held now,
M-12 … M-15) and what they are built from (the seats' deficiencies, who has seen, the
maal, the paths, the deal's progress), the other seats in order of play. In a search
the state is a determinization drawn from the seat's view, so the hidden cards are a
sample, as in ``leaf_value``. ``rami train --policy value`` fits a small network
(``rami.bots.value_net``) from these features to the seat's final ledger in greedy
self-play; ``tree_leaf(state, seat)`` is the kit's ``learned_leaf`` (``hard+value``,
``expert+value``): the exact nets of a finished deal, else the shipped network of the
preset and table size, else ``tree_leaf_value``. Plain ``hard`` keeps ``tree_leaf_value``:
on held-out deals the learned value was not measurably stronger (docs/bots.md).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rami.bots.value_net import ValueNet, shipped_value
from rami.marriage.greedy_bot import race_inputs, tree_leaf_value

if TYPE_CHECKING:
    from rami.marriage.game import MarriageState

__all__ = ["FEATURES", "features", "model_name", "tree_leaf"]

_SCALES = (1.0, 3.0, 6.0)
FEATURES = (
    "race_1",
    "race_3",
    "race_6",
    "race_flat",
    "own_finish",
    "dist_own",
    "dist_next",
    "dist_min_other",
    "dist_mean_other",
    "ready_own",
    "ready_other",
    "seen_own",
    "seen_next",
    "seen_others",
    "maal_own",
    "maal_max_other",
    "maal_sum_other",
    "dublees_own",
    "dublees_other",
    "shown_own",
    "stock",
    "turn",
)


def model_name(scoring: str, players: int) -> str:
    """The shipped value file of a preset's scoring and a table size."""
    return f"marriage_{scoring}_{players}p"


def features(state: MarriageState, seat: int) -> list[float]:
    """The position's ``FEATURES`` for ``seat`` (points in tens, counts as they are)."""
    rules = state.rules
    n = state.num_players
    points, dist, nets = race_inputs(state, seat)
    seen = list(state.seen)
    low = min(dist)
    races = []
    for scale in _SCALES:
        weights = [math.exp(-(d - low) / scale) for d in dist]
        total = sum(weights)
        races.append(sum(w * v for w, v in zip(weights, nets, strict=True)) / total / 10)
    step = 1 if rules.clockwise else -1
    order = [(seat + step * k) % n for k in range(1, n)]
    others = [dist[s] for s in order]
    other_maal = [points[s] for s in order]
    return [
        *races,
        sum(nets) / n / 10,
        nets[seat] / 10,
        dist[seat],
        dist[order[0]],
        min(others),
        sum(others) / len(others),
        float(dist[seat] <= 0),
        float(min(others) <= 0),
        float(seen[seat]),
        float(seen[order[0]]),
        sum(seen[s] for s in order) / len(order),
        points[seat] / 10,
        max(other_maal) / 10,
        sum(other_maal) / 10,
        float(state.path[seat] == "dublees"),
        float(any(state.path[s] == "dublees" for s in order)),
        len(state.melds[seat]) + len(state.exposed[seat]) + len(state.dublees[seat]) / 2,
        len(state.stock) / 52,
        state.turn / 100,
    ]


def _net(state: MarriageState) -> ValueNet | None:
    return shipped_value(model_name(state.rules.scoring, state.num_players))


def tree_leaf(state: MarriageState, seat: int) -> float:
    """The IS-MCTS leaf: exact nets if the deal is over, else the learned value of the
    preset and table size when one ships, else ``greedy_bot.tree_leaf_value``."""
    if state.result is not None:
        return float(state.result.scores[seat])
    net = _net(state)
    if net is None:
        return tree_leaf_value(state, seat)
    return net(features(state, seat))
