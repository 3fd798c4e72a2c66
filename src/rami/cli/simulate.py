"""``rami simulate``: a tournament between bots, with the statistics to trust it.

Example: ``rami simulate GAME --games 400 --bots greedy,search,greedy,greedy
--workers 2 --seed 1``. The same seed gives the same results whatever ``--workers`` and
``--backend`` (for bots with a time budget, how far they search depends on the machine).
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from rami.errors import InputError
from rami.games import Game, all_games, game_names, get_game
from rami.memo import freeze_collector
from rami.wording import count

if TYPE_CHECKING:  # the simulator loads when a simulation runs
    from rami.sim.tournament import Summary

__all__ = ["simulate"]


class _RateColumn(ProgressColumn):
    """Games per second (or seconds per game when slower than one a second)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if not speed:
            return Text("– games/s", style="progress.data.speed")
        if speed >= 1:
            return Text(f"{speed:.1f} games/s", style="progress.data.speed")
        return Text(f"{1 / speed:.1f} s/game", style="progress.data.speed")


def progress_bar(console: Console, *, quiet: bool) -> Progress:
    """The bar of the long-running commands (simulate, ladder): done/total, rate, time, ETA."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=quiet,
    )


def _table(summary: Summary) -> Table:
    config = summary.config
    spec = get_game(config.game)
    signed = spec.signed_points
    points = f"{spec.points_label} / deal"
    table = Table(
        caption=_better(spec),
        title=f"{config.game} {config.preset}: {count(summary.games, 'game')}, "
        f"{count(summary.deals, 'deal')}",
    )
    table.add_column("bot")
    table.add_column(points + " (95% CI)", justify="right")
    if config.unit == "game":
        table.add_column("game wins", justify="right")
    table.add_column("deal wins", justify="right")
    table.add_column(spec.progress_label, justify="right")
    table.add_column("decisions", justify="right")
    table.add_column("ms p50", justify="right")
    table.add_column("ms p95", justify="right")
    for b in summary.bots:
        row = [b.name, b.points.text(signed=signed) if b.points else "–"]
        if config.unit == "game":
            rate = b.game_win_rate
            row.append(
                f"{b.game_wins:g} ({rate.mean:.0%}, {rate.low:.0%}–{rate.high:.0%})"
                if rate
                else "–"
            )
        row += [
            f"{b.deal_wins} ({b.deal_wins / b.deals:.0%})" if b.deals else "0",
            f"{b.progress / b.deals:.0%}" if b.deals else "–",
            str(b.decisions),
            f"{b.times.percentile(0.5) * 1e3:.2f}",
            f"{b.times.percentile(0.95) * 1e3:.2f}",
        ]
        table.add_row(*row)
    return table


def _better(spec: Game) -> str | None:
    """Said where a deal's scores are penalties (``reward_sign`` negative: Tunisian rami's
    points, T-10), where "+51.95 points per deal" would read like a win."""
    return f"fewer {spec.points_label} are better" if spec.reward_sign < 0 else None


def _default_seats(game: str, mode: str | None, rules: str | None) -> int:
    """Seats of the preset named by --mode/--rules (4 if none: the usual table)."""
    preset = mode or rules
    if preset is None:
        return 4
    try:
        spec = get_game(game)
        allowed = spec.players_for(spec.rules_from({"preset": preset}))
    except (InputError, KeyError, ValueError):
        return 4  # make_config explains what is wrong with the game or preset
    return 4 if 4 in allowed else int(allowed[0])


def preset_help(option: str) -> str:
    """``--rules``/``--mode`` help from the registry: "Marriage rules: nepali or indian."."""
    games = [g for g in all_games() if g.preset_label == option]
    return " ".join(f"{g.title.split()[0]} {option}: {_or(g.presets)}." for g in games)


def check_preset(game: str, preset: str) -> str:
    """``preset`` if ``game`` has it; otherwise one line naming it as the game's users do
    (``preset_label``: "unknown tunisian mode 'x'", the same words as ``simulate``)."""
    spec = get_game(game)
    if preset not in spec.presets:
        raise InputError(
            f"unknown {spec.name} {spec.preset_label} {preset!r}: choose {_or(spec.presets)}"
        )
    return preset


def _or(items: tuple[str, ...]) -> str:
    return ", ".join(items[:-1]) + f" or {items[-1]}" if len(items) > 1 else items[0]


def _whole_help() -> str:
    return " / ".join(
        f"{g.title} {g.match_word.split()[-1]}s" for g in all_games() if g.whole_matches
    )


def _caps_help() -> str:
    return " / ".join(str(g.turn_cap) for g in all_games() if g.turn_cap is not None)


_FROZEN: list[bool] = []


def _advance(progress: Progress, task: TaskID, *, inline: bool) -> None:
    """One result more; after the first one played in this process (its games' and
    bots' modules imported, their memo tables made), freeze the collector: a long run's
    full GC passes then skip the tables (``rami.memo.freeze_collector``)."""
    progress.advance(task)
    if inline and not _FROZEN:
        _FROZEN.append(True)
        freeze_collector()


def check_writable(path: Path) -> None:
    """Fail before a long run, not after it, if the results cannot be written."""
    if path.is_dir():
        raise InputError(f"--json {path} is a folder, not a file")
    folder = path.parent
    if not folder.is_dir():
        raise InputError(f"--json {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InputError(f"--json {path}: no permission to write there")


def simulate(
    game: Annotated[str, typer.Argument(help=" or ".join(game_names()))],
    games: Annotated[int, typer.Option(help="Games to play (rounded up to whole groups).")] = 100,
    bots: Annotated[
        str | None,
        typer.Option(
            help="One bot per seat, comma-separated: random, greedy, search, ismcts, easy, "
            "medium, hard, expert; search:50ms or hard:64it set a search bot's budget "
            "(default: greedy in every seat of the mode or rules; four seats if neither is given)."
        ),
    ] = None,
    rules: Annotated[str | None, typer.Option(help=preset_help("rules"))] = None,
    mode: Annotated[str | None, typer.Option(help=preset_help("mode"))] = None,
    unit: Annotated[
        str, typer.Option(help="deal, or game: whole " + _whole_help() + " played to the end.")
    ] = "deal",
    duplicate: Annotated[
        bool,
        typer.Option(help="Replay each deal once per seating (bots rotated) to cut variance."),
    ] = True,
    max_turns: Annotated[
        int,
        typer.Option(
            help=f"Cap on a deal's turns (0: none; default: the game's cap, {_caps_help()}).",
            show_default=False,  # -1 stands for the game's cap
        ),
    ] = -1,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Parallel workers (default: 1; with --backend ray, one per CPU).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same results.")] = 0,
    backend: Annotated[str, typer.Option(help="local (processes) or ray.")] = "local",
    json_file: Annotated[
        Path | None, typer.Option("--json", help="Write the full results to this JSON file.")
    ] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
    records: Annotated[
        Path | None,
        typer.Option(help="Write each game's .rami record into this folder (docs/records.md)."),
    ] = None,
) -> None:
    """Play bots against each other and report each bot's strength with 95% intervals."""
    from rami.sim.backends import BACKENDS, run_jobs
    from rami.sim.tournament import make_config, schedule, summarize

    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}: choose local or ray")
    if workers is None:  # ray is asked for to use the machine: every CPU (issue 23)
        workers = (os.cpu_count() or 1) if backend == "ray" else 1
    if workers < 1:
        raise InputError("--workers must be at least 1")
    if json_file is not None:
        check_writable(json_file)
    seats = bots.split(",") if bots is not None else ["greedy"] * _default_seats(game, mode, rules)
    config = make_config(
        game,
        seats,
        rules=rules,
        mode=mode,
        unit=unit,
        duplicate=duplicate,
        max_turns=None if max_turns == 0 else max_turns,
        seed=seed,
    )
    if records is not None:
        if get_game(game).load_deal is None:
            raise InputError(f"{get_game(game).title} games cannot be written as records")
        records.mkdir(parents=True, exist_ok=True)
        config = dataclasses.replace(config, records=str(records))
    jobs = schedule(config, games)
    console = Console(stderr=True)
    started = time.perf_counter()
    with progress_bar(console, quiet=quiet) as progress:
        task = progress.add_task(f"{config.game} {config.preset}", total=len(jobs))
        results = run_jobs(
            config,
            jobs,
            workers=workers,
            backend=backend,
            on_result=lambda _r: _advance(
                progress, task, inline=workers == 1 and backend == "local"
            ),
        )
    elapsed = time.perf_counter() - started
    summary = summarize(config, results)
    out = Console()
    if out.width < 110:
        out = Console(width=110)  # room for the table's columns (files, narrow pipes)
    out.print(_table(summary))
    for (a, b), est in summary.differences.items():
        verdict = "significant" if est.excludes_zero else "not significant"
        spec = get_game(config.game)
        better = f"; {_better(spec)}" if _better(spec) else ""
        out.print(
            f"{a} − {b}: {est.text()} {spec.points_label} per deal "
            f"(95% CI, {count(est.n, 'group')}, {verdict}{better})"
        )
    for (a, b), est in summary.game_wins_differences.items():
        out.print(f"{a} − {b} game win rate: {est.mean:+.1%} ± {est.half_width:.1%}")
    out.print(
        f"deal length {summary.deal_turns.mean:.1f} turns; {count(summary.capped, 'deal')} capped; "
        f"{elapsed:.1f} s on {count(workers, 'worker')}, backend {backend}"
    )
    if json_file is not None:
        doc = summary.to_json()
        doc["elapsed_s"] = round(elapsed, 2)
        doc["workers"] = workers
        doc["backend"] = backend
        doc["results"] = results
        json_file.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
