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

from rami.engine import Action, GameState
from rami.errors import IllegalAction, InputError

__all__ = ["GAMES", "GameSpec", "Match", "get_game"]


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
    ),
}


def get_game(name: Any) -> GameSpec:
    """The game called ``name``; ``InputError`` naming the choices otherwise."""
    if isinstance(name, str) and name.lower() in GAMES:
        return GAMES[name.lower()]
    raise InputError(f"unknown game {name!r}: choose one of {', '.join(GAMES)}")
