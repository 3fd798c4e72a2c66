"""A toy rummy deal: draw or take, then discard or knock (discard and show the rest all
melds). Tiny on purpose: it is the worked example of docs/architecture.md, registered by
the tests only, and shows that a game plugs into simulate, the terminal and the server
through the registry alone.

The deal is a ``rami.kernel.Deal``: the kernel runs the all-or-nothing ``apply``, the
seat check, the legal-move cache, the event log, ``to_json``/``from_json`` and ``clone``;
the toy writes its table, its four verbs and its view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rami.cards import Card, sort_key
from rami.engine import Action, DealResult, chance_rng
from rami.errors import IllegalAction, InputError
from rami.kernel import Deal, Ruling, Verb, next_seats

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


class _Verb(Verb["ToyState"]):
    """A toy verb: its rule is stated once, in ``options``; any other move is refused."""

    def judge(self, deal: ToyState, action: Action) -> Ruling:
        if action not in deal.legal_actions():
            raise IllegalAction(f"'{action}' is not allowed now ({deal._phase} phase)")
        return action, None


class _Draw(_Verb):
    name, pile = "draw", "stock"  # ``take``: the same from the discard pile

    def options(self, deal: ToyState, legal: dict[Action, object]) -> None:
        if getattr(deal, self.pile):
            legal[Action(self.name)] = None

    def play(self, deal: ToyState, action: Action, detail: object) -> None:
        deal.pick_up(getattr(deal, self.pile).pop(), action)


class _Take(_Draw):
    name, pile = "take", "discard"


class _Discard(_Verb):
    name, knocks = "discard", False  # ``knock``: discard with the rest of the hand all melds

    def options(self, deal: ToyState, legal: dict[Action, object]) -> None:
        hand = deal.hands[deal._to_move]
        for card in sorted(set(hand), key=sort_key):
            rest = list(hand)
            rest.remove(card)
            if not self.knocks or all_melds(rest):
                legal[Action(self.name, (card,))] = None

    def play(self, deal: ToyState, action: Action, detail: object) -> None:
        deal.throw(action, self.knocks)


class _Knock(_Discard):
    name, knocks = "knock", True


_VERBS = {v.name: v for v in (_Draw(), _Take(), _Knock(), _Discard())}
_PHASES = {
    "draw": (_VERBS["draw"], _VERBS["take"]),
    "discard": (_VERBS["knock"], _VERBS["discard"]),
    "over": (),
}


class ToyState(Deal):
    """One toy deal: the hands, the discard pile and the stock (top last)."""

    __slots__ = ("discard", "hands", "rules", "stock")

    GAME = "toy"
    TITLE = "toy rummy"
    UNKNOWN_VERB = "unknown action '{kind}'"
    _by_kind = _VERBS
    _by_phase = _PHASES

    def __init__(self, rules: ToyRules, seats: int, seed: int, dealer: int) -> None:
        if seats != rules.players:
            raise InputError(f"the toy rummy is for {rules.players} players, not {seats}")
        self._begin(seed, dealer, (True,) * seats, (dealer + 1) % seats)
        self._after = next_seats(self._active, lambda s, n: (s + 1) % n)  # clockwise
        self._phase = "draw"
        self.rules = rules
        cards = rules.shoe()
        chance_rng(seed, 0, "toy-deal").shuffle(cards)
        n = rules.hand_size
        self.hands: list[list[Card]] = [sorted(cards[s * n : (s + 1) * n]) for s in range(seats)]
        self.discard: list[Card] = [cards[seats * n]]
        self.stock: list[Card] = cards[seats * n + 1 :]
        self._events.append(
            {"seat": dealer, "action": None, "news": "deal", "text": f"seat {dealer} deals"}
        )

    @property
    def result(self) -> DealResult[Mapping[str, object]] | None:
        return self._result

    # -- what the verbs share

    def pick_up(self, card: Card, action: Action) -> None:
        self.hands[self._to_move].append(card)
        self.hands[self._to_move].sort()
        self._phase = "discard"
        self._log(str(action))

    def throw(self, action: Action, knocks: bool) -> None:
        self.hands[self._to_move].remove(action.cards[0])
        self.discard.append(action.cards[0])
        self._phase = "draw"
        self._turn += 1
        self._log(str(action))
        if knocks:
            self.finish(self._to_move)
            return
        self._to_move = self.next_seat(self._to_move)
        if self.rules.max_turns is not None and self._turn >= self.rules.max_turns:
            self.finish(None)

    def finish(self, winner: int | None) -> None:
        n = self.num_players
        if winner is None:
            scores = (0,) * n
        else:
            lost = sum(c.rank for s in range(n) if s != winner for c in self.hands[s])
            scores = tuple(lost if s == winner else -lost // (n - 1) for s in range(n))
        reason = "knock" if winner is not None else "max_turns"
        details = {
            "turns": self._turn,
            "reason": reason,
            "hands": [[str(c) for c in h] for h in self.hands],
        }
        self._end(
            DealResult(scores, winner, details),
            reason,
            {"seat": winner, "action": None, "news": "end"},
        )

    # -- the kernel's questions

    def _copy_table(self, other: ToyState) -> None:
        other.rules = self.rules
        other.hands = [h[:] for h in self.hands]
        other.discard = self.discard[:]
        other.stock = self.stock[:]

    def _num_seats(self) -> int:
        return len(self.hands)

    def _rules_json(self) -> Mapping[str, object]:
        return self.rules.to_json()

    @classmethod
    def _rebuild(cls, doc: Mapping[str, Any], seed: int) -> ToyState:
        return new_deal(doc["rules"], int(doc["seats"]), seed, int(doc["dealer"]))

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know: its own hand; of the others only how many cards."""
        mover = self.to_move
        result = self._result
        return {
            "game": "toy",
            "rules": self.rules.to_json(),
            "players": self.num_players,
            "seat": seat,
            "dealer": self.dealer,
            "to_move": mover,
            "phase": self._phase,
            "turn": self._turn,
            "seats": [{"seat": s, "hand_size": len(h)} for s, h in enumerate(self.hands)],
            "hand": None if seat is None else [str(c) for c in self.hands[seat]],
            "discard_pile": [str(c) for c in self.discard],
            "stock_size": len(self.stock),
            "history": [
                {"seat": e["seat"], "move": e["action"]} for e in self._events if e["action"]
            ],
            "legal_actions": [str(a) for a in self.legal_actions()] if seat == mover else [],
            "result": None
            if result is None
            else {
                "scores": list(result.scores),
                "winner": result.winner,
                "details": dict(result.details),
            },
        }


def new_deal(rules: object, seats: int, seed: int, dealer: int = 0) -> ToyState:
    """A new shuffled deal (the signature every game's ``new_deal`` has)."""
    return ToyState(rules_from(rules), seats, seed, dealer)
