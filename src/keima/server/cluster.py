"""What several processes serving the same games need from the database: the stored head of a game's log.

In a cluster (``keima serve --redis``, several processes on one PostgreSQL) a process's copy of a game is only a
cache: another process may have appended to the log since. A change is stored under the copy's next sequence
number; a stale copy, or two processes racing, collide on the ``(game_id, seq)`` primary key, and the loser
reloads and tries again (``is_conflict``). Reads that must be current (a refusal, a state sent to a client that
just connected) compare the copy's version with the stored last sequence number (``head``) first. No row stays locked between statements, so a process that dies mid-game blocks nobody.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from keima.server.session import GameSession
from keima.server.store import game_log, now_utc


def head(engine: Engine, game_id: str) -> tuple[int, datetime | None]:
    """Return (last stored sequence number, its time) of game ``game_id``: (0, None) for a game without log
    entries, or for no such game. Blocking: call from a thread."""
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(game_log.c.seq, game_log.c.created_at)
            .where(game_log.c.game_id == game_id)
            .order_by(game_log.c.seq.desc())
            .limit(1)
        ).first()
    if row is None:
        return 0, None
    at = row.created_at
    if at is not None and at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return int(row.seq), at


def is_conflict(exc: BaseException) -> bool:
    """True when ``exc`` is a unique-key violation: another process stored that sequence number first."""
    return isinstance(exc, sa.exc.IntegrityError)


def charge_since(s: GameSession, last_at: datetime | None) -> None:
    """Make the running clock of a game read back from the database start when its last entry was stored, not
    now: the time since then (spent on another process) belongs to the player to move. Server clocks are assumed
    to agree (NTP); a clock ahead of the database's is never charged negative time."""
    if last_at is None or s.clock.running is None:
        return
    elapsed = max(0.0, (now_utc() - last_at).total_seconds())
    s.clock.started_at = time.monotonic() - elapsed
