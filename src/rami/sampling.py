"""Dealing hidden cards to hands with per-hand weights (determinization for search bots).

``determinize(view, rng, weights, ...)`` is every game's determinizer skeleton: the
cards the view's seat cannot see (``unseen``) go first to the seats known to hold them
(``known``: discards they took and kept), then at random to the other seats
(``deal_unseen``), and the game's ``build`` lays the position out through its state's
public constructor, with what is left over (the stock, a hidden chance card).

``deal_weighted(cards, needs, weights, rng)`` splits ``cards`` (already shuffled) into
buckets of the sizes ``needs``: each card in turn goes to a bucket with probability in
proportion to the bucket's free places times its weight for that card kind. With all
weights equal this is a uniform random deal; a bucket whose owner visibly collects a
kind gets it more often. The last bucket is meant for the stock (weight 1 throughout).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from rami.errors import InputError
from rami.views import TypedView, own_seat

__all__ = ["deal_others", "deal_unseen", "deal_weighted", "determinize"]

T = TypeVar("T")
V = TypeVar("V", bound=TypedView)  # the game's own typed view
Weights = Sequence[Sequence[float] | None] | None


def determinize(
    view: V,
    rng: random.Random,
    weights: Weights,
    *,
    unseen: Callable[[V], list[int]],
    known: Callable[[V], list[list[int]]],
    build: Callable[[list[list[int]], list[int]], T],
    what: str,
) -> T:
    """A full deal consistent with ``view``: the skeleton every game's ``sample_state``
    fills in (see the module docstring).

    ``unseen(view)``: count vector of the cards the seat cannot see; ``known(view)[s]``:
    cards seat ``s`` is known to hold; ``build(hidden, rest)``: the state, from each
    other seat's cards (known first, then dealt; the seat's own list is empty) and the
    rest in random order. ``what`` names the card set in the error for bad counts.
    """
    sizes = [s.hand_size for s in view.seats]
    hidden, rest = deal_unseen(unseen(view), known(view), sizes, own_seat(view), weights, rng, what)
    return build(hidden, rest)


def deal_unseen(
    pool: Sequence[int],
    known: Sequence[Sequence[int]],
    sizes: Sequence[int],
    seat: int,
    weights: Weights,
    rng: random.Random,
    what: str,
) -> tuple[list[list[int]], list[int]]:
    """Per seat, its hidden cards (kinds: those ``known`` to be there, then dealt ones, up
    to ``sizes``; none for ``seat`` itself), and the unseen cards left, shuffled."""
    pool = list(pool)
    n = len(sizes)
    hands: list[list[int]] = [[] for _ in range(n)]
    need = [0] * n
    for s in range(n):
        if s == seat:
            continue
        mine = hands[s]
        for c, held in enumerate(known[s]):
            k = min(held, pool[c])
            if k:
                pool[c] -= k
                mine.extend([c] * k)
        need[s] = sizes[s] - len(mine)
    rest = [c for c, k in enumerate(pool) for _ in range(k)]
    rng.shuffle(rest)
    dealt, left = deal_others(rest, need, seat, weights, rng, what)
    for s, got in dealt.items():
        hands[s].extend(got)
    return hands, left


def deal_others(
    rest: Sequence[int],
    need: Sequence[int],
    seat: int,
    weights: Sequence[Sequence[float] | None] | None,
    rng: random.Random,
    what: str,
) -> tuple[dict[int, list[int]], list[int]]:
    """Deal the shuffled unseen cards ``rest``: ``need[s]`` to every other seat that lacks
    cards (in seat order, or by ``deal_weighted`` with ``weights[s]``); the rest is left.

    ``what`` names the card set ("decks", "shoe") in the error for counts that cannot be.
    """
    others = [s for s in range(len(need)) if s != seat and need[s] > 0]
    if weights is None:
        dealt: dict[int, list[int]] = {}
        pos = 0
        for s in others:
            dealt[s] = list(rest[pos : pos + need[s]])
            pos += need[s]
        return dealt, list(rest[pos:])
    total = sum(need[s] for s in others)
    if total > len(rest):
        raise InputError(f"the view's card counts do not add up to the {what}")
    buckets = deal_weighted(
        rest,
        [need[s] for s in others] + [len(rest) - total],
        [weights[s] for s in others] + [None],
        rng,
    )
    return dict(zip(others, buckets, strict=False)), buckets[-1]


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
