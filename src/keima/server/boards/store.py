"""Demo boards in the database (table ``boards``): one row a board, its whole state as JSON.

Write operations are ``Store.write`` ops (functions of a connection); reads take the engine and block (call them
from a thread).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from keima.server.storage import boards

Op = Callable[[Connection], Any]


def insert(row: dict[str, Any]) -> Op:
    """An op that stores a new board (``row``: every column of ``boards``)."""

    def op(conn: Connection) -> None:
        conn.execute(boards.insert().values(**row))

    return op


def save(board_id: str, version: int, data: dict[str, Any], when: datetime) -> Op:
    """An op that writes a board's state of ``version`` (an older version never overwrites a newer one)."""

    def op(conn: Connection) -> None:
        conn.execute(boards.update().where(boards.c.id == board_id, boards.c.version <= version)
                     .values(version=version, data=data, updated_at=when))

    return op


def delete(board_id: str) -> Op:
    """An op that removes a board."""

    def op(conn: Connection) -> None:
        conn.execute(boards.delete().where(boards.c.id == board_id))

    return op


def load(engine: Engine, board_id: str) -> dict[str, Any] | None:
    """The row of board ``board_id`` as a dict, or None."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(boards).where(boards.c.id == board_id)).mappings().first()
    return None if row is None else dict(row)


def owned(engine: Engine, owner: str) -> int:
    """How many boards ``owner`` keeps."""
    with engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(boards).where(boards.c.owner == owner))
                   .scalar_one())
