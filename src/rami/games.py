"""The games rami plays, behind one registry, so front ends have no per-game special cases.

A *match* is a sequence of deals with its standing (Marriage's ledger, Tunisian rami's
totals and eliminations). Every match offers the same protocol (``Match`` below); the
front ends (terminal, web server, simulator) only use this protocol and the engine
protocol of ``rami.engine``.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from rami.action_space import ActionSpace
from rami.engine import Action, GameState
from rami.errors import InputError
from rami.kernel import Deal
from rami.views import Decision, GameView, Rules, Standing, TypedView

if TYPE_CHECKING:  # the hooks' shapes live with the consumers that call them
    from rami.bots.kit import BotKit
    from rami.cli.hooks import CliCommands
    from rami.play.hooks import TerminalHooks
    from rami.review.hooks import ReviewHooks
    from rami.rl.hooks import OpenSpielHooks
    from rami.rl.observation import Encoder
    from rami.server.hooks import WebHooks

__all__ = [
    "GAMES",
    "Game",
    "Lazy",
    "LazyValue",
    "Match",
    "RecordedMatch",
    "VerbWords",
    "action_from_id",
    "action_space_of",
    "all_games",
    "fixed_seats",
    "game_names",
    "get_game",
    "id_of",
    "lazy",
    "lazy_value",
    "legal_action_ids",
    "register",
    "rl_default_game",
    "unregister",
]


class Match(Protocol):
    """Deals in sequence with their standing; ``current`` is the deal in play."""

    @property
    def current(self) -> GameState: ...

    @property
    def is_over(self) -> bool: ...

    def apply(self, action: Action | str, seat: int | None = None) -> Action: ...

    def next_deal(self) -> GameState: ...

    def standing(self) -> Standing: ...

    def view(self, seat: int | None) -> GameView: ...

    def to_json(self) -> dict[str, object]: ...


class VerbWords(Protocol):
    """What a front end reads of a game's verb (``rami.kernel.Verb``'s metadata): its
    name (``Action.kind``), the other words typed for it, its one help line and the
    terminal's short form."""

    @property
    def name(self) -> str: ...
    @property
    def aliases(self) -> tuple[str, ...]: ...
    @property
    def help(self) -> str: ...
    @property
    def shorthand(self) -> str: ...


_UNSET: Any = object()


class _Ref:
    """An object named ``module:name``, imported when first asked for: what a game's
    registration holds, so that its modules (and their extras: Typer, Rich, FastAPI,
    NumPy) load only when a consumer asks. Pickles as its reference."""

    def __init__(self, ref: str) -> None:
        module, _, name = ref.partition(":")
        if not module or not name:
            raise ValueError(f"a lazy reference is 'module:name', not {ref!r}")
        self.ref = ref
        # named like the object it stands for (``functools.wraps`` does the same)
        self.__module__ = module
        self.__qualname__ = self.__name__ = name
        self._found: Any = _UNSET

    def target(self) -> Any:
        """The object the reference names, imported on the first call."""
        if self._found is _UNSET:
            module, _, name = self.ref.partition(":")
            found: Any = importlib.import_module(module)
            for part in name.split("."):  # 'Match.from_json': an attribute's attribute
                found = getattr(found, part)
            self._found = found
        return self._found

    def __reduce__(self) -> tuple[type[_Ref], tuple[str]]:
        return type(self), (self.ref,)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.ref!r})"


class Lazy(_Ref):
    """A function named ``module:name``, imported on its first call."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.target()(*args, **kwargs)


class LazyValue(_Ref):
    """A module attribute named ``module:name`` (a hook record, a table), given by a call
    without arguments and imported on the first one."""

    def __call__(self) -> Any:
        return self.target()


def lazy(ref: str) -> Callable[..., Any]:
    """The function ``module:name``, imported on its first call (see ``Lazy``)."""
    return Lazy(ref)


def lazy_value(ref: str) -> Callable[[], Any]:
    """A call that gives the attribute ``module:name``, imported on the first one."""
    return LazyValue(ref)


def fixed_seats(rules: object) -> tuple[int, ...]:
    """The player counts of rules that fix one (``rules.players``): the default
    ``Game.players_for``."""
    players = getattr(rules, "players", None)
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"{type(rules).__name__} has no 'players': give Game.players_for")
    return (players,)


@dataclass(frozen=True, kw_only=True)
class Game:
    """One game as the registry knows it: everything a consumer may ask of it.

    Each game package builds one ``Game`` (``rami.<package>.registration.GAME``); the
    consumers (cli, sim, play, server, bots, rl) only use these fields and never name a
    game. Only the first four are required, and ``new_deal`` or a match of its own; a
    hook a game lacks is ``None`` and the consumers then offer nothing there. Hooks that
    need the game's modules are usually ``lazy("module:function")`` /
    ``lazy_value("module:VALUE")`` references.
    """

    name: str
    title: str
    presets: tuple[str, ...]
    preset_label: str = "rules"  # what users call a preset: "rules" or "mode" (Tunisian)
    # the registry holds games of different rules types: rules are ``object`` here, and
    # each game's functions read them with its own ``rules_from``
    rules_from: Callable[[object], Rules]  # unchecked spec -> the game's rules object
    # allowed player counts for these rules (default: the one ``rules.players``)
    players_for: Callable[[object], tuple[int, ...]] = fixed_seats
    # A fresh deal: (rules, seats, seed, dealer); the default match, simulations and
    # the conformance suite.
    new_deal: Callable[[Any, int, int, int], GameState] | None = None
    # The match: (rules, players, seed) -> a new one, and one resumed from its
    # ``to_json``. Left out: ``rami.points_match.PointsMatch`` (deals in a row, points
    # added up), played with ``new_deal``.
    make_match: Callable[[object, int, int], Match] | None = None
    load_match: Callable[[Mapping[str, object]], Match] | None = None
    # A deal rebuilt from its ``to_json`` document (replayed): records (rami.records,
    # docs/records.md) and the review; None: the game's deals cannot be rebuilt. A match
    # whose deals can be recorded also offers ``deal_docs()`` (``RecordedMatch``).
    load_deal: Callable[[Mapping[str, Any]], GameState] | None = None
    # integer action ids (docs/rl.md): the numbering for some rules (the game of a deal
    # is its ``to_json``'s "game")
    action_space: Callable[[object], ActionSpace] | None = None
    # --- bot hooks (part D): builds the kit the bots play this game with
    # (``rami.bots.kit.BotKit``); None means the game has only the ``random`` bot
    bots: Callable[[], BotKit[Any, Any]] | None = None
    # Typed views (``rami.views.TypedView``): a seat's view as the engine builds it
    # (state, seat), and a JSON view read back (None: ``GenericView``, from the JSON).
    seat_view: Callable[[Any, int | None], TypedView] | None = None
    view_from_json: Callable[[GameView], TypedView] | None = None
    # The preset a table of n seats plays when none is named (default: the first preset).
    default_preset: Callable[[int], str] | None = None
    # Simulations: the turn cap that keeps deals between weak bots finite, whether whole
    # matches may be the unit, and what a seat achieved in a deal (shown, opened…).
    turn_cap: int | None = None
    whole_matches: bool = False
    progress_of: Callable[[GameState], list[bool]] | None = None
    progress_label: str = "progress"
    points_label: str = "points"  # what a deal's scores are called ("ledger", "points")
    signed_points: bool = False  # scores are nets (+12, -9) rather than points (45)
    match_word: str = "the match"  # "… wins the match" / "… wins the game"
    # The scorekeeper (rami.ledger, ``rami ledger``, /score): a whole ledger document
    # computed (with at least ``rami.ledger.LedgerResult``'s keys, which
    # ``rami.ledger.compute`` checks), and one N-2 deal document scored (``rami score``);
    # each game types its own results (TypedDicts: JSON as they are).
    ledger: Callable[[Mapping[str, object]], Mapping[str, object]] | None = None
    score_deal: Callable[[object], Mapping[str, object]] | None = None
    # The game's verbs with their words (``VerbWords``), which front ends read rather
    # than hold: the terminal's command words, aliases and shorthand.
    verbs: Callable[[], Sequence[VerbWords]] | None = None
    # Front ends: the CLI's per-game sub-commands, the terminal's and the web's hooks.
    cli: Callable[[], CliCommands] | None = None
    terminal: Callable[[], TerminalHooks] | None = None
    web: Callable[[], WebHooks] | None = None
    # The move-by-move review (rami.review, ``rami review``): saved deals, exact verdicts,
    # one-line reasons and label thresholds; None means the game cannot be reviewed.
    review: Callable[[], ReviewHooks] | None = None
    # Lobby and rules pages: one line of help per rules option (rule ids), and the
    # choices of the options that take one of a few values.
    option_help: Callable[[], Mapping[str, str]] | None = None
    option_choices: Callable[[], Mapping[str, tuple[object, ...]]] | None = None
    # RL (rami.rl): the observation encoder for (players, rules document), and the sign
    # that turns a deal's scores into "more is better" rewards.
    observation: Callable[[int, Mapping[str, object]], Encoder] | None = None
    reward_sign: float = 1.0
    openspiel: Callable[[], OpenSpielHooks] | None = None  # explicit chance (rami.rl.openspiel)
    rl_default: bool = False  # the game ``rami train`` and the RL environments default to

    def __post_init__(self) -> None:
        if self.make_match is None and self.new_deal is None:
            raise ValueError(f"the game {self.name!r} needs new_deal or a match (make_match)")
        if (self.make_match is None) != (self.load_match is None):
            raise ValueError(f"the game {self.name!r} gives make_match and load_match together")

    def typed_view(self, state: GameState, seat: int | None) -> TypedView:
        """``seat``'s typed view of ``state`` (from its JSON for a game without one)."""
        if self.seat_view is not None:
            return self.seat_view(state, seat)
        from rami.views import GenericView

        doc = state.view(seat)
        return GenericView.from_json(doc, self.rules_from(doc.get("rules")))

    def viewer(self) -> Callable[[GameState, int | None], TypedView]:
        """``typed_view`` as one function, the game's builder itself when it has one (its
        lazy reference resolved): for a loop that builds a view a move."""
        hook = self.seat_view
        if hook is None:
            return self.typed_view
        found: Callable[[GameState, int | None], TypedView] = (
            hook.target() if isinstance(hook, Lazy) else hook
        )
        return found

    def decision(self, state: GameState, seat: int) -> Decision:
        """``seat``'s decision point (``rami.views.Decision``), what a bot that is
        ``decision_only`` is handed: made by the deal kernel without the view
        (``rami.kernel.Deal.decision``), else read from the typed view."""
        if isinstance(state, Deal):
            try:
                return state.decision(seat)
            except NotImplementedError:  # a kernel game that does not give hand_size
                pass
        return Decision.of(self.typed_view(state, seat))

    def preset_for(self, seats: int) -> str:
        """The preset a table of ``seats`` plays when the user names none."""
        return self.default_preset(seats) if self.default_preset else self.presets[0]

    def new_match(self, rules: object, players: int | None, seed: int) -> Match:
        """A new match; ``players`` None means the preset's usual count."""
        rules = self.rules_from(rules)
        allowed = self.players_for(rules)
        count = allowed[min(2, len(allowed) - 1)] if players is None else players
        if count not in allowed:
            raise InputError(
                f"{self.title} with these rules is for {allowed[0]}–{allowed[-1]} players, "
                f"not {count}"
            )
        if self.make_match is None:
            from rami.points_match import PointsMatch

            return PointsMatch(self, rules, count, seed)
        return self.make_match(rules, count, seed)

    def match_from_json(self, doc: Mapping[str, object]) -> Match:
        """A match resumed from its ``to_json`` document; ``InputError`` if it is not one."""
        if self.load_match is None:
            from rami.points_match import PointsMatch

            return PointsMatch.from_json(self, doc)
        return self.load_match(doc)


@runtime_checkable
class RecordedMatch(Protocol):
    """A match whose every deal can be written as a record (``rami.records``)."""

    def deal_docs(self) -> list[dict[str, object]]:
        """Every deal of the match (the current one last) in the deals' ``to_json``
        layout, which ``Game.load_deal`` replays."""
        ...


# The games that ship with rami; more come from the ``rami.games`` entry-point group, from
# ``RAMI_GAMES`` (``module:attribute`` items, comma-separated) and from ``register``.
_BUILT_IN = ("rami.marriage.registration:GAME", "rami.tunisian.registration:GAME")
_REGISTRY: dict[str, Game] = {}
_loaded = False


def _load_ref(ref: str) -> Game:
    module, _, attr = ref.partition(":")
    try:
        found = getattr(importlib.import_module(module), attr or "GAME")
    except (ImportError, AttributeError) as exc:
        raise InputError(f"cannot load the game {ref!r}: {exc}") from None
    if not isinstance(found, Game):
        raise InputError(f"{ref!r} is not a rami game")
    return found


def _ensure_loaded() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    refs = list(_BUILT_IN)
    refs += [ep.value for ep in entry_points(group="rami.games")]
    refs += [r.strip() for r in os.environ.get("RAMI_GAMES", "").split(",") if r.strip()]
    for ref in refs:
        game = _load_ref(ref)
        _REGISTRY.setdefault(game.name, game)


def register(game: Game) -> Game:
    """Add ``game`` to the registry (a plug-in or a test's game); returns it."""
    _ensure_loaded()
    _REGISTRY[game.name] = game
    return game


def unregister(name: str) -> None:
    """Remove the game called ``name`` (tests that registered one)."""
    _ensure_loaded()
    _REGISTRY.pop(name, None)


def all_games() -> tuple[Game, ...]:
    """Every registered game, built-ins first."""
    _ensure_loaded()
    return tuple(_REGISTRY.values())


def rl_default_game() -> Game:
    """The game ``rami train`` and the RL environments use when none is named."""
    games = all_games()
    return next((g for g in games if g.rl_default), games[0])


def game_names() -> tuple[str, ...]:
    """The names of every registered game."""
    return tuple(game.name for game in all_games())


class _Registered(Mapping[str, Game]):
    """The registry as a read-only name -> ``Game`` mapping, loaded on first use."""

    def __getitem__(self, name: str) -> Game:
        _ensure_loaded()
        return _REGISTRY[name]

    def __iter__(self) -> Iterator[str]:
        _ensure_loaded()
        return iter(tuple(_REGISTRY))

    def __len__(self) -> int:
        _ensure_loaded()
        return len(_REGISTRY)


GAMES: Mapping[str, Game] = _Registered()


def get_game(name: object) -> Game:
    """The game called ``name``; ``InputError`` naming the choices otherwise."""
    _ensure_loaded()
    if isinstance(name, str) and name.lower() in _REGISTRY:
        return _REGISTRY[name.lower()]
    raise InputError(f"unknown game {name!r}: choose one of {', '.join(_REGISTRY)}")


_OWNERS: dict[type, Game] = {}  # a deal's class -> its game, found once per class


def _game_of(state: GameState) -> Game | None:
    found = _OWNERS.get(type(state))
    if found is None:
        to_json = getattr(state, "to_json", None)
        doc = to_json() if callable(to_json) else None
        name = doc.get("game") if isinstance(doc, Mapping) else None
        found = GAMES.get(name) if isinstance(name, str) else None
        if found is not None:
            _OWNERS[type(state)] = found
    return found


def action_space_of(state: GameState) -> ActionSpace:
    """The action space of the game and rules ``state`` is played under (docs/rl.md)."""
    spec = _game_of(state)
    if spec is None or spec.action_space is None:
        raise InputError(
            f"no game in the registry has integer action ids for {type(state).__name__}"
        )
    return spec.action_space(getattr(state, "rules", None))


def legal_action_ids(state: GameState) -> list[int]:
    """The ids of ``state.legal_actions()``, ascending."""
    return action_space_of(state).legal_action_ids(state)


def action_from_id(state: GameState, action_id: int) -> Action:
    """The action numbered ``action_id`` in the action space of ``state``."""
    return action_space_of(state).action_from_id(action_id)


def id_of(state: GameState, action: Action | str) -> int:
    """The id of ``action`` (an ``Action`` in canonical form, or its canonical text)."""
    from rami.engine import as_action

    return action_space_of(state).id_of(as_action(action))
