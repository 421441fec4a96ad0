"""The bell rings at once: a player's open pages learn that a notification was stored for them.

Notifications are stored inside other transactions (an outbox delivery, the scheduler's clock warning, an automatch
pairing, a tournament's change), most in worker threads. A page told before the commit would read the old unread
count, so the notice waits for the commit: ``stored`` marks the player on the transaction's database connection,
and when that connection goes back to the pool (after its commit, or its rollback: a harmless notice then, the
count read again is the same) ``Bell`` publishes ``NOTICE`` on each marked player's channel
(``keima.server.lobby.lobby.player_channel``) from the event loop. The pub/sub carries it to every process of a
cluster, where the player's lobby sockets read the unread count and send it
(``{"type": "notifications", "unread": n}``, docs/web-api.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from keima.server.live.pubsub import PubSub, player_channel

#: What a player's channel carries when a notification was stored for them.
NOTICE = '{"type":"notifications"}'
_KEY = "keima.bell"  # the players marked on a database connection, in its ``info``


def stored(conn: Connection, player_id: str) -> None:
    """Mark ``player_id`` as told something in ``conn``'s transaction: their pages hear of it after it ends."""
    conn.info.setdefault(_KEY, set()).add(player_id)


class Bell:
    """Rings the marked players' channels of one engine on one pub/sub (``start`` and ``close`` on the loop)."""

    def __init__(self, engine: Engine, pubsub: PubSub) -> None:
        self.engine = engine
        self.pubsub = pubsub
        self.rung = 0
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Listen to the engine's connections going back to the pool (from the event loop; outside one, a hub
        with no pages to tell, nothing)."""
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        event.listen(self.engine.pool, "checkin", self._checkin)

    def close(self) -> None:
        """Stop listening (idempotent)."""
        if self._loop is not None and event.contains(self.engine.pool, "checkin", self._checkin):
            event.remove(self.engine.pool, "checkin", self._checkin)
        self._loop = None

    def _checkin(self, _dbapi: Any, record: Any) -> None:
        # Any thread: the database's own, the writer's, the event loop's.
        players = record.info.pop(_KEY, None) if record is not None else None
        loop = self._loop
        if players and loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: no page is left to tell
                loop.call_soon_threadsafe(self.ring, frozenset(players))

    def ring(self, players: frozenset[str]) -> None:
        """Publish ``NOTICE`` on each player's channel (on the event loop)."""
        for pid in sorted(players):
            self.pubsub.publish(player_channel(pid), time.time_ns(), NOTICE)
            self.rung += 1
