"""Deals consistent with one seat's view, for search bots (determinization).

``sample_state(view, rng)`` builds a full ``TunisianState`` that shows exactly ``view`` to
its seat: the seat's own hand, the table, the discard pile, hand sizes, openings and the
threshold are copied; the cards the seat cannot see (the other hands and the stock's
order) are dealt at random from the cards not accounted for. Cards an opponent was seen
to take from the discard pile (T-8, public) and has not laid or discarded since are put
back in that opponent's hand, and a joker won by a swap (T-7) too.

The view is the only input: two states that show the same view give the same samples
for the same generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rami.cards import CARDS, JOKER, KINDS, Card, counts, shoe, take_out
from rami.engine import read_action
from rami.errors import InputError
from rami.sampling import determinize
from rami.tunisian.game import PLAY, TunisianState
from rami.tunisian.view import TunisianTypedView, tunisian_typed
from rami.views import GameView, TypedView

__all__ = ["known_cards", "sample_state", "unseen_cards"]


def unseen_cards(view: TunisianTypedView) -> list[int]:
    """Count vector of the cards ``view``'s seat cannot see: other hands plus the stock."""
    rules = view.rules
    pool = counts(shoe(rules.decks, rules.jokers))
    visible: list[Card] = list(view.hand or ())
    for meld, _owner in view.table:
        visible += meld.cards
    visible += view.discard_pile
    return take_out(pool, visible)


def known_cards(view: TunisianTypedView) -> list[list[int]]:
    """Per seat, the cards that seat is known to hold (taken discards, swapped jokers)."""
    n = view.players
    known = [[0] * KINDS for _ in range(n)]
    me = view.seat
    for entry in view.history:
        move = entry.get("move")
        seat = entry.get("seat")
        if not move or seat is None or seat == me:
            continue
        action = read_action(move)
        verb, cards = action.kind, action.cards
        mine = known[seat]
        if verb == "take" and cards:
            mine[cards[0]] += 1
        elif verb == "swap" and cards:
            c = cards[0]
            mine[c] = max(0, mine[c] - 1)
            mine[JOKER] += 1
        elif verb in ("meld", "add", "discard"):
            for c in cards:
                if mine[c]:
                    mine[c] -= 1
    for s in range(n):
        if sum(known[s]) > view.hand_sizes[s] or not view.active[s]:
            known[s] = [0] * KINDS  # out of date (a restock, or out of the game)
    return known


def sample_state(
    view: TypedView | GameView,
    rng: random.Random,
    weights: Sequence[Sequence[float]] | None = None,
) -> TunisianState:
    """A full deal consistent with ``view`` (hidden cards dealt at random by ``rng``).

    ``weights[s][c]`` (optional, from ``rami.bots.opponent_model``) makes card kind ``c``
    that much more likely in seat ``s``'s hand than in the stock.
    """
    typed = tunisian_typed(view)  # InputError for another game's view
    seat = typed.seat
    to_move = typed.to_move
    if seat is None or to_move is None:
        raise InputError("sample_state needs a seat's view of a deal in play")
    rules = typed.rules

    def build(hidden: list[list[int]], left: list[int]) -> TunisianState:
        hands: list[list[Card]] = [[CARDS[c] for c in cards] for cards in hidden]
        hands[seat] = list(typed.hand or ())
        stock = [CARDS[c] for c in left]
        if len(stock) != typed.stock_size:
            raise InputError("the view's card counts do not add up to the shoe")
        table = [(list(meld.cards), owner) for meld, owner in typed.table]
        staged = sorted(typed.staged)
        values = list(typed.opening_values)
        threshold = typed.threshold
        last = None
        if any(v is not None for v in values) or threshold != rules.opening_threshold:
            last = threshold - rules.opening_step
        state = TunisianState.from_position(
            rules,
            hands,
            stock=stock,
            discard=list(typed.discard_pile),
            table=table,
            opened=list(typed.opened),
            opening_values=values,
            last_opening=last,
            to_move=to_move,
            dealer=typed.dealer,
            phase=typed.phase,
            turn=typed.turn,
            active=list(typed.active),
            seed=rng.getrandbits(48),
            taken=_taken_this_turn(typed),
        )
        if (typed.phase == PLAY and staged) or typed.must_open:
            # T-6, T-8: the mover's turn so far, staged melds and the card taken to open
            state.resume_turn(staged, _took_to_open(typed))
        return state

    return determinize(
        typed, rng, weights, unseen=unseen_cards, known=known_cards, build=build, what="shoe"
    )


def _taken_this_turn(view: TunisianTypedView) -> Card | None:
    """The discard the seat to move took this turn, which it may not discard (T-3)."""
    if view.phase != PLAY:
        return None
    for entry in reversed(view.history):
        move = entry.get("move")
        if not move or entry.get("seat") != view.to_move:
            continue
        action = read_action(move)
        if action.kind in ("take", "draw"):
            return action.cards[0] if action.kind == "take" and action.cards else None
    return None


def _took_to_open(view: TunisianTypedView) -> Card | None:
    """The discard an unopened mover took to open this turn (T-8), if it must open."""
    if not view.must_open:
        return None
    for entry in reversed(view.history):
        move = entry.get("move")
        if move and entry.get("seat") == view.to_move:
            action = read_action(move)
            if action.kind == "take" and action.cards:
                return action.cards[0]
    return None
