"""Clubs (issue 46): a club, its members and their ladder places, its ladder challenges, its announcements, the
FFG rating-list lines proposed to its members, the challenges offered to its members only
(keima.server.storage.clubs_tables, keima.server.clubs), and an automatch wait for a club's members only
(``automatch.club``).

Revision ID: 0013_clubs
Revises: 0012_moderation
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_clubs"
down_revision = "0012_moderation"
branch_labels = None
depends_on = None

# Frozen here: this revision creates exactly these tables whatever the live schema becomes.
_BIG = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("slug", sa.String(48), nullable=False, unique=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("code", sa.String(8), nullable=True),
        sa.Column("city", sa.String(80), nullable=False),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("link", sa.String(300), nullable=True),
        sa.Column("created_by", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("invite_code", sa.String(32), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
    )
    op.create_index("ix_clubs_code", "clubs", ["code"])
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("place", sa.Integer, nullable=True),
        sa.Column("licence", sa.String(16), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_club_members_player_id", "club_members", ["player_id"])
    op.create_table(
        "club_challenges",
        sa.Column("id", _BIG, primary_key=True, autoincrement=True),
        sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("challenger", sa.String(32), nullable=False),
        sa.Column("defender", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("result", sa.String(32), nullable=True),
    )
    op.create_index("ix_club_challenges_club_id", "club_challenges", ["club_id", "status"])
    op.create_index("ix_club_challenges_game_id", "club_challenges", ["game_id"])
    op.create_table(
        "club_announcements",
        sa.Column("id", _BIG, primary_key=True, autoincrement=True),
        sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
    )
    op.create_index("ix_club_announcements_club_id", "club_announcements", ["club_id", "id"])
    op.create_table(
        "club_imports",
        sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("licence", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("rank", sa.String(4), nullable=True),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
    )
    op.create_index("ix_club_imports_player_id", "club_imports", ["player_id"])
    op.create_table(
        "club_games",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("invite_code", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_club_games_club_id", "club_games", ["club_id", "created_at"])
    # An automatch wait for a club's members only (keima.server.automatch.pairs: ``Entry.club``).
    with op.batch_alter_table("automatch") as batch:
        batch.add_column(sa.Column("club", sa.String(48), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("automatch") as batch:
        batch.drop_column("club")
    for table in ("club_games", "club_imports", "club_announcements", "club_challenges", "club_members", "clubs"):
        op.drop_table(table)
