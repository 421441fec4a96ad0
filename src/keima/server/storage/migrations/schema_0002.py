"""The tables revision 0002 adds (players, their sessions, who sits in which game, server settings).

Frozen for the same reason as ``schema_0001``: revision 0002 must always create exactly these, whatever the
live schema becomes; a later revision that changes one of them writes its own ``op`` steps and ``store.py``
then defines the new live table itself.

- ``players``: one row per player, guest or registered. ``name_key`` is the name folded for comparison
  (``casefold`` of the NFC form), unique, so that names are unique without regard to case; it is NULL for a
  deleted account, whose games keep the row under a name that is no longer anyone's. ``password_hash`` (argon2)
  is NULL for a guest.
- ``player_sessions``: one row per logged-in browser: the SHA-256 of the session id (the cookie holds the id and
  its signature), the player.
- ``game_players``: which player holds each seat of a game (``color`` 1 = Black, 2 = White).
- ``server_settings``: small server-wide values, such as the session signing key made on first start.
"""

from __future__ import annotations

import sqlalchemy as sa


def define(metadata: sa.MetaData) -> tuple[sa.Table, sa.Table, sa.Table, sa.Table]:
    """Add revision 0002's tables to ``metadata`` (which must hold 0001's ``games``); returns
    (players, player_sessions, game_players, server_settings)."""
    players = sa.Table(
        "players",
        metadata,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=True),
        sa.Column("rank", sa.String(4), nullable=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Index("ix_players_name_key", "name_key", unique=True),
    )
    sessions = sa.Table(
        "player_sessions",
        metadata,
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Index("ix_player_sessions_player_id", "player_id"),
    )
    game_players = sa.Table(
        "game_players",
        metadata,
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("color", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Index("ix_game_players_player_id", "player_id"),
    )
    settings = sa.Table(
        "server_settings",
        metadata,
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
    )
    return players, sessions, game_players, settings
