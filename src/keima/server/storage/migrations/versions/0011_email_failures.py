"""Emails that fail for good: a message that cannot be sent keeps its reason (``emails.error``) and is never
tried again; ``emails.created_at`` counts the verification emails of a day; an address whose mail bounces is marked
(``player_settings.email_bounced_at``) until the player gives another (keima.server.notifications.mailer).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("emails") as batch:
        batch.add_column(sa.Column("error", sa.String(300), nullable=True))
        batch.add_column(sa.Column("created_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("player_settings") as batch:
        batch.add_column(sa.Column("email_bounced_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("player_settings") as batch:
        batch.drop_column("email_bounced_at")
    with op.batch_alter_table("emails") as batch:
        batch.drop_column("created_at")
        batch.drop_column("error")
