"""The ``rami`` command. Sub-commands live in small modules; this one assembles them
and turns every user error into one line on standard error with exit status 2."""

from __future__ import annotations

import sys
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated

import typer
from typer._click.core import Context
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer.core import TyperOption
from typer.exceptions import TyperException

from rami.cli import calc, demo, ladder, ledger, play, records, serve, simulate, train
from rami.cli.hooks import CliCommands
from rami.cli.review import review_command
from rami.games import all_games

_HELP = f"{' and '.join(g.title for g in all_games())}: play, score, analyse, simulate."

app = typer.Typer(
    name="rami",
    help=_HELP,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},  # sub-commands inherit it
)


def _flag_type(self: TyperOption, ctx: Context) -> str | None:
    """Help shows no ``<bool>`` type for on/off flags (``--ascii``, ``--quiet/--no-quiet``)."""
    return None if self.is_flag else _option_type(self, ctx)


_option_type = TyperOption.display_type_rich
setattr(TyperOption, "display_type_rich", _flag_type)  # noqa: B010


def _version(value: bool) -> None:
    if value:
        from rami.accel import describe  # imports the solvers: only when asked

        try:
            print(f"rami {version('rami')} ({describe()})")
        except PackageNotFoundError:
            print(f"rami (not installed; {describe()})")
        raise typer.Exit()


@app.callback()
def _main(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Play, score, analyse and simulate rami's games (``rami --help`` lists them)."""


def _add_game_commands() -> None:
    """Every registered game's own sub-commands (``Game.cli``), under the game's name;
    a game without its own ``play`` gets the generic one."""
    for game in all_games():
        commands = game.cli() if game.cli is not None else CliCommands()
        for group, command in (
            (calc.score_app, commands.score),
            (calc.analyze_app, commands.analyze),
            (demo.demo_app, commands.demo),
            (play.play_app, commands.play or play.generic_play(game)),
        ):
            if command is not None:
                group.command(game.name)(command)


_add_game_commands()
app.add_typer(calc.score_app, name="score")
app.add_typer(calc.analyze_app, name="analyze")
app.add_typer(demo.demo_app, name="demo")
app.add_typer(play.play_app, name="play")
app.add_typer(ledger.ledger_app, name="ledger")
app.command("review")(review_command)
app.command(name="serve")(serve.serve)
app.command("simulate")(simulate.simulate)
app.command("ladder")(ladder.ladder)
app.command("train")(train.train)
app.command("record")(records.record)
app.command("verify")(records.verify)
app.command("export")(records.export)


def fail(message: str) -> None:
    """Print one line on standard error and exit with status 2."""
    first = message.strip().splitlines()[0] if message.strip() else "bad input"
    print(f"error: {first}", file=sys.stderr)
    raise SystemExit(2)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script."""
    try:
        code = app(args=argv, standalone_mode=False)
    except NoArgsIsHelpError as exc:
        print(exc.format_message())
        raise SystemExit(0) from None
    except UsageError as exc:
        hint = f" (see: {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
        fail(exc.format_message() + hint)
    except TyperException as exc:
        fail(exc.format_message())
    except typer.Abort:
        print("aborted", file=sys.stderr)
        raise SystemExit(130) from None
    except ValueError as exc:  # CardError, InputError, IllegalAction
        fail(str(exc))
    except OSError as exc:
        fail(f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": "))
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except RecursionError:  # a document nested deeper than a check foresaw (issue 23)
        fail("the input is nested too deeply")
    if isinstance(code, int) and code:
        raise SystemExit(code)
