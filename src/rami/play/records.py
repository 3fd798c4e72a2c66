"""``rami play`` records: each match's ``.rami`` record (docs/records.md), written at every
deal's end to ``<data dir>/records/`` and exported from a saved match (``rami export``)."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

from rami.games import Match, get_game
from rami.play.render import seat_names
from rami.play.saves import SavedGame, data_dir, latest_save, save_path
from rami.records import MatchRecord, SeatInfo, match_record, write

__all__ = ["record_path", "saved_record", "session_record", "write_session_record"]


def _seats(match: Match, human: int, level: str) -> list[SeatInfo]:
    players = match.current.num_players
    teams = bool(match.current.view(None).get("teams"))
    names = seat_names(players, human, (human + 2) % players if teams else None)
    return [
        SeatInfo(names[s], "human") if s == human else SeatInfo(names[s], "bot", level)
        for s in range(players)
    ]


def _now(stamp: float | None = None) -> str:
    return datetime.fromtimestamp(stamp or time.time(), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def session_record(
    game: str, match: Match, human: int, level: str, seed: int, date: str | None = None
) -> MatchRecord:
    """The record of a terminal match (the deal in play stays hidden until it is over)."""
    spec = get_game(game)
    return match_record(spec, match, _seats(match, human, level), seed=seed, date=date or _now())


def record_path(game: str, seed: int) -> Path:
    """Where a terminal match's record is kept: one file per match."""
    return data_dir() / "records" / f"{game}-{seed}.rami"


def write_session_record(game: str, match: Match, human: int, level: str, seed: int) -> Path:
    """Write (or rewrite) the match's record; its path."""
    path = record_path(game, seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = write(session_record(game, match, human, level, seed))
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


def saved_record(game: str | None = None) -> MatchRecord:
    """The record of the match ``rami play`` saved for ``game`` (default: the latest save)."""
    path = save_path(get_game(game).name) if game is not None else latest_save()
    saved = SavedGame.read(path)
    spec = get_game(saved.game)
    match = spec.match_from_json(saved.match)
    date = _now(path.stat().st_mtime)
    return session_record(saved.game, match, saved.human, saved.level, saved.seed, date)
