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
import copy
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np
import pyspiel

from rami.action_space import ActionSpace
from rami.bots.kit import kit_of
from rami.cards import CARDS, KINDS
from rami.engine import Action, GameState
from rami.games import all_games, get_game
from rami.rl.aec import deal_rules
from rami.rl.hooks import OpenSpielHooks
from rami.rl.observation import Encoder, encoder_for
from rami.views import GameView, typed_view

__all__ = ["RamiGame", "RamiState", "register_games"]

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


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
        self.encoder.track_changes = True  # for ``floats``
        self.hooks = hooks
        self.shoe = hooks.shoe(self.rules)
        # per card kind, the copies the shoe holds, and where each seat's hand lies in the
        # dealing order: fixed by the rules, and read by every new initial state (which
        # pyspiel builds on each ``observation_tensor()`` call to learn the tensor's shape)
        left = [0] * KINDS
        for c in self.shoe:
            left[c] += 1
        self.left: tuple[int, ...] = tuple(left)
        # per number of cards left, ``copies / cards left`` for every count of copies (the
        # same divisions ``chance_outcomes`` made, done once: a few hundred floats)
        most = max(left)
        self.chance_rows: tuple[tuple[float, ...], ...] = tuple(
            tuple(n / total for n in range(most + 1)) if total else ()
            for total in range(len(self.shoe) + 1)
        )
        self.dealt: tuple[tuple[int, int], ...] = tuple(
            hooks.dealt(self.rules, self.players, p) for p in range(self.players)
        )
        self.sign = spec.reward_sign
        # per player, the last tensor asked for as floats and its vector (``floats``)
        self._floats: dict[int, _Floats] = {}
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

    def floats(self, player: int, vec: np.ndarray[Any, np.dtype[np.float32]]) -> list[float]:
        """``vec.tolist()``, as the game's own list for ``player`` (never handed out:
        callers copy it). The list of the last vector given for ``player`` is patched in
        place where the vectors differ: successive positions change a few entries, and a
        fresh list of ~2,600 floats was most of an observation call (profiled). ``vec``
        is kept, not copied, so it must not change afterwards (the states keep theirs)."""
        kept = self._floats.get(player)
        if kept is None:
            kept = self._floats[player] = _Floats(vec, _as_floats(vec))
            return kept.out
        if kept.vec is vec:  # the same position's vector again
            return kept.out
        # the usual step: the encoder's next vector for this seat after the kept one, and
        # it names the plane positions that call changed (``Encoder.changes``): only those
        # and the scalars are copied, no comparison of the whole vectors
        moved = self.encoder.changes(player, vec, kept.vec)
        if moved is not None:
            out = kept.out
            # a float32 item read through a memoryview is the Python float tolist() gives
            items = cast("Sequence[float]", memoryview(vec))  # type: ignore[arg-type]
            for i in moved:
                out[i] = items[i]
            tail = self.encoder.plane_size
            out[tail:] = vec[tail:].tolist()
            kept.vec = vec
            return out
        changed = (vec != kept.vec).nonzero()[0]  # the vectors are flat
        if len(changed) * 8 < len(vec):
            out = kept.out
            for i, v in zip(changed.tolist(), vec[changed].tolist(), strict=True):
                out[i] = v
        else:
            kept.out = _as_floats(vec)
        kept.vec = vec
        return kept.out

    def new_initial_state(self) -> RamiState:
        return RamiState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> RamiObserver:
        perfect = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return RamiObserver(self.encoder.size, perfect)


class _Floats:
    """One player's last tensor (``RamiGame.floats``): the vector and its floats."""

    __slots__ = ("out", "vec")

    def __init__(self, vec: np.ndarray[Any, np.dtype[np.float32]], out: list[float]) -> None:
        self.vec = vec
        self.out = out


def _as_floats(vec: np.ndarray[Any, np.dtype[np.float32]]) -> list[float]:
    """``vec.tolist()``: one float object per entry. (A list built from ``[0.0] * n``
    shares one zero object across its ~2,600 entries, and each copy handed out
    (``RamiState.observation_tensor``) then adds to that one object's reference count
    thousands of times in a row: a chain of dependent memory writes, about 2.5 times the
    CPU of copying a list of distinct objects, measured. Built afresh once a deal per
    player; ``RamiGame.floats`` patches it with fresh objects.)"""
    return vec.tolist()  # type: ignore[no-any-return]


class _Core:
    """The Python side of a ``RamiState`` in one object, so that OpenSpiel's clone (which
    deep-copies each attribute in the state's ``__dict__``) copies it in one step: the
    lists shallowly (their items are ints or read-only history entries) and the deal
    with the engine's own ``clone()``. A deep copy of the engine was about 0.9 ms of CPU
    per clone (profiled); its ``clone()`` gives the same position."""

    __slots__ = (
        "base",
        "engine",
        "ids",
        "left",
        "legal",
        "order",
        "prefix",
        "sorted_ids",
        "vecs",
    )

    def __init__(self, left: list[int], players: int) -> None:
        self.order: list[int] = []
        self.left = left
        self.engine: GameState | None = None
        # information-state prefix per seat: the public history a resampled world does
        # not hold (the determinizer builds its deal from the position, not the past)
        self.prefix: list[list[Any]] = [[] for _ in range(players)]
        self.base = 0
        self._forget()

    def _forget(self) -> None:
        """Drop what is kept per position (legal ids, tensors): a new position, or a copy
        whose engine is another."""
        # the legal ids of the position, in the engine's order and ascending, and the
        # engine's own actions in the first order: computed once per position
        self.ids: list[int] | None = None
        self.sorted_ids: list[int] = []
        self.legal: list[Action] = []
        # per player, the position's tensor (``tensor_for``), kept unchanged: the game's
        # float lists (``RamiGame.floats``) know a vector again by its identity
        self.vecs: dict[int, np.ndarray[Any, np.dtype[np.float32]]] = {}

    def __deepcopy__(self, memo: dict[int, object]) -> _Core:
        other = _Core.__new__(_Core)
        other.order = self.order[:]
        other.left = self.left[:]
        engine = self.engine
        # every game's deal state has ``clone()`` (the conformance suite checks it); a
        # state without one is deep-copied as before
        clone = getattr(engine, "clone", None)
        other.engine = copy.deepcopy(engine, memo) if clone is None else clone()
        other.prefix = [p[:] for p in self.prefix]
        other.base = self.base
        other._forget()
        return other

    def __getstate__(self) -> dict[str, object]:
        # what a serialised state holds (``pyspiel.serialize_game_and_state`` pickles the
        # state's ``__dict__``); the kept ids are recomputed
        return {k: getattr(self, k) for k in ("order", "left", "engine", "prefix", "base")}

    def __setstate__(self, doc: dict[str, Any]) -> None:
        for k, v in doc.items():
            setattr(self, k, v)
        self._forget()


class RamiState(pyspiel.State):  # type: ignore[misc]
    """A deal: first the chance nodes that deal the shoe, then the seats' decisions.

    ``legal_actions``, ``observation_tensor`` and ``information_state_tensor`` are also
    answered in Python for Python callers, with the same values as OpenSpiel's C++ path
    (which, for a Python game, builds a new initial state and encodes it on every tensor
    call to learn the tensor's size, and asks ``current_player`` four times per legal
    list): C++ callers still take that path."""

    # the game, outside ``__dict__``: OpenSpiel's clone deep-copies ``__dict__`` and its
    # serialisation pickles it; a clone or a deserialised state gets the game from
    # ``__init__`` (``new_initial_state``)
    __slots__ = ("__dict__", "_rami_game")

    def __init__(self, game: RamiGame) -> None:
        super().__init__(game)
        self._rami_game = game
        self._core = _Core(list(game.left), game.players)

    @property
    def _game(self) -> RamiGame:
        return self._rami_game

    # the core's fields as the state's attributes (what tests, resampling and states
    # serialised before the core existed read and set)

    @property
    def order(self) -> list[int]:
        return self._core.order

    @order.setter
    def order(self, value: list[int]) -> None:
        self._core.order = value

    @property
    def left(self) -> list[int]:
        return self._core.left

    @left.setter
    def left(self, value: list[int]) -> None:
        self._core.left = value

    @property
    def engine(self) -> GameState | None:
        return self._core.engine

    @engine.setter
    def engine(self, value: GameState | None) -> None:
        self._core.engine = value
        self._core._forget()

    @property
    def prefix(self) -> list[list[Any]]:
        return self._core.prefix

    @prefix.setter
    def prefix(self, value: list[list[Any]]) -> None:
        self._core.prefix = value
        self._core._forget()

    @property
    def base(self) -> int:
        return self._core.base

    @base.setter
    def base(self, value: int) -> None:
        self._core.base = value
        self._core._forget()

    # -- protocol

    def current_player(self) -> int:
        engine = self._core.engine
        if engine is None:
            return _CHANCE
        # one property read while a seat is to move (``to_move`` is None once the deal is
        # over): OpenSpiel's C++ ``apply_action`` asks this across the binding every step
        seat = engine.to_move
        if seat is not None:
            return seat
        assert engine.is_over
        return _TERMINAL

    def _kept_ids(self) -> list[int]:
        """The legal ids of the seat to move (engine order), once per position; the
        core also keeps the engine's own actions, which ``apply`` finds by identity."""
        core = self._core
        ids = core.ids
        if ids is None:
            assert core.engine is not None
            core.legal = legal = core.engine.legal_actions()
            space = self._rami_game.space
            # ``space.ids_of``'s look-up by identity inline, as the AEC env's
            try:  # in C: the ids of the actions' identities
                ids = list(map(space._known.__getitem__, map(id, legal)))
            except KeyError:
                ids = space.ids_of(legal)
            core.ids = ids
            core.sorted_ids = sorted(ids)
        return ids

    def _legal_actions(self, player: int) -> list[int]:
        engine = self._core.engine
        assert engine is not None
        if engine.to_move != player:
            return []
        self._kept_ids()
        return self._core.sorted_ids[:]

    def legal_actions(self, *player: int) -> list[int]:
        """OpenSpiel's ``legal_actions([player])``, the seat to move's answered from the
        kept ids (chance nodes, terminals and other players: OpenSpiel's own answer)."""
        core = self._core
        engine = core.engine
        if engine is not None:
            seat = engine.to_move  # None once the deal is over
            if seat is not None and (not player or player[0] == seat):
                if core.ids is None:
                    self._kept_ids()
                return core.sorted_ids[:]
        return super().legal_actions(*player)  # type: ignore[no-any-return]

    def observation_tensor(self, *player: int) -> list[float]:
        """OpenSpiel's ``observation_tensor([player])`` (a list of floats), from
        ``tensor_for`` directly; a bad player gets OpenSpiel's own error."""
        out = self._tensor(player)
        if out is None:
            return super().observation_tensor(*player)  # type: ignore[no-any-return]
        return out

    def information_state_tensor(self, *player: int) -> list[float]:
        """As ``observation_tensor``: both are the encoder's vector (see the module)."""
        out = self._tensor(player)
        if out is None:
            return super().information_state_tensor(*player)  # type: ignore[no-any-return]
        return out

    def _tensor(self, player: tuple[int, ...]) -> list[float] | None:
        core = self._core
        if player:
            seat = player[0]
            if isinstance(seat, bool) or not isinstance(seat, int):
                return None
            if not 0 <= seat < self._rami_game.players:
                return None
        else:  # the seat to move (``current_player()`` inline); none: OpenSpiel's answer
            engine = core.engine
            if engine is None:
                return None
            to_move = engine.to_move
            if to_move is None:
                return None
            seat = to_move
        vec = core.vecs.get(seat)  # ``_vec`` inline
        if vec is None:
            vec = core.vecs[seat] = self.tensor_for(seat)
        # the caller's own list, as OpenSpiel's
        return self._rami_game.floats(seat, vec)[:]

    def _vec(self, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """``tensor_for(seat)``, once per position (not to be changed: it is kept)."""
        vecs = self._core.vecs
        vec = vecs.get(seat)
        if vec is None:
            vec = vecs[seat] = self.tensor_for(seat)
        return vec

    def is_chance_node(self) -> bool:
        """OpenSpiel's ``is_chance_node()`` answered in Python (the C++ one asks
        ``current_player`` across the binding)."""
        return self._core.engine is None

    def is_player_node(self) -> bool:
        """As ``is_chance_node``: a seat is to move (not dealing, not over)."""
        engine = self._core.engine
        return engine is not None and not engine.is_over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card kind left with ``copies / cards left``, the quotients read from the
        game's small table (``RamiGame.chance_rows``). (Tables of the whole outcome lists
        per number of cards left were slower in play: they fall out of the CPU caches
        between deals, measured.)"""
        left = self._core.left
        row = self._rami_game.chance_rows[sum(left)]
        return [(c, row[n]) for c, n in enumerate(left) if n]

    def _apply_action(self, action: int) -> None:
        core = self._core
        engine = core.engine
        if engine is None:
            self._deal(action)
            return
        ids = core.ids
        act: Action | None = None
        if ids is not None:  # the engine's own action for a kept id (one scan, not two)
            try:
                act = core.legal[ids.index(action)]
            except ValueError:  # not a kept id: the space's action (below)
                act = None
        # ``core._forget()`` without new containers: the kept ids are dropped (the sorted
        # ids and actions go with them: they are read only while ``ids`` is set) and the
        # position's tensors, if any were asked for
        core.ids = None
        if core.vecs:
            core.vecs = {}
        engine.apply(act if act is not None else self._rami_game.space.action_from_id(action))

    def _deal(self, card: int) -> None:
        """A chance outcome: the next card of the shoe; the last one builds the deal."""
        core = self._core
        if core.vecs:  # the dealt cards' tensors, if any were asked for
            core.vecs = {}
        left = core.left
        if not left[card]:
            raise pyspiel.SpielError(f"no {CARDS[card]} left to deal")
        left[card] -= 1
        order = core.order
        order.append(card)
        game = self._rami_game
        if len(order) == len(game.shoe):
            self.engine = game.hooks.deal(game.rules, game.players, order, game.seed)
            self.base = len(self.engine.events)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARDS[action]}"
        return str(self._game.space.action_from_id(action))

    def is_terminal(self) -> bool:
        engine = self._core.engine
        return engine is not None and engine.is_over

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
        engine = self._core.engine
        if engine is None:
            out = np.zeros(self._game.encoder.size, dtype=np.float32)
            dealt = self._dealt_to(player)
            if not dealt:  # e.g. the initial state pyspiel builds to learn the shape
                return out
            for c in dealt:
                out[c] += 1.0 / 4
            return np.minimum(out, 1.0)
        core = self._core
        encoder = self._rami_game.encoder  # the game's, shared by the states of one game
        if not core.prefix[player]:
            # the same vector from the state (the deal's own first events name no move, so
            # dropping them changes nothing): the kept planes, no view built; another state
            # (a clone, a branch) has its own events list and gets planes of its own
            return encoder.encode_state(engine, player)
        view = engine.view(player)
        view["history"] = core.prefix[player] + view["history"][core.base :]
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
        world = kit_of(game.game_name).sample(typed_view(view), random.Random(seed), None)
        other = game.new_initial_state()
        other.order = list(self.order)
        other.left = [0] * KINDS
        other.engine = world
        other.base = len(world.events)
        prefix = [p[:] for p in other.prefix]
        prefix[player_id] = self.prefix[player_id] + view["history"][self.base :]
        other.prefix = prefix
        return other


class RamiObserver:
    """OpenSpiel's Python observer: the encoder's vector and the view as a string."""

    def __init__(self, size: int, perfect_recall: bool) -> None:
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor}
        self.perfect_recall = perfect_recall

    def set_from(self, state: RamiState, player: int) -> None:
        """The encoder's vector copied into ``tensor`` (what OpenSpiel's C++ side and
        ``make_observation`` read): the position's vector is kept, as for
        ``observation_tensor``, and no float list is built."""
        self.tensor[...] = state._vec(player)

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
