"""The conditions several Marriage verbs share, each stated once (``rami.marriage.verbs``).

Which phase a verb belongs to (M-3, M-5), a show to complete first (M-6), the cards a
seat holds, the tiplu to pick (M-7), the discard taken this turn (M-5), melding on the
table (M-10), and the finish search from the turn's start (M-8, M-9, M-10): read by a
verb's listing (``options``) and its judgement (``problem``) alike. The show and table
steps come from ``rami.marriage.meld_options``, the finishes from ``rami.marriage.solver``.

They read and, for the caches only (``show_ub``, the turn found unable to finish), write
the deal's table state: they are part of the game's engine, as the deal's methods were.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rami.cards import CARDS, Card
from rami.engine import Action
from rami.errors import Reason
from rami.marriage.meld_options import meld_steps
from rami.marriage.phases import Phase
from rami.marriage.rules import MarriageRules
from rami.marriage.solver import Finish, find_finish, finish_discards
from rami.runs import RUN_KINDS, positions, three_windows

if TYPE_CHECKING:
    from rami.marriage.game import MarriageState

__all__ = [
    "DUBLEES_PATH",
    "MELDS_PATH",
    "SHOW_MELDS",
    "discard_problem",
    "free_play_problem",
    "holding_problem",
    "joins_show_meld",
    "phase_problem",
    "play_finishes",
    "seat_finish",
    "seat_finishes",
    "showing_problem",
    "spare",
    "table_problem",
    "table_steps",
    "take_problem",
    "tiplu_problem",
    "turn_start",
    "without",
]

EXPOSE_PHASE = Phase.EXPOSE
DRAW_PHASE = Phase.DRAW
PLAY_PHASE = Phase.PLAY

MELDS_PATH = "melds"
DUBLEES_PATH = "dublees"
SHOW_MELDS = 3  # M-6


def spare(deal: MarriageState, s: int, rest: list[int], removed: int) -> int:
    """Cards of ``rest`` that could still be discarded this turn."""
    n = deal._sizes[s] - removed
    if deal._taken is not None:
        n -= rest[deal._taken]
    return n


def table_steps(deal: MarriageState, s: int) -> list[Action]:
    """Indian table melding (M-10): a short canonical list of melds and additions
    (``rami.marriage.meld_options``); ``apply`` accepts any valid meld."""
    return meld_steps(
        deal._hands[s],
        deal.rules,
        deal._wilds,
        deal._sizes[s],
        deal._taken,
        deal._melds[s],
        deal._add_facts,
    )


def play_finishes(deal: MarriageState, s: int) -> list[Card]:
    """``seat_finishes`` for the seen seat ``s`` in free play, searched once a turn
    when it finds nothing.

    Within a turn a seen seat's holding changes only by melds and additions laid on
    its own table (M-10), and the search starts from the turn's start whatever was
    laid (``turn_start``: ``takeback`` is a step of every route). So once a turn's
    search found no finishing discard, none appears later in that turn.
    """
    if deal._no_finish_turn == deal._turn:
        return []
    found = seat_finishes(deal, s)
    if not found:
        deal._no_finish_turn = deal._turn
    return found


def turn_start(deal: MarriageState, s: int) -> tuple[list[int], list[tuple[Card, ...]]]:
    """The hand and the table melds of ``s`` before this turn's melds and additions.

    M-10: a finish is legal exactly when a route of this turn's steps reaches it, and
    ``takeback`` (picking up this turn's laid cards) is one of them, so an Indian
    finish is searched from here, whatever was laid this turn."""
    if deal._base is None:
        return deal._hands[s], deal._melds[s]
    hand = deal._hands[s][:]
    for c in deal._laid:
        hand[c] += 1
    return hand, deal._base


def seat_finishes(deal: MarriageState, s: int) -> list[Card]:
    """Discards with which ``s`` (seen, after drawing) can finish now (M-8, M-9, M-10)."""
    path = deal._path[s] or MELDS_PATH
    if deal.rules.table_melding:
        hand, table = turn_start(deal, s)
        return finish_discards(hand, deal.rules, deal._wilds, len(table), path, table)
    return finish_discards(deal._hands[s], deal.rules, deal._wilds, deal.shown_count(s), path)


def seat_finish(deal: MarriageState, s: int, discard: Card) -> Finish | None:
    path = deal._path[s] or MELDS_PATH
    if deal.rules.table_melding:
        hand, table = turn_start(deal, s)
        return find_finish(hand, deal.rules, deal._wilds, len(table), path, discard, table)
    return find_finish(deal._hands[s], deal.rules, deal._wilds, deal.shown_count(s), path, discard)


def phase_problem(deal: MarriageState, phase: Phase) -> Reason | None:
    """Why the deal is not in ``phase`` now, in the player's terms (M-3, M-5)."""
    if deal._phase == phase:
        return None
    if deal._phase == EXPOSE_PHASE:
        return Reason(
            "tunnelas exposed at the deal come first: expose one or 'pass' (M-3)",
            key="expose_first",
        )
    if phase == EXPOSE_PHASE:
        return Reason(
            "tunnelas may be exposed only right after the deal (M-3)", key="expose_after_deal"
        )
    if phase == DRAW_PHASE:
        return Reason("you have already drawn this turn", key="drawn_already")
    return Reason(
        "you must draw first: 'draw' from the stock or 'take' the discard (M-5)",
        "M-5",
        "draw_first",
    )


def free_play_problem(deal: MarriageState, finishing: bool = False) -> Reason | None:
    """Play phase, and not in the middle of something that must be completed first."""
    problem = phase_problem(deal, PLAY_PHASE)
    if problem is None and deal._must_finish and not finishing:
        return Reason(
            "you took a discard to complete your eighth dublee: you must finish this turn",
            key="must_finish",
        )
    return problem


def holding_problem(deal: MarriageState, s: int, cards: Sequence[Card]) -> Reason | None:
    """Whether ``s`` holds all of ``cards`` (copies counted)."""
    hand = deal._hands[s]
    for c in dict.fromkeys(cards):  # in the order named
        want = cards.count(c)
        if hand[c] < want:
            return Reason(
                f"you do not hold {c}" if hand[c] == 0 else f"you hold only {hand[c]} × {c}",
                key="not_held",
            )
    return None


def without(deal: MarriageState, s: int, cards: Sequence[Card]) -> list[int]:
    """The hand of ``s`` less ``cards`` (held: checked first)."""
    rest = deal._hands[s][:]
    for c in cards:
        rest[c] -= 1
    return rest


def tiplu_problem(deal: MarriageState) -> Reason | None:
    """Decision: the first show needs a stock card to become the tiplu (M-7)."""
    if deal._tiplu is None and not deal._stock:
        return Reason(
            "the stock is empty, so no card can be picked as the tiplu: show on a later turn",
            key="tiplu_stock_empty",
        )
    return None


def showing_problem(deal: MarriageState, s: int) -> Reason | None:
    """M-6: a started show must be completed in the same turn before the turn ends."""
    if not deal.showing(s):
        return None
    done = deal.shown_count(s)
    need = deal.show_dublees if deal._path[s] == DUBLEES_PATH else SHOW_MELDS
    return Reason(
        f"complete your show first ({done} of {need} shown): a started show must be "
        "completed in the same turn (M-6)",
        key="complete_show",
    )


def discard_problem(
    deal: MarriageState, s: int, c: Card, hand: list[int] | None = None
) -> Reason | None:
    """Whether ``s`` may let ``c`` go now (discard or finish; ``hand``: the one it
    comes from, by default the hand): M-5, M-6."""
    problem = showing_problem(deal, s)
    if problem is not None:
        return problem
    if (deal._hands[s] if hand is None else hand)[c] == 0:
        return Reason(f"you do not hold {c}", key="not_held")
    if c == deal._taken:
        return Reason(
            f"you took {c} from the discard pile and cannot discard it this turn (M-5)",
            "M-5",
            "taken_discard",
        )
    return None


def take_problem(deal: MarriageState, s: int) -> Reason | None:
    """Why ``s`` may not take the latest discard now, or ``None`` (M-5)."""
    if not deal._pile:
        return Reason("the discard pile is empty", key="pile_empty")
    c = deal._pile[-1]
    if deal._hands[s][c] == deal._sizes[s]:
        # Only copies of the taken card would be left to discard (Indian hands
        # shrink as they meld): taking it would leave no legal end to the turn.
        return Reason(
            f"you could discard nothing but {CARDS[c]} after taking it (M-5)",
            key="take_leaves_nothing",
        )
    if not deal._seen[s]:
        return None
    if c in deal._wilds and not deal.rules.seen_may_take_wild_discard:
        return Reason(
            "seen players may not take a wild card from the discard pile", key="seen_no_wild"
        )
    if deal._path[s] == DUBLEES_PATH:
        hand = deal._hands[s][:]
        hand[c] += 1
        path_ok = any(
            d != c
            for d in finish_discards(
                hand, deal.rules, deal._wilds, len(deal._dublees[s]), DUBLEES_PATH
            )
        )
        if not path_ok:
            return Reason(
                "on the dublee path you may take a discard only to complete your "
                "eighth dublee and finish this turn",
                key="dublee_take",
            )
    return None


def table_problem(deal: MarriageState) -> Reason | None:
    """M-10: melding on the table, for a seen seat in free play (Indian rules)."""
    if not deal.rules.table_melding:
        return Reason(
            "melding on the table is an Indian Marriage rule (M-10)", key="no_table_melding"
        )
    problem = free_play_problem(deal)
    if problem is None and not deal._seen[deal._to_move]:
        return Reason(
            "you must show three pure melds and see the tiplu before melding (M-10)",
            key="meld_after_seeing",
        )
    return problem


def _run_windows(c: int) -> tuple[tuple[int, int, int], ...]:
    """The card kinds of every three-card run of ``c``'s suit that holds ``c`` (the ace
    at both ends)."""
    suit, r = divmod(c, 13)
    kinds = RUN_KINDS[suit]
    return tuple(
        (kinds[lo], kinds[mid], kinds[hi]) for p in positions(r) for lo, mid, hi in three_windows(p)
    )


_RUN_WINDOWS = tuple(_run_windows(c) for c in range(52))


def joins_show_meld(hand: Sequence[int], c: int, rules: MarriageRules) -> bool:
    """Whether card ``c`` (already in ``hand``) is part of some show meld there (M-6)."""
    for a, b, d in _RUN_WINDOWS[c]:
        if hand[a] and hand[b] and hand[d]:
            return True
    if rules.show_kinds == "sequence+tunnela":
        return hand[c] >= 3
    r = c % 13
    return sum(1 for t in range(4) if hand[t * 13 + r]) >= 3
