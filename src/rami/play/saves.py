"""Saved matches of ``rami play``: one file per game in the user's data directory.

The data directory is ``$XDG_DATA_HOME/rami`` (default ``~/.local/share/rami``;
``%APPDATA%\\rami`` on Windows). A save holds the match's own ``to_json`` document
(rules, seed and every move, so the match replays exactly) and the table settings:
bot level, the human's seat, the seed the bots derive from. ``rami play --resume``
loads the most recent one.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from rami.errors import InputError
from rami.games import game_names

__all__ = ["SAVE_FORMAT", "SavedGame", "data_dir", "latest_save", "save_path", "saved_games"]

SAVE_FORMAT = "rami-play/1"


def data_dir() -> Path:
    """Where ``rami`` keeps its files for this user."""
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "rami"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rami"


def save_path(game: str) -> Path:
    """The save file of ``game`` (one saved match per game)."""
    return data_dir() / f"play-{game}.json"


@dataclass
class SavedGame:
    """A match in progress with the settings needed to seat the same bots again."""

    game: str
    level: str
    seed: int
    human: int
    ascii: bool
    match: dict[str, object]

    def to_json(self) -> dict[str, object]:
        return {
            "format": SAVE_FORMAT,
            "game": self.game,
            "level": self.level,
            "seed": self.seed,
            "human": self.human,
            "ascii": self.ascii,
            "match": self.match,
        }

    def write(self) -> Path:
        """Write atomically (a new file renamed over the old), so a crash never truncates."""
        path = save_path(self.game)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.to_json(), ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)
        return path

    @classmethod
    def read(cls, path: Path) -> SavedGame:
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputError(f"cannot read the saved game {path}: {exc}") from None
        if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
            raise InputError(f"{path} is not a game saved by this version of rami play")
        try:
            return cls(
                game=str(doc["game"]),
                level=str(doc["level"]),
                seed=int(doc["seed"]),
                human=int(doc["human"]),
                ascii=bool(doc.get("ascii", False)),
                match=dict(doc["match"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"the saved game {path} is damaged ({exc})") from None


def latest_save() -> Path:
    """The most recently saved match; ``InputError`` if there is none."""
    folder = data_dir()
    saves = sorted(folder.glob("play-*.json"), key=lambda p: p.stat().st_mtime)
    if not saves:
        raise InputError(
            f"no saved game to resume (looked in {folder}); "
            f"start one with 'rami play {game_names()[0]}'"
        )
    return saves[-1]


def saved_games() -> list[tuple[Path, str]]:
    """Every saved match, latest first, with when it was saved (local time, to the minute)."""
    import time

    folder = data_dir()
    saves = sorted(folder.glob("play-*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    return [(p, time.strftime("%Y-%m-%d %H:%M", time.localtime(p.stat().st_mtime))) for p in saves]
