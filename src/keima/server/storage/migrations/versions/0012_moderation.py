"""Moderation and fair play: blocks, the players' standing (mute, suspension, ban), moderators, reports, the
moderators' audit log, the abandoned live games and the annulled games (keima.server.storage.moderation_tables; docs/moderation.md).

Revision ID: 0012_moderation
Revises: 0011
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_moderation"
down_revision = "0011"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "blocks",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("blocked_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "player_standing",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("suspended_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("banned", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("reason", sa.String(500), nullable=False, server_default=""),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "moderators",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.String(32), nullable=False),
        sa.Column("target", sa.String(120), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("quote", sa.String(600), nullable=True),
        sa.Column("reason", sa.String(20), nullable=False),
        sa.Column("text", sa.String(1000), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("handled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("handled_by", sa.String(32), nullable=True),
        sa.UniqueConstraint("reporter_id", "target", name="uq_reports_reporter_target"),
    )
    op.create_index("ix_reports_handled_at", "reports", ["handled_at"])
    op.create_table(
        "moderation_log",
        sa.Column("id", BigId, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("moderator_id", sa.String(32), nullable=False),
        sa.Column("moderator_name", sa.String(80), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("player_name", sa.String(80), nullable=True),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("report_id", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_moderation_log_player_id", "moderation_log", ["player_id"])
    op.create_table(
        "abandonments",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("outcome", sa.String(8), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_abandonments_player_id", "abandonments", ["player_id"])
    op.create_table(
        "annulled_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for table in ("annulled_games", "abandonments", "moderation_log", "reports", "moderators", "player_standing", "blocks"):
        op.drop_table(table)
