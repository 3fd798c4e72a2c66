"""A whole game of Tunisian rami: deals in sequence until one player or team is left.

The match deals, keeps the running totals (T-10), rotates the dealer counter-clockwise
past eliminated players (T-12), eliminates at ``rules.elimination`` (1v1, ffa) or ends
the game at ``rules.team_elimination`` for a team (2v2, T-13), and names the winner.
Every deal's seed derives from the game's seed, so a game is reproducible from
``(rules, seed, actions per deal)``; that is what ``to_json`` stores and ``from_json``
replays to resume a game.
"""

from __future__ import annotations

from collections.abc import Mapping

from rami.engine import Action, chance_rng
from rami.errors import IllegalAction, InputError
from rami.tunisian.game import TunisianState, new_deal
from rami.tunisian.rules import TunisianRules, rules_from
from rami.tunisian.settle import apply_totals
from rami.tunisian.view import TunisianView
from rami.views import Standing, StandingDeal

__all__ = ["Match", "TunisianMatch"]


class Match:
    """A game of deals. ``current`` is the deal in play; ``next_deal()`` starts the next."""

    def __init__(self, rules: object = None, seed: int = 0) -> None:
        self.rules: TunisianRules = rules_from(rules)
        self.seed = seed
        n = self.rules.players
        self.totals: list[int] = [0] * n
        self.eliminated: list[bool] = [False] * n
        self.game_over = False
        self.winners: list[int] | None = None
        self.deals: list[StandingDeal] = []  # one record per scored deal
        self.deal_number = 0
        self.dealer = chance_rng(seed, 0, "first-dealer").randrange(n)  # T-2: at random
        self._recorded = False
        self._past_actions: list[list[str]] = []
        self._past_docs: list[dict[str, object]] = []  # each past deal's ``to_json``
        self.current: TunisianState = self._deal()

    # ------------------------------------------------------------------ deals

    def deal_seed(self, number: int) -> int:
        """The seed of deal ``number`` (0-based), derived from the game's seed."""
        return chance_rng(self.seed, number, "deal-seed").getrandbits(48)

    def _deal(self) -> TunisianState:
        active = [not e for e in self.eliminated]
        self._recorded = False
        seed = self.deal_seed(self.deal_number)
        return new_deal(self.rules, self.rules.players, seed, self.dealer, active=active)

    @property
    def active(self) -> list[bool]:
        return [not e for e in self.eliminated]

    @property
    def is_over(self) -> bool:
        """The whole game is over (T-13)."""
        self._record()
        return self.game_over

    def team_totals(self) -> list[int] | None:
        """In 2v2, the totals of teams 0 (seats 0, 2) and 1 (seats 1, 3)."""
        if not self.rules.teams:
            return None
        return [
            sum(self.totals[s] for s in range(self.rules.players) if s % 2 == t) for t in (0, 1)
        ]

    def apply(self, action: Action | str, seat: int | None = None) -> Action:
        """Play one step in the current deal; a deal that ends is scored at once.

        ``seat`` (who acts) is checked by the deal; returns the canonical action applied.
        """
        if self.game_over:
            raise IllegalAction("the game is over")
        applied = self.current.apply(action, seat)
        self._record()
        return applied

    def _record(self) -> None:
        """Score the current deal into the totals once it is over (T-10, T-13)."""
        state = self.current
        if self._recorded or not state.is_over:
            return
        result = state.result
        assert result is not None
        before = list(self.totals)
        totals, eliminated, game_over, winners = apply_totals(
            self.totals, list(result.scores), self.eliminated, self.rules
        )
        newly = [s for s in range(self.rules.players) if eliminated[s] and not self.eliminated[s]]
        self.totals = list(totals)
        self.eliminated = list(eliminated)
        self.game_over = game_over
        self.winners = list(winners) if winners is not None else None
        self.deals.append(
            {
                "deal": self.deal_number,
                "dealer": self.dealer,
                "winner": result.winner,
                "reason": result.details.get("reason"),
                "points": list(result.scores),
                "totals_before": before,
                "totals": list(self.totals),
                "eliminated": newly,
            }
        )
        self._recorded = True

    def next_deal(self) -> TunisianState:
        """Start the next deal (the current one must be over and the game not)."""
        if not self.current.is_over:
            raise IllegalAction("the current deal is not over")
        self._record()
        if self.game_over:
            raise IllegalAction("the game is over")
        self._past_actions.append(list(self.current.actions))
        self._past_docs.append(self.current.to_json())
        self.deal_number += 1
        self.dealer = self._next_dealer(self.dealer)
        self.current = self._deal()
        return self.current

    def _next_dealer(self, dealer: int) -> int:
        """The next player still in the game, counter-clockwise (T-12)."""
        n = self.rules.players
        s = dealer
        for _ in range(n):
            s = (s - 1) % n
            if not self.eliminated[s]:
                return s
        return dealer

    # ------------------------------------------------------------------ views

    def standing(self) -> Standing:
        """The public state of the game: totals, eliminations, deals so far, winner."""
        self._record()
        return {
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "totals": list(self.totals),
            "team_totals": self.team_totals(),
            "eliminated": list(self.eliminated),
            "elimination": self.rules.team_elimination
            if self.rules.teams
            else self.rules.elimination,
            "game_over": self.game_over,
            "winners": self.winners,
            "deals": [d.copy() for d in self.deals],
        }

    def view(self, seat: int | None) -> TunisianView:
        """The current deal's view for ``seat`` plus the game's standing under ``match``."""
        out = self.current.view(seat)
        out["match"] = self.standing()
        return out

    # ----------------------------------------------------------- persistence

    def to_json(self) -> dict[str, object]:
        """The rules, the seed and every deal's actions: enough to resume the game."""
        return {
            "game": "tunisian",
            "kind": "match",
            "rules": self.rules.to_json(),
            "seed": self.seed,
            "deals": [list(d) for d in self._deal_actions()],
        }

    def deal_docs(self) -> list[dict[str, object]]:
        """Every deal of the game (the current one last) in the deals' ``to_json`` layout.

        What ``rami.records`` writes a game's record from (``RecordedMatch.deal_docs``).
        """
        return [*(dict(d) for d in self._past_docs), self.current.to_json()]

    def _deal_actions(self) -> list[list[str]]:
        return [*self._past_actions, list(self.current.actions)]

    @classmethod
    def from_json(cls, doc: Mapping[str, object]) -> Match:
        """Resume a game saved with ``to_json`` by replaying it."""
        if not isinstance(doc, Mapping):
            raise InputError("a saved game must be a JSON object")
        for key in doc:
            if key not in ("game", "kind", "rules", "seed", "deals"):
                raise InputError(f"unknown key '{key}' in a saved game")
        for key in ("rules", "seed", "deals"):
            if key not in doc:
                raise InputError(f"a saved game needs the key '{key}'")
        if doc.get("game", "tunisian") != "tunisian":
            raise InputError("this is not a saved Tunisian rami game")
        seed = doc["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InputError("'seed' must be a whole number")
        deals = doc["deals"]
        if not isinstance(deals, list) or not deals:
            raise InputError("'deals' must be a non-empty list of action lists")
        match = cls(doc["rules"], seed)
        for number, actions in enumerate(deals):
            if number:
                try:
                    match.next_deal()
                except IllegalAction as exc:
                    raise InputError(f"deal {number + 1} cannot start: {exc}") from None
            if not isinstance(actions, list):
                raise InputError(f"deal {number + 1}: actions must be a list")
            for i, text in enumerate(actions):
                try:
                    match.apply(text)
                except IllegalAction as exc:
                    raise InputError(
                        f"deal {number + 1}, action {i + 1} ('{text}') is illegal: {exc}"
                    ) from None
        return match


TunisianMatch = Match
"""Former name of ``Match`` (both games name their match class ``Match``)."""
