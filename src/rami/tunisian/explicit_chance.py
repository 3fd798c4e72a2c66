"""Tunisian rami with explicit chance, for OpenSpiel (``Game.openspiel``; docs/rl.md).

The wrapper deals the shoe in order as chance outcomes; the deal is built from that
order through ``TunisianState.from_position``: 15 cards to the dealer (seat 0), 14 to
each other seat (T-2), the rest the stock, top first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rami.cards import CARDS, shoe
from rami.engine import GameState
from rami.rl.hooks import OpenSpielHooks
from rami.tunisian.determinize import sample_state
from rami.tunisian.game import TunisianState
from rami.views import GameView

__all__ = ["HOOKS"]


def deal(rules: Any, players: int, order: Sequence[int], seed: int) -> GameState:
    """The deal the chance outcomes ``order`` make: hands, then the stock (T-2)."""
    hands: list[list[int]] = [[] for _ in range(players)]
    pos = 0
    for seat in range(players):  # the dealer (seat 0) is dealt first, one card more
        take = rules.hand_size + (1 if seat == 0 else 0)
        hands[seat] = list(order[pos : pos + take])
        pos += take
    stock = list(order[pos:])[::-1]  # ``stock`` is given top last
    return TunisianState.from_position(
        rules,
        [[CARDS[c] for c in h] for h in hands],
        stock=[CARDS[c] for c in stock],
        to_move=0,
        dealer=0,
        phase="first_discard",
        turn=0,
        seed=seed,
    )


def _shoe(rules: Any) -> list[int]:
    return [int(c) for c in shoe(rules.decks, rules.jokers)]


def _dealt(rules: Any, players: int, player: int) -> tuple[int, int]:
    """The dealer (seat 0) is dealt first, one card more."""
    size = rules.hand_size
    start = player * size + (1 if player else 0)
    return start, start + size + (1 if player == 0 else 0)


def _sample(view: GameView, rng: random.Random) -> GameState:
    return sample_state(view, rng)


HOOKS = OpenSpielHooks(
    defaults={"mode": "1v1", "max_turns": 200, "seed": 0},
    preset_key="mode",
    max_players=4,
    zero_sum=False,
    shoe=_shoe,
    deal=deal,
    dealt=_dealt,
    sample=_sample,
)
