"""What each legal action leads to, as inputs of a policy that ranks the legal actions
(``rami train --policy rank``, ``rami.rl.policy.RankPolicy``).

A flat policy gives every action id a logit from the position alone, so it must learn
from count planes which take opens (71 points laid in one turn, T-6, T-8) or which
discard breaks a meld; the engine knows it at once. Here each legal action is applied
to a determinization of the seat's view (the bot kit's ``sample``, as the search bots
do) and described by what the seat's position becomes:

- the encoder's change: ``encode_state(after) - encode_state(before)`` on the sampled
  state, a dozen nonzero entries (the hand, the pile, the table, the scalars); the
  position itself is ``encode(view)``, so "after" is ``before + change``;
- extras: the action's verb (one-hot over the action space's blocks), whether it is a
  chance move (``draw``: scored from the position before it, the sampled stock card
  would be a guess), the kit's leaf value of the position after it (``tree_leaf``, else
  ``leaf_value``; points / 100) and its change, whether the deal is over, whether the
  seat is still to move, and the value where the seat's turn ends if it goes on with
  the kit's greedy ``policy`` (a take is worth the opening it makes possible, T-8; a
  meld of a staged opening the melds still to come, T-6).

Only the view is read: the sample's hidden cards are drawn from what the seat knows
(the encoder reads only the seat's knowledge of the sampled state, tested), and the
game is reached through the registry (``rami.games``, ``rami.bots.kit``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from rami.bots.kit import kit_of
from rami.engine import Action
from rami.games import get_game
from rami.rl.observation import Encoder, encoder_for
from rami.views import GameView, TypedView, own_seat, typed_view

__all__ = ["CHANCE_VERBS", "AfterstateFeatures", "Candidates", "extra_names"]

Obs = npt.NDArray[np.float32]

# moves whose result is drawn by chance: scored from the position before them
CHANCE_VERBS = frozenset({"draw"})
_VALUE_SCALE = 100.0
_TURN_STEPS = 40  # bound on the greedy continuation of a turn


def extra_names(verbs: tuple[str, ...]) -> tuple[str, ...]:
    """The names of the extra inputs per action, in order (kept in the policy's meta)."""
    return (
        *(f"verb {v}" for v in verbs),
        "chance move",
        "value after",
        "value change",
        "deal over",
        "still to move",
        "value at the turn's end",
    )


@dataclass
class Candidates:
    """One decision: the legal actions and, per action, its inputs (see the module)."""

    legal: list[Action]
    before: Obs  # encode(view)
    idx: list[npt.NDArray[np.int32]]  # per action: the positions the encoding changes at
    val: list[Obs]  # ... and by how much
    extra: Obs  # (actions, extras)


class AfterstateFeatures:
    """Builds ``Candidates`` from a view for one game, rules and table size."""

    def __init__(self, view: TypedView | GameView) -> None:
        view = typed_view(view)
        spec = get_game(view.game)
        assert spec.action_space is not None
        self.kit = kit_of(spec.name)
        self.encoder: Encoder = encoder_for(view)
        self._after: Encoder = encoder_for(view)
        self.verbs: tuple[str, ...] = tuple(
            dict.fromkeys(b.verb for b in spec.action_space(view.rules).blocks)
        )
        self._verb_index = {v: i for i, v in enumerate(self.verbs)}
        self.extras = extra_names(self.verbs)
        self._value = self.kit.tree_leaf or self.kit.leaf_value

    @property
    def size(self) -> int:
        return self.encoder.size

    def build(self, view: TypedView | GameView, rng: random.Random) -> Candidates:
        """The inputs of every legal action of ``view`` (a determinization drawn with
        ``rng``: the same ``rng`` state gives the same inputs)."""
        view = typed_view(view)
        legal = list(view.legal)
        seat = own_seat(view)
        self.encoder.reset()
        before = self.encoder.encode(view)
        state = self.kit.sample(view, rng, None)
        enc = self._after
        enc.reset()
        base = enc.encode_state(state, seat).copy()
        value0 = self._value(state, seat) / _VALUE_SCALE
        nv = len(self.verbs)
        extra = np.zeros((len(legal), len(self.extras)), dtype=np.float32)
        idx: list[npt.NDArray[np.int32]] = []
        val: list[Obs] = []
        empty_i = np.zeros(0, dtype=np.int32)
        empty_v = np.zeros(0, dtype=np.float32)
        for i, action in enumerate(legal):
            row = extra[i]
            verb = self._verb_index.get(action.kind)
            if verb is not None:
                row[verb] = 1.0
            if action.kind in CHANCE_VERBS:
                row[nv] = 1.0
                row[nv + 1] = value0
                row[nv + 4] = 1.0
                row[nv + 5] = value0
                idx.append(empty_i)
                val.append(empty_v)
                continue
            after: Any = state.clone()
            after.apply(action)
            enc.reset()
            change = enc.encode_state(after, seat) - base
            nz = np.flatnonzero(change).astype(np.int32)
            idx.append(nz)
            val.append(change[nz])
            value = self._value(after, seat) / _VALUE_SCALE
            row[nv + 1] = value
            row[nv + 2] = value - value0
            row[nv + 3] = 1.0 if after.is_over else 0.0
            row[nv + 4] = 1.0 if after.to_move == seat else 0.0
            row[nv + 5] = self._turn_end(after, seat, value)
        return Candidates(legal, before, idx, val, extra)

    def _turn_end(self, state: Any, seat: int, value: float) -> float:
        """The value where ``seat``'s turn ends, playing on with the kit's greedy policy
        from ``state`` (``value`` when the turn is already over)."""
        if state.is_over or state.to_move != seat:
            return value
        state = state.clone()
        for _ in range(_TURN_STEPS):
            state.apply(self.kit.policy(state))
            if state.is_over or state.to_move != seat:
                break
        return float(self._value(state, seat)) / _VALUE_SCALE
