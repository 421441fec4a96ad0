"""The tables of moderation and fair play (docs/moderation.md), on the shared ``metadata``: each player's blocks,
their standing (a chat mute, a suspension, a ban: until when and why), the moderators, the reports, the
moderators' audit log, the live games abandoned, and the games whose rating effect a moderator annulled. Migration 0012_moderation makes
them.
"""

from __future__ import annotations

import sqlalchemy as sa

from keima.server.storage.tables import BigId, metadata

# A player's blocks (keima.server.accounts.standing): ``player_id`` blocked ``blocked_id``; either way, no game,
# chat or notification passes between them.
blocks = sa.Table(
    "blocks",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("blocked_id", sa.String(32), primary_key=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_blocks_blocked_id", "blocked_id"),
)
# What a moderator holds against a player now: muted in every chat until, suspended (no play, no chat) until,
# banned (no login, no play). ``reason`` is what the player is shown.
player_standing = sa.Table(
    "player_standing",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True),
    sa.Column("suspended_until", sa.DateTime(timezone=True), nullable=True),
    sa.Column("banned", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("reason", sa.String(500), nullable=False, server_default=""),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)
# The moderators, named by an administrator (``keima admin moderator add NAME``).
moderators = sa.Table(
    "moderators",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)
# Reports: one per reporter and ``target`` (``player:<id>``, ``game:<id>``, ``chat:<game>:<n>``); ``player_id``
# the player reported (None: a game without one), ``quote`` the chat message reported, as it was.
reports = sa.Table(
    "reports",
    metadata,
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
    sa.Index("ix_reports_handled_at", "handled_at"),
)
# The moderators' audit log: who did what to whom, why and when (players never read it).
moderation_log = sa.Table(
    "moderation_log",
    metadata,
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
    sa.Index("ix_moderation_log_player_id", "player_id"),
)
# Live games ended because a player left every page (keima.server.moderation.abandon): who left, and how the
# opponent ended it (``win``: a forfeit; ``annul``: no result, before move 10).
abandonments = sa.Table(
    "abandonments",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("player_id", sa.String(32), nullable=False),
    sa.Column("outcome", sa.String(8), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_abandonments_player_id", "player_id"),
)
# Games whose rating effect a moderator annulled: the ratings leave them out (keima.server.ratings.subscriber).
annulled_games = sa.Table(
    "annulled_games",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)
