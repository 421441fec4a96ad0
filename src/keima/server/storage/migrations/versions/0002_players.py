"""Players, their sessions, seats of games held by players, server settings.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from keima.server.storage.migrations import schema_0001, schema_0002

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # 0001's tables are defined only so that the foreign key to games resolves; only 0002's are created.
    metadata = sa.MetaData()
    schema_0001.define(metadata)
    tables = schema_0002.define(metadata)
    metadata.create_all(op.get_bind(), tables=list(tables), checkfirst=False)


def downgrade() -> None:
    op.drop_table("server_settings")
    op.drop_table("game_players")
    op.drop_table("player_sessions")
    op.drop_index("ix_players_name_key", table_name="players")
    op.drop_table("players")
