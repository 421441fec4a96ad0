"""The moderation's SQL: moderators, reports, the standing a moderator sets, the audit log, annulled games, and the
players found by name or id. Reads take the engine and block (call them from a thread); writes are ``Store.write``
ops (functions of a connection) or take the engine themselves where the command line calls them.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from keima.server import timesource
from keima.server.storage import (
    abandonments,
    annulled_games,
    moderation_log,
    moderators,
    player_records,
    player_standing,
    players,
    reports,
)

Op = Callable[[Connection], Any]


def _aware(at: datetime | None) -> datetime | None:
    return at if at is None or at.tzinfo is not None else at.replace(tzinfo=UTC)


# -- players -------------------------------------------------------------------------------------------------
def player_named(engine: Engine, key: str) -> tuple[str, str] | None:
    """(id, name) of the player, not deleted, whose folded name is ``key`` (``accounts.name_key``), or None."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(players.c.id, players.c.name)
                           .where(players.c.name_key == key, players.c.deleted_at.is_(None))).first()
    return None if row is None else (row.id, row.name)


def names_of(engine: Engine, ids: list[str]) -> dict[str, str]:
    """The names of the players ``ids`` (those found)."""
    if not ids:
        return {}
    with engine.connect() as conn:
        rows = conn.execute(sa.select(players.c.id, players.c.name).where(players.c.id.in_(sorted(set(ids))))).all()
    return {r.id: r.name for r in rows}


# -- moderators ----------------------------------------------------------------------------------------------
def add_moderator(engine: Engine, player_id: str) -> bool:
    """Make ``player_id`` a moderator; False when they were one already."""
    with engine.begin() as conn:
        if conn.execute(sa.select(moderators.c.player_id).where(moderators.c.player_id == player_id)).first():
            return False
        conn.execute(moderators.insert().values(player_id=player_id, at=timesource.now_utc()))
    return True


def remove_moderator(engine: Engine, player_id: str) -> bool:
    """``player_id`` is no longer a moderator; False when they were not one."""
    with engine.begin() as conn:
        return bool(conn.execute(moderators.delete().where(moderators.c.player_id == player_id)).rowcount)


def moderator_list(engine: Engine) -> list[tuple[str, str, datetime]]:
    """(id, name, since) of each moderator, by name."""
    with engine.connect() as conn:
        rows = conn.execute(sa.select(moderators.c.player_id, players.c.name, moderators.c.at)
                            .select_from(moderators.join(players, players.c.id == moderators.c.player_id))
                            .order_by(players.c.name_key)).all()
    return [(r.player_id, r.name, _aware(r.at) or r.at) for r in rows]


def is_moderator(engine: Engine, player_id: str) -> bool:
    """Whether ``player_id`` is a moderator."""
    with engine.connect() as conn:
        return conn.execute(sa.select(moderators.c.player_id).where(moderators.c.player_id == player_id)).first() \
            is not None


# -- reports -------------------------------------------------------------------------------------------------
def add_report(values: dict[str, Any]) -> Op:
    """An op that stores a report (``reports``' columns but ``id``); returns its id, or None when the reporter
    reported this target already."""

    def op(conn: Connection) -> int | None:
        r = reports.c
        if conn.execute(sa.select(r.id).where(r.reporter_id == values["reporter_id"],
                                              r.target == values["target"])).first():
            return None
        key = conn.execute(reports.insert().values(**values)).inserted_primary_key
        assert key is not None
        return int(key[0])

    return op


def reports_since(engine: Engine, reporter_id: str, since: datetime) -> int:
    """How many reports ``reporter_id`` made from ``since`` on."""
    r = reports.c
    with engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(reports)
                                .where(r.reporter_id == reporter_id, r.at >= since)).scalar() or 0)


def first_report_since(engine: Engine, reporter_id: str, since: datetime) -> datetime:
    """When ``reporter_id``'s first report from ``since`` on was made (``since`` when none)."""
    r = reports.c
    with engine.connect() as conn:
        at = conn.execute(sa.select(sa.func.min(r.at)).where(r.reporter_id == reporter_id, r.at >= since)).scalar()
    return _aware(at) or since


def report_rows(engine: Engine, *, open_only: bool, limit: int = 200) -> list[Any]:
    """The reports, oldest first when ``open_only`` (the queue), else newest first."""
    r = reports.c
    q = sa.select(reports)
    q = q.where(r.handled_at.is_(None)).order_by(r.id) if open_only else q.order_by(r.id.desc())
    with engine.connect() as conn:
        return list(conn.execute(q.limit(limit)).all())


def report_row(engine: Engine, report_id: int) -> Any:
    """One report's row (None: no such report)."""
    with engine.connect() as conn:
        return conn.execute(sa.select(reports).where(reports.c.id == report_id)).first()


def reports_about(engine: Engine, player_id: str) -> int:
    """How many reports name ``player_id``."""
    with engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(reports)
                                .where(reports.c.player_id == player_id)).scalar() or 0)


def handle_report(conn: Connection, report_id: int, moderator_id: str) -> Any:
    """Mark a report handled (in ``conn``'s transaction); returns its row as it was (None: none or handled)."""
    row = conn.execute(sa.select(reports).where(reports.c.id == report_id, reports.c.handled_at.is_(None))).first()
    if row is not None:
        conn.execute(reports.update().where(reports.c.id == report_id)
                     .values(handled_at=timesource.now_utc(), handled_by=moderator_id))
    return row


# -- standing, log, annulments -------------------------------------------------------------------------------
def set_standing(conn: Connection, player_id: str, **values: Any) -> None:
    """Set columns of the player's standing (``muted_until``, ``suspended_until``, ``banned``, ``reason``)."""
    now = timesource.now_utc()
    done = conn.execute(player_standing.update().where(player_standing.c.player_id == player_id)
                        .values(at=now, **values))
    if not done.rowcount:
        conn.execute(player_standing.insert().values(player_id=player_id, at=now, **values))


def log_action(conn: Connection, **values: Any) -> None:
    """Add a line to the audit log (``moderation_log``'s columns but ``id`` and ``at``)."""
    conn.execute(moderation_log.insert().values(at=timesource.now_utc(), **values))


def log_rows(engine: Engine, player_id: str | None = None, limit: int = 200) -> list[Any]:
    """The audit log, newest first (of one player when ``player_id``)."""
    q = sa.select(moderation_log).order_by(moderation_log.c.id.desc()).limit(limit)
    if player_id is not None:
        q = q.where(moderation_log.c.player_id == player_id)
    with engine.connect() as conn:
        return list(conn.execute(q).all())


def annul(conn: Connection, game_id: str) -> bool:
    """Mark ``game_id``'s rating effect annulled; False when it was already."""
    if conn.execute(sa.select(annulled_games.c.game_id).where(annulled_games.c.game_id == game_id)).first():
        return False
    conn.execute(annulled_games.insert().values(game_id=game_id, at=timesource.now_utc()))
    return True


def last_log_id() -> Any:
    """The query of the audit log's newest line id."""
    return sa.select(sa.func.max(moderation_log.c.id))


def names_in(conn: Connection, ids: list[str]) -> dict[str, str]:
    """The names of the players ``ids`` (in ``conn``'s transaction)."""
    rows = conn.execute(sa.select(players.c.id, players.c.name).where(players.c.id.in_(ids))).all()
    return {r.id: r.name for r in rows}


def keep_abandonment(game_id: str, player_id: str, outcome: str) -> Op:
    """An op that keeps a live game ``player_id`` abandoned, and how it ended (``win``, ``annul``)."""

    def op(conn: Connection) -> None:
        conn.execute(abandonments.insert().values(game_id=game_id, player_id=player_id, outcome=outcome,
                                                  at=timesource.now_utc()))

    return op


def ratio(engine: Engine, player_id: str) -> tuple[int, int]:
    """(games abandoned, games finished) of a player. Blocking."""
    with engine.connect() as conn:
        left = int(conn.execute(sa.select(sa.func.count()).select_from(abandonments)
                                .where(abandonments.c.player_id == player_id)).scalar() or 0)
        rec = conn.execute(sa.select(player_records).where(player_records.c.player_id == player_id)).first()
    played = 0 if rec is None else int(rec.won + rec.lost + rec.drawn)
    return left, max(played, left)
