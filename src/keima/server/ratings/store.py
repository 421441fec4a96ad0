"""The ratings tables as the shown ranks read them: many players' current ratings in one query.

Blocking functions of a SQLAlchemy engine: call them from a thread.
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from keima.ratings.glicko2 import Rating
from keima.server.storage import ratings

#: Ids per ``IN (...)``: far under every database's limit on bound parameters, and a lobby list holds at most 200.
_CHUNK = 500


def ratings_of(engine: Engine, player_ids: Iterable[str]) -> dict[str, Rating]:
    """The current rating of each of ``player_ids`` that has played a rated game (the others are left out), in
    one query per 500 ids. Blocking."""
    wanted = sorted(set(player_ids))
    out: dict[str, Rating] = {}
    if not wanted:
        return out
    r = ratings.c
    with engine.connect() as conn:
        for i in range(0, len(wanted), _CHUNK):
            q = sa.select(r.player_id, r.rating, r.deviation, r.volatility).where(
                r.player_id.in_(wanted[i:i + _CHUNK]))
            for row in conn.execute(q):
                out[row.player_id] = Rating(row.rating, row.deviation, row.volatility)
    return out
