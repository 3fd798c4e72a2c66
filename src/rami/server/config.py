"""Server settings: where the database lives and how the bots pace themselves."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from rami.server.ratelimit import RateLimits

__all__ = ["ServerConfig", "data_dir", "default_db_url"]


def data_dir() -> Path:
    """The user's data directory for rami (``$XDG_DATA_HOME/rami`` or its usual fallbacks)."""
    base = os.environ.get("XDG_DATA_HOME")
    if base:
        return Path(base) / "rami"
    if os.name == "nt" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "rami"
    return Path.home() / ".local" / "share" / "rami"


def default_db_url() -> str:
    """A SQLite file in the data directory, created on first start (zero set-up)."""
    path = data_dir()
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / 'rami.sqlite3'}"


@dataclass(frozen=True)
class ServerConfig:
    """How one server runs.

    ``bot_delay`` is the mean pause in seconds before a bot moves, so people can follow
    the play (0 in tests); each pause varies by ±40 % to feel natural. ``hint_level`` is
    the bot level that proposes a move when a player asks for a hint. ``db_busy_ms`` is how
    long a write waits for a locked SQLite database before the move is refused.
    ``public_url`` (``https://host[:port]``) is the base of the links the server hands
    out; None: the address the request came to, if its ``Host`` is this machine
    (``localhost``, a loopback address) or one of ``allowed_hosts``, else a link
    relative to the page (an arbitrary ``Host`` header never makes the links).
    ``seat_secret`` is the key of the seat codes (``rami.server.secret``); None: read or
    made at start-up in ``secret_file``, or beside the database.
    """

    db_url: str
    bot_delay: float = 0.9
    hint_level: str = "greedy"
    max_live_tables: int = 256
    db_busy_ms: int = 5000
    public_url: str | None = None
    rate_limits: RateLimits = field(default_factory=RateLimits)
    require_invite: bool = False
    allowed_hosts: tuple[str, ...] = ()
    seat_secret: bytes | None = field(default=None, repr=False)
    secret_file: str | None = None
