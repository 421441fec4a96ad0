"""Initial schema: games and their logs.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("params", sa.JSON, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("clock", sa.JSON, nullable=False),
        sa.Column("bot_color", sa.Integer, nullable=True),
        sa.Column("bot_level", sa.String(40), nullable=True),
        sa.Column("seat_b", sa.String(64), nullable=True),
        sa.Column("seat_w", sa.String(64), nullable=True),
        sa.Column("invite_hash", sa.String(64), nullable=True),
        sa.Column("invite_color", sa.Integer, nullable=True),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("result", sa.String(32), nullable=True),
    )
    op.create_table(
        "game_log",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("entry", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_games_updated_at", "games", ["updated_at"])


def downgrade() -> None:
    op.drop_index("ix_games_updated_at", table_name="games")
    op.drop_table("game_log")
    op.drop_table("games")
