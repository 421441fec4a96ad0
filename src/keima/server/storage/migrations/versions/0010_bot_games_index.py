"""A bot level's games by level: its player page lists them and counts its record (keima.server.ratings.bot_players).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_games_bot_level", "games", ["bot_level", "updated_at"])


def downgrade() -> None:
    op.drop_index("ix_games_bot_level", table_name="games")
