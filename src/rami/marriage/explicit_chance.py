"""Marriage with explicit chance, for OpenSpiel (``Game.openspiel``; docs/rl.md).

The wrapper deals the shoe in order as chance outcomes; the deal is built from that
order through ``MarriageState.from_setup``: 21 cards each from seat 0 (M-2), the upcard,
then the stock, top first. The tiplu is picked later by the seed (M-7).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rami.cards import shoe
from rami.engine import GameState
from rami.marriage.determinize import sample_state
from rami.marriage.game import MarriageState
from rami.rl.hooks import OpenSpielHooks
from rami.views import GameView

__all__ = ["HOOKS"]


def deal(rules: Any, players: int, order: Sequence[int], seed: int) -> GameState:
    """The deal the chance outcomes ``order`` make: hands, the upcard, the stock (M-2)."""
    size = rules.hand_size
    hands = [list(order[i * size : (i + 1) * size]) for i in range(players)]
    at = players * size
    return MarriageState.from_setup(
        rules,
        hands,
        discard=[order[at]],
        stock=list(order[at + 1 :]),
        seed=seed,
    )


def _shoe(rules: Any) -> list[int]:
    return [int(c) for c in shoe(rules.decks)]


def _dealt(rules: Any, players: int, player: int) -> tuple[int, int]:
    start = player * rules.hand_size
    return start, start + rules.hand_size


def _sample(view: GameView, rng: random.Random) -> GameState:
    return sample_state(view, rng)


HOOKS = OpenSpielHooks(
    defaults={"preset": "nepali", "players": 4, "max_turns": 200, "seed": 0},
    preset_key="preset",
    max_players=7,
    zero_sum=True,
    shoe=_shoe,
    deal=deal,
    dealt=_dealt,
    sample=_sample,
)
