"""The match a plug-in gets when it brings none (``Game.make_match`` left out).

Deals in a row, the dealer moving one seat on each deal, each deal's points added up;
``rules.deals`` deals if the rules say (else one deal per seat), and the highest total
wins. It is written against the registry's ``Game`` (``new_deal``, ``rules_from``) and
the engine protocol only, so a small game needs no match class of its own (the toy rummy
of the tests has none). The shape of its standing and saved document is every match's
(``rami.views.Standing``, ``{"game", "kind": "match", …}``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from rami.engine import Action, GameState, chance_rng
from rami.errors import IllegalAction, InputError
from rami.views import GameView, Rules, Standing, StandingDeal

if TYPE_CHECKING:
    from rami.games import Game

__all__ = ["PointsMatch"]


class PointsMatch:
    """Deals in sequence with their standing: the ``rami.games.Match`` protocol."""

    def __init__(self, game: Game, rules: object, players: int, seed: int) -> None:
        if game.new_deal is None:
            raise InputError(f"{game.title} has no deals to play (Game.new_deal)")
        self._new_deal: Callable[[Rules, int, int, int], GameState] = game.new_deal
        self.game = game.name
        self.rules = game.rules_from(rules)
        self.players = players
        self.seed = seed
        deals = getattr(self.rules, "deals", None)
        self.deals_total = deals if isinstance(deals, int) and deals > 0 else players
        self.finished: list[GameState] = []
        self.current = self._deal(0)

    def _deal(self, number: int) -> GameState:
        seed = chance_rng(self.seed, number, f"{self.game}-match").getrandbits(32)
        return self._new_deal(self.rules, self.players, seed, number % self.players)

    @property
    def is_over(self) -> bool:
        return len(self.finished) + 1 >= self.deals_total and self.current.is_over

    def apply(self, action: Action | str, seat: int | None = None) -> Action:
        if self.is_over:
            raise IllegalAction("the match is over")
        return self.current.apply(action, seat)

    def next_deal(self) -> GameState:
        if not self.current.is_over:
            raise IllegalAction("the deal is not over")
        if self.is_over:
            raise IllegalAction("the match is over")
        self.finished.append(self.current)
        self.current = self._deal(len(self.finished))
        return self.current

    def standing(self) -> Standing:
        deals = [*self.finished, *([self.current] if self.current.is_over else [])]
        totals = [0] * self.players
        rows: list[StandingDeal] = []
        for number, deal in enumerate(deals):
            assert deal.result is not None
            totals = [t + p for t, p in zip(totals, deal.result.scores, strict=True)]
            rows.append(
                {
                    "deal": number,
                    "dealer": number % self.players,
                    "winner": deal.result.winner,
                    "points": list(deal.result.scores),
                    "totals": list(totals),
                }
            )
        over = self.is_over
        best = max(totals)
        return {
            "deal_number": len(self.finished),
            "deals_total": self.deals_total,
            "dealer": len(self.finished) % self.players,
            "totals": totals,
            "game_over": over,
            "winners": [s for s, t in enumerate(totals) if t == best] if over else None,
            "deals": rows,
        }

    def view(self, seat: int | None) -> GameView:
        out = self.current.view(seat)
        out["match"] = self.standing()
        return out

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "kind": "match",
            "rules": self.rules.to_json(),
            "players": self.players,
            "seed": self.seed,
            "deals": [_actions(d) for d in [*self.finished, self.current]],
        }

    @classmethod
    def from_json(cls, game: Game, doc: Mapping[str, object]) -> PointsMatch:
        """Resume a match saved with ``to_json`` by replaying it; ``InputError`` if bad."""
        try:
            players, seed, deals = doc["players"], doc["seed"], doc["deals"]
            if doc.get("game") != game.name:
                raise ValueError("another game's document")
            if not (isinstance(players, int) and isinstance(seed, int) and isinstance(deals, list)):
                raise ValueError("'players' and 'seed' are whole numbers, 'deals' a list")
            match = cls(game, doc["rules"], players, seed)
            for i, actions in enumerate(deals):
                if i:
                    match.next_deal()
                for text in actions:
                    match.apply(text)
        except (KeyError, TypeError, ValueError, IllegalAction) as exc:
            raise InputError(f"not a saved {game.title} match: {exc}") from None
        return match


def _actions(deal: GameState) -> list[str]:
    """A deal's applied actions (its replay log)."""
    return list(getattr(deal, "actions", ()))
