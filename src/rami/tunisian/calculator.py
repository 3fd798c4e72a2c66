"""The N-2 scoring calculator and N-3 hand analysis for Tunisian rami.

``score`` reads a finished deal as it lay on a real table and returns the points, the
new totals and who is out, with the same functions the engine uses at the end of a
played deal (``rami.tunisian.settle``). ``analyze`` finds the best opening a hand
holds. Both check their input strictly and raise ``InputError`` or ``CardError`` with
one line that says what is wrong.

>>> doc = {"mode": "1v1", "winner": "A",
...        "players": [{"name": "A", "hand": [], "opened": True},
...                    {"name": "B", "hand": ["JK", "K♠", "A♦"], "opened": True}]}
>>> score(doc)["players"][1]
{'name': 'B', 'points': 70, 'total': 70, 'eliminated': False}
>>> analyze("10♥ J♥ Q♥ K♥ 7♠ 7♥ 7♦ 3♣", threshold=60)["opening"]
{'value': 61, 'melds': [['10♥', 'J♥', 'Q♥', 'K♥'], ['7♠', '7♥', '7♦']]}
>>> analyze("10♥ J♥ Q♥ K♥ 7♠ 7♥ 7♦ 3♣")["opening"] is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from rami.cards import CardError, check_copies, counts, parse_cards
from rami.errors import InputError
from rami.tunisian.melds import make_meld
from rami.tunisian.rules import MODES, TunisianRules, rules_from
from rami.tunisian.settle import apply_totals, deal_points, teams_of
from rami.tunisian.solver import best_opening

__all__ = [
    "MAX_ANALYSIS_CARDS",
    "OpeningAnalysis",
    "OpeningPlan",
    "analyze",
    "format_analysis",
    "score",
]


class OpeningPlan(TypedDict):
    value: int
    melds: list[list[str]]


class OpeningAnalysis(TypedDict):
    """What ``analyze`` finds (N-3, T-6); the JSON of ``rami analyze tunisian --json``."""

    threshold: int
    opening: OpeningPlan | None  # None: no opening reaches the threshold


#: N-3: the most cards ``analyze`` takes. A hand in play holds at most 15 (the
#: dealer's deal, or 14 plus the card drawn); a few more are allowed for "what if"
#: questions, while keeping the exact search well under a second.
MAX_ANALYSIS_CARDS = 20

_DOC_KEYS = {"mode", "players", "winner", "totals_before"}
_PLAYER_KEYS = {"name", "hand", "opened"}


def _check_keys(
    obj: Mapping[str, object], allowed: set[str], required: Sequence[str], where: str
) -> None:
    for key in obj:
        if key not in allowed:
            raise InputError(f"unknown key {key!r} in {where}")
    for key in required:
        if key not in obj:
            raise InputError(f"missing required key {key!r} in {where}")


def _rules(mode: object) -> TunisianRules:
    if isinstance(mode, str):
        if mode not in MODES:
            raise InputError(f"unknown mode {mode!r}: choose one of {', '.join(MODES)}")
        return rules_from(mode)
    if isinstance(mode, Mapping):
        return rules_from(dict(mode))
    raise InputError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be a whole number, not {value!r}")
    if value < 0:
        raise InputError(f"{what} must not be negative, not {value}")
    return value


def _hand(value: object, name: str) -> list[int]:
    if not isinstance(value, (str, list)):
        raise InputError(f'player {name}: hand must be a list of cards such as ["7♥", "JK"]')
    try:
        return [int(c) for c in parse_cards(value)]
    except CardError as exc:
        raise CardError(f"player {name}: {exc}") from None


def score(doc: object) -> dict[str, Any]:
    """Score one finished deal (N-2, T-10, T-13) from its JSON document."""
    if not isinstance(doc, Mapping):
        raise InputError("expected a JSON object with keys mode, players, winner")
    _check_keys(doc, _DOC_KEYS, ("mode", "players", "winner"), "the deal")
    rules = _rules(doc["mode"])
    players = doc["players"]
    if not isinstance(players, list):
        raise InputError("players must be a list of objects")
    if len(players) != rules.players:
        raise InputError(
            f"mode {rules.mode} has {rules.players} players, but {len(players)} are given"
        )
    names: list[str] = []
    hands: list[list[int]] = []
    opened: list[bool] = []
    for seat, player in enumerate(players, start=1):
        if not isinstance(player, Mapping):
            raise InputError(f"player {seat} must be an object with name, hand, opened")
        _check_keys(player, _PLAYER_KEYS, ("name", "opened"), f"player {seat}")
        name = player["name"]
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"player {seat}: name must be non-empty text")
        if name in names:
            raise InputError(f"two players are named {name!r}")
        if not isinstance(player["opened"], bool):
            raise InputError(f"player {name}: opened must be true or false")
        hand = _hand(player.get("hand", []), name)
        if len(hand) > rules.hand_size + 1:
            raise InputError(
                f"player {name}: {len(hand)} cards, but a hand holds at most {rules.hand_size + 1}"
            )
        names.append(name)
        hands.append(hand)
        opened.append(player["opened"])
    check_copies([c for hand in hands for c in hand], rules.decks, rules.jokers)

    winner_name = doc["winner"]
    winner: int | None = None
    if winner_name is not None:
        if not isinstance(winner_name, str) or winner_name not in names:
            raise InputError(f"unknown winner {winner_name!r}: not one of the players' names")
        winner = names.index(winner_name)

    before = [0] * len(names)
    totals_doc = doc.get("totals_before", {})
    if not isinstance(totals_doc, Mapping):
        raise InputError("totals_before must be an object mapping names to totals")
    for key, value in totals_doc.items():
        if key not in names:
            raise InputError(f"totals_before names {key!r}, who is not a player")
        before[names.index(key)] = _whole(value, f"the total before of {key}")

    out_before = _eliminated_before(before, rules, names)
    for seat, name in enumerate(names):
        if out_before[seat]:
            if seat == winner:
                raise InputError(f"{name} was already eliminated and cannot win a deal")
            continue
        if seat == winner:
            if hands[seat]:
                raise InputError(
                    f"the winner {name} must have no cards left (the last one is discarded, T-9)"
                )
            if not opened[seat]:
                raise InputError(f"the winner {name} must have opened (T-6, T-9)")
        elif opened[seat] and not hands[seat]:
            raise InputError(
                f"player {name} opened and has no cards left but did not win: "
                "give the cards left in hand"
            )

    points = deal_points(hands, opened, winner, rules)
    points = [0 if out else p for p, out in zip(points, out_before, strict=True)]
    totals, eliminated, over, winners = apply_totals(before, points, out_before, rules)

    result: dict[str, Any] = {
        "players": [
            {"name": n, "points": p, "total": t, "eliminated": e}
            for n, p, t, e in zip(names, points, totals, eliminated, strict=True)
        ],
        "teams": None,
        "game_over": over,
        "game_winner": "+".join(names[s] for s in winners) if winners else None,
    }
    if rules.teams:
        result["teams"] = [
            {
                "players": [names[s] for s in team],
                "total": sum(totals[s] for s in team),
                "eliminated": eliminated[team[0]],
            }
            for team in teams_of(len(names))
        ]
    return result


def _eliminated_before(before: list[int], rules: TunisianRules, names: list[str]) -> list[bool]:
    """Who was out before this deal; an input whose game was already over is refused."""
    if rules.teams:
        for team in teams_of(len(before)):
            if sum(before[s] for s in team) >= rules.team_elimination:
                who = "+".join(names[s] for s in team)
                raise InputError(
                    f"team {who} already had {rules.team_elimination} or more: "
                    "the game was over before this deal"
                )
        return [False] * len(before)
    out = [t >= rules.elimination for t in before]
    if sum(1 for o in out if not o) < 2:
        raise InputError(
            f"at most one player had under {rules.elimination}: the game was over before this deal"
        )
    return out


def analyze(hand: str, threshold: int = 71) -> OpeningAnalysis:
    """The best opening ``hand`` holds (N-3), if it reaches ``threshold``.

    The hand holds 1 to ``MAX_ANALYSIS_CARDS`` cards, at most 2 copies of a card and 4
    jokers. One card is always kept back for the discard (T-9).
    """
    try:  # errors named like Marriage's analyse (--hand: …)
        cards = parse_cards(hand)
        if not 1 <= len(cards) <= MAX_ANALYSIS_CARDS:
            raise InputError(
                f"a hand to analyse holds 1 to {MAX_ANALYSIS_CARDS} cards, not {len(cards)}"
            )
        check_copies(cards, 2, 4)
    except (CardError, InputError) as err:
        raise type(err)(f"--hand: {err}") from None
    threshold = _whole(threshold, "the threshold")
    best = best_opening(counts(cards))
    opening: OpeningPlan | None = None
    if best is not None and best.value >= threshold:
        opening = {
            "value": best.value,
            "melds": [[str(c) for c in m.cards] for m in best.melds],
        }
    return {"threshold": threshold, "opening": opening}


def format_analysis(result: OpeningAnalysis, ascii: bool = False) -> str:
    """The N-3 result as text for a person."""
    threshold = result["threshold"]
    opening = result["opening"]
    if opening is None:
        return f"No opening reaches {threshold}."
    lines = [f"Best opening: {opening['value']} (threshold {threshold})"]
    for meld in opening["melds"]:
        cards = parse_cards(meld)
        value = make_meld(cards).value
        lines.append(f"  {' '.join(c.text(ascii) for c in cards)}  ({value})")
    return "\n".join(lines)
