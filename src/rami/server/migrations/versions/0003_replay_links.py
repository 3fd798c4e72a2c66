"""Replay links: each table's secret public link ``/r/{id}`` and its privacy (issue 24).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rami_replay_links",
        sa.Column("link", sa.String(32), primary_key=True),
        sa.Column(
            "table_id", sa.Integer, sa.ForeignKey("rami_tables.id"), unique=True, nullable=False
        ),
        sa.Column("creator_seat", sa.Integer, nullable=True),
        sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rami_replay_links")
