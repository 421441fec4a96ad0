"""Each player's finished games, won, lost and drawn: the first durable subscriber of game events.

A game counts for a player who held a seat as a player account when it finished with a winner or a draw
(``"B+R"``, ``"W+T"``, ``"B+3.5"``, ``"0"``); a void game (``"Void"``) counts for nobody.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from keima.server.games import Subscriber
from keima.server.storage import player_records

NAME = "player-records"


def _apply(conn: Connection, event: dict[str, Any]) -> None:
    result = str(event["data"].get("result") or "")
    if result in ("", "Void"):
        return
    winner = result[0] if result[:2] in ("B+", "W+") else None
    for color, person in event["people"].items():
        pid = person.get("id")
        if not pid:
            continue
        column = "drawn" if winner is None else ("won" if color == winner else "lost")
        done = conn.execute(player_records.update().where(player_records.c.player_id == pid)
                            .values({column: player_records.c[column] + 1}))
        if not done.rowcount:
            counts = {"won": 0, "lost": 0, "drawn": 0, column: 1}
            conn.execute(player_records.insert().values(player_id=pid, **counts))


SUBSCRIBER = Subscriber(NAME, frozenset({"finished"}), _apply)


def record_of(engine: Engine, player_id: str) -> dict[str, int]:
    """``{"won", "lost", "drawn"}`` of a player (zeros for one with no finished game). Blocking."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(player_records).where(player_records.c.player_id == player_id)).first()
    if row is None:
        return {"won": 0, "lost": 0, "drawn": 0}
    return {"won": row.won, "lost": row.lost, "drawn": row.drawn}
