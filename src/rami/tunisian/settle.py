"""Deal scoring (T-10) and elimination (T-13) for Tunisian rami.

Points are bad: they add up over the deals, and a player (or, in 2v2, a team) whose
total reaches the limit is out. The engine and the N-2 calculator both score through
these functions, so a paper ledger and a played deal give the same numbers.

>>> from rami.tunisian.rules import rules_from
>>> hand_points([52, 0, 12], rules_from("1v1"))  # JK A♠ K♠
70
"""

from __future__ import annotations

from collections.abc import Sequence

from rami.cards import JOKER
from rami.tunisian.rules import TunisianRules

__all__ = ["apply_totals", "card_points", "deal_points", "hand_points", "teams_of"]


def card_points(card: int, rules: TunisianRules) -> int:
    """T-5 value of one card left in hand: joker ``joker_in_hand``, ace ``ace_in_hand``."""
    if card == JOKER:
        return rules.joker_in_hand
    rank = card % 13 + 1
    if rank == 1:
        return rules.ace_in_hand
    return min(rank, 10)


def hand_points(cards: Sequence[int], rules: TunisianRules) -> int:
    """T-10: the value of the cards left in a hand."""
    return sum(card_points(c, rules) for c in cards)


def deal_points(
    hands: Sequence[Sequence[int]],
    opened: Sequence[bool],
    winner: int | None,
    rules: TunisianRules,
) -> list[int]:
    """T-10 points of a deal per seat: the winner 0, an opened player the cards left in
    hand, an unopened player ``unopened_penalty``. With no winner (T-11) everyone is
    scored the same way and nobody gets 0 for winning.
    """
    if len(hands) != len(opened):
        raise ValueError("one hand and one opened flag per seat")
    points: list[int] = []
    for seat, (hand, has_opened) in enumerate(zip(hands, opened, strict=True)):
        if seat == winner:
            points.append(0)
        elif has_opened:
            points.append(hand_points(hand, rules))
        else:
            points.append(rules.unopened_penalty)
    return points


def teams_of(players: int) -> list[list[int]]:
    """The 2v2 teams by seat: partners sit opposite (T-1)."""
    return [list(range(t, players, 2)) for t in range(2)]


def apply_totals(
    totals_before: Sequence[int],
    points: Sequence[int],
    eliminated_before: Sequence[bool],
    rules: TunisianRules,
) -> tuple[list[int], list[bool], bool, list[int] | None]:
    """Add a deal's points and apply T-13.

    Returns the new totals, the eliminated flags, whether the game is over and the
    winning seats (``None`` while it goes on). ``1v1``/``ffa``: a player reaching
    ``elimination`` is out; the last one left wins. ``2v2``: a team whose summed total
    reaches ``team_elimination`` loses, and the other team's two seats win. If a deal
    would leave nobody, the lowest total among those out in that deal wins; equal
    lowest totals share the win (all their seats are returned). Seats already out
    score nothing more.
    """
    n = len(totals_before)
    if len(points) != n or len(eliminated_before) != n:
        raise ValueError("one total, one score and one eliminated flag per seat")
    totals = [
        t if out else t + p
        for t, p, out in zip(totals_before, points, eliminated_before, strict=True)
    ]
    if rules.teams:
        teams = teams_of(n)
        team_totals = [sum(totals[s] for s in team) for team in teams]
        losing = [tt >= rules.team_elimination for tt in team_totals]
        eliminated = [losing[s % 2] for s in range(n)]
        if not any(losing):
            return totals, eliminated, False, None
        if all(losing):
            low = min(team_totals)
            winners = [s for t, team in enumerate(teams) if team_totals[t] == low for s in team]
        else:
            winners = teams[losing.index(False)]
        return totals, eliminated, True, sorted(winners)
    eliminated = [
        out or total >= rules.elimination
        for total, out in zip(totals, eliminated_before, strict=True)
    ]
    left = [s for s in range(n) if not eliminated[s]]
    if len(left) >= 2:
        return totals, eliminated, False, None
    if len(left) == 1:
        return totals, eliminated, True, left
    newly = [s for s in range(n) if not eliminated_before[s]] or list(range(n))
    low = min(totals[s] for s in newly)
    return totals, eliminated, True, [s for s in newly if totals[s] == low]
