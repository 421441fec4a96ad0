"""What several processes serving the same games must agree on (``keima serve --redis``, several processes on one
PostgreSQL).

A process's copy of a game is only a cache: another process may have appended to the log since. A change is
stored under the copy's next sequence number; a stale copy, or two processes racing, collide on the
``(game_id, seq)`` primary key, and the loser reads the game again and tries again (``is_conflict``). Reads that
must be current (a refusal, a state sent to a client that just connected) compare the copy's version with the
stored last sequence number (``keima.server.games.reads.head``) first. No row stays locked between statements, so
a process that dies mid-game blocks nobody.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa

from keima.server import timesource
from keima.server.games.reads import entries_since, head
from keima.server.games.session import GameSession
from keima.server.storage import now_utc

__all__ = ["charge_since", "entries_since", "head", "is_conflict"]


def is_conflict(exc: BaseException) -> bool:
    """True when ``exc`` is a unique-key violation: another process stored that sequence number first."""
    return isinstance(exc, sa.exc.IntegrityError)


def charge_since(s: GameSession, since: datetime | None) -> None:
    """Make the running clock of a game read back from the database start at ``since``, not now: the time since
    then belongs to the player to move. Server clocks are assumed to agree (NTP); a clock ahead of the
    database's is never charged negative time."""
    if since is None or s.clock.running is None:
        return
    elapsed = max(0.0, (now_utc() - since).total_seconds())
    s.clock.started_at = timesource.now() - elapsed
