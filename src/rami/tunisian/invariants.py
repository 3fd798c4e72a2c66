"""Checks and dumps of a Tunisian rami deal for tests and debugging: the card
conservation invariants (T-1: the shoe's cards are all in hands, melds, stock and pile)
and a full snapshot, hidden cards included (never sent to a seat)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rami.cards import JOKER, KINDS, counts, from_counts, shoe
from rami.errors import IllegalAction
from rami.tunisian.melds import make_meld
from rami.tunisian.opening_search import packed
from rami.tunisian.phases import Phase

if TYPE_CHECKING:
    from rami.tunisian.game import TunisianState

__all__ = ["check_invariants", "snapshot"]

_JOKER_INDEX = int(JOKER)
_shoes: dict[tuple[int, int], list[int]] = {}  # the whole shoe's counts by (decks, jokers)


def snapshot(self: TunisianState) -> dict[str, Any]:
    """The full state, hidden cards and stock order included (tests, debugging)."""
    return {
        "hands": [list(h) for h in self._hands],
        "stock": [int(c) for c in self._stock],
        "discard": [int(c) for c in self._discard],
        "table": [([int(c) for c in m.cards], m.kind, m.joker_as, o) for m, o in self._table],
        "opened": list(self._opened),
        "opening_values": list(self._opening_values),
        "last_opening": self._last_opening,
        "to_move": self._to_move,
        "phase": self._phase,
        "turn": self._turn,
        "staged": self._staged,
        "staged_melds": list(self._staged_melds),
        "took": self._took,
        "taken": self._taken,
        "need": self._need,
        "restocks": self._restocks,
        "actions": list(self._actions),
        "events": list(self._events),
        "result": None
        if self._result is None
        else [list(self._result.scores), self._result.winner],
    }


def check_invariants(self: TunisianState) -> None:
    """Raise ``AssertionError`` unless the 108 cards are all where they should be."""
    total = [0] * KINDS
    for seat, h in enumerate(self._hands):
        if any(v < 0 for v in h):
            raise AssertionError(f"seat {seat} holds a negative count")
        if sum(h) != self._sizes[seat]:
            raise AssertionError(f"seat {seat}'s hand size is out of step")
        if self._keys[seat] != packed(from_counts(h)):
            raise AssertionError(f"seat {seat}'s packed hand is out of step")
        if not self._active[seat] and sum(h) > 0:
            raise AssertionError(f"seat {seat} is out of the game but holds cards")
        for i in range(KINDS):
            total[i] += h[i]
    if len(self._offs) != len(self._table):
        raise AssertionError("the table's lay-off facts are out of step")
    through = self._through
    if through is not None and not self._hands[self._to_move][through]:
        raise AssertionError(f"the card every opening must hold ({through}) is not held")
    for index, (meld, _owner) in enumerate(self._table):
        jokers = sum(1 for c in meld.cards if c == _JOKER_INDEX)
        if jokers > 1:
            raise AssertionError(f"meld @{index} holds {jokers} jokers")
        try:
            again = make_meld(meld.cards)
        except IllegalAction as exc:
            raise AssertionError(f"meld @{index} ({meld.cards}) is invalid: {exc}") from None
        if again.value != meld.value or again.kind != meld.kind:
            raise AssertionError(f"meld @{index} does not read back the same")
        for c in meld.cards:
            total[c] += 1
    for c in self._stock:
        total[c] += 1
    for c in self._discard:
        total[c] += 1
    key = (self.rules.decks, self.rules.jokers)
    whole = _shoes.get(key)
    if whole is None:
        whole = _shoes[key] = counts(shoe(*key))
    if total != whole:
        raise AssertionError("the cards in play are not exactly the shoe")
    if self._phase != Phase.OVER and not self._active[self._to_move]:
        raise AssertionError("a seat out of the game is to move")
