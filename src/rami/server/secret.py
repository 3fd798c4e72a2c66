"""The server's secret key: what makes seat codes impossible to compute from the database.

A seat code is an HMAC of the seat's stored token hash under this key (``seat_timer``),
so whoever reads the database (a leaked backup, a shared PostgreSQL) learns no seat code
and cannot act for any seat (issue 23). The key is never stored in the database:

- ``--secret-file PATH`` (``ServerConfig.secret_file``), else ``$RAMI_SECRET_FILE``,
  names the file that holds it;
- otherwise a SQLite database ``rami.sqlite3`` keeps it beside itself in
  ``rami.sqlite3.secret``, and any other database in the data folder
  (``$XDG_DATA_HOME/rami/server.secret``);
- an in-memory SQLite database (tests) gets a key of its own for the process.

The file is made on first start (32 random bytes, written as 64 hex digits, mode 0600,
put in place with ``os.link`` so that processes starting together agree). Several processes
serving one PostgreSQL database must be given the same file. Losing or replacing it
changes every seat code (tokens and private links keep working; players see their new
code at the table).
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from sqlalchemy.engine import make_url

from rami.errors import InputError
from rami.server.config import data_dir

__all__ = ["SECRET_BYTES", "SECRET_ENV", "load_secret", "secret_path"]

SECRET_BYTES = 32
SECRET_ENV = "RAMI_SECRET_FILE"


def secret_path(db_url: str, secret_file: str | Path | None = None) -> Path | None:
    """Where the key of the server on ``db_url`` lives (None: in memory only)."""
    if secret_file is None:
        secret_file = os.environ.get(SECRET_ENV) or None
    if secret_file is not None:
        return Path(secret_file).expanduser()
    url = make_url(db_url)
    if url.get_backend_name() == "sqlite":
        if not url.database or url.database == ":memory:":
            return None
        return Path(f"{url.database}.secret")
    return data_dir() / "server.secret"


def load_secret(path: Path | None) -> bytes:
    """The key in ``path``, made there if the file does not exist (``InputError`` if it
    cannot be read or made, or holds something else than a key)."""
    if path is None:
        return secrets.token_bytes(SECRET_BYTES)
    if not path.exists():
        _make(path)
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "it is not text"
        raise InputError(f"cannot read the secret file {path}: {reason}") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) < 16:
        raise InputError(
            f"the secret file {path} does not hold a key (at least 32 hex digits); "
            "delete it to make a new one (seat codes then change)"
        )
    return key


def _make(path: Path) -> None:
    """Write a new key to ``path`` whole, unless another process was first."""
    spare = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(spare, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_bytes(SECRET_BYTES).hex() + "\n")
        with contextlib.suppress(FileExistsError):  # another process was first: its key
            os.link(spare, path)
    except OSError as exc:
        raise InputError(f"cannot make the secret file {path}: {exc.strerror or exc}") from None
    finally:
        spare.unlink(missing_ok=True)
