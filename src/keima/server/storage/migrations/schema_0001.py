"""The tables as revision 0001 creates them, defined once for two readers.

Revision 0001 (``versions/0001_initial.py``) creates exactly these tables, and ``keima.server.storage.store`` uses them
as its live schema. That sharing is sound only while 0001 is the newest revision, and only for 0001: a
migration must not change when the live schema does (a database created by an older keima must be brought up by
the very steps it would have taken). So this module is frozen: a later revision that changes a table writes its
own ``op`` steps, and ``store.py`` then defines the new live tables itself instead of importing these.
``tests/server/storage/test_persistence.py`` checks that the migrated database and ``store.metadata`` agree.
"""

from __future__ import annotations

import sqlalchemy as sa


def define(metadata: sa.MetaData) -> tuple[sa.Table, sa.Table]:
    """Add the ``games`` and ``game_log`` tables of revision 0001 to ``metadata``; returns them."""
    games = sa.Table(
        "games",
        metadata,
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
        sa.Index("ix_games_updated_at", "updated_at"),
    )
    game_log = sa.Table(
        "game_log",
        metadata,
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("entry", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    return games, game_log
