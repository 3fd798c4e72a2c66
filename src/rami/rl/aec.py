"""PettingZoo AEC environments over the game registry (``rami.rl.<game>_v0``).

One agent per seat (``player_0`` …). ``observe(agent)`` returns ``{"observation":
float32 vector from rami.rl.observation, "action_mask": int8 vector over the game's
fixed action space}``; the mask is all zeros for an agent that is not to move. A turn
is several steps (draw, melds, discard), so the same agent may act several times in a
row: follow ``agent_selection``.

Rewards come when a deal ends: the deal's scores from the engine, signed so that more
is better (Marriage: the ledger nets, which sum to zero, M-16; Tunisian rami: minus the
deal's points, T-10). With ``whole_match=True`` an episode is a whole match (deals follow
each other and every deal's reward is paid when it ends); otherwise one deal.
``max_cycles`` truncates an episode after that many steps; the engine's own turn cap is
the rules option ``max_turns`` (M-11, T-11).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from rami.action_space import ActionSpace
from rami.engine import Action, GameState
from rami.event_words import event_text
from rami.games import Game, Match, get_game
from rami.rl.observation import Encoder, Obs, encoder_for

_INT8 = np.dtype(np.int8)

__all__ = ["OrderEnforcing", "RamiAECEnv", "deal_rules"]


def deal_rules(preset: str, max_turns: int | None, rules: Mapping[str, object] | None) -> Any:
    """A rules spec from a preset, an optional turn cap and further options."""
    spec: dict[str, object] = {"preset": preset}
    if rules:
        spec.update(rules)
    if max_turns is not None:
        spec["max_turns"] = max_turns
    return spec


class RamiAECEnv(AECEnv):  # type: ignore[misc]
    """A rami game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, object]] = {
        "render_modes": ["ansi"],
        "name": "rami_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        preset: str,
        players: int | None = None,
        *,
        whole_match: bool = False,
        max_cycles: int | None = None,
        max_turns: int | None = None,
        rules: Mapping[str, object] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.spec: Game = get_game(game)
        self.rules = self.spec.rules_from(deal_rules(preset, max_turns, rules))
        self.whole_match = whole_match
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        probe = self.spec.new_match(self.rules, players, 0)
        self.num_players = probe.current.num_players
        assert self.spec.action_space is not None
        self.space: ActionSpace = self.spec.action_space(self.rules)
        self._size = self.space.size
        self.encoder: Encoder = encoder_for(probe.current.view(0))
        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, self.encoder.shape, np.float32),
                "action_mask": spaces.Box(0, 1, (self.space.size,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        self._sign = self.spec.reward_sign
        self._rng = random.Random()
        self.match: Match | None = None
        self.state: GameState | None = None
        self.steps = 0
        # the legal ids of the position (state, steps) names, kept for ``legal_ids()``
        self._ids: list[int] = []
        self._legal: list[Action] = []  # the engine's legal actions, in the ids' order
        self._ids_state: GameState | None = None
        self._ids_step = -1
        self._paid = False

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        if seed is not None:
            self._rng.seed(seed)
        deal_seed = self._rng.randrange(2**31)
        self.match = self.spec.new_match(self.rules, self.num_players, deal_seed)
        self.state = self.match.current
        self.encoder.reset()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._paid = False  # whether ``rewards`` holds a deal's payment (else all zero)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self.steps = 0
        self._select()

    def _select(self) -> None:
        assert self.state is not None
        seat = self.state.to_move
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, Obs | np.ndarray[Any, np.dtype[np.int8]]]:
        return self._observe(self._index[agent])

    def _observe(self, seat: int) -> dict[str, Obs | np.ndarray[Any, np.dtype[np.int8]]]:
        """``observe`` for the seat's index."""
        state = self.state
        assert state is not None
        # a bytearray's single-byte stores (~30 ns each) and one np.frombuffer: cheaper
        # than np.zeros and numpy's item assignment (~100 ns a store), for the Indian
        # mask (26,018 bytes) too (measured side by side, bench/rl_env.py's loops); the
        # array owns no data of its own but is writable and the caller's alone
        buf = bytearray(self._size)
        if state.to_move == seat:
            if self._ids_state is state and self._ids_step == self.steps:
                ids = self._ids
            else:
                ids = self._kept_ids()
            for i in ids:
                buf[i] = 1
        # encode(state.view(seat)) without building the view (tests/test_rl_fast_observation.py)
        return {
            "observation": self.encoder.encode_state(state, seat),
            "action_mask": np.frombuffer(buf, _INT8),
        }

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """AECEnv.last, the same tuple, in one call (PettingZoo's goes through the
        order-enforcing wrapper and the base class: one call less a step)."""
        agent = self.agent_selection
        return (
            self._observe(self._index[agent]) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _kept_ids(self) -> list[int]:
        """The legal ids of the seat to move in the engine's order, computed once per
        position (the env applies every action, so the state and step count name it)."""
        state = self.state
        if self._ids_state is not state or self._ids_step != self.steps:
            assert state is not None
            self._legal = legal = state.legal_actions()
            # ``space.ids_of``'s look-up by identity inline (one call less a position)
            try:  # in C: the ids of the actions' identities
                ids = list(map(self.space._known.__getitem__, map(id, legal)))
            except KeyError:
                ids = self.space.ids_of(legal)
            self._ids = ids
            self._ids_state, self._ids_step = state, self.steps
        return self._ids

    def legal_ids(self) -> list[int]:
        """The legal action ids of the agent to move, ascending: the mask's ones, without
        scanning the mask (kept per position, so a policy that picks among them after
        ``observe`` pays no second look-up)."""
        if self._ids_state is not self.state or self._ids_step != self.steps:
            assert self.state is not None
            self._kept_ids()
        # sorted here, not kept sorted: one new list either way, and no sort at all for a
        # caller that reads the mask instead
        return sorted(self._ids)

    def _action_of(self, action: int) -> Action:
        """The action numbered ``action``: when it is a legal id of the position the kept
        ids name, the engine's own legal ``Action`` (so ``apply`` finds it at once, by
        identity), else the space's (``apply`` then says why it is illegal)."""
        if (
            not isinstance(action, bool)
            and self._ids_state is self.state
            and self._ids_step == self.steps
        ):
            try:
                return self._legal[self._ids.index(int(action))]
            except (ValueError, TypeError):
                pass
        return self.space.action_from_id(int(action))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None
        if action is None:
            raise ValueError(f"{agent} is to move: give an action id, not None")
        steps = self.steps
        # IllegalAction (and nothing changed) for an id the mask does not allow
        if type(action) is int and self._ids_state is state and self._ids_step == steps:
            # the usual step: a plain id of the kept position (``_action_of`` inline)
            try:
                act = self._legal[self._ids.index(action)]
            except ValueError:
                act = self.space.action_from_id(action)
        else:
            act = self._action_of(action)
        state.apply(act)
        self._cumulative_rewards[agent] = 0.0
        self.steps = steps = steps + 1
        seat = state.to_move  # None once the deal is over (one property read a step)
        if seat is None and state.is_over:
            match = self.match
            assert match is not None
            result = state.result
            assert result is not None
            sign = self._sign
            self.rewards = {
                a: sign * float(result.scores[i]) for i, a in enumerate(self.possible_agents)
            }
            self._paid = True
            if self.whole_match and not match.is_over:
                self.state = state = match.next_deal()
                self.encoder.reset()
                seat = state.to_move
            else:
                self.terminations = dict.fromkeys(self.agents, True)
        elif self._paid:
            # the step after a payment: the rewards are zero again (a step that pays
            # nothing keeps the zero dict and adds nothing: the same sums, no per-step
            # dict work)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._paid = False
            self._accumulate_rewards()
        if self.max_cycles is not None and steps >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
        if seat is not None:  # ``_select`` inline
            self.agent_selection = self.possible_agents[seat]
        if self._paid:
            self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        view = self.state.view(None)
        lines = [f"{self.spec.title}: to move {view.get('to_move')}, phase {view['phase']}"]
        lines += [
            f"  {e.get('seat')}: {e.get('move') or event_text(e)}" for e in view["history"][-5:]
        ]
        return "\n".join(lines)

    def close(self) -> None:
        self.match = None
        self.state = None


class OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper with the hot reads made direct (the same
    checks and errors): once reset, ``last()`` is the wrapped env's bound method and
    ``step()`` is asked of the wrapped env in one call, and ``agents`` /
    ``agent_selection`` are properties, where the base class reads each attribute
    through two ``__getattr__`` hops (about a tenth of a step, profiled)."""

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        super().reset(seed=seed, options=options)
        # once reset, ``last()`` is the wrapped env's own (it checks nothing more): bound
        # here, it is one call a step, not two
        self.last = self.env.last  # type: ignore[method-assign]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)  # type: ignore[no-any-return]
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: int | None) -> None:
        # the base class's checks, in one call to the wrapped env once reset with agents
        # left (the base class goes through BaseWrapper.step and two attribute hops)
        env = self.env
        if self._has_reset and env.agents:
            self._has_updated = True
            env.step(action)
            return
        super().step(action)

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return str(self.env)  # as the base class prints itself
