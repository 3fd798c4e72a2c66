"""A Gymnasium single-agent wrapper: one learning seat against rami bots.

``RamiGymEnv("tunisian", "1v1", opponents="greedy")``: each episode is one deal (or a
whole match with ``whole_match=True``); the other seats are played by
``rami.bots.make_bot`` (``random``, ``greedy``, ``easy``, ``search:…``, or a list per
seat) from their own views. The observation is the encoder's vector
(``rami.rl.observation``); the legal ids are in ``info["action_mask"]`` and
``action_masks()`` (what sb3-contrib's ``MaskablePPO`` asks for). With
``dict_obs=True`` the observation is PettingZoo's ``{"observation", "action_mask"}``.

The reward is paid when a deal ends: the learning seat's score, signed so that more is
better (``Game.reward_sign``), times ``reward_scale``. An id the mask forbids
changes nothing and earns ``illegal_penalty`` (``strict=True``: ``IllegalAction``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from rami.action_space import ActionSpace
from rami.bots import Bot, make_bot
from rami.engine import Action, GameState
from rami.errors import IllegalAction
from rami.games import Game, Match, get_game, rl_default_game
from rami.rl.aec import deal_rules
from rami.rl.observation import Encoder, encoder_for

__all__ = ["RamiGymEnv"]


class RamiGymEnv(gym.Env[Any, np.int64]):
    """One seat of a rami game against bots (see the module docstring)."""

    metadata: dict[str, object] = {"render_modes": []}  # noqa: RUF012 - gymnasium's convention

    def __init__(
        self,
        game: str | None = None,
        preset: str | None = None,
        players: int | None = None,
        *,
        opponents: str | Sequence[str] = "random",
        seat: int | None = None,
        whole_match: bool = False,
        max_turns: int | None = 200,
        max_steps: int | None = None,
        rules: Mapping[str, object] | None = None,
        reward_scale: float = 1.0,
        dict_obs: bool = False,
        bot_seed: int = 0,
        strict: bool = False,
        illegal_penalty: float = -1.0,
    ) -> None:
        self.spec_: Game = get_game(game) if game is not None else rl_default_game()
        preset = preset or self.spec_.presets[0]
        self.rules = self.spec_.rules_from(deal_rules(preset, max_turns, rules))
        probe = self.spec_.new_match(self.rules, players, 0)
        self.num_players = probe.current.num_players
        assert self.spec_.action_space is not None
        self.space: ActionSpace = self.spec_.action_space(self.rules)
        self.encoder: Encoder = encoder_for(probe.current.view(0))
        levels = [opponents] * self.num_players if isinstance(opponents, str) else opponents
        if len(levels) != self.num_players:
            raise ValueError(f"give one bot level per seat ({self.num_players}), or one level")
        self.levels = list(levels)
        self.fixed_seat = seat
        self.whole_match = whole_match
        self.max_steps = max_steps
        self.reward_scale = reward_scale
        self.dict_obs = dict_obs
        self.bot_seed = bot_seed
        self.strict = strict
        self.illegal_penalty = illegal_penalty
        self._sign = self.spec_.reward_sign
        # what the bots are handed: the seat's typed view, or its decision point alone
        # for a bot that reads nothing else (``Bot.decision_only``: the random bot)
        self._see = self.spec_.viewer()
        self._decide = self.spec_.decision
        obs_box = spaces.Box(0.0, 1.0, self.encoder.shape, np.float32)
        mask_box = spaces.Box(0, 1, (self.space.size,), np.int8)
        self.observation_space: spaces.Space[Any] = (
            spaces.Dict({"observation": obs_box, "action_mask": mask_box}) if dict_obs else obs_box
        )
        self.action_space: spaces.Space[np.int64] = spaces.Discrete(self.space.size)
        self.match: Match | None = None
        self.state: GameState | None = None
        self.seat = 0
        self.bots: list[Bot] = []
        self.steps = 0
        self._mask_key = (-1, -1)
        self._mask_state: GameState | None = None
        self._ids: list[int] = []
        self._legal: list[Action] = []  # the engine's legal actions, in the ids' order
        self._sorted: list[int] = []  # the ids, ascending

    # ------------------------------------------------------------------ helpers

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal ids as booleans (sb3-contrib's ``MaskablePPO`` calls this).

        The ids are computed once per position: the learner asks after every step, and
        ``_observe`` has just computed them (the env applies every action, so its step
        count and deal name the position)."""
        mask = np.zeros(self.space.size, dtype=np.bool_)
        mask[self._kept_ids()] = True
        return mask

    def legal_ids(self) -> list[int]:
        """The legal ids of the learning seat, ascending: the mask's ones without scanning
        the mask (kept once per position)."""
        self._kept_ids()
        return self._sorted[:]

    def _kept_ids(self) -> list[int]:
        """The position's legal ids in the engine's order (kept, not a copy), with the
        engine's own actions in ``_legal`` and the ids ascending in ``_sorted``."""
        state = self.state
        key = (self.steps, len(state.events) if state is not None else -1)
        if self._mask_state is not state or self._mask_key != key:
            ids: list[int] = []
            legal: list[Action] = []
            if state is not None and state.to_move == self.seat:
                legal = state.legal_actions()
                # ``space.ids_of``'s look-up by identity inline, as the AEC env's
                try:  # in C: the ids of the actions' identities
                    ids = list(map(self.space._known.__getitem__, map(id, legal)))
                except KeyError:
                    ids = self.space.ids_of(legal)
            self._mask_key, self._mask_state = key, state
            self._ids, self._legal, self._sorted = ids, legal, sorted(ids)
        return self._ids

    def _action_of(self, action: np.int64 | int) -> Action:
        """The action numbered ``action``: the engine's own legal ``Action`` when the id is
        among the kept legal ids of this position (``apply`` finds it by identity), else
        the space's (``apply`` then says why it is illegal)."""
        state = self.state
        key = (self.steps, len(state.events) if state is not None else -1)
        if not isinstance(action, bool) and self._mask_state is state and self._mask_key == key:
            try:
                return self._legal[self._ids.index(int(action))]
            except (ValueError, TypeError):
                pass
        return self.space.action_from_id(int(action))

    def _observe(self) -> tuple[Any, dict[str, object]]:
        assert self.state is not None
        # an int8 array over fresh bytes: setting ~20 entries in Python and wrapping them
        # is cheaper than np.zeros plus a fancy-index assignment (as the AEC env's mask)
        buf = bytearray(self.space.size)
        for i in self._kept_ids():
            buf[i] = 1
        mask = np.frombuffer(buf, dtype=np.int8)
        # encode(state.view(seat)) without building the view (tests/test_rl_fast_observation.py)
        obs = self.encoder.encode_state(self.state, self.seat)
        info: dict[str, object] = {"action_mask": mask, "seat": self.seat}
        if self.dict_obs:
            return {"observation": obs, "action_mask": mask}, info
        return obs, info

    def _deal_reward(self) -> float:
        assert self.state is not None and self.state.result is not None
        return self._sign * float(self.state.result.scores[self.seat]) * self.reward_scale

    def _advance(self) -> tuple[float, bool]:
        """Let the bots play until the learning seat is to move; (reward, episode over)."""
        state, match = self.state, self.match
        assert state is not None and match is not None
        reward = 0.0
        me, bots, see, decide = self.seat, self.bots, self._see, self._decide
        while True:
            if state.is_over:
                reward += self._deal_reward()
                if not self.whole_match or match.is_over:
                    return reward, True
                self.state = state = match.next_deal()
                self.encoder.reset()
                continue
            seat = state.to_move
            assert seat is not None
            if seat == me:
                return reward, False
            bot = bots[seat]
            if bot.decision_only:  # it reads its decision point alone: no view built
                state.apply(bot.act_on(decide(state, seat)))
            else:
                state.apply(bot.act(see(state, seat)))  # the typed view: no JSON

    # ------------------------------------------------------------------ gymnasium

    def reset(
        self, *, seed: int | None = None, options: dict[str, object] | None = None
    ) -> tuple[Any, dict[str, object]]:
        super().reset(seed=seed)
        rng = self.np_random
        deal_seed = int(rng.integers(2**31))
        n = self.num_players
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(n))
        self.match = self.spec_.new_match(self.rules, n, deal_seed)
        self.state = self.match.current
        self.encoder.reset()
        self.bots = [
            make_bot(self.spec_.name, self.levels[s], self.bot_seed + deal_seed + s)
            for s in range(n)
        ]
        self.steps = 0
        _, over = self._advance()
        if over:  # the bots ended the deal before the learning seat moved: deal again
            return self.reset(seed=deal_seed, options=options)
        return self._observe()

    def step(
        self, action: np.int64 | int
    ) -> tuple[Any, SupportsFloat, bool, bool, dict[str, object]]:
        assert self.state is not None
        try:
            self.state.apply(self._action_of(action))
        except IllegalAction:
            if self.strict:
                raise
            # an id the mask forbids: nothing happens, a small penalty (masked learners
            # never get here; unmasked ones learn the mask)
            self.steps += 1
            obs, info = self._observe()
            info["illegal"] = True
            truncated = self.max_steps is not None and self.steps >= self.max_steps
            return obs, self.illegal_penalty, False, truncated, info
        self.steps += 1
        reward, over = self._advance()
        truncated = not over and self.max_steps is not None and self.steps >= self.max_steps
        obs, info = self._observe()
        return obs, reward, over, truncated, info
