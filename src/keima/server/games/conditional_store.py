"""The stored conditional moves (``conditional_moves``): a player's tree in a game and the game's version it was
left at (``keima.server.games.conditional``). Every write first locks the game's row, so that a tree being stored
and a move being stored take turns (PostgreSQL; SQLite writes one transaction at a time anyway): a tree is stored
only while the game is still at the version it was checked against, and a move drops every tree but the branch
its answer keeps."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from keima.server.storage import conditional_moves, game_log, games

Tree = list[dict[str, Any]]


def read(engine: Engine, game_id: str) -> dict[int, tuple[int, Tree]]:
    """Colour -> (version, tree) of each tree stored in ``game_id``. Blocking."""
    c = conditional_moves.c
    with engine.connect() as conn:
        rows = conn.execute(sa.select(c.color, c.version, c.tree).where(c.game_id == game_id)).all()
    return {int(r.color): (int(r.version), list(r.tree)) for r in rows}


def _lock(conn: Connection, game_id: str) -> None:
    conn.execute(sa.select(games.c.id).where(games.c.id == game_id).with_for_update())


def put(game_id: str, color: int, version: int, tree: Tree | None) -> Any:
    """A store operation: keep ``tree`` for ``color`` (None or empty: drop it) if the game is still at ``version``;
    the operation returns False (and changes nothing) when a change of the game was stored first."""

    def op(conn: Connection) -> bool:
        _lock(conn, game_id)
        head = conn.execute(sa.select(sa.func.max(game_log.c.seq)).where(game_log.c.game_id == game_id)).scalar()
        if int(head or 0) != version:
            return False
        c = conditional_moves.c
        conn.execute(conditional_moves.delete().where(c.game_id == game_id, c.color == color))
        if tree:
            conn.execute(conditional_moves.insert().values(game_id=game_id, color=color, version=version, tree=tree))
        return True

    return op


def drop(game_id: str, color: int) -> Any:
    """A store operation: drop the tree of ``color`` in ``game_id``."""
    c = conditional_moves.c

    def op(conn: Connection) -> None:
        conn.execute(conditional_moves.delete().where(c.game_id == game_id, c.color == color))

    return op


def after_move(game_id: str, keep: tuple[int, int, Tree] | None) -> Any:
    """A store operation for the transaction of a move: drop every tree of ``game_id`` but ``keep`` (colour,
    version, tree: the branch under the answer just played), which is stored."""
    c = conditional_moves.c

    def op(conn: Connection) -> None:
        _lock(conn, game_id)
        conn.execute(conditional_moves.delete().where(c.game_id == game_id))
        if keep is not None and keep[2]:
            conn.execute(conditional_moves.insert().values(game_id=game_id, color=keep[0], version=keep[1],
                                                           tree=keep[2]))

    return op
