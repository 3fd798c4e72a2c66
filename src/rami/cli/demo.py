"""``rami demo``: watch one seeded deal between random legal players.

Each game adds its own ``demo`` command (``Game.cli``).
"""

from __future__ import annotations

from typing import Annotated

import typer

demo_app = typer.Typer(
    help="Watch a seeded deal between random legal players.", no_args_is_help=True
)
SeedOpt = Annotated[int, typer.Option(help="Seed: the same seed gives the same deal.")]
