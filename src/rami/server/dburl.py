"""Turn what a user passes as ``--db`` into a database URL, or one clear error.

A plain path (no ``scheme://``) means a SQLite file. Every fault a user can make is
found before the server starts: a folder instead of a file, a missing folder, an unknown
kind of database, a missing driver (PostgreSQL needs the ``postgres`` extra), or a
database that does not answer.
"""

from __future__ import annotations

from pathlib import Path

from rami.errors import InputError

__all__ = ["check_db", "resolve_db_url"]

_KINDS = "a file path, sqlite:///FILE or postgresql://USER@HOST/DB"


def _sqlite_file(path: Path) -> str:
    path = path.expanduser()
    if path.is_dir():
        raise InputError(f"--db {path} is a folder, not a database file")
    if not path.parent.is_dir():
        raise InputError(f"--db {path}: the folder {path.parent} does not exist")
    return f"sqlite:///{path.resolve()}"


def resolve_db_url(given: str) -> str:
    """The SQLAlchemy URL for ``given`` (``InputError`` with one line if it cannot work)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    text = given.strip()
    if not text:
        raise InputError(f"--db is empty: give {_KINDS}")
    if "://" not in text:
        return _sqlite_file(Path(text))
    try:
        url = make_url(text)
    except ArgumentError:
        raise InputError(f"--db {text!r} is not a database URL: give {_KINDS}") from None
    try:
        dialect = url.get_dialect()
    except NoSuchModuleError:
        raise InputError(
            f"--db: unknown kind of database {url.drivername!r}: give {_KINDS}"
        ) from None
    try:
        dialect.import_dbapi()
    except ImportError as exc:
        extra = " (pip install 'rami[postgres]')" if url.get_backend_name() == "postgresql" else ""
        raise InputError(
            f"--db: {url.get_backend_name()} needs its driver, {exc.name or 'missing'} is not "
            f"installed{extra}"
        ) from None
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        return _sqlite_file(Path(url.database))
    return text


def check_db(url: str) -> None:
    """Connect once, so a database that does not answer is reported before start-up."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import SQLAlchemyError

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        first = reason[0] if reason else str(exc)
        raise InputError(f"--db: cannot open the database: {first}") from None
    finally:
        engine.dispose()
