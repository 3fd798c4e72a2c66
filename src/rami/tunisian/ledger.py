"""The Tunisian rami ledger (T-10, T-12, T-13) on the N-2 calculator.

A deal entry names the winner (or null, T-11) and, per player in seat order, whether
they opened and either the cards left in hand (``"hand": ["JK", "K♠"]``) or their
points as a number (``"points": 37``). A deal given by cards is scored by
``rami.tunisian.calculator.score`` itself, with the totals before it; a number is
checked against what a hand can hold and added by the engine's ``apply_totals``.
Players already out are skipped (their entry may be null). Once the game is over
(701 / 1001), no deal may follow.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from rami.cards import CARDS, CardError
from rami.errors import InputError
from rami.ledger.common import check_keys, deals_of, names_of, seat_of, whole
from rami.tunisian import calculator
from rami.tunisian.rules import TunisianRules, rules_from
from rami.tunisian.settle import apply_totals, card_points, teams_of

__all__ = ["ledger", "points_range"]

_LEDGER_KEYS = {"game", "mode", "players", "first_dealer", "deals", "title"}
_DEAL_KEYS = {"winner", "players"}
_ENTRY_KEYS = {"opened", "hand", "points"}


@lru_cache(maxsize=16)
def points_range(rules: TunisianRules) -> tuple[int, int]:
    """The fewest and most points an opened player's cards left can be worth (T-5,
    T-10): one lowest card, or a full hand of the highest cards the decks hold."""
    values = sorted(
        [card_points(c, rules) for c in CARDS[:52] for _ in range(rules.decks)]
        + [card_points(CARDS[52], rules)] * rules.jokers
    )
    return values[0], sum(values[-(rules.hand_size + 1) :])


def _next_dealer(dealer: int, out: Sequence[bool]) -> int:
    """T-12: the next player still in the game, counter-clockwise."""
    n = len(out)
    s = dealer
    for _ in range(n):
        s = (s - 1) % n
        if not out[s]:
            return s
    return dealer


def _deal(
    entry: object,
    names: list[str],
    mode: object,
    rules: TunisianRules,
    totals: list[int],
    out: list[bool],
) -> dict[str, Any]:
    if not isinstance(entry, Mapping):
        raise InputError("a deal must be an object with 'winner' and 'players'")
    check_keys(entry, _DEAL_KEYS, ("players",), "the deal")
    rows = entry["players"]
    if not isinstance(rows, list) or len(rows) != len(names):
        raise InputError(f"'players' must hold one entry per player ({len(names)}), in seat order")
    winner_value = entry.get("winner")
    winner = None if winner_value is None else seat_of(winner_value, names, "the winner")
    docs: list[dict[str, object]] = []
    numbers: list[int | None] = []
    low, high = points_range(rules)
    for seat, row in enumerate(rows):
        who = f"player {names[seat]}"
        if out[seat]:
            docs.append({"name": names[seat], "hand": [], "opened": False})
            numbers.append(None)
            continue
        if not isinstance(row, Mapping):
            raise InputError(f'{who} must be an object such as {{"opened": true, "points": 12}}')
        check_keys(row, _ENTRY_KEYS, (), who)
        opened = row.get("opened", seat == winner)
        if not isinstance(opened, bool):
            raise InputError(f"{who}: opened must be true or false")
        number = None
        if row.get("points") is not None:
            if row.get("hand"):
                raise InputError(f"{who}: give the points or the cards left, not both")
            number = whole(row["points"], f"{who}: the points")
            if seat == winner:
                if number:
                    raise InputError(f"{who} went out and scores 0, not {number} (T-10)")
                number = None
            elif not opened:
                if number != rules.unopened_penalty:
                    raise InputError(
                        f"{who} has not opened and scores {rules.unopened_penalty}, not {number}"
                    )
                number = None
            elif not low <= number <= high:
                raise InputError(
                    f"{who}: the cards left of an opened player are worth {low} to {high},"
                    f" not {number}"
                )
        numbers.append(number)
        hand = row.get("hand", [])
        # a number stands for the hand: the calculator checks the rest of the deal
        docs.append(
            {
                "name": names[seat],
                "hand": [] if number is not None else hand,
                "opened": False if number is not None else opened,
            }
        )
    doc = {
        "mode": mode,
        "players": docs,
        "winner": None if winner is None else names[winner],
        "totals_before": dict(zip(names, totals, strict=True)),
    }
    result = calculator.score(doc)
    if all(n is None for n in numbers):
        return result
    given = zip(result["players"], numbers, strict=True)
    points = [p["points"] if n is None else n for p, n in given]
    new, eliminated, over, winners = apply_totals(totals, points, out, rules)
    fixed: dict[str, object] = {
        "players": [
            {"name": n, "points": p, "total": t, "eliminated": e}
            for n, p, t, e in zip(names, points, new, eliminated, strict=True)
        ],
        "teams": None,
        "game_over": over,
        "game_winner": "+".join(names[s] for s in winners) if winners else None,
    }
    if rules.teams:
        fixed["teams"] = [
            {
                "players": [names[s] for s in team],
                "total": sum(new[s] for s in team),
                "eliminated": eliminated[team[0]],
            }
            for team in teams_of(len(names))
        ]
    return fixed


def ledger(doc: Mapping[str, object]) -> dict[str, object]:
    """The whole Tunisian game: each deal's points, running totals, who is out, the winner."""
    check_keys(doc, _LEDGER_KEYS, ("players",), "the ledger")
    mode = doc.get("mode", "1v1")
    if not isinstance(mode, str | Mapping):
        raise InputError("'mode' must be 1v1, ffa or 2v2")
    rules = rules_from(mode if mode else "1v1")
    names = names_of(doc["players"], (rules.players,))
    dealer = seat_of(doc.get("first_dealer", 0), names, "first_dealer")
    totals = [0] * len(names)
    out = [False] * len(names)
    over = False
    game_winner: str | None = None
    deals: list[dict[str, object]] = []
    for number, entry in enumerate(deals_of(doc), start=1):
        where = f"deal {number}"
        if over:
            raise InputError(f"{where}: the game was over after deal {number - 1}")
        try:
            result = _deal(entry, names, mode, rules, totals, out)
        except (InputError, CardError) as err:
            raise type(err)(f"{where}: {err}") from None
        totals = [p["total"] for p in result["players"]]
        out = [p["eliminated"] for p in result["players"]]
        over = bool(result["game_over"])
        game_winner = result["game_winner"]
        deals.append({"number": number, "dealer": names[dealer], "result": result})
        if not over:
            dealer = _next_dealer(dealer, out)
    teams = None
    if rules.teams:
        teams = [
            {"players": [names[s] for s in team], "total": sum(totals[s] for s in team)}
            for team in teams_of(len(names))
        ]
    return {
        "game": "tunisian",
        "mode": rules.mode,
        "rules": rules.to_json(),
        "players": names,
        "deals": deals,
        "totals": totals,
        "teams": teams,
        "eliminated": out,
        "limit": rules.team_elimination if rules.teams else rules.elimination,
        "game_over": over,
        "game_winner": game_winner,
        "next_dealer": None if over else names[dealer],
    }
