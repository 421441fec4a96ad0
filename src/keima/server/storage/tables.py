"""The live database schema: every table the server reads and writes, defined once.

The migrations (``keima/server/migrations``) create it step by step: revision 0001 made ``games`` and ``game_log``,
0002 the players' tables, 0003 the columns and tables of game events (``people`` and ``summary`` on ``games``, the
outbox, the subscribers' progress, the players' records and the scheduler), 0004 the ratings and their history, 0005 the automatch queue and the rating changes of each rated game,
0006 the players' correspondence and notification settings, their notifications, emails and conditional moves,
0007 the tournaments, 0008 the bot's reviews of games and records, 0009 the muted chat senders, 0010 the index of
the bots' games by level.
A migration never reads this module: each writes its own steps, so that a database made by an older keima is
brought up the way it would have been.
``tests/server/storage/test_persistence.py`` checks that a migrated database and ``metadata`` agree.
"""

from __future__ import annotations

import sqlalchemy as sa

from keima.server.storage.migrations import schema_0002

metadata = sa.MetaData()

# A growing integer key: BIGINT on PostgreSQL, INTEGER (SQLite's rowid alias, the only autoincrement) on SQLite.
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

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
    # The players as the game records them: names and ranks of the day they sat down ({"B": {...}, "W": {...}}).
    sa.Column("people", sa.JSON, nullable=True),
    # The lobby's line of the game (keima.server.lobby.lobby.summary_row), written with each change.
    sa.Column("summary", sa.JSON, nullable=True),
    sa.Index("ix_games_updated_at", "updated_at"),
    # A bot level's games, newest first (its player page: keima.server.ratings.bot_players).
    sa.Index("ix_games_bot_level", "bot_level", "updated_at"),
)
game_log = sa.Table(
    "game_log",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("entry", sa.JSON, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
players, player_sessions, game_players, server_settings = schema_0002.define(metadata)

# Events that subscribers must see exactly once (keima.server.games.outbox), written in the transaction of the change.
game_outbox = sa.Table(
    "game_outbox",
    metadata,
    sa.Column("seq", BigId, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(24), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
# The last outbox sequence number each subscriber applied, written in the transaction of its effect.
event_progress = sa.Table(
    "event_progress",
    metadata,
    sa.Column("subscriber", sa.String(40), primary_key=True),
    sa.Column("last_seq", sa.BigInteger, nullable=False),
)
# Each player's finished games, won and lost (the first durable subscriber: keima.server.ratings.records).
player_records = sa.Table(
    "player_records",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("won", sa.Integer, nullable=False),
    sa.Column("lost", sa.Integer, nullable=False),
    sa.Column("drawn", sa.Integer, nullable=False),
)
# Timed work that must outlive a process (keima.server.games.scheduler): one row per (kind, game).
scheduled_jobs = sa.Table(
    "scheduled_jobs",
    metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("kind", sa.String(24), nullable=False),
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
    sa.Index("ix_scheduled_jobs_due_at", "due_at"),
)
# Each rated player's Glicko-2 values after their last rated game (keima.server.ratings.subscriber).
ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
)
# A player's rating after each rated game, in the order the games were rated (``seq``: the outbox event's).
rating_history = sa.Table(
    "rating_history",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("seq", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
)
# Players waiting for an automatch game (keima.server.automatch.pairs), one entry each; ``game_id`` set once matched.
# ``since`` and ``matched_at``: the server's Unix time (the matcher's clock).
automatch = sa.Table(
    "automatch",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("registered", sa.Boolean, nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("sizes", sa.JSON, nullable=False),
    sa.Column("speed", sa.String(16), nullable=False),
    sa.Column("rules", sa.String(40), nullable=False),
    sa.Column("handicap", sa.Boolean, nullable=False),
    sa.Column("since", sa.Float, nullable=False),
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("matched_at", sa.Float, nullable=True),
    # -- clubs (issue 46, revision 0013_clubs): a wait for a game with the members of this club only (its slug).
    sa.Column("club", sa.String(48), nullable=True),
)
# How a rated game changed each player's rating (points, Black and White), written with the ratings.
rating_changes = sa.Table(
    "rating_changes",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("black", sa.Float, nullable=False),
    sa.Column("white", sa.Float, nullable=False),
)
# The bot's review of a finished game (``game_id``) or an uploaded record (``sgf``), one per game or record: its
# id is derived from what it reviews (keima.server.reviews.bot_reviews.review_id), so every process finds the same row.
# ``evals``: each position's evaluation so far (keima.ai.analysis.Evaluation.as_dict), ``moves`` the per-move
# review built from them (the API's list), ``done``/``total`` positions.
analyses = sa.Table(
    "analyses",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("sgf", sa.Text, nullable=True),
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("done", sa.Integer, nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("seconds", sa.Float, nullable=False),
    sa.Column("evals", sa.JSON, nullable=False),
    sa.Column("moves", sa.JSON, nullable=False),
    sa.Column("requested_by", sa.String(80), nullable=True),
    sa.Column("error", sa.String(200), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_analyses_status", "status"),
)
# A tournament (keima.server.tournaments.changes): the engine's state as an OpenGotha file (``body``, the engine's lossless
# form), the server's settings of it (online, rated, rounds' start times...) and ``version``, one more per change.
tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("settings", sa.JSON, nullable=False),
)
# Who may change a tournament: its director and the co-directors they name (``role``).
tournament_directors = sa.Table(
    "tournament_directors",
    metadata,
    sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("role", sa.String(16), nullable=False),
)
# The keima account of a registered tournament player (by the engine's player key), for online games and "my table".
tournament_accounts = sa.Table(
    "tournament_accounts",
    metadata,
    sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("player_key", sa.String(120), primary_key=True),
    sa.Column("player_id", sa.String(32), nullable=False),
    sa.UniqueConstraint("tournament_id", "player_id", name="uq_tournament_accounts_player"),
)
# The keima game of each online pairing: its finished event carries its result to the standings.
tournament_games = sa.Table(
    "tournament_games",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("table_number", sa.Integer, nullable=False),
    # A director's fix of the game's result ("B+", "W+", "0", "Void"): what the ratings count instead of the game's.
    sa.Column("fixed_result", sa.String(16), nullable=True),
    sa.UniqueConstraint("tournament_id", "round", "table_number", name="uq_tournament_games_table"),
)
# Every change of a tournament: who made it (a player, or None with ``by_name`` "keima" for the server) and when.
tournament_log = sa.Table(
    "tournament_log",
    metadata,
    sa.Column("seq", BigId, primary_key=True, autoincrement=True),
    sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("player_id", sa.String(32), nullable=True),
    sa.Column("by_name", sa.String(64), nullable=False),
    sa.Column("action", sa.String(32), nullable=False),
    sa.Column("detail", sa.JSON, nullable=False),
    sa.Index("ix_tournament_log_tournament_id", "tournament_id"),
)
# Each player's correspondence and notification settings (0006): time zone, vacation balance, email, what to be
# told and how (keima.server.accounts.vacation, keima.server.notifications.notify); no row = the defaults.
player_settings = sa.Table(
    "player_settings",
    metadata,
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
    # The address bounced (the SMTP server refused it for good): nothing more is sent to it until it changes.
    sa.Column("email_bounced_at", sa.DateTime(timezone=True), nullable=True),
)
# The notifications of each player (the bell), newest last; ``mailed``: sent by email or in a digest already.
notifications = sa.Table(
    "notifications",
    metadata,
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
# Emails to send (keima.server.notifications.mailer): keyed by their Message-ID, so that a message made twice is stored once.
emails = sa.Table(
    "emails",
    metadata,
    sa.Column("message_id", sa.String(200), primary_key=True),
    sa.Column("player_id", sa.String(32), nullable=False),
    sa.Column("message", sa.Text, nullable=False),
    sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("tries", sa.Integer, nullable=False, server_default="0"),
    sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
    # Why the message failed for good (it is then never tried again), and when it was queued.
    sa.Column("error", sa.String(300), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=True),
    sa.Index("ix_emails_due_at", "due_at"),
)
# The chat senders each player muted (keima.server.accounts.mutes): ``sender`` the handle a chat message carries, ``name``
# the name it wrote under when muted (the player's list shows it).
chat_mutes = sa.Table(
    "chat_mutes",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("sender", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)
# A player's conditional moves in a correspondence game (keima.server.games.conditional): the tree and the game's version
# it answers; private to the player, so kept apart from the game's log.
conditional_moves = sa.Table(
    "conditional_moves",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("color", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("tree", sa.JSON, nullable=False),
)
