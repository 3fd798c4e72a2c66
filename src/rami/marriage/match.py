"""A Marriage match: deals in sequence, dealer rotation and the ledger (M-2, M-16).

The first dealer is drawn at random from the match seed; the deal then passes to the
next player in the direction of play. Each deal's seed is derived from the match seed
and the deal's number, so a match is reproducible from ``(rules, players, seed)`` and
the actions of its deals, which is what ``to_json`` stores to resume it later.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from rami.engine import Action, chance_rng
from rami.errors import IllegalAction, InputError
from rami.marriage.game import MarriageState, new_deal
from rami.marriage.rules import MarriageRules, rules_from
from rami.marriage.view import MarriageView
from rami.views import Standing, StandingDeal

__all__ = ["DealRecord", "Match"]

_JSON_KEYS = {"game", "rules", "players", "seed", "deals", "completed", "current", "left"}


@dataclass(frozen=True)
class DealRecord:
    """One finished deal of the match: who dealt, its seed, its moves and its nets."""

    number: int  # 0-based position in the match
    dealer: int
    seed: int
    actions: tuple[str, ...]
    nets: tuple[int, ...]
    finisher: int | None

    def to_json(self) -> dict[str, object]:
        return {
            "dealer": self.dealer,
            "seed": self.seed,
            "actions": list(self.actions),
            "nets": list(self.nets),
            "finisher": self.finisher,
        }


class LedgerRow(TypedDict):
    """One finished deal in ``Match.ledger()`` (M-16): its nets and the balances after it."""

    deal: int  # 1-based
    dealer: int
    finisher: int | None
    nets: list[int]
    balances: list[int]


class Match:
    """An agreed number of deals (default one whole rotation: ``players`` deals), M-16."""

    def __init__(self, rules: object, players: int, seed: int, deals: int | None = None) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InputError("the match seed must be a whole number")
        if isinstance(players, bool) or not isinstance(players, int):
            raise InputError("the number of players must be a whole number")
        self.rules: MarriageRules = rules_from(rules).for_players(players)  # M-1
        self.players = players
        self.seed = seed
        if deals is None:
            deals = players
        if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
            raise InputError("a match has at least one deal")
        self.deals = deals
        self.step = 1 if self.rules.clockwise else -1
        # M-2: the first dealer is chosen at random (validates ``players`` too).
        self.first_dealer = chance_rng(seed, 0, "first-dealer").randrange(max(players, 1))
        # (an impossible number of players is refused by ``new_deal`` just below)
        self.records: list[DealRecord] = []
        self.left: list[int] = []
        self.current: MarriageState = new_deal(
            self.rules, players, self.deal_seed(0), self.dealer_of(0)
        )

    # ------------------------------------------------------------------ deals

    def dealer_of(self, number: int) -> int:
        """The dealer of deal ``number`` (0-based): the deal passes in the direction of play."""
        return (self.first_dealer + number * self.step) % self.players

    def deal_seed(self, number: int) -> int:
        return chance_rng(self.seed, number, "match-deal").getrandbits(48)

    @property
    def deal_number(self) -> int:
        """The 0-based number of the current deal."""
        return len(self.records)

    @property
    def ended_early(self) -> bool:
        return bool(self.left)

    @property
    def is_over(self) -> bool:
        """All agreed deals played, or a player left (M-16)."""
        if self.left:
            return True
        return len(self.records) + 1 >= self.deals and self.current.is_over

    def _record_of_current(self) -> DealRecord:
        result = self.current.result
        assert result is not None
        return DealRecord(
            len(self.records),
            self.current.dealer,
            self.current.seed,
            tuple(self.current.actions),
            tuple(result.scores),
            result.winner,
        )

    def finished_deals(self) -> list[DealRecord]:
        """Every deal that has ended, the current one included once it is over."""
        done = list(self.records)
        if self.current.is_over and not self.left:
            done.append(self._record_of_current())
        return done

    def next_deal(self) -> MarriageState:
        """Record the finished current deal and deal the next one."""
        if self.left:
            raise IllegalAction("the match has ended: a player left")
        if not self.current.is_over:
            raise IllegalAction("the current deal is not over yet")
        if len(self.records) + 1 >= self.deals:
            raise IllegalAction(f"the match is over: all {self.deals} deals are played")
        self.records.append(self._record_of_current())
        number = len(self.records)
        self.current = new_deal(
            self.rules, self.players, self.deal_seed(number), self.dealer_of(number)
        )
        return self.current

    def apply(self, action: Action | str, seat: int | None = None) -> Action:
        """Play one step in the current deal (``seat``: who acts, checked by the deal).

        Returns the canonical action the deal applied.
        """
        if self.is_over and self.current.is_over:
            raise IllegalAction("the match is over")
        return self.current.apply(action, seat)

    # ------------------------------------------------------------------ ledger

    def ledger(self) -> list[LedgerRow]:
        """Each finished deal's nets and the running balances after it (M-16)."""
        balance = [0] * self.players
        rows: list[LedgerRow] = []
        for rec in self.finished_deals():
            balance = [b + x for b, x in zip(balance, rec.nets, strict=True)]
            rows.append(
                {
                    "deal": rec.number + 1,
                    "dealer": rec.dealer,
                    "finisher": rec.finisher,
                    "nets": list(rec.nets),
                    "balances": list(balance),
                }
            )
        return rows

    @property
    def balances(self) -> list[int]:
        """Each seat's running balance over the finished deals (sums to zero)."""
        balance = [0] * self.players
        for rec in self.finished_deals():
            for i, x in enumerate(rec.nets):
                balance[i] += x
        return balance

    @property
    def void(self) -> bool:
        """M-16 leaver rule: fewer than two players completed the match."""
        return self.rules.leaver_rule and bool(self.left) and len(self.completers) < 2

    @property
    def completers(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.left]

    def totals(self) -> list[int] | None:
        """The recorded totals; ``None`` if the match is void (M-16).

        Under the leaver rule (option ``leaver_rule``) a seat that left is recorded
        with the sum of the two highest totals of the players who completed.
        """
        totals = self.balances
        if not (self.rules.leaver_rule and self.left):
            return totals
        done = sorted((totals[s] for s in self.completers), reverse=True)
        if len(done) < 2:
            return None
        for s in self.left:
            totals[s] = done[0] + done[1]
        return totals

    @property
    def winners(self) -> list[int]:
        """Seats with the best total among those who completed; ties share the win."""
        totals = self.totals()
        if totals is None:
            return []
        seats = self.completers
        best = max(totals[s] for s in seats)
        return [s for s in seats if totals[s] == best]

    def leave(self, seat: int) -> None:
        """``seat`` leaves: the match ends now; an unfinished deal is not recorded.

        The current deal, if over, is recorded first. With ``leaver_rule`` the
        leaver's total follows the Indian record rule (see ``totals``).
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(f"seat must be a number from 0 to {self.players - 1}")
        if seat in self.left:
            raise IllegalAction(f"seat {seat} has already left")
        if not self.left and self.current.is_over:
            self.records.append(self._record_of_current())
        self.left.append(seat)

    # ------------------------------------------------------------------ views

    def standing(self) -> Standing:
        """The public state of the match, in the shape every game's match reports.

        ``totals`` are the ledger balances, ``deals[i].points`` each deal's nets (M-16).
        """
        deals: list[StandingDeal] = [
            {
                "deal": rec.number,
                "dealer": rec.dealer,
                "winner": rec.finisher,
                "points": list(rec.nets),
                "totals": list(row["balances"]),
            }
            for rec, row in zip(self.finished_deals(), self.ledger(), strict=True)
        ]
        over = self.is_over
        return {
            "deal_number": self.deal_number,
            "deals_total": self.deals,
            "dealer": self.current.dealer,
            "totals": self.balances,
            "game_over": over,
            "winners": self.winners if over else None,
            "deals": deals,
        }

    def view(self, seat: int | None) -> MarriageView:
        """The current deal's view for ``seat`` plus the match's standing under ``match``."""
        out = self.current.view(seat)
        out["match"] = self.standing()
        return out

    # ------------------------------------------------------------------ persistence

    def deal_docs(self) -> list[dict[str, object]]:
        """Every deal of the match (the current one last) in the deals' ``to_json`` layout.

        What ``rami.records`` writes a match's record from (``RecordedMatch.deal_docs``).
        """
        rules = self.rules.to_json()
        docs: list[dict[str, object]] = [
            {
                "game": "marriage",
                "rules": rules,
                "seats": self.players,
                "seed": rec.seed,
                "dealer": rec.dealer,
                "active": [True] * self.players,
                "actions": list(rec.actions),
            }
            for rec in self.records
        ]
        return [*docs, self.current.to_json()]

    def to_json(self) -> dict[str, object]:
        """Everything needed to resume: finished deals and the current deal's moves."""
        doc: dict[str, object] = {
            "game": "marriage-match",
            "rules": self.rules.to_json(),
            "players": self.players,
            "seed": self.seed,
            "deals": self.deals,
            "completed": [r.to_json() for r in self.records],
            "current": None if self.left else {"actions": list(self.current.actions)},
            "left": list(self.left),
        }
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Match:
        """Resume a match saved by ``to_json`` (same players in the same seats)."""
        if not isinstance(doc, Mapping):
            raise InputError("a saved match must be a JSON object")
        unknown = set(doc) - _JSON_KEYS
        if unknown:
            raise InputError(f"unknown key {sorted(unknown)[0]!r} in saved match")
        for key in ("players", "seed"):
            if key not in doc:
                raise InputError(f"saved match is missing {key!r}")
        if doc.get("game", "marriage-match") != "marriage-match":
            raise InputError(f"not a Marriage match: {doc.get('game')!r}")
        match = cls(doc.get("rules"), doc["players"], doc["seed"], doc.get("deals"))
        completed = doc.get("completed", [])
        if not isinstance(completed, list):
            raise InputError("'completed' must be a list of deals")
        if len(completed) > match.deals:
            raise InputError(f"{len(completed)} completed deals in a match of {match.deals}")
        current = doc.get("current")
        for i, rec in enumerate(completed):
            if not isinstance(rec, Mapping):
                raise InputError(f"completed deal {i + 1} must be an object")
            match._replay_current(rec.get("actions", []), f"deal {i + 1}")
            if not match.current.is_over:
                raise InputError(f"completed deal {i + 1} did not end")
            nets = rec.get("nets")
            result = match.current.result
            if nets is not None and result is not None and list(nets) != list(result.scores):
                raise InputError(f"deal {i + 1} replays to nets {list(result.scores)}, not {nets}")
            if i + 1 < len(completed) or current is not None:
                try:
                    match.next_deal()
                except IllegalAction as exc:
                    raise InputError(str(exc)) from None
        if isinstance(current, Mapping):
            match._replay_current(current.get("actions", []), "the current deal")
        left = doc.get("left", [])
        if not isinstance(left, list):
            raise InputError("'left' must be a list of seats")
        for seat in left:
            try:
                match.leave(seat)
            except IllegalAction as exc:
                raise InputError(str(exc)) from None
        return match

    def _replay_current(self, moves: object, what: str) -> None:
        if not isinstance(moves, list):
            raise InputError(f"the actions of {what} must be a list")
        for j, text in enumerate(moves):
            try:
                self.current.apply(text)
            except IllegalAction as exc:
                raise InputError(f"{what}, action {j + 1} ({text!r}): {exc}") from None
