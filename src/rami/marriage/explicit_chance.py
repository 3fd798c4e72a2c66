"""Marriage with explicit chance, for OpenSpiel (``Game.openspiel``; docs/rl.md).

The wrapper deals the shoe in order as chance outcomes; the deal is built from that
order by ``MarriageState.from_deal``, laid out as ``MarriageState.dealt_seats`` says (21
cards each from seat 0, M-2; the upcard, then the stock, top first): the order is the
deal's ``deal`` chance outcome. The tiplu is picked later by the seed (M-7) and reported
by ``state.chance_outcomes()``, as are reshuffled stocks (M-11).
"""

from __future__ import annotations

from collections.abc import Sequence

from rami.cards import shoe
from rami.engine import GameState
from rami.marriage.game import MarriageState
from rami.marriage.rules import MarriageRules
from rami.rl.hooks import OpenSpielHooks

__all__ = ["HOOKS"]


def deal(rules: MarriageRules, players: int, order: Sequence[int], seed: int) -> GameState:
    """The deal the chance outcomes ``order`` make: hands, the upcard, the stock (M-2)."""
    return MarriageState.from_deal(rules, players, order, seed)


def _shoe(rules: MarriageRules) -> list[int]:
    return [int(c) for c in shoe(rules.decks)]


def _dealt(rules: MarriageRules, players: int, player: int) -> tuple[int, int]:
    """Where ``player``'s 21 cards are in the order: seat by seat from seat 0 (M-2)."""
    where = [i for i, s in enumerate(MarriageState.dealt_seats(rules, players)) if s == player]
    return where[0], where[-1] + 1


HOOKS = OpenSpielHooks(
    defaults={"preset": "nepali", "players": 4, "max_turns": 200, "seed": 0},
    preset_key="preset",
    max_players=7,
    zero_sum=True,
    shoe=_shoe,
    deal=deal,
    dealt=_dealt,
)
