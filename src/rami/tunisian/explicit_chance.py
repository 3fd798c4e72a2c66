"""Tunisian rami with explicit chance, for OpenSpiel (``Game.openspiel``; docs/rl.md).

The wrapper deals the shoe in order as chance outcomes; the deal is built from that
order by ``TunisianState.from_deal``, laid out as ``TunisianState.dealt_seats`` says (15
cards to the dealer, seat 0, then 14 to each other seat in the direction of play, T-2;
the rest the stock): the order is the deal's ``deal`` chance outcome. Reshuffled stocks
(T-11) follow from the seed and are reported by ``state.chance_outcomes()``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rami.cards import shoe
from rami.engine import GameState
from rami.rl.hooks import OpenSpielHooks
from rami.tunisian.game import TunisianState
from rami.tunisian.rules import TunisianRules

__all__ = ["HOOKS"]


def deal(rules: TunisianRules, players: int, order: Sequence[int], seed: int) -> GameState:
    """The deal the chance outcomes ``order`` make: hands, then the stock (T-2)."""
    return TunisianState.from_deal(rules, players, order, seed)


def _shoe(rules: TunisianRules) -> list[int]:
    return [int(c) for c in shoe(rules.decks, rules.jokers)]


def _dealt(rules: TunisianRules, players: int, player: int) -> tuple[int, int]:
    """The dealer (seat 0) is dealt first, one card more, then the others in turn (T-2)."""
    where = [i for i, s in enumerate(TunisianState.dealt_seats(rules, players)) if s == player]
    return where[0], where[-1] + 1


HOOKS = OpenSpielHooks(
    defaults={"mode": "1v1", "max_turns": 200, "seed": 0},
    preset_key="mode",
    max_players=4,
    zero_sum=False,
    shoe=_shoe,
    deal=deal,
    dealt=_dealt,
)
