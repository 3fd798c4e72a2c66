"""The games rami plays, behind one registry, so front ends have no per-game special cases.

A *match* is a sequence of deals with its standing (Marriage's ledger, Tunisian rami's
totals and eliminations). Every match offers the same protocol (``Match`` below); the
front ends (terminal, web server, simulator) only use this protocol and the engine
protocol of ``rami.engine``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from rami.action_space import ActionSpace
from rami.engine import Action, GameState
from rami.errors import IllegalAction, InputError

__all__ = [
    "GAMES",
    "GameSpec",
    "Match",
    "action_from_id",
    "action_space_of",
    "get_game",
    "id_of",
    "legal_action_ids",
]


class Match(Protocol):
    """Deals in sequence with their standing; ``current`` is the deal in play."""

    @property
    def current(self) -> GameState: ...

    @property
    def is_over(self) -> bool: ...

    def apply(self, action: Action | str) -> None: ...

    def next_deal(self) -> GameState: ...

    def standing(self) -> dict[str, Any]: ...

    def view(self, seat: int | None) -> dict[str, Any]: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class GameSpec:
    """How to make rules and matches of one game."""

    name: str
    title: str
    presets: tuple[str, ...]
    preset_label: str  # what users call a preset: "rules" (Marriage) or "mode" (Tunisian)
    rules_from: Callable[[Any], Any]
    players_for: Callable[[Any], tuple[int, ...]]  # allowed player counts for these rules
    _new_match: Callable[[Any, int, int], Match]
    match_from_json: Callable[[Mapping[str, Any]], Match]
    # integer action ids (docs/rl.md): the numbering for some rules, and which states
    # are this game's deals
    action_space: Callable[[Any], ActionSpace] | None = None
    owns: Callable[[GameState], bool] | None = None

    def new_match(self, rules: Any, players: int | None, seed: int) -> Match:
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


def _marriage_rules(spec: Any) -> Any:
    from rami.marriage.rules import rules_from

    return rules_from(spec)


def _marriage_players(rules: Any) -> tuple[int, ...]:
    return tuple(range(rules.min_players, rules.max_players + 1))


class _MarriageMatchAdapter:
    """Gives a Marriage match the whole ``Match`` protocol (``apply``, ``standing``,
    ``view``) where ``rami.marriage.match.Match`` does not offer it itself.

    The standing uses the Tunisian shape so front ends read one format: ``totals`` are
    the ledger balances, ``deals[i].points`` each deal's nets (M-16).
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    @property
    def current(self) -> GameState:
        current: GameState = self.inner.current
        return current

    @property
    def is_over(self) -> bool:
        return bool(self.inner.is_over)

    def apply(self, action: Action | str) -> None:
        own = getattr(self.inner, "apply", None)
        if own is not None:
            own(action)
            return
        if self.inner.is_over and self.inner.current.is_over:
            raise IllegalAction("the match is over")
        self.inner.current.apply(action)

    def next_deal(self) -> GameState:
        state: GameState = self.inner.next_deal()
        return state

    def standing(self) -> dict[str, Any]:
        own = getattr(self.inner, "standing", None)
        if own is not None:
            result: dict[str, Any] = own()
            return result
        inner = self.inner
        deals = []
        for rec, row in zip(inner.finished_deals(), inner.ledger(), strict=True):
            deals.append(
                {
                    "deal": rec.number,
                    "dealer": rec.dealer,
                    "winner": rec.finisher,
                    "points": list(rec.nets),
                    "totals": list(row["balances"]),
                }
            )
        over = bool(inner.is_over)
        return {
            "deal_number": inner.deal_number,
            "deals_total": inner.deals,
            "dealer": inner.current.dealer,
            "totals": list(inner.balances),
            "game_over": over,
            "winners": list(inner.winners) if over else None,
            "deals": deals,
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        own = getattr(self.inner, "view", None)
        if own is not None:
            result: dict[str, Any] = own(seat)
            return result
        out: dict[str, Any] = self.inner.current.view(seat)
        out["match"] = self.standing()
        return out

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = self.inner.to_json()
        return doc


def _marriage_match(rules: Any, players: int, seed: int) -> Match:
    from rami.marriage.match import Match as MarriageMatch

    return _MarriageMatchAdapter(MarriageMatch(rules, players, seed))


def _marriage_load(doc: Mapping[str, Any]) -> Match:
    from rami.marriage.match import Match as MarriageMatch

    return _MarriageMatchAdapter(MarriageMatch.from_json(doc))


def _tunisian_rules(spec: Any) -> Any:
    from rami.tunisian.rules import rules_from

    return rules_from(spec)


def _tunisian_players(rules: Any) -> tuple[int, ...]:
    return (rules.players,)


def _tunisian_match(rules: Any, players: int, seed: int) -> Match:
    from rami.tunisian.match import TunisianMatch

    return TunisianMatch(rules, seed)


def _tunisian_load(doc: Mapping[str, Any]) -> Match:
    from rami.tunisian.match import TunisianMatch

    return TunisianMatch.from_json(doc)


def _marriage_action_space(rules: Any) -> ActionSpace:
    from rami.marriage.action_ids import action_space

    return action_space(rules)


def _marriage_owns(state: GameState) -> bool:
    from rami.marriage.action_ids import owns

    return owns(state)


def _tunisian_action_space(rules: Any) -> ActionSpace:
    from rami.tunisian.action_ids import action_space

    return action_space(rules)


def _tunisian_owns(state: GameState) -> bool:
    from rami.tunisian.action_ids import owns

    return owns(state)


GAMES: dict[str, GameSpec] = {
    "marriage": GameSpec(
        "marriage",
        "Marriage",
        ("nepali", "indian"),
        "rules",
        _marriage_rules,
        _marriage_players,
        _marriage_match,
        _marriage_load,
        _marriage_action_space,
        _marriage_owns,
    ),
    "tunisian": GameSpec(
        "tunisian",
        "Tunisian rami",
        ("1v1", "ffa", "2v2"),
        "mode",
        _tunisian_rules,
        _tunisian_players,
        _tunisian_match,
        _tunisian_load,
        _tunisian_action_space,
        _tunisian_owns,
    ),
}


def get_game(name: Any) -> GameSpec:
    """The game called ``name``; ``InputError`` naming the choices otherwise."""
    if isinstance(name, str) and name.lower() in GAMES:
        return GAMES[name.lower()]
    raise InputError(f"unknown game {name!r}: choose one of {', '.join(GAMES)}")


def action_space_of(state: GameState) -> ActionSpace:
    """The action space of the game and rules ``state`` is played under (docs/rl.md)."""
    for spec in GAMES.values():
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
