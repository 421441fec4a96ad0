"""Automatch and rating changes: the queue of players waiting for a game, and each rated game's rating changes.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "automatch",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("registered", sa.Boolean, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("sizes", sa.JSON, nullable=False),
        sa.Column("speed", sa.String(16), nullable=False),
        sa.Column("rules", sa.String(40), nullable=False),
        sa.Column("handicap", sa.Boolean, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("matched_at", sa.Float, nullable=True),
    )
    # Rebuilt by `keima ratings recompute` with the ratings: nothing to fill from older games here.
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("black", sa.Float, nullable=False),
        sa.Column("white", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("automatch")
