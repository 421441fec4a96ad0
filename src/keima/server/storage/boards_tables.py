"""The tables of demo boards (keima.server.boards, docs/teaching.md), on the shared ``metadata``.

``boards``: one row a board: its owner (a player's id), title, visibility (``public`` or ``link``), the version
of its last stored change and ``data``, the whole board as JSON (the tree, the presenter's node, who is in
control, the chat), written again after changes (a few seconds late at most: ``keima.server.boards.service``).
Created by migration 0014_boards.
"""

from __future__ import annotations

import sqlalchemy as sa

from keima.server.storage.tables import metadata

boards = sa.Table(
    "boards",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("owner", sa.String(64), nullable=False),
    sa.Column("title", sa.String(100), nullable=False),
    sa.Column("visibility", sa.String(8), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Index("ix_boards_owner", "owner"),
)
