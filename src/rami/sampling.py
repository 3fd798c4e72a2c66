"""Dealing hidden cards to hands with per-hand weights (determinization for search bots).

``deal_weighted(cards, needs, weights, rng)`` splits ``cards`` (already shuffled) into
buckets of the sizes ``needs``: each card in turn goes to a bucket with probability in
proportion to the bucket's free places times its weight for that card kind. With all
weights equal this is a uniform random deal; a bucket whose owner visibly collects a
kind gets it more often. The last bucket is meant for the stock (weight 1 throughout).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

__all__ = ["deal_weighted"]


def deal_weighted(
    cards: Sequence[int],
    needs: Sequence[int],
    weights: Sequence[Sequence[float] | None],
    rng: random.Random,
) -> list[list[int]]:
    """``len(needs)`` buckets holding exactly ``needs[i]`` cards each (``sum(needs)`` must
    equal ``len(cards)``); ``weights[i]`` is a per-kind weight or ``None`` (uniform)."""
    free = list(needs)
    out: list[list[int]] = [[] for _ in needs]
    left = len(cards)
    for c in cards:
        total = 0.0
        scores = []
        for i, f in enumerate(free):
            w = weights[i]
            x = f * (1.0 if w is None else w[c]) if f else 0.0
            scores.append(x)
            total += x
        pick = rng.random() * total
        chosen = len(free) - 1
        for i, x in enumerate(scores):
            if x and pick < x:
                chosen = i
                break
            pick -= x
        if not free[chosen]:  # rounding at the very end: the last bucket with room
            chosen = max(i for i, f in enumerate(free) if f)
        out[chosen].append(c)
        free[chosen] -= 1
        left -= 1
    return out
