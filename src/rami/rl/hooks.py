"""What the OpenSpiel wrapper asks of a game (``Game.openspiel``; docs/rl.md).

OpenSpiel wants chance made explicit: the wrapper deals the shoe card by card as chance
outcomes and the game builds its deal from that order through its public constructors.
These hooks hold what differs per game; they need no third-party package.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rami.engine import GameState

__all__ = ["OpenSpielHooks"]


@dataclass(frozen=True)
class OpenSpielHooks:
    """A game's OpenSpiel glue: parameters, the shoe, the deal from an order (resampling
    is the bot kit's determinizer, ``BotKit.sample``)."""

    # The game's parameters and their defaults (``pyspiel.load_game(name, params)``);
    # ``preset_key`` names the one that holds the preset.
    defaults: Mapping[str, object]
    preset_key: str
    max_players: int
    zero_sum: bool
    # The shoe as card kinds, in a fixed order, for these rules.
    shoe: Callable[[Any], list[int]]
    # The deal built from the shoe dealt in ``order`` (rules, players, order, seed).
    deal: Callable[[Any, int, Sequence[int], int], GameState]
    # Where seat ``player``'s hand is in the order: (rules, players, player) -> (start, end).
    dealt: Callable[[Any, int, int], tuple[int, int]]
