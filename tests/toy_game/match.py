"""A toy match: ``rules.deals`` deals, the dealer moving left, points added up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rami.engine import Action, chance_rng
from rami.errors import IllegalAction, InputError

from .game import ToyState, new_deal
from .rules import ToyRules, rules_from

__all__ = ["ToyMatch"]


class ToyMatch:
    """Deals in sequence with their standing: the ``rami.games.Match`` protocol."""

    def __init__(self, rules: ToyRules, players: int, seed: int) -> None:
        self.rules = rules
        self.players = players
        self.seed = seed
        self.finished: list[ToyState] = []
        self.current = self._deal(0)

    def _deal(self, number: int) -> ToyState:
        seed = chance_rng(self.seed, number, "toy-match").getrandbits(32)
        return new_deal(self.rules, self.players, seed, number % self.players)

    @property
    def is_over(self) -> bool:
        return len(self.finished) + 1 >= self.rules.deals and self.current.is_over

    def apply(self, action: Action | str, seat: int | None = None) -> Action:
        if self.is_over:
            raise IllegalAction("the match is over")
        return self.current.apply(action, seat)

    def next_deal(self) -> ToyState:
        if not self.current.is_over:
            raise IllegalAction("the deal is not over")
        if self.is_over:
            raise IllegalAction("the match is over")
        self.finished.append(self.current)
        self.current = self._deal(len(self.finished))
        return self.current

    def standing(self) -> dict[str, Any]:
        deals = [*self.finished, *([self.current] if self.current.is_over else [])]
        totals = [0] * self.players
        rows = []
        for number, deal in enumerate(deals):
            assert deal.result is not None
            totals = [t + p for t, p in zip(totals, deal.result.scores, strict=True)]
            rows.append(
                {
                    "deal": number,
                    "dealer": deal.dealer,
                    "winner": deal.result.winner,
                    "points": list(deal.result.scores),
                    "totals": list(totals),
                }
            )
        over = self.is_over
        best = max(totals)
        return {
            "deal_number": len(self.finished),
            "deals_total": self.rules.deals,
            "dealer": self.current.dealer,
            "totals": totals,
            "game_over": over,
            "winners": [s for s, t in enumerate(totals) if t == best] if over else None,
            "deals": rows,
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        out = self.current.view(seat)
        out["match"] = self.standing()
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "toy",
            "kind": "match",
            "rules": self.rules.to_json(),
            "players": self.players,
            "seed": self.seed,
            "deals": [d.actions for d in [*self.finished, self.current]],
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> ToyMatch:
        try:
            match = cls(rules_from(doc["rules"]), int(doc["players"]), int(doc["seed"]))
            for i, actions in enumerate(doc["deals"]):
                if i:
                    match.next_deal()
                for text in actions:
                    match.apply(text)
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"not a saved toy match: {exc}") from None
        return match
