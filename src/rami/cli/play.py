"""``rami play``: play a match against bots in the terminal, or resume a saved one."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from rami.errors import InputError
from rami.games import Game, all_games, game_names

play_app = typer.Typer(
    help=f"Play against bots in the terminal ({' or '.join(g.title for g in all_games())}).",
    invoke_without_command=True,
    no_args_is_help=True,
)

LevelOpt = Annotated[str, typer.Option(help="Bot strength: easy, medium, hard or expert.")]


def level_help(game: str) -> str:
    """``--level`` help with each level's measured rating per preset (the shipped ladder,
    ``rami.bots.strength``), so the player sees how strong a bot is where they pick it."""
    from rami.bots.strength import strength_line

    spec = next((g for g in all_games() if g.name == game), None)
    base = "Bot strength: easy, medium, hard or expert."
    if spec is None:
        return base
    measured = strength_line(spec.name, spec.presets, ("easy", "medium", "hard", "expert"))
    if not measured:
        return base
    return (
        f"{base} Measured OpenSkill ratings with 95% intervals (rami ladder; "
        f"docs/bots.md): {measured}."
    )


def level_option(game: str) -> object:
    """The ``--level`` option of a game's ``rami play`` (help from ``level_help``)."""
    return typer.Option(help=level_help(game))


SeedOpt = Annotated[
    int | None, typer.Option(help="Seed: the same seed deals the same cards. Default: random.")
]
AsciiOpt = Annotated[
    bool, typer.Option("--ascii", help="ASCII only, no colour (cards as 10C, QH).")
]
DelayOpt = Annotated[
    float | None,
    typer.Option(help="Seconds to show each bot turn (default 0.5, or $RAMI_PLAY_DELAY)."),
]
MaxTurnsOpt = Annotated[
    int | None, typer.Option("--max-turns", help="End a deal with no winner after this many turns.")
]


@play_app.callback()
def play_main(
    ctx: typer.Context,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Resume a saved match: 'rami play --resume' asks which when there are "
            f"several; 'rami play --resume {game_names()[-1]}' resumes that game's.",
        ),
    ] = False,
    ascii: AsciiOpt = False,
    delay: DelayOpt = None,
) -> None:
    """Play a whole match against bots: `rami play GAME` (see the commands below)."""
    if ctx.invoked_subcommand is not None:
        if resume:
            from rami.play.saves import save_path

            path = save_path(ctx.invoked_subcommand)
            if not path.is_file():
                raise InputError(
                    f"no saved {ctx.invoked_subcommand} match to resume (looked for {path})"
                )
            _resume(ascii, delay, path)
        return
    if not resume:
        typer.echo(ctx.get_help())
        return
    _resume(ascii, delay, _choose_save())


def _choose_save() -> Path:
    """The save to resume: the only one, or the one the player picks (latest by default)."""
    import sys

    from rami.play.saves import latest_save, saved_games

    saves = saved_games()
    if len(saves) <= 1 or not sys.stdin.isatty():
        return latest_save()
    typer.echo("Saved matches (latest first):")
    for i, (path, when) in enumerate(saves, 1):
        typer.echo(f"  {i}. {path.stem.removeprefix('play-')}  saved {when}")
    answer = typer.prompt("Resume which?", default="1")
    if not answer.strip().isdigit() or not 1 <= int(answer) <= len(saves):
        raise InputError(f"choose a number from 1 to {len(saves)}")
    return saves[int(answer) - 1][0]


def generic_play(spec: Game) -> Callable[..., None]:
    """``rami play NAME`` for a registered game that brings no play command of its own."""
    presets = ", ".join(spec.presets)

    def play(
        preset: str = typer.Option(
            spec.presets[0], f"--{spec.preset_label}", help=f"{spec.title}: {presets}."
        ),
        players: int | None = typer.Option(None, help="Players, you included."),
        level: str = typer.Option(
            "medium" if spec.bots is not None else "random", help=level_help(spec.name)
        ),
        seed: SeedOpt = None,
        ascii: AsciiOpt = False,
        delay: DelayOpt = None,
        max_turns: MaxTurnsOpt = None,
    ) -> None:
        start(spec.name, preset, players, level, seed, ascii, delay, max_turns)

    play.__doc__ = f"{spec.title} against bots."
    return play


def start(
    game: str,
    preset: str,
    players: int | None,
    level: str,
    seed: int | None,
    ascii: bool,
    delay: float | None,
    max_turns: int | None,
) -> None:
    """Start a new match of ``game`` against bots (each game's ``play`` command)."""
    from rami.games import get_game
    from rami.play.saves import save_path
    from rami.play.session import LEVELS, Session, Settings, default_delay

    spec = get_game(game)
    levels = LEVELS if spec.bots is not None else ("random",)  # no bot kit: random only
    if level.startswith("learned:"):  # a model shipped for this game and mode
        from rami.bots.learned import learned_levels

        levels = (*levels, *learned_levels(spec.name, preset=preset))
    if level not in levels:
        raise InputError(f"unknown level {level!r}: choose one of {', '.join(levels)}")
    if preset not in spec.presets:
        raise InputError(
            f"unknown {spec.preset_label} {preset!r}: choose one of {', '.join(spec.presets)}"
        )
    if max_turns is not None and max_turns < 1:
        raise InputError("--max-turns must be at least 1")
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    rules: object = preset if max_turns is None else {"preset": preset, "max_turns": max_turns}
    match = spec.new_match(rules, players, seed)
    settings = Settings(game, level, seed, 0, ascii, _delay(delay, default_delay))
    old = save_path(game)
    session = Session(match, settings)
    if old.exists():
        backup = old.with_name(f"previous-{old.name}")
        old.replace(backup)
        session.screen.notes.append(
            ("plain", f"Your earlier saved {spec.title} match was moved to {backup.name}.")
        )
    _line_editing()
    raise typer.Exit(session.run())


def _resume(ascii: bool, delay: float | None, path: Path) -> None:
    from rami.games import get_game
    from rami.play.saves import SavedGame
    from rami.play.session import Session, Settings, default_delay

    saved = SavedGame.read(path)
    spec = get_game(saved.game)
    match = spec.match_from_json(saved.match)
    settings = Settings(
        saved.game,
        saved.level,
        saved.seed,
        saved.human,
        ascii or saved.ascii,
        _delay(delay, default_delay),
    )
    _line_editing()
    raise typer.Exit(Session(match, settings).run())


def _line_editing() -> None:
    """Arrow keys and history at the prompt where the platform has ``readline``."""
    with contextlib.suppress(ImportError):  # no readline on Windows
        import readline  # noqa: F401 - importing it is what turns editing on


def _delay(given: float | None, default: Callable[[], float]) -> float:
    if given is None:
        return float(default())
    if given < 0:
        raise InputError("--delay must not be negative")
    return given
