"""``rami score`` (N-2) and ``rami analyze`` (N-3): thin glue over the calculators.

Each game adds its own ``score``/``analyze`` command (``Game.cli``); this module holds
what they share.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

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


def read_json(source: str) -> object:
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
    return loads(text, name)


def loads(text: str | bytes, name: str) -> object:
    """The JSON document in ``text`` (read from ``name``); ``InputError`` in one line if
    it is not JSON or nests too deeply for the parser (issue 23: no RecursionError)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = "" if exc.msg.endswith(" at") else " at"  # "…string starting at line 3"
        raise InputError(
            f"{name} is not valid JSON: {exc.msg}{where} line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise InputError(f"{name} nests its JSON too deeply") from None


def emit(result: Mapping[str, object]) -> None:
    """Print a result as indented JSON (what ``--json`` and ``rami score`` write)."""
    print(json.dumps(result, ensure_ascii=False, indent=2))
