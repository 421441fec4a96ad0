"""Game events: the players of the day and the lobby line on ``games``, the outbox of events, the subscribers'
progress, the players' records and the durable scheduler.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.add_column("games", sa.Column("people", sa.JSON, nullable=True))
    op.add_column("games", sa.Column("summary", sa.JSON, nullable=True))
    op.create_table(
        "game_outbox",
        sa.Column("seq", BigId, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "event_progress",
        sa.Column("subscriber", sa.String(40), primary_key=True),
        sa.Column("last_seq", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "player_records",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("won", sa.Integer, nullable=False),
        sa.Column("lost", sa.Integer, nullable=False),
        sa.Column("drawn", sa.Integer, nullable=False),
    )
    op.create_table(
        "scheduled_jobs",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_scheduled_jobs_due_at", "scheduled_jobs", ["due_at"])
    # The games already stored get their players of the day from the players' table as it is now, and their lobby
    # line on first use (keima.server.lobby.lobby fills a missing one once, from the log).
    conn = op.get_bind()
    rows = conn.execute(sa.text(
        "SELECT gp.game_id, gp.color, p.id, p.name, p.rank FROM game_players gp JOIN players p ON p.id = gp.player_id"
    )).all()
    people: dict[str, dict[str, dict[str, str | None]]] = {}
    for game_id, color, pid, name, rank in rows:
        people.setdefault(game_id, {})["B" if color == 1 else "W"] = {"id": pid, "name": name, "rank": rank}
    games = sa.table("games", sa.column("id", sa.String), sa.column("people", sa.JSON))
    for game_id, seated in people.items():
        conn.execute(games.update().where(games.c.id == game_id).values(people=seated))


def downgrade() -> None:
    op.drop_index("ix_scheduled_jobs_due_at", table_name="scheduled_jobs")
    op.drop_table("scheduled_jobs")
    op.drop_table("player_records")
    op.drop_table("event_progress")
    op.drop_table("game_outbox")
    # Plain ALTER TABLE ... DROP COLUMN (SQLite 3.35 and later have it): a batch migration would copy ``games``
    # into a new table and drop the old one, and dropping it would delete every game's log by cascade.
    op.execute("ALTER TABLE games DROP COLUMN summary")
    op.execute("ALTER TABLE games DROP COLUMN people")
