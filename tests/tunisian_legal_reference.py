"""The Tunisian legal-action listing as plainly as the rules state it: the oracle the
engine's fast paths are compared with (tests/test_tunisian_legal_fastpath.py).

No memo, no fact carried between turns, no packed keys: every question goes to the
plain solver entry points (``opening_reaches``, ``meld_options``, ``add_to_meld``,
``swap_joker``). The order is the engine's: draw/take, melds (``meld_options`` order,
each cards once), adds then swaps (table order, each meld's candidates in order), the
discards by card kind. Values are what ``apply`` is handed (the meld laid, the table
meld after the lay-off, None).
"""

from __future__ import annotations

from collections.abc import Sequence

from rami.cards import CARDS, JOKER, Card
from rami.engine import Action
from rami.tunisian.game import OVER, PLAY, TunisianState
from rami.tunisian.melds import Meld, add_to_meld, meld_options, position_card, swap_joker
from rami.tunisian.solver import opening_reaches

_J = int(JOKER)


def _minus(hand: Sequence[int], cards: Sequence[int]) -> list[int]:
    rest = list(hand)
    for c in cards:
        rest[c] -= 1
    return rest


def _reaches(hand: Sequence[int], value: int) -> bool:
    """An opening worth ``value`` keeping a card (T-6, T-9); any card kept if none is due."""
    return sum(hand) > 0 if value <= 0 else opening_reaches(hand, value)


def _completable(hand: Sequence[int], staged: int, need: Card | None, threshold: int) -> bool:
    """T-6, T-8: can ``hand`` bring ``staged`` to ``threshold`` (with ``need`` in a meld)?"""
    if need is None:
        return _reaches(hand, threshold - staged)
    size = sum(hand)
    return any(
        need in m.cards
        and len(m.cards) < size
        and _reaches(_minus(hand, m.cards), threshold - staged - m.value)
        for m in meld_options(hand)
    )


def _keeps_other(hand: Sequence[int], size: int, cards: Sequence[int], banned: int | None) -> bool:
    """T-3: after laying ``cards`` a card other than ``banned`` is left."""
    if banned is None:
        return True
    return size - len(cards) > hand[banned] - sum(1 for c in cards if c == banned)


def _banned(state: TunisianState, strict: bool) -> int | None:
    """T-3: the kind the seat may not discard again this turn."""
    taken = state._taken
    if taken is None or state.rules.rediscard_taken:
        return None
    seat = state._to_move
    if not strict and state._hands[seat][taken] >= state._sizes[seat]:
        return None
    return int(taken)


def _candidates(meld: Meld) -> list[int]:
    """The cards that might extend ``meld``, in the engine's order (T-7)."""
    found = [] if meld.has_joker else [_J]
    if meld.kind == "set":
        return found + [suit * 13 + meld.rank - 1 for suit in range(4)]
    low, high = meld.span
    return found + [int(position_card(p, meld.suit)) for p in (low - 1, high + 1) if 1 <= p <= 14]


def _swap_candidates(meld: Meld) -> list[int]:
    if meld.kind == "set":
        return [suit * 13 + meld.rank - 1 for suit in range(4)]
    return [] if meld.joker_as is None else [int(meld.joker_as)]


def reference_legal(state: TunisianState) -> list[tuple[Action, object]]:
    """Every legal action of ``state`` and what ``apply`` is handed, in the engine's order."""
    out: dict[Action, object] = {}
    phase = state._phase
    if phase == OVER:
        return []
    seat = state._to_move
    hand = list(state._hands[seat])
    size = state._sizes[seat]
    opened = state._opened[seat]
    threshold = state.threshold
    discards = [(Action("discard", (c,)), None) for c in CARDS if hand[c]]
    if phase != PLAY and phase != "draw":  # the dealer's first turn (T-2)
        return discards
    if phase == "draw":
        out[Action("draw")] = None
        pile = state._discard
        take = bool(pile)
        if take:
            top = pile[-1]
            if not state.rules.rediscard_taken and hand[top] >= size:
                take = False
            elif not opened:
                with_top = list(hand)
                with_top[top] += 1
                need = top if state.rules.taken_card_in_opening else None
                take = not state.first_round and _completable(with_top, 0, need, threshold)
        if take:
            out[Action("take")] = None
        return list(out.items())
    staged = state._staged
    need = state._need
    if not state.first_round and size >= 4:
        strict = _banned(state, True)
        for m in meld_options(hand):
            if len(m.cards) >= size:
                continue
            if opened:
                ok = _keeps_other(hand, size, m.cards, strict)
            else:
                rest = _minus(hand, m.cards)
                left_need = None if need is not None and need in m.cards else need
                ok = _completable(rest, staged + m.value, left_need, threshold)
            if ok:
                out.setdefault(Action("meld", m.cards), m)
    may_lay_off = opened or (staged >= threshold and need is None)
    if not state.first_round and size >= 2 and may_lay_off:
        strict = _banned(state, True)
        for index, (meld, _owner) in enumerate(state._table):
            for c in _candidates(meld):
                new = add_to_meld(meld, c)
                if new is not None and hand[c] and _keeps_other(hand, size, (c,), strict):
                    out[Action("add", (CARDS[c],), index)] = new
        for index, (meld, _owner) in enumerate(state._table):
            if not meld.has_joker:
                continue
            for c in _swap_candidates(meld):
                new = swap_joker(meld, c)
                if new is not None and hand[c]:
                    out[Action("swap", (CARDS[c],), index)] = new
    may_end = (
        opened or (staged == 0 and state._took is None) or (staged >= threshold and need is None)
    )
    if may_end:
        banned = _banned(state, False)
        for act, value in discards:
            if act.cards[0] != banned:
                out[act] = value
    return list(out.items())
