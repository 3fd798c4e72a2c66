"""What the bots need from a game (``BotKit``), found through the registry (``rami.games``).

A game that wants more than the ``random`` bot gives its ``Game`` a ``bots`` hook that
builds one ``BotKit``: its greedy player, an observation read from a view or (inside a
search's simulations) from a determinized state, the moves worth searching, a
determinizer, a leaf evaluation and the budgets of the named levels. The search bots
(``rami.bots.search``, ``rami.bots.ismcts``) are written once against this kit, so a new
game gets every level by filling it in, and ``rami.bots`` never names a game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, Self, TypeVar

from rami.engine import Action
from rami.errors import InputError
from rami.views import TypedView

if TYPE_CHECKING:
    from rami.bots.base import Bot
    from rami.bots.opponent_model import OpponentModel

__all__ = ["BotKit", "SearchState", "kit_of"]


class SearchState(Protocol):
    """A deal state as the search bots drive it: a determinized copy they play on."""

    @property
    def to_move(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def num_players(self) -> int: ...

    @property
    def turn(self) -> int: ...

    def legal_actions(self) -> list[Action]: ...

    def apply(self, action: Action | str) -> None: ...

    def clone(self) -> Self: ...


ObsT = TypeVar("ObsT")  # the game's observation (what one seat knows)
StateT = TypeVar("StateT", bound=SearchState)  # the game's deal state

Weights = Sequence[Sequence[float]] | None


def _no_wilds(view: TypedView) -> frozenset[int]:
    return frozenset()


def _nobody(view: TypedView) -> list[bool]:
    return [False] * view.players


def _clockwise(view: TypedView) -> int:
    return 1


@dataclass(frozen=True)
class BotKit(Generic[ObsT, StateT]):
    """One game's hooks for the ``greedy``/``easy``, ``search`` and ``ismcts`` levels.

    Every function sees a view or a state only through the seat it plays for: the
    observations read what that seat's view shows, nothing more. Views are typed
    (``rami.views.TypedView``: the game's own, ``Bot.act`` reads JSON back into one).
    """

    greedy: Callable[[int, float], Bot]  # (seed, noise): ``greedy``; noise > 0 is ``easy``
    easy_noise: float  # noise of ``easy``, in units of the greedy's discard scores
    observe: Callable[[TypedView], ObsT]
    observe_state: Callable[[StateT, int], ObsT]
    decide: Callable[[ObsT], Action]  # the greedy move
    candidates: Callable[[ObsT, int], list[Action]]  # ``search``: the greedy move first
    tree_moves: Callable[[ObsT, OpponentModel, int], list[Action]]  # ``ismcts``: one node
    sample: Callable[[TypedView, random.Random, Weights], StateT]  # a determinization
    policy: Callable[[StateT], Action]  # the rollout policy: greedy for the seat to move
    leaf_value: Callable[[StateT, int], float]  # points of a position for a seat
    # ``ismcts``'s value at its depth cut, when it differs from ``search``'s ``leaf_value``
    tree_leaf: Callable[[StateT, int], float] | None = None
    turns_ahead: Callable[[int], int] = lambda players: players  # ``search``'s horizon
    search_margin: float = 0.0  # standard errors by which a move must beat greedy's
    tree_scale: float = 10.0  # points that count as one unit in the tree's UCB
    wilds: Callable[[TypedView], frozenset[int]] = _no_wilds  # wild kinds a view shows
    # per seat, whether it knows the wild cards (and keeps those it draws)
    wild_knowers: Callable[[TypedView], list[bool]] = _nobody
    play_step: Callable[[TypedView], int] = _clockwise  # +1 or -1: who plays next
    own_policy: Callable[[StateT], Action] | None = None  # ``ismcts``'s own moves in its
    # default line and rollouts, if not ``policy`` (the others are modelled by ``policy``)
    # ``ismcts`` with an iteration budget N: (a, b) stops after a·N iterations when no
    # move is close to greedy's, and goes on to b·N when one is (None: always N)
    tree_settle: tuple[float, float] | None = None
    # a position's description for one seat, for a learned value (``rami train
    # --policy value``, ``rami.rl.value_train``); None: the game has no learned value
    value_features: Callable[[StateT, int], list[float]] | None = None
    # ``ismcts``'s learned value at its depth cut (levels ``hard+value``, ``expert+value``)
    learned_leaf: Callable[[StateT, int], float] | None = None
    hard_iterations: int = 48
    expert_iterations: int = 160


def kit_of(game: str) -> BotKit[Any, Any]:
    """The bot kit of the registered game ``game``; ``InputError`` if it has none."""
    from rami.games import get_game

    spec = get_game(game)
    if spec.bots is None:
        raise InputError(f"{spec.title} has only the random bot")
    return spec.bots()
