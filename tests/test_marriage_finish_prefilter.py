"""The quick no of the ``indian`` finish check (``_too_many_loners``) never says no wrongly.

It runs before every finish search (M-8, M-10): cards that no table meld can take and
that no natural meld of the hand holds need wild cards, and too few wild cards means
no finish. Checked against a brute force that tries every way to lay the cards down
(purity ignored, so the check is the stronger one), on random small holdings beside
random table melds, dirty ones included, and on positions of seeded random play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from rami.cards import CARDS, counts
from rami.marriage.game import new_deal
from rami.marriage.melds import is_meld, wild_kinds
from rami.marriage.rules import INDIAN
from rami.marriage.solver_indian import _too_many_loners, indian_discards_plain


def brute_lay_down(
    cards: Sequence[int], table: Sequence[Sequence[int]], wilds: frozenset[int]
) -> bool:
    """Every way to add each card to a table meld or to a new meld, all valid at the end."""

    @cache
    def go(rest: tuple[int, ...], olds: tuple[tuple[int, ...], ...], news: tuple) -> bool:  # type: ignore[type-arg]
        if not rest:
            return all(is_meld(g, INDIAN, wilds) for g in (*olds, *news))
        c, more = rest[0], rest[1:]
        for i, g in enumerate(olds):
            if go(more, (*olds[:i], tuple(sorted((*g, c))), *olds[i + 1 :]), news):
                return True
        for i, g in enumerate(news):
            grown = tuple(sorted((*g, c)))
            if go(more, olds, tuple(sorted((*news[:i], grown, *news[i + 1 :])))):
                return True
        return go(more, olds, tuple(sorted((*news, (c,)))))

    return go(tuple(sorted(cards)), tuple(tuple(sorted(g)) for g in table), ())


def random_meld(rng: random.Random, wl: Sequence[int]) -> list[int]:
    """A valid meld, dirty (wild cards standing in) half of the time."""
    while True:
        s = rng.randrange(4)
        if rng.random() < 0.6:
            length = rng.choice([3, 3, 4, 5])
            start = rng.randrange(1, 15 - length + 1)
            cards = [s * 13 + (p - 1) % 13 for p in range(start, start + length)]
        else:
            rank = rng.randrange(13)
            cards = [t * 13 + rank for t in rng.sample(range(4), rng.choice([3, 4]))]
        if rng.random() < 0.5:
            cards[rng.randrange(len(cards))] = rng.choice(wl)
        if is_meld(cards, INDIAN, frozenset(wl)):
            return cards


def test_M8_M10_quick_no_matches_the_brute_force_on_random_holdings() -> None:
    rng = random.Random(1212)
    said_no = 0
    for _ in range(400):
        tiplu = CARDS[rng.randrange(52)]
        wilds = wild_kinds(tiplu)
        wl = sorted(wilds)
        table = [random_meld(rng, wl) for _ in range(rng.randint(0, 3))]
        suits = rng.sample(range(4), 2)
        cards = [rng.choice(wl) for _ in range(rng.choice([0, 0, 1, 2]))]
        while len(cards) < rng.randint(3, 7):
            s = suits[0] if rng.random() < 0.7 else suits[1]
            cards.append(s * 13 + rng.randrange(13))
        v = counts(cards)
        if not _too_many_loners(v, wilds, 1, table):
            continue
        said_no += 1
        for d in set(cards):
            rest = list(cards)
            rest.remove(d)
            assert not brute_lay_down(rest, table, wilds), (cards, table, str(tiplu), d)
    assert said_no > 50  # the check is exercised


def test_M8_M10_quick_no_agrees_with_one_finish_per_discard_in_play() -> None:
    said_no = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = new_deal({"preset": "indian", "max_turns": 400}, 4, seed, dealer=seed % 4)
        while not state.is_over:
            s = state.current
            hand = state.hands[s]
            table = state.melds[s]
            small = state.seen[s] and table and sum(hand) <= 8
            if small and _too_many_loners(hand, state.wilds, 1, table):
                said_no += 1
                assert indian_discards_plain(hand, INDIAN, state.wilds, table) == []
            state.apply(rng.choice(state.legal_actions()))
    assert said_no > 20
