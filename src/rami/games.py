"""The games rami plays, behind one registry, so front ends have no per-game special cases.

A *match* is a sequence of deals with its standing (Marriage's ledger, Tunisian rami's
totals and eliminations). Every match offers the same protocol (``Match`` below); the
front ends (terminal, web server, simulator) only use this protocol and the engine
protocol of ``rami.engine``.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Protocol

from rami.action_space import ActionSpace
from rami.engine import Action, GameState
from rami.errors import InputError
from rami.views import GameView, Rules, Standing, TypedView

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
    "Match",
    "action_from_id",
    "action_space_of",
    "all_games",
    "game_names",
    "get_game",
    "id_of",
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


@dataclass(frozen=True)
class Game:
    """One game as the registry knows it: everything a consumer may ask of it.

    Each game package builds one ``Game`` (``rami.<package>.registration.GAME``); the
    consumers (cli, sim, play, server, bots, rl) only use these fields and never name a
    game. Hooks that a game may lack default to ``None``.
    """

    name: str
    title: str
    presets: tuple[str, ...]
    preset_label: str  # what users call a preset: "rules" (Marriage) or "mode" (Tunisian)
    # the registry holds games of different rules types: rules are ``object`` here, and
    # each game's functions read them with its own ``rules_from``
    rules_from: Callable[[object], Rules]  # unchecked spec -> the game's rules object
    players_for: Callable[[object], tuple[int, ...]]  # allowed player counts for these rules
    _new_match: Callable[[object, int, int], Match]
    match_from_json: Callable[[Mapping[str, object]], Match]
    # integer action ids (docs/rl.md): the numbering for some rules, and which states
    # are this game's deals
    action_space: Callable[[object], ActionSpace] | None = None
    owns: Callable[[GameState], bool] | None = None
    # --- bot hooks (part D): builds the kit the bots play this game with
    # (``rami.bots.kit.BotKit``); None means the game has only the ``random`` bot
    bots: Callable[[], BotKit[Any, Any]] | None = None
    # Typed views (``rami.views.TypedView``): a seat's view as the engine builds it
    # (state, seat), and a JSON view read back (None: ``GenericView``, from the JSON).
    seat_view: Callable[[Any, int | None], TypedView] | None = None
    view_from_json: Callable[[GameView], TypedView] | None = None
    # --- consumer hooks (part A)
    # A fresh deal: (rules, seats, seed, dealer); simulations and the conformance suite.
    new_deal: Callable[[Any, int, int, int], GameState] | None = None
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
    # The scorekeeper (rami.ledger, ``rami ledger``, /score): a whole ledger document,
    # one N-2 deal document (``rami score``), and the terminal's questions for a deal.
    ledger: Callable[[Mapping[str, object]], dict[str, object]] | None = None
    score_deal: Callable[[object], dict[str, object]] | None = None
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
    # Records (rami.records, docs/records.md): every deal of a match, played or in play, in
    # the deals' shared ``to_json`` layout; and a deal rebuilt from that layout (replayed).
    match_deals: Callable[[Any], list[dict[str, Any]]] | None = None
    load_deal: Callable[[Mapping[str, Any]], GameState] | None = None

    def typed_view(self, state: GameState, seat: int | None) -> TypedView:
        """``seat``'s typed view of ``state`` (from its JSON for a game without one)."""
        if self.seat_view is not None:
            return self.seat_view(state, seat)
        from rami.views import GenericView

        doc = state.view(seat)
        return GenericView.from_json(doc, self.rules_from(doc.get("rules")))

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
        return self._new_match(rules, count, seed)


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


def action_space_of(state: GameState) -> ActionSpace:
    """The action space of the game and rules ``state`` is played under (docs/rl.md)."""
    for spec in all_games():
        if spec.owns is not None and spec.action_space is not None and spec.owns(state):
            return spec.action_space(getattr(state, "rules", None))
    raise InputError(f"no game in the registry has integer action ids for {type(state).__name__}")


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
