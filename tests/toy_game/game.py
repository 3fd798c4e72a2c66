"""A toy rummy deal: draw or take, then discard or knock (discard and show the rest all
melds). Tiny on purpose: it is the worked example of docs/architecture.md, registered by
the tests only, and shows that a game plugs into simulate, the terminal and the server
through the registry alone.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from rami.cards import Card, parse_card, sort_key
from rami.engine import Action, DealResult, Event, as_action, chance_rng
from rami.errors import IllegalAction, InputError, NotYourTurn

from .rules import ToyRules, rules_from

__all__ = ["ToyState", "all_melds", "new_deal"]


def _is_meld(cards: Sequence[Card]) -> bool:
    if len(cards) < 2:
        return False
    if all(c.rank == cards[0].rank for c in cards):
        return True
    ranks = sorted(c.rank for c in cards)
    run = list(range(ranks[0], ranks[0] + len(cards)))
    return len({c.suit for c in cards}) == 1 and ranks == run


def all_melds(cards: Sequence[Card]) -> bool:
    """Whether ``cards`` split into melds (pairs, runs of two or more in a suit)."""
    if not cards:
        return True
    rest = sorted(cards, key=sort_key)
    first = rest[0]
    others = rest[1:]
    n = len(others)
    for mask in range(1, 1 << n):  # the meld holding the first card, then the rest
        group = [first, *(others[i] for i in range(n) if mask >> i & 1)]
        left = [others[i] for i in range(n) if not mask >> i & 1]
        if _is_meld(group) and all_melds(left):
            return True
    return False


class ToyState:
    """One toy deal. ``apply`` is all-or-nothing; ``view(seat)`` hides the other hand."""

    def __init__(self, rules: ToyRules, seats: int, seed: int, dealer: int) -> None:
        if seats != rules.players:
            raise InputError(f"the toy rummy is for {rules.players} players, not {seats}")
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        cards = rules.shoe()
        chance_rng(seed, 0, "toy-deal").shuffle(cards)
        n = rules.hand_size
        self.hands: list[list[Card]] = [sorted(cards[s * n : (s + 1) * n]) for s in range(seats)]
        self.discard: list[Card] = [cards[seats * n]]
        self.stock: list[Card] = cards[seats * n + 1 :]  # top last
        self.seat = (dealer + 1) % seats
        self.phase = "draw"
        self.turn = 0
        self.actions: list[str] = []
        self._events: list[Event] = [
            {"seat": dealer, "action": None, "news": "deal", "text": f"seat {dealer} deals"}
        ]
        self._result: DealResult | None = None

    # -- the engine protocol

    @property
    def num_players(self) -> int:
        return len(self.hands)

    @property
    def to_move(self) -> int | None:
        return None if self._result is not None else self.seat

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> DealResult | None:
        return self._result

    @property
    def events(self) -> Sequence[Event]:
        return self._events

    def legal_actions(self) -> list[Action]:
        if self._result is not None:
            return []
        if self.phase == "draw":
            out = [Action("draw")] if self.stock else []
            return out + ([Action("take")] if self.discard else [])
        hand = self.hands[self.seat]
        kinds = sorted(set(hand), key=sort_key)
        knocks = []
        for c in kinds:
            rest = list(hand)
            rest.remove(c)
            if all_melds(rest):
                knocks.append(Action("knock", (c,)))
        return knocks + [Action("discard", (c,)) for c in kinds]

    def apply(self, action: Action | str, seat: int | None = None) -> Action:
        """Play one step (for ``seat``, checked if given); the canonical action applied."""
        act = as_action(action)
        if self._result is not None:
            raise IllegalAction("the deal is over")
        if seat is not None and seat != self.seat:
            raise NotYourTurn(self.seat)
        if act not in self.legal_actions():
            raise IllegalAction(f"'{act}' is not allowed now ({self.phase} phase)")
        hand = self.hands[self.seat]
        event: Event = {"seat": self.seat, "action": str(act)}
        if act.kind == "draw":
            hand.append(self.stock.pop())
            hand.sort()
            self.phase = "discard"
        elif act.kind == "take":
            hand.append(self.discard.pop())
            hand.sort()
            self.phase = "discard"
        else:
            hand.remove(act.cards[0])
            self.discard.append(act.cards[0])
            self.phase = "draw"
            self.turn += 1
        self.actions.append(str(act))
        self._events.append(event)
        if act.kind == "knock":
            self._end(self.seat)
        elif act.kind == "discard":
            self.seat = (self.seat + 1) % self.num_players
            if self.rules.max_turns is not None and self.turn >= self.rules.max_turns:
                self._end(None)
        return act

    def _end(self, winner: int | None) -> None:
        n = self.num_players
        if winner is None:
            scores = (0,) * n
        else:
            lost = sum(c.rank for s in range(n) if s != winner for c in self.hands[s])
            scores = tuple(lost if s == winner else -lost // (n - 1) for s in range(n))
        reason = "knock" if winner is not None else "max_turns"
        details = {
            "turns": self.turn,
            "reason": reason,
            "hands": [[str(c) for c in h] for h in self.hands],
        }
        self._result = DealResult(scores, winner, details)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know: its own hand; of the others only how many cards."""
        mover = self.to_move
        history: list[dict[str, Any]] = []
        for e in self._events[1:]:
            history.append({"seat": e["seat"], "move": e["action"]})
        result = None
        if self._result is not None:
            result = {
                "scores": list(self._result.scores),
                "winner": self._result.winner,
                "details": dict(self._result.details),
            }
        return {
            "game": "toy",
            "rules": self.rules.to_json(),
            "players": self.num_players,
            "seat": seat,
            "dealer": self.dealer,
            "to_move": mover,
            "phase": "over" if self._result is not None else self.phase,
            "turn": self.turn,
            "seats": [{"seat": s, "hand_size": len(h)} for s, h in enumerate(self.hands)],
            "hand": None if seat is None else [str(c) for c in self.hands[seat]],
            "discard_pile": [str(c) for c in self.discard],
            "stock_size": len(self.stock),
            "history": history,
            "legal_actions": [str(a) for a in self.legal_actions()] if seat == mover else [],
            "result": result,
        }

    # -- saving and copying

    def clone(self) -> ToyState:
        return copy.deepcopy(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "toy",
            "rules": self.rules.to_json(),
            "seats": self.num_players,
            "seed": self.seed,
            "dealer": self.dealer,
            "actions": list(self.actions),
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> ToyState:
        """Replay a saved deal; ``InputError`` if the document is not one."""
        try:
            state = new_deal(doc["rules"], int(doc["seats"]), int(doc["seed"]), int(doc["dealer"]))
            for text in doc["actions"]:
                state.apply(text)
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"not a saved toy deal: {exc}") from None
        return state


def new_deal(rules: object, seats: int, seed: int, dealer: int = 0) -> ToyState:
    """A new shuffled deal (the signature every game's ``new_deal`` has)."""
    return ToyState(rules_from(rules), seats, seed, dealer)


def card(text: str) -> Card:
    return parse_card(text)
