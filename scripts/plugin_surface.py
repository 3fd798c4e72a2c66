"""Count the plug-in surface: the slots of ``rami.games.Game`` and of the hook records a
game may fill (issue 22's "hook slots"), required and optional, and the lines a game's
registration takes.

    PYTHONPATH=src python scripts/plugin_surface.py
"""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

RECORDS = (
    ("rami.games", "Game"),
    ("rami.cli.hooks", "CliCommands"),
    ("rami.cli.hooks", "LedgerPrompts"),
    ("rami.play.hooks", "TerminalHooks"),
    ("rami.review.hooks", "ReviewHooks"),
    ("rami.rl.hooks", "OpenSpielHooks"),
    ("rami.server.hooks", "WebHooks"),
)
ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    total = required = 0
    for module, name in RECORDS:
        record = getattr(importlib.import_module(module), name)
        fields = dataclasses.fields(record)
        needed = [
            f
            for f in fields
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        ]
        total += len(fields)
        required += len(needed)
        print(f"{name:16} {len(fields):3} slots, {len(needed):2} required")
    print(f"{'in all':16} {total:3} slots, {required:2} required")
    for path in sorted((ROOT / "src" / "rami").glob("*/registration.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        print(f"{path.relative_to(ROOT)}: {lines} lines")
    toy = [*(ROOT / "tests" / "toy_game").glob("*.py"), ROOT / "tests" / "toy_support.py"]
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in toy)
    print(f"the toy game (tests/toy_game, toy_support.py): {lines} lines")


if __name__ == "__main__":
    main()
