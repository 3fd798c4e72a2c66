"""Marriage as the registry knows it (``rami.games``): the one object consumers use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rami.action_space import ActionSpace
from rami.engine import Action, GameState
from rami.errors import IllegalAction
from rami.games import Game, Match

if TYPE_CHECKING:
    from rami.cli.hooks import CliCommands
    from rami.play.hooks import TerminalHooks
    from rami.rl.hooks import OpenSpielHooks
    from rami.server.hooks import WebHooks

__all__ = ["GAME"]


def _rules(spec: Any) -> Any:
    from rami.marriage.rules import rules_from

    return rules_from(spec)


def _players(rules: Any) -> tuple[int, ...]:
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


def _new_match(rules: Any, players: int, seed: int) -> Match:
    from rami.marriage.match import Match as MarriageMatch

    return _MarriageMatchAdapter(MarriageMatch(rules, players, seed))


def _load_match(doc: Mapping[str, Any]) -> Match:
    from rami.marriage.match import Match as MarriageMatch

    return _MarriageMatchAdapter(MarriageMatch.from_json(doc))


def _action_space(rules: Any) -> ActionSpace:
    from rami.marriage.action_ids import action_space

    return action_space(rules)


def _owns(state: GameState) -> bool:
    from rami.marriage.action_ids import owns

    return owns(state)


def _new_deal(rules: Any, seats: int, seed: int, dealer: int) -> GameState:
    from rami.marriage.game import new_deal

    return new_deal(rules, seats, seed, dealer)


def _progress(state: GameState) -> list[bool]:
    """Who showed (saw the tiplu) in a finished deal (M-6, M-7)."""
    assert state.result is not None
    players = state.result.details.get("players", [])
    return [bool(p.get("seen")) for p in players] or [False] * len(state.result.scores)


def _cli() -> CliCommands:
    from rami.marriage.cli import COMMANDS

    return COMMANDS


def _terminal() -> TerminalHooks:
    from rami.marriage.terminal import HOOKS

    return HOOKS


def _observation(players: int, rules: Mapping[str, Any]) -> Any:
    from rami.marriage.observation import encoder

    return encoder(players, rules)


def _openspiel() -> OpenSpielHooks:
    from rami.marriage.explicit_chance import HOOKS

    return HOOKS


def _web() -> WebHooks:
    from rami.marriage.web import HOOKS

    return HOOKS


def _ledger(doc: Mapping[str, Any]) -> dict[str, Any]:
    from rami.marriage.ledger import ledger

    return ledger(doc)


def _score_deal(doc: object) -> dict[str, Any]:
    from rami.marriage.ledger import score_deal

    return score_deal(doc)


def _option_help() -> Mapping[str, str]:
    from rami.marriage.rules_help import OPTION_HELP

    return OPTION_HELP


def _option_choices() -> Mapping[str, tuple[Any, ...]]:
    from rami.marriage.rules import CHOICES

    return CHOICES


GAME = Game(
    "marriage",
    "Marriage",
    ("nepali", "indian"),
    "rules",
    _rules,
    _players,
    _new_match,
    _load_match,
    _action_space,
    _owns,
    new_deal=_new_deal,
    cli=_cli,
    terminal=_terminal,
    web=_web,
    observation=_observation,
    openspiel=_openspiel,
    ledger=_ledger,
    score_deal=_score_deal,
    option_help=_option_help,
    option_choices=_option_choices,
    turn_cap=1000,  # M-11 max_turns for simulations
    progress_of=_progress,
    progress_label="shows",
    points_label="ledger",
    signed_points=True,
    match_word="the match",
)
