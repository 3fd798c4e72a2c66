"""Tunisian rami's sub-commands of ``rami`` (``rami score|analyze|demo|play tunisian``).

Registered through ``registration.GAME.cli``; the command line itself names no game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, TypedDict

import typer

from rami.cards import parse_card
from rami.cli.calc import AsciiOpt, FileArg, JsonOpt, emit, read_json
from rami.cli.demo import SeedOpt as DemoSeedOpt
from rami.cli.hooks import Ask, Check, CliCommands, LedgerPrompts
from rami.cli.ledger import NUMBER, tokens
from rami.cli.play import AsciiOpt as PlayAsciiOpt
from rami.cli.play import DelayOpt, MaxTurnsOpt, SeedOpt, level_option, start
from rami.cli.simulate import check_preset
from rami.errors import InputError
from rami.tunisian.rules import PRESETS

if TYPE_CHECKING:
    from rami.ledger import LedgerResult
    from rami.tunisian.ledger import Ledger

__all__ = ["COMMANDS"]

_THRESHOLD = PRESETS["1v1"].opening_threshold  # T-6


def score(source: FileArg) -> None:
    """Score one Tunisian rami deal and update the running totals (T-10, T-13)."""
    from rami.tunisian import calculator

    emit(calculator.score(read_json(source)))


def analyze(
    hand: Annotated[str, typer.Option(help='The hand, e.g. "10♥ J♥ Q♥ K♥ JK …".')],
    threshold: Annotated[int, typer.Option(help="The opening threshold to reach.")] = _THRESHOLD,
    as_json: JsonOpt = False,
    ascii: AsciiOpt = False,
) -> None:
    """The best opening (man3a) this Tunisian hand holds."""
    from rami.tunisian import calculator

    result = calculator.analyze(hand, threshold)
    if as_json:
        emit(result)
    else:
        print(calculator.format_analysis(result, ascii=ascii))


def demo(
    seed: DemoSeedOpt = 1,
    mode: Annotated[str, typer.Option(help="1v1, ffa or 2v2.")] = "ffa",
    whole_game: Annotated[
        bool, typer.Option("--game", help="Play a whole game, not one deal.")
    ] = False,
) -> None:
    """One Tunisian rami deal (or a whole game): every move, openings, points and totals."""
    from rami.tunisian.demo import run_demo

    run_demo(seed, mode=check_preset("tunisian", mode), whole_game=whole_game)


def play(
    mode: Annotated[str, typer.Option(help="1v1, ffa (4 players) or 2v2 (bot partner).")] = "1v1",
    level: Annotated[str, level_option("tunisian")] = "medium",
    seed: SeedOpt = None,
    ascii: PlayAsciiOpt = False,
    delay: DelayOpt = None,
    max_turns: MaxTurnsOpt = None,
) -> None:
    """Tunisian rami against bots: deals until one player (or team) is left."""
    start("tunisian", mode, None, level, seed, ascii, delay, max_turns)


# ---------------------------------------------------------------------- rami ledger


def _winner_check(names: list[str], out: list[bool]) -> Check:
    def check(text: str) -> None:
        if not text:
            return
        if text not in names:
            raise InputError(f"{text!r} is not one of the players ({', '.join(names)})")
        if out[names.index(text)]:
            raise InputError(f"{text} is out of the game")

    return check


def _row_check(low: int, high: int) -> Check:
    """A player's answer: - (not opened), the points of the cards left (T-5, T-10: an
    opened player's are worth ``low`` to ``high``) or the cards themselves."""

    def check(text: str) -> None:
        if text == "-":
            return
        if NUMBER.match(text):
            number = int(text)
            if number < 0:
                raise InputError(f"the points must not be negative, not {number}")
            if not low <= number <= high:
                raise InputError(
                    f"the cards left of an opened player are worth {low} to {high}, not {number}"
                )
            return
        if not tokens(text):
            raise InputError("give the points, the cards left or -")
        for token in tokens(text):
            parse_card(token)

    return check


class _Row(TypedDict, total=False):
    """One player's line of a deal entry as the questions make it (docs/score.md); the
    winner's is empty, and a player out of the game has none (null)."""

    opened: bool
    points: int
    hand: list[str]


class _Entry(TypedDict):
    """A deal entry of the ledger document (``rami.tunisian.ledger``)."""

    winner: str | None
    players: list[_Row | None]


def _old_default(prev: object) -> str:
    """The answer an old entry's line gives: -, its points or its cards left."""
    if not isinstance(prev, Mapping):
        return ""
    hand = prev.get("hand")
    if prev.get("opened") is False:
        return "-"
    if "points" in prev:
        return str(prev["points"])
    if isinstance(hand, str):
        return hand
    if isinstance(hand, list) and hand:
        return " ".join(str(card) for card in hand)
    return ""


def _ask(
    ask: Ask, names: list[str], out: list[bool], old: Mapping[str, object] | None, mode: object
) -> _Entry:
    """One deal's questions, each answer checked as typed (``Ask``'s ``check``)."""
    from rami.tunisian.ledger import points_range
    from rami.tunisian.rules import rules_from

    low, high = points_range(rules_from(mode))
    previous = (old or {}).get("winner")
    previous = previous if isinstance(previous, str) else ""
    still_in = previous in names and not out[names.index(previous)]
    who = ask(
        "Who went out? (a name; empty: nobody)",
        previous if still_in else "",
        _winner_check(names, out),
    )
    winner = who if who else None
    old_rows = old.get("players") if old else None
    if not isinstance(old_rows, list) or len(old_rows) != len(names):
        old_rows = [None for _ in names]
    rows: list[_Row | None] = []
    for name, gone, prev in zip(names, out, old_rows, strict=True):
        if gone:
            rows.append(None)
            continue
        if name == winner:
            rows.append({})
            continue
        text = ask(
            f"{name}: points, or the cards left (JK = joker), or - if not opened",
            _old_default(prev),
            _row_check(low, high),
        )
        if text == "-":
            rows.append({"opened": False})
        elif NUMBER.match(text):
            rows.append({"opened": True, "points": int(text)})
        else:
            rows.append({"opened": True, "hand": tokens(text)})
    return {"winner": winner, "players": rows}


def _ledger(result: LedgerResult) -> Ledger:
    """The computed ledger as Tunisian rami's ledger types it."""
    from rami.tunisian.ledger import is_ledger

    if not is_ledger(result):
        raise InputError(f"this is a {result['game']} ledger, not a Tunisian one")
    return result


def _ask_deal(
    ask: Ask,
    doc: Mapping[str, object],
    result: LedgerResult,
    number: int | None,
    old: Mapping[str, object] | None,
) -> _Entry:
    ledger = _ledger(result)
    names = list(ledger["players"])
    index = (number or len(ledger["deals"]) + 1) - 1
    before = ledger["deals"][index - 1]["result"] if index else None
    gone = [p["eliminated"] for p in before["players"]] if before else [False] * len(names)
    if number is None and ledger["game_over"]:
        raise InputError(f"the game is over: {ledger['game_winner']} won")
    return _ask(ask, names, gone, old, ledger["rules"])


def _cells(result: LedgerResult, number: int) -> list[str]:
    return [str(p["points"]) for p in _ledger(result)["deals"][number - 1]["result"]["players"]]


def _end(result: LedgerResult, names: list[str]) -> tuple[str, list[str], bool]:
    ledger = _ledger(result)
    lines: list[str] = []
    if ledger["teams"]:
        for team in ledger["teams"]:
            lines.append(f"  team {' + '.join(team['players'])}: {team['total']}")
    out = [n for n, o in zip(names, ledger["eliminated"], strict=True) if o]
    if out:
        lines.append(f"  out: {', '.join(out)}")
    if ledger["game_over"]:
        lines.append(f"Game over: {ledger['game_winner']} won.")
    return f"   out at {ledger['limit']}", lines, ledger["game_over"]


def _deal_lines(result: LedgerResult, number: int, entry: Mapping[str, object]) -> list[str]:
    deal = _ledger(result)["deals"][number - 1]
    who = entry.get("winner")
    lines = [f"  went out: {who}" if who is not None else "  nobody went out"]
    for p in deal["result"]["players"]:
        lines.append(f"  {p['name']}: {p['points']} points, total {p['total']}")
    return lines


LEDGER = LedgerPrompts(_cells, _end, _deal_lines, _ask_deal)


COMMANDS = CliCommands(score=score, analyze=analyze, demo=demo, play=play, ledger=LEDGER)
