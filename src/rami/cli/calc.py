"""``rami score`` (N-2) and ``rami analyze`` (N-3): thin glue over the calculators."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from rami.errors import InputError

score_app = typer.Typer(
    help="Score a finished deal from a JSON description (N-2).", no_args_is_help=True
)
analyze_app = typer.Typer(help="Analyse a hand (N-3).", no_args_is_help=True)

FileArg = Annotated[
    str, typer.Argument(help="JSON file describing the deal, or - for standard input")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
AsciiOpt = Annotated[bool, typer.Option("--ascii", help="Write cards as 10C, QH (no Unicode).")]


def read_json(source: str) -> Any:
    """The JSON document in ``source`` (a path, or ``-`` for standard input)."""
    if source == "-":
        text, name = sys.stdin.read(), "standard input"
    else:
        path = Path(source)
        if path.is_dir():
            raise InputError(f"{source} is a folder, not a JSON file")
        if not path.is_file():
            raise InputError(f"{source}: no such file")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{source}: not UTF-8 text") from None
        name = source
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = "" if exc.msg.endswith(" at") else " at"  # "…string starting at line 3"
        raise InputError(
            f"{name} is not valid JSON: {exc.msg}{where} line {exc.lineno} column {exc.colno}"
        ) from None


def emit(result: Mapping[str, object]) -> None:
    print(json.dumps(result, ensure_ascii=False, indent=2))


@score_app.command("marriage")
def score_marriage(source: FileArg) -> None:
    """Settle one Marriage deal as it lay on a real table (M-12 … M-15)."""
    from rami.marriage import calculator

    emit(calculator.score(read_json(source)))


@score_app.command("tunisian")
def score_tunisian(source: FileArg) -> None:
    """Score one Tunisian rami deal and update the running totals (T-10, T-13)."""
    from rami.tunisian import calculator

    emit(calculator.score(read_json(source)))


@analyze_app.command("marriage")
def analyze_marriage(
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


@analyze_app.command("tunisian")
def analyze_tunisian(
    hand: Annotated[str, typer.Option(help='The hand, e.g. "10♥ J♥ Q♥ K♥ JK …".')],
    threshold: Annotated[int, typer.Option(help="The opening threshold to reach.")] = 71,
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
