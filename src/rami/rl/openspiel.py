"""OpenSpiel games ``python_rami_marriage`` and ``python_rami_tunisian`` (import this
module to register them with ``pyspiel.register_game``).

``pyspiel.load_game("python_rami_marriage", {"preset": "indian", "players": 5})``;
``pyspiel.load_game("python_rami_tunisian", {"mode": "2v2"})``. Parameters: ``preset`` /
``mode``, ``players`` (Marriage), ``max_turns`` (the engine's turn cap, M-11 / T-11) and
``seed`` (the engine seed from which the rare mid-deal chance events follow, below).

**Chance is explicit**: a game starts with one chance node per card of the shoe, which
deals the shoe in order (the outcome is a card kind, 0 … 51, 52 the joker, with the
probability of the copies left), then the deal is built from that order through the
game's public constructors: the hands (seat 0 deals: Marriage deals 21 each from seat
0, Tunisian rami 15 to the dealer, seat 0, then 14 each), Marriage's upcard (M-2), and
the stock, top first. What stays inside the engine is a function of those outcomes,
the actions and the ``seed`` parameter: Marriage's tiplu is the stock card at a seeded
position when it is picked (M-7; the stock's order being dealt by chance, the tiplu is
uniform over the unseen cards), and a recycled stock is reshuffled by the seed (M-11,
T-11).

Player actions are the game's fixed action ids (``rami.action_space``); the tensors are
``rami.rl.observation``'s vector for both ``information_state_tensor`` and
``observation_tensor``; the information-state string is the seat's view (its own
hand, everything public and the public history as it saw it). Returns at the end: the
ledger nets (Marriage, zero-sum) or minus the deal points (Tunisian rami).
``resample_from_infostate`` deals the hidden cards again with the game's determinizer
(``rami.<game>.determinize.sample_state``), so IS-MCTS and similar tools run.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from rami.action_space import ActionSpace
from rami.cards import CARDS, KINDS
from rami.engine import GameState
from rami.games import all_games, get_game
from rami.rl.aec import deal_rules
from rami.rl.hooks import OpenSpielHooks
from rami.rl.observation import Encoder, encoder_for
from rami.views import GameView

__all__ = ["RamiGame", "RamiState", "register_games"]


# ---------------------------------------------------------------- per-game glue


def _hooks(name: str) -> OpenSpielHooks:
    spec = get_game(name)
    if spec.openspiel is None:
        raise pyspiel.SpielError(f"{spec.title} has no OpenSpiel hooks")
    return spec.openspiel()


def _strip(view: GameView) -> dict[str, object]:
    return {k: v for k, v in view.items() if k not in ("history", "legal_actions")}


# ---------------------------------------------------------------- the game


class RamiGame(pyspiel.Game):  # type: ignore[misc]
    """One rami game and rules as an OpenSpiel game."""

    game_name = ""
    preset_key = "preset"

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        hooks = _hooks(self.game_name)
        defaults = hooks.defaults
        merged = {**defaults, **params}
        spec = get_game(self.game_name)
        turns = int(merged["max_turns"])
        self.rules = spec.rules_from(
            deal_rules(str(merged[self.preset_key]), turns if turns > 0 else None, None)
        )
        players = int(merged.get("players", 0)) or None
        probe = spec.new_match(self.rules, players, 0).current
        self.players = probe.num_players
        self.seed = int(merged["seed"])
        assert spec.action_space is not None
        self.space: ActionSpace = spec.action_space(self.rules)
        self.encoder: Encoder = encoder_for(probe.view(0))
        self.hooks = hooks
        self.shoe = hooks.shoe(self.rules)
        # per card kind, the copies the shoe holds, and where each seat's hand lies in the
        # dealing order: fixed by the rules, and read by every new initial state (which
        # pyspiel builds on each ``observation_tensor()`` call to learn the tensor's shape)
        left = [0] * KINDS
        for c in self.shoe:
            left[c] += 1
        self.left: tuple[int, ...] = tuple(left)
        self.dealt: tuple[tuple[int, int], ...] = tuple(
            hooks.dealt(self.rules, self.players, p) for p in range(self.players)
        )
        self.sign = spec.reward_sign
        bound = 5000.0
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=KINDS,
            num_players=self.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0 if hooks.zero_sum else None,
            max_game_length=len(self.shoe) + 40 * max(turns, 200),
        )
        super().__init__(_game_type(self.game_name), info, params)

    def new_initial_state(self) -> RamiState:
        return RamiState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> RamiObserver:
        perfect = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return RamiObserver(self.encoder.size, perfect)


class RamiState(pyspiel.State):  # type: ignore[misc]
    """A deal: first the chance nodes that deal the shoe, then the seats' decisions."""

    def __init__(self, game: RamiGame) -> None:
        super().__init__(game)
        self.order: list[int] = []
        self.left = list(game.left)
        self.engine: GameState | None = None
        # information-state prefix per seat: the public history a resampled world does
        # not hold (the determinizer builds its deal from the position, not the past)
        self.prefix: list[list[Any]] = [[] for _ in range(game.players)]
        self.base = 0

    @property
    def _game(self) -> RamiGame:
        # not an attribute: OpenSpiel clones a Python state by deep-copying its fields
        game: RamiGame = self.get_game()
        return game

    # -- protocol

    def current_player(self) -> int:
        if self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.engine.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self.engine.to_move
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        if self.engine.to_move != player:
            return []
        return self._game.space.legal_action_ids(self.engine)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        total = sum(self.left)
        return [(c, n / total) for c, n in enumerate(self.left) if n]

    def _apply_action(self, action: int) -> None:
        game = self._game
        if self.engine is None:
            if not self.left[action]:
                raise pyspiel.SpielError(f"no {CARDS[action]} left to deal")
            self.left[action] -= 1
            self.order.append(action)
            if len(self.order) == len(game.shoe):
                deal = game.hooks.deal
                self.engine = deal(game.rules, game.players, self.order, game.seed)
                self.base = len(self.engine.events)
            return
        self.engine.apply(game.space.action_from_id(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARDS[action]}"
        return str(self._game.space.action_from_id(action))

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.is_over

    def returns(self) -> list[float]:
        n = self._game.players
        if self.engine is None or not self.engine.is_over or self.engine.result is None:
            return [0.0] * n
        return [self._game.sign * float(s) for s in self.engine.result.scores]

    def __str__(self) -> str:
        if self.engine is None:
            return f"dealing: {len(self.order)}/{len(self._game.shoe)} cards"
        return json.dumps(self.engine.view(None), ensure_ascii=False, sort_keys=True)

    # -- information

    def info_string(self, player: int) -> str:
        if self.engine is None:
            own = self._dealt_to(player)
            return f"p{player} dealing {len(self.order)}: " + " ".join(str(CARDS[c]) for c in own)
        view = self.engine.view(player)
        history = self.prefix[player] + view["history"][self.base :]
        doc = _strip(view)
        doc["history"] = history
        return json.dumps(doc, ensure_ascii=False, sort_keys=True)

    def observation_string_for(self, player: int) -> str:
        if self.engine is None:
            return self.info_string(player)
        return json.dumps(_strip(self.engine.view(player)), ensure_ascii=False, sort_keys=True)

    def _dealt_to(self, player: int) -> list[int]:
        start, end = self._game.dealt[player]
        return self.order[start:end]

    def tensor_for(self, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        if self.engine is None:
            out = np.zeros(self._game.encoder.size, dtype=np.float32)
            dealt = self._dealt_to(player)
            if not dealt:  # e.g. the initial state pyspiel builds to learn the shape
                return out
            for c in dealt:
                out[c] += 1.0 / 4
            return np.minimum(out, 1.0)
        encoder = self._game.encoder  # the game's, shared by the states of one game
        if not self.prefix[player]:
            # the same vector from the state (the deal's own first events name no move, so
            # dropping them changes nothing): the kept planes, no view built; another state
            # (a clone, a branch) has its own events list and gets planes of its own
            return encoder.encode_state(self.engine, player)
        view = self.engine.view(player)
        view["history"] = self.prefix[player] + view["history"][self.base :]
        encoder.reset()
        return encoder.encode(view)

    # -- resampling

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RamiState:
        """A state with the same information state for ``player_id``, the hidden cards
        dealt again by the game's determinizer."""
        game = self._game
        if self.engine is None or self.engine.is_over:
            same: RamiState = self.clone()
            return same
        seed = int(probability_sampler() * 2**31)
        view = self.engine.view(player_id)
        world = game.hooks.sample(view, random.Random(seed))
        other = game.new_initial_state()
        other.order = list(self.order)
        other.left = [0] * KINDS
        other.engine = world
        other.base = len(world.events)
        other.prefix[player_id] = self.prefix[player_id] + view["history"][self.base :]
        return other


class RamiObserver:
    """OpenSpiel's Python observer: the encoder's vector and the view as a string."""

    def __init__(self, size: int, perfect_recall: bool) -> None:
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor}
        self.perfect_recall = perfect_recall

    def set_from(self, state: RamiState, player: int) -> None:
        self.tensor[:] = state.tensor_for(player)

    def string_from(self, state: RamiState, player: int) -> str:
        if self.perfect_recall:
            return state.info_string(player)
        return state.observation_string_for(player)


# ---------------------------------------------------------------- registration


def _game_type(name: str) -> Any:
    spec = get_game(name)
    hooks = _hooks(name)
    utility = pyspiel.GameType.Utility
    return pyspiel.GameType(
        short_name=f"python_rami_{name}",
        long_name=f"Python rami {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility.ZERO_SUM if hooks.zero_sum else utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hooks.max_players,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(hooks.defaults),
    )


def register_games() -> list[str]:
    """Register ``python_rami_NAME`` for every game in the registry with OpenSpiel hooks
    (again after ``rami.games.register``); returns the short names."""
    names = []
    for spec in all_games():
        if spec.openspiel is None:
            continue
        hooks = spec.openspiel()
        cls = type(
            f"{spec.name.title()}Game",
            (RamiGame,),
            {"game_name": spec.name, "preset_key": hooks.preset_key},
        )
        with contextlib.suppress(pyspiel.SpielError):  # registered already (module reloaded)
            pyspiel.register_game(_game_type(spec.name), cls)
        names.append(f"python_rami_{spec.name}")
    return names


register_games()
