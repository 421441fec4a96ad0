"""Ratings: each rated player's Glicko-2 values and their history, one row per rated game.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Empty at first: the ratings subscriber starts from the first outbox event (its progress is 0), so the games
    # finished before this revision are rated in order by the first delivery, like `keima ratings recompute`.
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rating_history")
    op.drop_table("ratings")
