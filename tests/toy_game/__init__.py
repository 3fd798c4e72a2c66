"""A toy rummy that exists only in the tests: the worked example of adding a game.

``GAME`` is all rami needs: ``register(GAME)`` in a test, ``RAMI_GAMES=tests.toy_game:GAME``
for a subprocess, or an entry point in the ``rami.games`` group for a real plug-in.
Nothing outside this package names it: simulate, the terminal and the server find it
through the registry (docs/architecture.md, "The registry and how to add a game").
"""

from __future__ import annotations

from rami.action_space import ActionSpace
from rami.engine import Action
from rami.games import Game

from .game import ToyState, new_deal
from .rules import PRESETS, ToyRules, rules_from

__all__ = ["GAME", "ToyRules", "ToyState", "new_deal"]


def action_space(rules: object) -> ActionSpace:
    """Integer ids for the RL wrappers (docs/rl.md): one block per verb."""
    shoe = rules_from(rules).shoe()
    return ActionSpace(
        "toy",
        [
            ("draw", "draw from the stock", [Action("draw")]),
            ("take", "take the top discard", [Action("take")]),
            ("discard", "discard a card, by kind", [Action("discard", (c,)) for c in shoe]),
            ("knock", "discard a card and go out", [Action("knock", (c,)) for c in shoe]),
        ],
    )


GAME = Game(
    name="toy",
    title="Toy rummy",
    presets=tuple(PRESETS),
    rules_from=rules_from,  # the seats: ToyRules.players (``Game.players_for``'s default)
    new_deal=new_deal,  # the match: rami.points_match, ToyRules.deals deals
    action_space=action_space,
    turn_cap=60,
)
