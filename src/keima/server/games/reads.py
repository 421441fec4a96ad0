"""Reads of games beyond loading one (``Store.load``): the lobby's lists, read as the stored lobby lines, and the
head of a game's log and its entries after a version (what a process needs to catch up with the others).

Blocking functions of a SQLAlchemy engine: call them from a thread.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from keima.server.storage import game_log, game_players, games

Status = Literal["open", "live", "finished"]


def game_lines(engine: Engine, status: Status, size: int | None, limit: int,
               player_id: str | None) -> list[tuple[str, dict[str, Any] | None, dict[str, Any] | None]]:
    """The newest games with ``status`` (of ``player_id`` only, when given: then ``live`` includes their open
    and waiting games), at most ``limit``: ``(id, stored lobby line or None, people)``."""
    q = sa.select(games.c.id, games.c.summary, games.c.people)
    if status == "open":
        q = q.where(games.c.mode == "open", games.c.invite_hash.is_not(None), games.c.phase != "finished")
    elif status == "live":
        q = q.where(games.c.phase != "finished")
        if player_id is None:
            q = q.where(games.c.invite_hash.is_(None))
    else:
        q = q.where(games.c.phase == "finished")
    if size is not None:
        q = q.where(games.c.params["size"].as_integer() == size)
    if player_id is not None:
        q = q.where(games.c.id.in_(sa.select(game_players.c.game_id).where(game_players.c.player_id == player_id)))
    order = games.c.updated_at if status == "finished" else games.c.created_at
    q = q.order_by(order.desc(), games.c.id).limit(limit)
    with engine.connect() as conn:
        return [(r.id, r.summary, r.people) for r in conn.execute(q)]


def save_line(engine: Engine, game_id: str, line: dict[str, Any]) -> None:
    """Store the lobby line of a game stored before lines were (done once per such game)."""
    with engine.begin() as conn:
        conn.execute(games.update().where(games.c.id == game_id, games.c.summary.is_(None)).values(summary=line))


def _utc(at: datetime | None) -> datetime | None:
    return at.replace(tzinfo=UTC) if at is not None and at.tzinfo is None else at


def head(engine: Engine, game_id: str) -> tuple[int, datetime | None]:
    """Return (last stored sequence number, its time) of game ``game_id``: (0, None) for a game without log
    entries, or for no such game."""
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(game_log.c.seq, game_log.c.created_at)
            .where(game_log.c.game_id == game_id)
            .order_by(game_log.c.seq.desc())
            .limit(1)
        ).first()
    if row is None:
        return 0, None
    return int(row.seq), _utc(row.created_at)


def entries_since(engine: Engine, game_id: str, seq: int) -> tuple[list[dict[str, Any]], datetime | None]:
    """Return the log entries of ``game_id`` after sequence number ``seq`` and the time of the last one."""
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(game_log.c.entry, game_log.c.created_at)
            .where(game_log.c.game_id == game_id, game_log.c.seq > seq)
            .order_by(game_log.c.seq)
        ).all()
    if not rows:
        return [], None
    return [r.entry for r in rows], _utc(rows[-1].created_at)


def anonymize(engine: Engine, player_id: str, name: str) -> list[str]:
    """Show a deleted player as ``name`` in every game that records them (their seats, their lobby lines);
    returns those games' ids."""
    with engine.begin() as conn:
        rows = conn.execute(
            sa.select(games.c.id, games.c.people, games.c.summary)
            .where(games.c.id.in_(sa.select(game_players.c.game_id).where(game_players.c.player_id == player_id)))
        ).all()
        for r in rows:
            # ``deleted``: the lists show no rank for it either (its rating stays, ``Lobby.summaries`` skips it).
            gone = {"name": name, "rank": None, "shown_rank": None, "provisional": False, "deleted": True}
            people = {c: ({**p, **gone} if p.get("id") == player_id else p)
                      for c, p in (r.people or {}).items()}
            summary = r.summary
            if summary is not None:
                seated = summary.get("players", {})
                for c, p in people.items():
                    if p.get("id") == player_id and seated.get(c) is not None:
                        seated[c] = {**seated[c], "name": name, "rank": None, "provisional": False}
                summary = {**summary, "players": seated}
            conn.execute(games.update().where(games.c.id == r.id).values(people=people, summary=summary))
    return [r.id for r in rows]


def seats_of(engine: Engine, player_id: str) -> dict[str, list[int]]:
    """Every game in which ``player_id`` holds a seat, with the colours held (1 Black, 2 White)."""
    with engine.connect() as conn:
        rows = conn.execute(sa.select(game_players.c.game_id, game_players.c.color)
                            .where(game_players.c.player_id == player_id)).all()
    out: dict[str, list[int]] = {}
    for r in rows:
        out.setdefault(r.game_id, []).append(int(r.color))
    return out
