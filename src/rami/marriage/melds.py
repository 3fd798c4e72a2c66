"""Marriage melds (M-4), show melds (M-6) and the wild cards of a tiplu (Terms).

A meld is checked on its cards (kind indices); the wild cards are passed in as a set
of kinds, so an unseen player (no wild cards) and a seen one use the same code.

Positions: a rank is its own position, the ace is 1 (low) or 14 (high), never both in
one sequence, so sequences never wrap (K-A-2 is not a sequence). Only the tiplu's
neighbours wrap (tiplu K → poplu A; tiplu A → jhiplu K).
"""

from __future__ import annotations

# rami: compiled with mypyc in the accelerated build
from collections.abc import Iterable, Sequence

from rami.cards import CARDS, Card
from rami.marriage.rules import MarriageRules
from rami.runs import run_span

__all__ = [
    "MAX_SEQUENCE",
    "MAX_TRIAL",
    "is_meld",
    "is_pure_meld",
    "is_show_meld",
    "jhiplu",
    "poplu",
    "seq_span",
    "wild_kinds",
]

MAX_SEQUENCE = 13  # a sequence holds each rank once: A … K or 2 … A at most
MAX_TRIAL = 4  # one card per suit


def jhiplu(tiplu: Card) -> Card:
    """The card one rank below the tiplu in its suit (tiplu A → jhiplu K)."""
    return CARDS[tiplu // 13 * 13 + (tiplu % 13 - 1) % 13]


def poplu(tiplu: Card) -> Card:
    """The card one rank above the tiplu in its suit (tiplu K → poplu A)."""
    return CARDS[tiplu // 13 * 13 + (tiplu % 13 + 1) % 13]


def wild_kinds(tiplu: Card | None) -> frozenset[int]:
    """The wild kinds once ``tiplu`` is known: its rank in every suit, jhiplu, poplu.

    ``None`` (a player who has not seen) has no wild cards.
    """
    if tiplu is None:
        return frozenset()
    rank0 = tiplu % 13
    return frozenset({s * 13 + rank0 for s in range(4)} | {jhiplu(tiplu), poplu(tiplu)})


def seq_span(cards: Iterable[int]) -> int | None:
    """The shortest window (in ranks) holding these cards of one suit as a sequence.

    ``None`` when they cannot be in one sequence: two suits, or a rank twice. An empty
    set has span 0. The ace is placed low or high, whichever is shorter.
    """
    ranks: list[int] = []
    suit = -1
    for c in cards:
        if suit == -1:
            suit = c // 13
        elif c // 13 != suit:
            return None
        ranks.append(c % 13 + 1)
    if not ranks:
        return 0
    if len(set(ranks)) != len(ranks):
        return None
    return run_span(ranks)


def trial_ok(cards: Sequence[int]) -> bool:
    """Same rank, all suits different (at most four cards)."""
    if not cards:
        return True
    rank = cards[0] % 13
    suits = {c // 13 for c in cards}
    return all(c % 13 == rank for c in cards) and len(suits) == len(cards)


def _size_ok(n: int, rules: MarriageRules) -> bool:
    return n >= 3 if rules.melds_at_least3 else n == 3


def _is_pure_sequence(cards: Sequence[int]) -> bool:
    span = seq_span(cards)
    return span is not None and span == len(cards) and 3 <= span <= MAX_SEQUENCE


def _is_tunnela(cards: Sequence[int]) -> bool:
    return len(cards) == 3 and cards[0] == cards[1] == cards[2]


def _is_pure_trial(cards: Sequence[int]) -> bool:
    return 3 <= len(cards) <= MAX_TRIAL and trial_ok(cards)


def is_pure_meld(cards: Sequence[int], rules: MarriageRules) -> bool:
    """A natural meld (no card used as wild): sequence, tunnela (if allowed) or trial.

    Wild cards used as themselves are natural here. ``indian`` counts these to keep
    three pure melds on the table (M-6).
    """
    if not _size_ok(len(cards), rules):
        return False
    if _is_pure_sequence(cards) or _is_pure_trial(cards):
        return True
    return rules.tunnela_melds and _is_tunnela(cards)


def is_show_meld(cards: Sequence[int], rules: MarriageRules) -> bool:
    """A meld that may be shown to see the tiplu (M-6), by card identity, no wilds.

    ``sequence+tunnela`` (``nepali``): pure sequence or tunnela; ``sequence+trial``
    (``indian``): pure sequence or pure trial. Size 3, or 3+ with ``at_least3``.
    """
    if not _size_ok(len(cards), rules):
        return False
    if _is_pure_sequence(cards):
        return True
    if rules.show_kinds == "sequence+tunnela":
        return _is_tunnela(cards)
    return _is_pure_trial(cards)


def pair_compatible(a: int, b: int) -> bool:
    """Two natural cards that one more card turns into a three-card sequence or trial."""
    if a % 13 == b % 13:
        return a // 13 != b // 13
    if a // 13 != b // 13:
        return False
    span = seq_span((a, b))
    return span is not None and span <= 3


def is_meld(cards: Sequence[int], rules: MarriageRules, wilds: frozenset[int]) -> bool:
    """A valid meld (M-4) for a player whose wild kinds are ``wilds``.

    ``exactly3``: three cards, pure, or dirty with at least one natural card, which
    makes any three cards of which two are wild a meld. ``at_least3``: three or more
    cards, any number of wilds (all-wild melds too), trials up to four. Two identical
    cards and a wild card are never a meld; a wild card may always be itself.
    """
    n = len(cards)
    if not _size_ok(n, rules):
        return False
    if is_pure_meld(cards, rules):
        return True
    naturals = [c for c in cards if c not in wilds]
    wild_count = n - len(naturals)
    if wild_count == 0:
        return False
    if not rules.melds_at_least3:
        if wild_count >= 2:
            return True
        return pair_compatible(naturals[0], naturals[1])
    # at_least3: a wild card may stand for anything, so the naturals decide.
    if n <= MAX_TRIAL and trial_ok(naturals):
        return True
    span = seq_span(naturals)
    return span is not None and span <= n <= MAX_SEQUENCE
