"""The reminder a day before a correspondence game's marking stands by default (docs/correspondence.md, *Counting
at the end*).

A correspondence game's scoring phase has a deadline (``keima.server.games.session``: 3 days after its last change,
7 at most after it began); past it, the marking on the board stands. The game service schedules the ``remind`` job
(``keima.server.games.REMIND``) ``REMIND_S`` before it, moved with it. The job tells each player who has not
accepted the marking yet (``count-deadline``, bell and email), once for each deadline.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from keima.rules.board import BLACK, WHITE
from keima.server import timesource
from keima.server.games import REMIND_S, GameService, Handler
from keima.server.notifications.notify import add_notification
from keima.server.storage import notifications


def remind(engine: Engine, game_id: str, deadline: float, players: list[tuple[str, str | None, bool]]) -> int:
    """Tell each of ``players`` (player id, opponent's name, whether the opponent has accepted the marking) that the
    marking of ``game_id`` stands at ``deadline`` (Unix time), once for each deadline; returns how many were told.
    Blocking."""
    at = datetime.fromtimestamp(deadline, UTC).isoformat()
    told = 0
    with engine.begin() as conn:
        for pid, opponent, accepted in players:
            earlier = conn.execute(sa.select(notifications.c.data).where(
                notifications.c.player_id == pid, notifications.c.kind == "count-deadline",
                notifications.c.game_id == game_id)).scalars().all()
            if any(d.get("deadline") == at for d in earlier):
                continue
            add_notification(conn, pid, "count-deadline", game_id, {"deadline": at, "opponent": opponent, "accepted": accepted},
                             f"count-deadline.{game_id}.{int(deadline)}")
            told += 1
    return told


def remind_handler(service: GameService) -> Handler:
    """The scheduler's ``remind`` job (see the module docstring); returns when to look again when the deadline
    moved later meanwhile."""

    async def run(game_id: str) -> datetime | None:
        s = await service.cache.get(game_id, fresh=True)
        if s.game.phase != "scoring" or s.scoring is None:
            return None
        deadline = s.scoring[1]
        now = timesource.now()
        if deadline - REMIND_S > now + 1:
            return datetime.fromtimestamp(deadline - REMIND_S, UTC)
        players = []
        for c in (BLACK, WHITE):
            p, other = s.people.get(c) or {}, s.people.get(3 - c) or {}
            if p.get("id") and c not in s.game.accepted and c != s.bot_color:
                players.append((str(p["id"]), other.get("name") if 3 - c != s.bot_color else None,
                                3 - c in s.game.accepted))
        await asyncio.get_running_loop().run_in_executor(None, remind, service.store.engine, game_id, deadline,
                                                         players)
        return None

    return run
