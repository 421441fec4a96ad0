"""Storage of what follows a change: the scheduler's timed jobs and the delivery of outbox events to the durable
subscribers (the rows are written with the change itself, by ``keima.server.storage.store.Store.append``).

Blocking functions of a SQLAlchemy engine: call them from a thread.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine

from keima.server.storage.tables import event_progress, game_outbox, games, scheduled_jobs


def _utc(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def due_jobs(engine: Engine, now: datetime, limit: int) -> list[tuple[str, str, str]]:
    """The jobs due at ``now`` and not claimed by a process (or whose claim lapsed), soonest first, at most
    ``limit``: ``(key, kind, game_id)``."""
    j = scheduled_jobs.c
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(j.key, j.kind, j.game_id)
            .where(j.due_at <= now, sa.or_(j.claimed_until.is_(None), j.claimed_until < now))
            .order_by(j.due_at)
            .limit(limit)
        ).all()
    return [(r.key, r.kind, r.game_id) for r in rows]


def claim_job(engine: Engine, key: str, now: datetime, until: datetime) -> bool:
    """Claim job ``key`` until ``until`` if it is due and unclaimed at ``now``: one conditional update, so that of
    several processes one only gets True."""
    j = scheduled_jobs.c
    with engine.begin() as conn:
        done = conn.execute(
            scheduled_jobs.update()
            .where(j.key == key, j.due_at <= now, sa.or_(j.claimed_until.is_(None), j.claimed_until < now))
            .values(claimed_until=until)
        )
    return bool(done.rowcount)


def reschedule_job(engine: Engine, key: str, due: datetime | None) -> None:
    """Release job ``key`` after its run: due again at ``due``, or gone (None). A job that a change of the game
    set again meanwhile (its claim cleared) is left as that change wrote it."""
    j = scheduled_jobs.c
    with engine.begin() as conn:
        claimed = j.claimed_until.is_not(None)
        if due is None:
            conn.execute(scheduled_jobs.delete().where(j.key == key, claimed))
        else:
            conn.execute(scheduled_jobs.update().where(j.key == key, claimed).values(due_at=due, claimed_until=None))


def job_due(engine: Engine, key: str) -> datetime | None:
    """When job ``key`` is due (None: no such job)."""
    with engine.connect() as conn:
        at = conn.execute(sa.select(scheduled_jobs.c.due_at).where(scheduled_jobs.c.key == key)).scalar()
    return None if at is None else _utc(at)


#: A subscriber's effect of one event: ``apply(connection, event)`` with ``event`` = ``{"seq", "game_id",
#: "version", "kind", "data", "people"}`` (``people``: the game's players as it records them).
Apply = Callable[[Connection, dict[str, Any]], None]


def deliver(engine: Engine, subscriber: str, kinds: frozenset[str], apply: Apply, limit: int = 200) -> int:
    """Apply to ``subscriber`` the outbox events of ``kinds`` after the last one it applied, in sequence order, at
    most ``limit``, with its progress in the same transaction: an event is applied exactly once, whichever
    processes deliver and however often. Returns how many events were read (0: up to date)."""
    with engine.begin() as conn:
        # A write first: it locks the subscriber's row (PostgreSQL) or the database (SQLite) until the commit, so
        # that two deliveries of the same subscriber take turns.
        lock = (event_progress.update().where(event_progress.c.subscriber == subscriber)
                .values(last_seq=event_progress.c.last_seq))
        if not conn.execute(lock).rowcount:
            # A subscriber's first delivery: two processes may make its row at once; the second waits for the
            # first and makes nothing.
            insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
            conn.execute(insert(event_progress).values(subscriber=subscriber, last_seq=0).on_conflict_do_nothing())
            conn.execute(lock)
        last = conn.execute(sa.select(event_progress.c.last_seq)
                            .where(event_progress.c.subscriber == subscriber)).scalar_one()
        o = game_outbox.c
        rows = conn.execute(
            sa.select(o.seq, o.game_id, o.version, o.kind, o.data, games.c.people)
            .select_from(game_outbox.outerjoin(games, games.c.id == o.game_id))
            .where(o.seq > last).order_by(o.seq).limit(limit)
        ).all()
        for r in rows:
            if r.kind in kinds:
                apply(conn, {"seq": r.seq, "game_id": r.game_id, "version": r.version, "kind": r.kind,
                             "data": r.data, "people": r.people or {}})
        if rows:
            conn.execute(event_progress.update().where(event_progress.c.subscriber == subscriber)
                         .values(last_seq=rows[-1].seq))
    return len(rows)


def outbox_head(engine: Engine) -> int:
    """The last outbox sequence number (0 when empty)."""
    with engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.max(game_outbox.c.seq))).scalar() or 0)
