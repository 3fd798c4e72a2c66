"""Marriage's sub-commands of ``rami`` (``rami score|analyze|demo|play marriage``).

Registered through ``registration.GAME.cli``; the command line itself names no game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, TypedDict

import typer

from rami.cards import CardError, parse_card
from rami.cli.calc import AsciiOpt, FileArg, JsonOpt, emit, read_json
from rami.cli.demo import SeedOpt as DemoSeedOpt
from rami.cli.hooks import Ask, Check, CliCommands, LedgerPrompts
from rami.cli.ledger import NUMBER, signed, tokens
from rami.cli.play import AsciiOpt as PlayAsciiOpt
from rami.cli.play import DelayOpt, MaxTurnsOpt, SeedOpt, level_option, start
from rami.cli.simulate import check_preset
from rami.errors import InputError

if TYPE_CHECKING:
    from rami.ledger import LedgerResult
    from rami.marriage.ledger import Ledger
    from rami.marriage.rules import MarriageRules

__all__ = ["COMMANDS"]


def score(source: FileArg) -> None:
    """Settle one Marriage deal as it lay on a real table (M-12 … M-15)."""
    from rami.marriage import calculator

    emit(calculator.score(read_json(source)))


def analyze(
    hand: Annotated[str, typer.Option(help='The seen player\'s 22 cards, e.g. "3♠ 4♠ 5♠ …".')],
    tiplu: Annotated[str, typer.Option(help="The tiplu, e.g. J♣.")],
    shown: Annotated[
        str | None, typer.Option(help="Melds or dublees already shown (part of the hand).")
    ] = None,
    rules: Annotated[str, typer.Option(help="Rules preset: nepali or indian.")] = "nepali",
    as_json: JsonOpt = False,
    ascii: AsciiOpt = False,
) -> None:
    """Can this Marriage hand finish now? If not, how many cards does it miss?"""
    from rami.marriage import calculator

    result = calculator.analyze(hand, tiplu, shown, rules)
    if as_json:
        emit(result)
    else:
        print(calculator.format_analysis(result, ascii=ascii))


def demo(
    seed: DemoSeedOpt = 1,
    players: Annotated[int, typer.Option(help="Number of players.")] = 4,
    rules: Annotated[str, typer.Option(help="Rules preset: nepali or indian.")] = "nepali",
) -> None:
    """One Marriage deal: every move, the tiplu, each player's maal, the settlement."""
    from rami.marriage.demo import run_demo

    run_demo(seed, players=players, rules=check_preset("marriage", rules))


def play(
    rules: Annotated[str, typer.Option(help="Rules preset: nepali or indian.")] = "nepali",
    players: Annotated[
        int | None, typer.Option(help="Players, you included: 2-5 (nepali), 2-7 (indian).")
    ] = None,
    level: Annotated[str, level_option("marriage")] = "medium",
    seed: SeedOpt = None,
    ascii: PlayAsciiOpt = False,
    delay: DelayOpt = None,
    max_turns: MaxTurnsOpt = None,
) -> None:
    """Marriage against bots: one rotation of deals, the ledger between deals."""
    start("marriage", rules, players, level, seed, ascii, delay, max_turns)


# ---------------------------------------------------------------------- rami ledger


class _Row(TypedDict, total=False):
    """One player's line of a deal entry as the questions make it (docs/score.md)."""

    seen: bool
    qualified: str | None
    maal: int
    cards: list[str]
    exposed_tunnelas: list[str]
    hand_points: int


class _Entry(TypedDict):
    """A deal entry of the ledger document (``rami.marriage.ledger``)."""

    tiplu: str | None
    players: list[_Row]
    finisher: str | None


def _strings(value: object) -> list[str]:
    """A list of card texts from an old entry (a text: its words)."""
    if isinstance(value, str):
        return tokens(value)
    return [str(v) for v in value] if isinstance(value, list) else []


def _maal_answer(text: str, row: _Row) -> None:
    """A number, or cards with ``+C`` for a tunnela of C exposed at the deal."""
    if NUMBER.match(text):
        if int(text):  # 0: no maal, as if no card was given
            row["maal"] = int(text)
        return
    cards: list[str] = []
    exposed: list[str] = []
    for token in tokens(text):
        if token.startswith("+") and len(token) > 1:
            exposed.append(token[1:])
            cards += [token[1:]] * 3
        else:
            cards.append(token)
    if cards:
        row["cards"] = cards
    if exposed:
        row["exposed_tunnelas"] = exposed


def _maal_default(row: Mapping[str, object]) -> str:
    if "maal" in row:
        return str(row["maal"])
    cards = _strings(row.get("cards", []))
    parts = []
    for t in _strings(row.get("exposed_tunnelas", [])):
        for _ in range(3):
            cards.remove(t)
        parts.append(f"+{t}")
    return " ".join(cards + parts) or "0"


_STATUS = {"u": None, "s": "melds", "d": "dublees"}


def _tiplu_check(text: str) -> None:
    """A tiplu answer: empty (nobody saw) or one card, not a joker (M-12)."""
    if text and parse_card(text).is_joker:
        raise CardError("Marriage has no printed jokers")


def _status_check(choices: str) -> Check:
    def check(text: str) -> None:
        letters = choices.split("/")
        if text.lower()[:1] not in letters:
            said = [{"u": "u (unseen)", "s": "s (seen)", "d": "d (dublees)"}[c] for c in letters]
            raise InputError(f"answer {', '.join(said[:-1])} or {said[-1]}")

    return check


def _maal_check(rules: MarriageRules, status: str) -> Check:
    """A maal answer (M-12, M-15): a number some hand can score, or cards that parse
    (``+C``: a tunnela of C exposed at the deal, where the rules have that bonus)."""

    def check(text: str) -> None:
        from rami.marriage.ledger import attainable_maal

        if NUMBER.match(text):
            number = int(text)
            if number < 0:
                raise InputError(f"the maal must not be negative, not {number}")
            possible = attainable_maal(rules, status == "s")
            if number not in possible:
                near = sorted(sorted(possible, key=lambda v: (abs(v - number), v))[:2])
                raise InputError(
                    f"no hand scores a maal of {number} "
                    f"(the nearest possible: {' or '.join(map(str, near))})"
                )
            return
        for token in tokens(text):
            if token.startswith("+") and len(token) > 1:
                if not rules.deal_tunnela_bonus:
                    raise InputError(f"{rules.preset_name} has no tunnelas exposed at the deal")
                token = token[1:]
            if parse_card(token).is_joker:
                raise CardError("Marriage has no printed jokers")

    return check


def _name_check(names: list[str], seen: dict[str, bool]) -> Check:
    def check(text: str) -> None:
        if not text:
            return
        if text not in names:
            raise InputError(f"{text!r} is not one of the players ({', '.join(names)})")
        if not seen[text]:
            raise InputError(f"{text} did not see (show), so cannot have finished")

    return check


def _points_check(text: str) -> None:
    if not NUMBER.match(text) or int(text) < 0:
        raise InputError(f"the card points are a whole number of at least 0, not {text!r}")


def _old_rows(old: Mapping[str, object] | None, count: int) -> list[Mapping[str, object]]:
    """The player lines of the entry being edited (none: a new deal)."""
    rows = old.get("players") if old else None
    if not isinstance(rows, list) or len(rows) != count:
        return [{} for _ in range(count)]
    return [row if isinstance(row, Mapping) else {} for row in rows]


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _ask(ask: Ask, names: list[str], rules_doc: object, old: Mapping[str, object] | None) -> _Entry:
    """One deal's questions, each answer checked as typed (``Ask``'s ``check``)."""
    from rami.marriage.rules import rules_from

    rules = rules_from(rules_doc)
    indian = rules.scoring == "indian"
    old_rows = _old_rows(old, len(names))
    tiplu = ask("Tiplu (a card; empty: nobody saw)", _text((old or {}).get("tiplu")), _tiplu_check)
    rows: list[_Row] = []
    choices = "u/s/d" if rules.dublees else "u/s"
    for name, prev in zip(names, old_rows, strict=True):
        was = "u" if not prev.get("seen") else "d" if prev.get("qualified") == "dublees" else "s"
        question = f"{name}: unseen, seen or dublees? ({choices})"
        status = ask(question, was, _status_check(choices)).lower()[:1]
        row: _Row = {"seen": status != "u"}
        if status != "u":
            row["qualified"] = _STATUS[status]
            while not tiplu:  # someone saw it after all: the tiplu is needed now
                tiplu = ask(f"Tiplu ({name} saw it: a card)", "", _tiplu_check)
        _maal_answer(
            ask(
                f"{name}: maal (a number, or cards; +6H = tunnela 6♥ at the deal)",
                _maal_default(prev),
                _maal_check(rules, status),
            ),
            row,
        )
        rows.append(row)
    seen = {name: row["seen"] for name, row in zip(names, rows, strict=True)}
    previous = _text((old or {}).get("finisher"))
    who = ask(
        "Who finished? (a name; empty: nobody)",
        previous if previous in names and seen[previous] else "",
        _name_check(names, seen),
    )
    finisher = who if who else None
    if indian:
        for name, row, prev in zip(names, rows, old_rows, strict=True):
            if name == finisher:
                continue
            text = ask(
                f"{name}: card points left in hand",
                str(prev.get("hand_points", 0)),
                _points_check,
            )
            row["hand_points"] = int(text)
    return {"tiplu": tiplu or None, "players": rows, "finisher": finisher}


def _ledger(result: LedgerResult) -> Ledger:
    """The computed ledger as Marriage's ledger types it."""
    from rami.marriage.ledger import is_ledger

    if not is_ledger(result):
        raise InputError(f"this is a {result['game']} ledger, not a Marriage one")
    return result


def _ask_deal(
    ask: Ask,
    doc: Mapping[str, object],
    result: LedgerResult,
    number: int | None,
    old: Mapping[str, object] | None,
) -> _Entry:
    ledger = _ledger(result)
    return _ask(ask, list(ledger["players"]), ledger["rules"], old)


def _cells(result: LedgerResult, number: int) -> list[str]:
    return [signed(p["net"]) for p in _ledger(result)["deals"][number - 1]["result"]["players"]]


def _end(result: LedgerResult, names: list[str]) -> tuple[str, list[str], bool]:
    ledger = _ledger(result)
    after = [f"  ahead: {', '.join(ledger['leaders'])}"] if ledger["deals"] else []
    return f"   sum {ledger['sum']}", after, False


def _deal_lines(result: LedgerResult, number: int, entry: Mapping[str, object]) -> list[str]:
    deal = _ledger(result)["deals"][number - 1]
    who = entry.get("finisher")
    lines = [f"  finished: {who}" if who is not None else "  nobody finished"]
    for p in deal["result"]["players"]:
        items = f"  ({'; '.join(p['maal_items'])})" if p["maal_items"] else ""
        lines.append(f"  {p['name']}: maal {p['maal']}, net {signed(p['net'])}{items}")
    for pair in deal["result"]["pairs"]:
        lines.append(f"  {pair['from']} pays {pair['to']} {pair['points']}")
    return lines


LEDGER = LedgerPrompts(_cells, _end, _deal_lines, _ask_deal)


COMMANDS = CliCommands(score=score, analyze=analyze, demo=demo, play=play, ledger=LEDGER)
