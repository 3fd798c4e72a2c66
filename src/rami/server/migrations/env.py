"""Alembic environment: runs on the connection that ``rami.server.db.upgrade`` passes in."""

from __future__ import annotations

from alembic import context

from rami.server.storage import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - rami always passes its connection
    raise RuntimeError("run migrations through rami.server.db.upgrade(engine)")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
