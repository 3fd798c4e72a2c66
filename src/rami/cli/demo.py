"""``rami demo``: watch one seeded deal between random legal players."""

from __future__ import annotations

from typing import Annotated

import typer

demo_app = typer.Typer(
    help="Watch a seeded deal between random legal players.", no_args_is_help=True
)
SeedOpt = Annotated[int, typer.Option(help="Seed: the same seed gives the same deal.")]


@demo_app.command("marriage")
def demo_marriage(
    seed: SeedOpt = 1,
    players: Annotated[int, typer.Option(help="Number of players.")] = 4,
    rules: Annotated[str, typer.Option(help="Rules preset: nepali or indian.")] = "nepali",
) -> None:
    """One Marriage deal: every move, the tiplu, each player's maal, the settlement."""
    from rami.marriage.demo import run_demo

    run_demo(seed, players=players, rules=rules)


@demo_app.command("tunisian")
def demo_tunisian(
    seed: SeedOpt = 1,
    mode: Annotated[str, typer.Option(help="1v1, ffa or 2v2.")] = "ffa",
    whole_game: Annotated[
        bool, typer.Option("--game", help="Play a whole game, not one deal.")
    ] = False,
) -> None:
    """One Tunisian rami deal (or a whole game): every move, openings, points and totals."""
    from rami.tunisian.demo import run_demo

    run_demo(seed, mode=mode, whole_game=whole_game)
