"""Initial schema: games and their logs.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from keima.server.storage.migrations import schema_0001

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    # The frozen definition of this revision's tables (see schema_0001 for why it is shared with store.py).
    metadata = sa.MetaData()
    schema_0001.define(metadata)
    metadata.create_all(op.get_bind(), checkfirst=False)


def downgrade() -> None:
    op.drop_index("ix_games_updated_at", table_name="games")
    op.drop_table("game_log")
    op.drop_table("games")
