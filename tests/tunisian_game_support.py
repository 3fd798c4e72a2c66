"""Helpers for the Tunisian rami game tests: positions, players, hidden-card shuffles."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rami.cards import CARDS, KINDS, Card, from_counts
from rami.engine import Action
from rami.tunisian.game import TunisianState
from rami.tunisian.rules import rules_from

Policy = Callable[[TunisianState, random.Random], Action]


def position(mode: Any, hands: list[str], **kw: Any) -> TunisianState:
    """A state from chosen hands (seat order); the rest of the shoe fills the stock."""
    return TunisianState.from_position(rules_from(mode), hands, **kw)


def uniform(state: TunisianState, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions())


def layer(state: TunisianState, rng: random.Random) -> Action:
    """Random, but takes to open and lays cards whenever it may (openings happen)."""
    legal = state.legal_actions()
    seat = state.to_move
    assert seat is not None
    if not state.opened[seat] and any(a.kind == "take" for a in legal):
        return Action("take")
    laying = [a for a in legal if a.kind in ("meld", "add", "swap")]
    return rng.choice(laying or legal)


def texts(actions: list[Action]) -> set[str]:
    return {str(a) for a in actions}


def hidden_shuffled(state: TunisianState, seat: int | None, rng: random.Random) -> TunisianState:
    """A clone where the cards ``seat`` cannot see (other hands, the stock) are redealt.

    The public facts (hand sizes, table, discard pile, history) stay the same, so the
    view of ``seat`` must not change.
    """
    other = state.clone()
    hidden: list[Card] = list(other._stock)
    seats = [s for s in range(state.num_players) if s != seat]
    for s in seats:
        hidden += from_counts(other._hands[s])
    rng.shuffle(hidden)
    pos = 0
    for s in seats:
        size = other._sizes[s]
        hand = [0] * KINDS
        for c in hidden[pos : pos + size]:
            hand[c] += 1
        other._hands[s] = hand
        pos += size
    other._stock = hidden[pos:]
    # what others drew from the stock is hidden too: scramble it in the log
    other._events = [
        {**e, "card": str(rng.choice(hidden or [CARDS[0]]))}
        if e.get("action") == "draw" and e.get("seat") != seat
        else e
        for e in other._events
    ]
    other._legal = None
    return other
