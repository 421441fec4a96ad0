"""Correspondence games and notifications: each player's settings (time zone, vacation, email and what to be told),
their notifications, the emails waiting to be sent, and the players' conditional moves.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    # One row per player who changed a setting or went on vacation; a player without one has the defaults.
    op.create_table(
        "player_settings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("time_zone", sa.String(64), nullable=True),
        sa.Column("vacation_left", sa.Float, nullable=True),
        sa.Column("vacation_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("vacation_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("email_verified", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("lang", sa.String(8), nullable=True),
        sa.Column("notify", sa.JSON, nullable=True),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "notifications",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("read", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("mailed", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Index("ix_notifications_player_id", "player_id", "id"),
    )
    op.create_table(
        "emails",
        sa.Column("message_id", sa.String(200), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("message", sa.Text, nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tries", sa.Integer, nullable=False, server_default="0"),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Index("ix_emails_due_at", "due_at"),
    )
    op.create_table(
        "conditional_moves",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("color", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("tree", sa.JSON, nullable=False),
    )
    # The notifications subscriber starts at the outbox's head: the games finished before it are told to nobody.
    op.execute("INSERT INTO event_progress (subscriber, last_seq) "
               "SELECT 'notifications', COALESCE(MAX(seq), 0) FROM game_outbox")


def downgrade() -> None:
    op.execute("DELETE FROM event_progress WHERE subscriber = 'notifications'")
    op.drop_table("conditional_moves")
    op.drop_table("emails")
    op.drop_table("notifications")
    op.drop_table("player_settings")
