"""Demo boards (issue 45): the ``boards`` table (keima.server.storage.boards_tables).

Revision ID: 0014_boards
Revises: 0013_clubs
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_boards"
down_revision = "0013_clubs"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "boards",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("title", sa.String(100), nullable=False),
        sa.Column("visibility", sa.String(8), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
    )
    op.create_index("ix_boards_owner", "boards", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_boards_owner", table_name="boards")
    op.drop_table("boards")
