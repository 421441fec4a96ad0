"""Tournaments: each tournament's engine state, its directors, the accounts of its players, its online games and
the log of every change.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
    )
    op.create_table(
        "tournament_directors",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("role", sa.String(16), nullable=False),
    )
    op.create_table(
        "tournament_accounts",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("player_key", sa.String(120), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.UniqueConstraint("tournament_id", "player_id", name="uq_tournament_accounts_player"),
    )
    op.create_table(
        "tournament_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_number", sa.Integer, nullable=False),
        sa.Column("fixed_result", sa.String(16), nullable=True),
        sa.UniqueConstraint("tournament_id", "round", "table_number", name="uq_tournament_games_table"),
    )
    op.create_table(
        "tournament_log",
        sa.Column("seq", _BigId, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("by_name", sa.String(64), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("detail", sa.JSON, nullable=False),
    )
    op.create_index("ix_tournament_log_tournament_id", "tournament_log", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_log_tournament_id", "tournament_log")
    for name in ("tournament_log", "tournament_games", "tournament_accounts", "tournament_directors", "tournaments"):
        op.drop_table(name)
