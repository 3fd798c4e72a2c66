"""``rami record FILE``, ``rami verify FILE`` and ``rami export``: the open ``.rami``
records (docs/records.md) in the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rami.errors import InputError

__all__ = ["export", "record", "verify"]


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text: is it a .rami record?") from None


def record(
    file: Annotated[Path, typer.Argument(help="A .rami record.", show_default=False)],
    seat: Annotated[
        int | None, typer.Option(help="Replay from this seat: others' cards stay hidden.")
    ] = None,
    ascii: Annotated[bool, typer.Option("--ascii", help="Cards as 10C, QH; ASCII only.")] = False,
) -> None:
    """Print a record as a readable replay (every move is checked against the rules)."""
    from rami.play.render import to_ascii
    from rami.records import read
    from rami.records.render import render

    rec = read(_text(file))
    if seat is not None and not 0 <= seat < rec.players:
        raise InputError(f"--seat must be from 0 to {rec.players - 1}")
    text = "\n".join(render(rec, seat))
    typer.echo(to_ascii(text) if ascii else text)


def verify(
    file: Annotated[Path, typer.Argument(help="A .rami record.", show_default=False)],
) -> None:
    """Check the shuffles: each seed opens its commitment and deals exactly the record's
    cards. One line; exit status 0 when it holds, 1 when not."""
    from rami.records import verify as check

    verdict = check(_text(file))
    if verdict.ok:
        typer.echo(f"OK: {verdict.message}")
        return
    typer.echo(f"NOT VERIFIED: {verdict.message}")
    raise typer.Exit(1)


def export(
    game: Annotated[
        str | None, typer.Argument(help="The game whose saved match to export (default: latest).")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write here (default: standard output).")
    ] = None,
    ascii: Annotated[bool, typer.Option("--ascii", help="Cards as 10C, QH; ASCII only.")] = False,
) -> None:
    """Export the match saved by 'rami play' as a .rami record (the deal in play stays
    hidden until it is over)."""
    from rami.play.records import saved_record
    from rami.records import write

    text = write(saved_record(game), ascii=ascii)
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {out}", err=True)
