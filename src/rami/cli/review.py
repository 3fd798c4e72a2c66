"""``rami review FILE``: each decision of one seat in a saved deal, valued from its view.

FILE is a saved deal or match (the games' ``to_json`` documents), a ``rami play``
save or a ``.rami`` record; docs/review.md says what the figures mean. A Rich progress
bar runs on standard error while the decisions are valued; ``--json`` prints the review
as JSON on standard output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from rami.errors import InputError
from rami.review import Review, load_deals, review

__all__ = ["review_command"]

_STYLE = {"good": "green", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def review_command(
    file: Annotated[
        Path, typer.Argument(help="A saved deal or match (JSON), a rami play save, a .rami record.")
    ],
    seat: Annotated[
        int | None,
        typer.Option(help="The seat to review (default: the save's own seat, else 0)."),
    ] = None,
    deal: Annotated[
        int | None, typer.Option(help="Which deal of a match, from 1 (default: the last).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    samples: Annotated[
        int | None,
        typer.Option(help="Determinizations per decision (default: the game's; more is surer)."),
    ] = None,
    cache: Annotated[
        bool, typer.Option("--cache/--no-cache", help="Reuse and keep reviews of a deal.")
    ] = True,
) -> None:
    """Review a seat's decisions in a deal: the best move, the points lost, and why."""
    deals = load_deals(file)
    if not deals:
        raise InputError(f"{file} holds no deal with any move")
    if deal is None:
        item = deals[-1]
    elif 1 <= deal <= len(deals):
        item = deals[deal - 1]
    else:
        raise InputError(f"--deal {deal}: {file} holds deals 1 to {len(deals)}")
    chosen = seat if seat is not None else item.seat if item.seat is not None else 0
    err = Console(stderr=True)
    with Progress(
        TextColumn("[bold]reviewing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("decisions"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task("review", total=None)

        def step(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = review(item, chosen, step, samples=samples, cache=cache)
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
        return
    _print(result, item.number, len(deals))


def _print(result: Review, number: int, deals: int) -> None:
    console = Console()
    unit = "points" if result.unit == "points" else f"{result.unit} points"
    where = f"deal {number} of {deals}, " if deals > 1 else ""
    table = Table(title=f"Review of seat {result.seat} ({where}{result.samples} samples)")
    for name in ("#", "move", "best", f"{unit} lost", "", "why"):
        table.add_column(name, justify="right" if name in ("#", f"{unit} lost") else "left")
    for d in result.decisions:
        lost = f"{d.loss:.2f} ± {d.stderr:.2f}" if d.loss else "–"
        best = d.best if d.loss > 0 else ""  # the best mean; no loss: nothing to say
        table.add_row(
            str(d.index + 1),
            d.move,
            best,
            lost,
            f"[{_STYLE[d.label]}]{d.label}[/]",
            d.why or "",
        )
    console.print(table)
    counts = {lab: sum(d.label == lab for d in result.decisions) for lab in _STYLE}
    low, mid, high = result.thresholds
    console.print(
        f"{len(result.decisions)} decisions: {result.points_lost:.2f} {unit} lost in the "
        f"deal, {result.points_per_decision:.2f} a decision; accuracy {result.accuracy:.0f}% "
        f"({', '.join(f'{n} {lab}' for lab, n in counts.items())}; "
        f"thresholds {low:g} / {mid:g} / {high:g} {unit})"
    )
