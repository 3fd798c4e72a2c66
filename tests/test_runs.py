"""The one ace-low/high run helper (``rami.runs``) both games' melds rest on (M-4, T-4)."""

from __future__ import annotations

import itertools

from rami.runs import (
    ACE_HIGH_THREE,
    NEAR_ABOVE,
    POSITIONS,
    RUN_KINDS,
    kind_at,
    positions,
    rank_index_at,
    run_span,
    three_windows,
)


def test_the_ace_stands_low_and_high_every_other_rank_once() -> None:
    """M-4, T-4: A-2-3 and Q-K-A are runs; K-A-2 is not (no wrap-round)."""
    assert positions(0) == (1, 14)
    assert [positions(r) for r in range(1, 13)] == [(r + 1,) for r in range(1, 13)]
    assert POSITIONS[0] == (1, 14)
    assert [rank_index_at(p) for p in range(1, 15)] == [*range(13), 0]
    for suit, p in itertools.product(range(4), range(1, 15)):
        assert kind_at(suit, p) == RUN_KINDS[suit][p] == suit * 13 + (p - 1) % 13
    assert three_windows(1) == ((1, 2, 3),)
    assert three_windows(14) == ((12, 13, 14),)
    assert three_windows(13) == ((11, 12, 13), (12, 13, 14))
    assert all(13 not in w or 1 not in w for p in range(1, 15) for w in three_windows(p))


def test_near_partners_and_the_ace_high_three() -> None:
    """Cards one or two ranks up join a run with one gap; the ace also with Q and K."""
    assert ACE_HIGH_THREE == (0, 11, 12)
    assert NEAR_ABOVE[0] == (1, 2, 11, 12)
    assert NEAR_ABOVE[5] == (6, 7)
    assert NEAR_ABOVE[11] == (12,)
    assert NEAR_ABOVE[12] == ()


def test_run_span_places_the_ace_where_the_window_is_shortest() -> None:
    """The span of a set of ranks is the shortest window holding them, ace low or high."""
    assert run_span([]) == 0
    assert run_span([1, 2, 3]) == 3
    assert run_span([12, 13, 1]) == 3
    assert run_span([13, 1, 2]) == 13  # no wrap-round: A … K, or 2 … A high
    for ranks in itertools.combinations(range(1, 14), 3):
        brute = min(
            max(pos) - min(pos) + 1 for pos in itertools.product(*(positions(r - 1) for r in ranks))
        )
        assert run_span(ranks) == brute
