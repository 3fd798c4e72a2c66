"""``rami ladder``: every pair of bot levels on duplicate deals, rated (``rami.sim.ladder``).

Example: ``rami ladder GAME --preset P --levels easy,medium,hard --games 40 --workers 2``.
Results are appended to a JSONL file as each game ends (``--results``); the same command
run again goes on where a stopped one left off. The same seed gives the same games and
figures whatever ``--workers`` and ``--backend``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from rami.cli.simulate import check_writable, progress_bar
from rami.errors import InputError
from rami.games import game_names, get_game
from rami.sim.ladder import LadderConfig
from rami.sim.tournament import GameResult

__all__ = ["canonical_command", "ladder"]


def canonical_command(config: LadderConfig, games: int) -> str:
    """The command that replays a ladder's games (workers and backend change nothing)."""
    spec = get_game(config.game)
    levels = ",".join(config.levels)
    cmd = f"rami ladder {config.game} --preset {config.preset} --levels {levels} --games {games}"
    allowed = spec.players_for(spec.rules_from(config.preset))
    if config.players != (4 if 4 in allowed else allowed[0]):
        cmd += f" --players {config.players}"
    if config.max_turns != spec.turn_cap:
        cmd += f" --max-turns {config.max_turns or 0}"
    return cmd + f" --seed {config.seed}"


def ladder(
    game: Annotated[str, typer.Argument(help=" or ".join(game_names()))],
    preset: Annotated[
        str | None, typer.Option(help="The game's preset (rules or mode); default: its usual.")
    ] = None,
    levels: Annotated[
        str,
        typer.Option(
            help="Levels, comma-separated: easy, medium, hard, expert, random, greedy, "
            "search:8it, learned:NAME (a shipped model that fits the preset)…"
        ),
    ] = "easy,medium,hard,expert",
    games: Annotated[
        int, typer.Option(help="Games per pair of levels (rounded up to whole groups).")
    ] = 40,
    players: Annotated[
        int | None, typer.Option(help="Seats at each table (default 4 where allowed).")
    ] = None,
    workers: Annotated[int, typer.Option(help="Parallel workers.")] = 1,
    backend: Annotated[str, typer.Option(help="local (processes) or ray.")] = "local",
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same games.")] = 0,
    max_turns: Annotated[
        int, typer.Option(help="Cap on a deal's turns (0: none; default: the game's).")
    ] = -1,
    results: Annotated[
        Path | None,
        typer.Option(
            help="JSONL file the games are appended to as they end; run again to go on "
            "(default: ladder-GAME-PRESET-sSEED.jsonl here)."
        ),
    ] = None,
    json_file: Annotated[
        Path | None, typer.Option("--json", help="Write the ratings (the shipped format) here.")
    ] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
) -> None:
    """Rate bot levels against each other: OpenSkill ratings and points per deal against
    medium, each with its 95% interval."""
    from rami.sim.backends import BACKENDS, run_tasks
    from rami.sim.ladder import (
        ResultLog,
        ladder_schedule,
        make_ladder,
        play_task,
        rate,
        rating_model,
    )

    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}: choose local or ray")
    if workers < 1:
        raise InputError("--workers must be at least 1")
    rating_model()  # OpenSkill is there: say so before the games, not after them
    config = make_ladder(
        game,
        preset=preset,
        levels=levels.split(","),
        players=players,
        seed=seed,
        max_turns=None if max_turns == 0 else max_turns,
    )
    jobs = ladder_schedule(config, games)
    if json_file is not None:
        check_writable(json_file)
    path = results or Path(f"ladder-{config.game}-{config.preset}-s{config.seed}.jsonl")
    log = ResultLog(path, config)
    log.load()
    todo = [job for job in jobs if log.get(job) is None]
    console = Console(stderr=True)
    started = time.perf_counter()
    stopped = False
    with progress_bar(console, quiet=quiet) as progress:
        task = progress.add_task(
            f"{config.game} {config.preset} ladder",
            total=len(jobs),
            completed=len(jobs) - len(todo),
        )

        def done(i: int, res: GameResult) -> None:
            log.append(todo[i].pair, res)
            progress.advance(task)

        try:
            run_tasks(
                play_task,
                [(config.table(job.pair), job.job) for job in todo],
                workers=workers,
                backend=backend,
                on_result=done,
            )
        except KeyboardInterrupt:
            stopped = True
    played = [(job, res) for job in jobs if (res := log.get(job)) is not None]
    if stopped:
        console.print(
            f"stopped: {len(played)} of {len(jobs)} games kept in {path}; "
            "the same command goes on from there"
        )
    report = rate(config, played)
    spec = get_game(config.game)
    out = Console()
    if out.width < 100:
        out = Console(width=100)
    table = Table(
        title=f"{config.game} {config.preset}, {config.players} seats: {report.games} games, "
        f"{report.groups} groups per pair"
    )
    table.add_column("level")
    table.add_column("rating (95% CI)", justify="right")
    direction = "higher" if spec.reward_sign > 0 else "lower"
    table.add_column(f"{spec.points_label} / deal vs {config.reference} ({direction} is better)")
    table.add_column("matches", justify="right")
    table.add_column("ms p95", justify="right")
    for s in sorted(report.levels, key=lambda s: -s.mu):
        low, high = s.ci95
        vs = s.versus_reference
        if vs is None:
            against = "–"
        else:
            against = "0 (the reference)" if s.level == config.reference else vs.text()
        table.add_row(
            s.level,
            f"{s.mu:.1f} [{low:.1f}, {high:.1f}]",
            against,
            str(s.matches),
            f"{s.times.percentile(0.95) * 1e3:.0f}",
        )
    out.print(table)
    for (a, b), est in report.pairs.items():
        verdict = "significant" if est.excludes_zero else "not significant"
        out.print(
            f"{a} − {b}: {est.text()} {spec.points_label} per deal ({est.n} groups, {verdict})"
        )
    out.print(f"{time.perf_counter() - started:.1f} s on {workers} worker(s); results in {path}")
    if json_file is not None:
        doc = report.to_json()
        doc["command"] = canonical_command(config, games)
        json_file.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", "utf-8")
    if stopped:
        raise SystemExit(130)
