"""Marriage as the registry knows it (``rami.games``): the one object consumers use."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from rami.action_space import ActionSpace
from rami.engine import Action, GameState
from rami.errors import IllegalAction
from rami.games import Game, Match

if TYPE_CHECKING:
    from rami.bots.kit import BotKit

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


# --- bot hooks (part D)
@cache
def _bots() -> BotKit[Any, Any]:
    """The bots' kit (``rami.bots.kit``): the greedy player, its search hooks and the
    determinizer, imported on first use (they pull in the solvers)."""
    from rami.bots.kit import BotKit
    from rami.marriage import greedy_bot as g
    from rami.marriage.determinize import sample_state

    return BotKit(
        greedy=g.MarriageGreedy,
        easy_noise=6.0,
        observe=g.observe,
        observe_state=g.observe_state,
        decide=g.decide,
        candidates=g.candidates,
        tree_moves=g.tree_moves,
        sample=sample_state,
        policy=g.policy,
        leaf_value=g.leaf_value,
        turns_ahead=g.turns_ahead,
        search_margin=1.0,
        tree_scale=6.0,
        wilds=g.wilds_of_view,
        play_step=g.play_step,
        hard_iterations=48,
        expert_iterations=160,
    )


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
    bots=_bots,
)
