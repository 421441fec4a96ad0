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
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from keima.rules.game import Event
from keima.server.session import GameSession
from keima.server.store import game_log, mutable_part, now_utc, to_row


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


def entries_since(engine: Engine, game_id: str, seq: int) -> tuple[list[dict[str, Any]], datetime | None]:
    """Return the log entries of ``game_id`` after sequence number ``seq`` and the time of the last one.
    Blocking: call from a thread."""
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(game_log.c.entry, game_log.c.created_at)
            .where(game_log.c.game_id == game_id, game_log.c.seq > seq)
            .order_by(game_log.c.seq)
        ).all()
    if not rows:
        return [], None
    at = rows[-1].created_at
    if at is not None and at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return [r.entry for r in rows], at


def catch_up(s: GameSession, entries: list[dict[str, Any]]) -> bool:
    """Fold the entries another process stored after ``s.version`` into ``s`` in place (what ``replay`` does
    from the start, from where ``s`` is): cheaper than reading and replaying the whole game again. Returns False,
    ``s`` untouched, for an entry that also changed the ``games`` row (a join): reload the game instead. Raises
    ``GameError`` (or ``KeyError``/``ValueError``) for an entry that does not fit: ``s`` is then half changed
    and must be dropped."""
    if any("join" in e for e in entries):
        return False
    g = s.game
    for entry in entries:
        n = int(entry.get("undo", 0))
        for _ in range(n):
            g.undo()
        if n:
            del s.event_dicts[len(s.event_dicts) - n :]
        for d in entry.get("events", ()):
            g.apply(Event.from_dict(d))
            s.event_dicts.append(d)
        if "clock" in entry:
            s.clock.restore(entry["clock"])
        s.take_notes(entry)
        s.version += 1
    s.clock.running = None  # restarted below for the player to move, as a reload would
    s.sync_clock(time.monotonic())
    s.stored_row = mutable_part(to_row(s))
    return True
