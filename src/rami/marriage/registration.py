"""Marriage as the registry knows it (``rami.games``): the one object consumers use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rami.action_space import ActionSpace
from rami.engine import Action, GameState
from rami.errors import IllegalAction
from rami.games import Game, Match
from rami.views import DealRecord, Standing

if TYPE_CHECKING:
    from rami.marriage.rules import MarriageRules
    from rami.marriage.view import MarriageView

__all__ = ["GAME"]


def _rules(spec: object) -> MarriageRules:
    from rami.marriage.rules import rules_from

    return rules_from(spec)


def _players(spec: object) -> tuple[int, ...]:
    rules = _rules(spec)
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

    def standing(self) -> Standing:
        own = getattr(self.inner, "standing", None)
        if own is not None:
            result: Standing = own()
            return result
        inner = self.inner
        deals: list[DealRecord] = []
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

    def view(self, seat: int | None) -> MarriageView:
        own = getattr(self.inner, "view", None)
        if own is not None:
            result: MarriageView = own(seat)
            return result
        out: MarriageView = self.inner.current.view(seat)
        out["match"] = self.standing()
        return out

    def to_json(self) -> dict[str, object]:
        doc: dict[str, object] = self.inner.to_json()
        return doc


def _new_match(rules: object, players: int, seed: int) -> Match:
    from rami.marriage.match import Match as MarriageMatch

    return _MarriageMatchAdapter(MarriageMatch(rules, players, seed))


def _load_match(doc: Mapping[str, object]) -> Match:
    from rami.marriage.match import Match as MarriageMatch

    return _MarriageMatchAdapter(MarriageMatch.from_json(doc))


def _action_space(rules: object) -> ActionSpace:
    from rami.marriage.action_ids import action_space

    return action_space(rules)


def _owns(state: GameState) -> bool:
    from rami.marriage.action_ids import owns

    return owns(state)


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
)
