"""The clubs' tables (revision 0013_clubs, keima.server.clubs): a club, its members with their roles and ladder
places, its ladder challenges, its announcements, the lines of the FFG rating list proposed to its members and the
challenges offered to its members only.

They share ``keima.server.storage.tables.metadata``, so that the persistence test compares them with the migration
as it does the others.
"""

from __future__ import annotations

import sqlalchemy as sa

from keima.server.storage.tables import BigId, metadata

# A club: ``slug`` its address (/c/<slug>), ``code`` the FFG's club code ("38Gr") when it has one, ``settings``
# its ladder's rules (reach, days to answer, live or correspondence; keima.server.clubs.ladder), ``invite_code``
# the secret of its invitation link (a new one made by an admin voids the old one).
clubs = sa.Table(
    "clubs",
    metadata,
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
    sa.Index("ix_clubs_code", "code"),
)
# Who is in a club: ``role`` "admin", "member" or "requested" (asked to join, not accepted yet); ``place`` the
# member's place on the ladder (1 the top; None: a request); ``licence`` the FFG licence they gave.
club_members = sa.Table(
    "club_members",
    metadata,
    sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("role", sa.String(16), nullable=False),
    sa.Column("place", sa.Integer, nullable=True),
    sa.Column("licence", sa.String(16), nullable=True),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_club_members_player_id", "player_id"),
)
# A ladder challenge: ``status`` "open" (waiting for the defender), "playing" (its game made), "won" or "lost"
# (the challenger's outcome), "expired" (not answered in time: lost by the defender), "withdrawn"; ``due_at``
# when an open challenge is lost by the defender.
club_challenges = sa.Table(
    "club_challenges",
    metadata,
    sa.Column("id", BigId, primary_key=True, autoincrement=True),
    sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
    sa.Column("challenger", sa.String(32), nullable=False),
    sa.Column("defender", sa.String(32), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("result", sa.String(32), nullable=True),
    sa.Index("ix_club_challenges_club_id", "club_id", "status"),
    sa.Index("ix_club_challenges_game_id", "game_id"),
)
# What a club's admins told its members (each member's bell says it too).
club_announcements = sa.Table(
    "club_announcements",
    metadata,
    sa.Column("id", BigId, primary_key=True, autoincrement=True),
    sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
    sa.Column("player_id", sa.String(32), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Index("ix_club_announcements_club_id", "club_id", "id"),
)
# A line of the FFG rating list imported by an admin (its club code the club's), proposed to an account
# (``player_id``, named by the admin); ``status`` "proposed", "confirmed" (the account holder said yes: a member
# with this licence) or "refused".
club_imports = sa.Table(
    "club_imports",
    metadata,
    sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("licence", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("rank", sa.String(4), nullable=True),
    sa.Column("player_id", sa.String(32), nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Index("ix_club_imports_player_id", "player_id"),
)
# A challenge offered to a club's members only: an invitation game whose code (``invite_code``) only the members
# read (keima.server.clubs.club_games).
club_games = sa.Table(
    "club_games",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("club_id", sa.String(32), sa.ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
    sa.Column("player_id", sa.String(32), nullable=False),
    sa.Column("invite_code", sa.String(64), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_club_games_club_id", "club_id", "created_at"),
)
