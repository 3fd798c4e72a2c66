"""Schema creation and upgrades with Alembic (``rami/server/migrations``).

``upgrade(engine)`` brings any database to the latest revision when the server starts:
a new database gets the whole schema, one made before migrations existed (same tables,
no ``alembic_version``) is stamped as revision 0001 first. On PostgreSQL an advisory
lock makes processes starting together take turns.
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, inspect, text

__all__ = ["MIGRATIONS_LOCK", "alembic_config", "upgrade"]

MIGRATIONS_LOCK = 7_346_001  # pg_advisory_lock key held while migrating


def alembic_config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", "rami.server:migrations")
    config.attributes["connection"] = connection
    return config


def upgrade(engine: Engine) -> None:
    """Create or upgrade the schema to the latest revision."""
    with engine.connect() as conn:
        postgres = conn.dialect.name == "postgresql"
        if postgres:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": MIGRATIONS_LOCK})
            conn.commit()
        try:
            names = set(inspect(conn).get_table_names())
            config = alembic_config(conn)
            if "rami_tables" in names and "alembic_version" not in names:
                command.stamp(config, "0001")
            command.upgrade(config, "head")
            conn.commit()
        finally:
            if postgres:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": MIGRATIONS_LOCK})
                conn.commit()
