"""Deals consistent with one seat's view, for search bots (determinization).

``sample_state(view, rng)`` builds a full ``MarriageState`` that shows exactly ``view`` to
its seat (history aside): the seat's own hand, every public card (shown melds, exposed
tunnelas, dublees, table melds, the discard pile), hand sizes, seen flags, paths and the
turn are copied; the cards the seat cannot see (the other hands, the stock's order, and
the tiplu if it was picked but this seat has not seen it, M-7) are dealt at random from
the cards not accounted for. Cards an opponent was seen to take from the discard pile
(M-5, public) and has not shown or discarded since are put back in that hand.

The view is the only input: states that show the same view give the same samples for
the same generator. Unseen seats get no hint of the tiplu: it is drawn like any hidden
card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rami.cards import CARDS, Card, counts, take_out
from rami.engine import read_action
from rami.errors import InputError
from rami.marriage.game import DUBLEES_PATH, MarriageState, Phase
from rami.marriage.melds import is_meld, wild_kinds
from rami.marriage.rules import MarriageRules
from rami.marriage.view import MarriageTypedView, marriage_typed
from rami.sampling import determinize
from rami.views import GameView, TypedView

__all__ = ["known_cards", "sample_state", "unseen_cards"]

_VERBS_OUT = ("discard", "finish", "show", "dublee", "expose", "meld", "add")


def unseen_cards(view: MarriageTypedView) -> list[int]:
    """Count vector (52 kinds) of the cards ``view``'s seat cannot see.

    They are the other hands, the stock and, when picked but not seen, the tiplu.
    """
    pool = [view.rules.decks] * 52
    visible: list[Card] = list(view.hand or ())
    for s in view.seats:
        for meld in s.melds:
            visible += meld
        for t in s.exposed_tunnelas:
            visible += [t] * 3
        for d in s.dublees:
            visible += [d] * 2
    visible += view.discard_pile
    if view.tiplu is not None:
        visible.append(view.tiplu)
    return take_out(pool, visible)


def known_cards(view: MarriageTypedView) -> list[list[int]]:
    """Per seat, the cards that seat is known to hold (discards it took and kept)."""
    n = len(view.seats)
    known = [[0] * 52 for _ in range(n)]
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
        elif verb in _VERBS_OUT:
            for c in cards * (3 if verb == "expose" and len(cards) == 1 else 1):
                if mine[c]:
                    mine[c] -= 1
    for s, row in enumerate(view.seats):
        if sum(known[s]) > row.hand_size:
            known[s] = [0] * 52
    return known


def _tiplu_for(
    rest: list[Card],
    laid: Sequence[Sequence[Card]],
    rules: MarriageRules,
    hands: list[list[int]],
    dealt: Callable[[], list[list[int]]],
    rng: random.Random,
) -> Card:
    """Take out of ``rest`` (in random order) the last card that, as the tiplu, leaves
    every meld ``laid`` on the table valid (M-4, M-7, M-10): a seen player's melds may
    hold wild cards, so they tell which tiplus are possible. The last such card of a
    random order is uniform among them.

    The tiplu is out of play (M-7), so a possible one is always among the unseen cards,
    but the hands may have been dealt every copy of it: then a copy ``dealt()`` to a hand
    (per seat, the copies of each kind dealt there, not known to be held) becomes the
    tiplu and that hand takes a random card of ``rest`` instead. A sample with an
    impossible tiplu has table melds no deal gives, and the Indian finish search crashed
    on one (IndexError in ``solver_indian._groups``, simulate seed 25010). With no
    possible card at all (a view no deal gives): the last card."""

    def valid(c: int) -> bool:
        wilds = wild_kinds(CARDS[c])
        return all(is_meld(m, rules, wilds) for m in laid)

    for i in range(len(rest) - 1, -1, -1):
        if valid(rest[i]):
            return rest.pop(i)
    if not rest:
        return rest.pop()  # no stock: a view no deal gives (as before)
    free = dealt()
    spots = [
        (s, c)
        for s, row in enumerate(free)
        for c, n in enumerate(row)
        if n > 0 and valid(c)
        for _ in range(n)
    ]
    if not spots:
        return rest.pop()
    s, c = spots[rng.randrange(len(spots))]
    hands[s][c] -= 1
    hands[s][rest.pop(rng.randrange(len(rest)))] += 1
    return CARDS[c]


def sample_state(
    view: TypedView | GameView,
    rng: random.Random,
    weights: Sequence[Sequence[float]] | None = None,
) -> MarriageState:
    """A full deal consistent with ``view`` (hidden cards dealt at random by ``rng``).

    ``weights[s][c]`` (optional, from ``rami.bots.opponent_model``) makes card kind ``c``
    that much more likely in seat ``s``'s hand than in the stock.
    """
    typed = marriage_typed(view)  # InputError for another game's view
    seat = typed.seat
    to_move = typed.to_move
    if seat is None or to_move is None:
        raise InputError("sample_state needs a seat's view of a deal in play")
    rules = typed.rules
    seats = typed.seats

    def build(hidden: list[list[int]], left: list[int]) -> MarriageState:
        hands = [counts(cards) for cards in hidden]
        for own in typed.hand or ():
            hands[seat][own] += 1
        rest = [CARDS[c] for c in left]
        melds = [list(s.melds) for s in seats]
        tiplu: Card | None = typed.tiplu
        picked = typed.tiplu_picked
        if picked and tiplu is None:
            laid = [m for row in melds for m in row]
            laid += typed.turn_start_melds or ()  # the mover's table as the turn found it

            def dealt() -> list[list[int]]:
                known = known_cards(typed)
                return [
                    [0] * 52 if s == seat else [max(0, hand[c] - known[s][c]) for c in range(52)]
                    for s, hand in enumerate(hands)
                ]

            tiplu = _tiplu_for(rest, laid, rules, hands, dealt, rng)
        if len(rest) != typed.stock_size:
            raise InputError("the view's card counts do not add up to the decks")
        history = typed.history
        moves = [e["move"] for e in history if "move" in e]
        taken_card = typed.taken
        path = [s.path for s in seats]
        seen = [s.seen for s in seats]
        # M-5: a seen dublee player who took a discard must finish; one who took it before
        # showing in the same turn need not. Only finishes are offered in the first case.
        legal = typed.legal
        must_finish = (
            taken_card is not None
            and seen[to_move]
            and path[to_move] == DUBLEES_PATH
            and bool(legal)
            and all(a.kind == "finish" for a in legal)
        )
        base = typed.turn_start_melds
        return MarriageState.from_position(
            rules,
            rng.getrandbits(48),
            typed.dealer,
            hands=hands,
            sizes=[s.hand_size for s in seats],
            melds=melds,
            exposed=[list(s.exposed_tunnelas) for s in seats],
            dublees=[list(s.dublees) for s in seats],
            seen=seen,
            path=path,
            stock=rest,
            pile=[int(c) for c in typed.discard_pile],
            tiplu=tiplu if picked else None,
            tiplu_picked=picked,
            phase=Phase(typed.phase),
            to_move=to_move,
            passes=sum(1 for m in moves if m == "pass"),
            taken=taken_card,
            must_finish=must_finish,
            turn=typed.turn,
            recycles=sum(1 for e in history if e.get("news") == "restock"),  # M-11
            actions=moves,
            turn_start=None if base is None else list(base),
        )

    return determinize(
        typed, rng, weights, unseen=unseen_cards, known=known_cards, build=build, what="decks"
    )
