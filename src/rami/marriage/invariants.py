"""The card conservation check of a Marriage deal, for tests and debugging (M-1: every
card of the shoe is in a hand, a shown or table meld, an exposed tunnela, a dublee, the
stock, the pile or the tiplu; each seat owns a hand's worth)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rami.cards import CARDS, KINDS
from rami.marriage.phases import Phase

if TYPE_CHECKING:
    from rami.marriage.game import MarriageState

__all__ = ["InvariantError", "check_invariants"]


class InvariantError(AssertionError):
    """The state broke card conservation or its own bookkeeping (a bug, never user input)."""


def check_invariants(state: MarriageState) -> None:
    """Raise ``InvariantError`` unless every card is exactly accounted for (M-1)."""
    for s in range(state.num_players):
        hand = state.hands[s]
        if len(hand) != KINDS or min(hand) < 0:
            raise InvariantError(f"seat {s} has a malformed hand vector")
        if sum(hand) != state.sizes[s]:
            raise InvariantError(f"seat {s}: hand size {state.sizes[s]} ≠ {sum(hand)} cards")
    loose = [*state.stock, *state.pile]
    if state.tiplu is not None:
        loose.append(state.tiplu)
    for s in range(state.num_players):
        for m in state.melds[s]:
            loose += m
        for t in state.exposed[s]:
            loose += (t, t, t)
        for d in state.dublees[s]:
            loose += (d, d)
    total = [sum(col) for col in zip(*state.hands, strict=True)]
    for c in loose:
        total[c] += 1
    decks = state.rules.decks
    if total[:52] != [decks] * 52 or total[52]:
        c = next(c for c in range(KINDS) if total[c] != (decks if c < 52 else 0))
        raise InvariantError(f"{CARDS[c]}: {total[c]} cards accounted for, not {decks}")
    if state.phase != Phase.OVER and state.phase not in (Phase.EXPOSE, Phase.DRAW, Phase.PLAY):
        raise InvariantError(f"unknown phase {state.phase!r}")
    for s in range(state.num_players):
        owned = (
            state.sizes[s]
            + sum(len(m) for m in state.melds[s])
            + 3 * len(state.exposed[s])
            + 2 * len(state.dublees[s])
        )
        mid_turn = s == state.current and state.phase == Phase.PLAY
        want = state.rules.hand_size + (1 if mid_turn else 0)
        if state.phase == Phase.OVER and s == state.finisher:
            want = state.rules.hand_size
        if owned != want:
            raise InvariantError(f"seat {s} owns {owned} cards, not {want}")
