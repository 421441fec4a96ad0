"""The database: its URL and engine, the tables, the Alembic migrations, the writer that commits every change
(group commits, one transaction per change with its outbox events and timed jobs), and the queues of what follows a
change (the scheduler's timed jobs, the outbox's deliveries).
"""

from __future__ import annotations

from keima.server.storage import queues
from keima.server.storage.boards_tables import boards  # demo boards (issue 45)

# -- clubs (issue 46)
from keima.server.storage.clubs_tables import (
    club_announcements,
    club_challenges,
    club_games,
    club_imports,
    club_members,
    clubs,
)

# -- moderation (issue 47) --
from keima.server.storage.moderation_tables import (
    abandonments,
    annulled_games,
    blocks,
    moderation_log,
    moderators,
    player_standing,
    reports,
)
from keima.server.storage.queues import Apply
from keima.server.storage.store import (
    Store,
    default_url,
    make_engine,
    migrate,
    now_utc,
    set_job,
)
from keima.server.storage.tables import (
    analyses,
    automatch,
    chat_mutes,
    conditional_moves,
    emails,
    event_progress,
    game_log,
    game_outbox,
    game_players,
    games,
    notifications,
    player_records,
    player_sessions,
    player_settings,
    players,
    rating_changes,
    rating_history,
    ratings,
    scheduled_jobs,
    server_settings,
    tournament_accounts,
    tournament_directors,
    tournament_games,
    tournament_log,
    tournaments,
)

__all__ = [
    # -- demo boards (issue 45)
    "boards",
    # --
    "Apply", "Store", "analyses", "automatch", "chat_mutes", "conditional_moves", "default_url", "emails",
    "event_progress", "game_log", "game_outbox", "game_players", "games", "make_engine", "migrate",
    "notifications", "now_utc", "player_records", "player_sessions", "player_settings", "players", "queues",
    "rating_changes", "rating_history", "ratings", "scheduled_jobs", "server_settings", "set_job",
    "tournament_accounts", "tournament_directors", "tournament_games", "tournament_log", "tournaments",
    # -- moderation (issue 47) --
    "abandonments", "annulled_games", "blocks", "moderation_log", "moderators", "player_standing", "reports",
    # -- clubs (issue 46)
    "club_announcements", "club_challenges", "club_games", "club_imports", "club_members", "clubs",
]
