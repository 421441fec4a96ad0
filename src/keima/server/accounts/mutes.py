"""Muted chat senders: each player's own list of the senders whose chat messages they do not want to read.

Every chat message carries ``sender``, an opaque handle of who wrote it (``Mutes.handle``: a signature of the
sender's player, or of the seat token of a sender without one), the same in every game and never the player's
id. A player mutes a handle (with the name it wrote under, for their list); the server then leaves that sender's
messages out of what it sends that player: the chat of a game's whole state (its history), and each new message
(the ``chatted`` event of a delta then carries no message). The list is kept in the database, per player, so it
follows the account to every device.

Reads are cached for ``CACHE_S`` seconds per player in each process: a change made on one process shows on the
others within that time (at once on the process that made it).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from keima.server.errors import Refused
from keima.server.storage import Store, chat_mutes, now_utc

#: How many senders one player may mute.
MAX_MUTES = 200
CACHE_S = 10.0
#: A handle as ``Mutes.handle`` makes it.
HANDLE = re.compile(r"^s\.[A-Za-z0-9_-]{22}$")


class Mutes:
    """The muted senders of every player (``app.state.mutes``)."""

    def __init__(self, store: Store, secret: bytes) -> None:
        self.store = store
        self.secret = secret
        self._cache: dict[str, tuple[float, dict[str, str]]] = {}
        # The handles hidden from a player by a block, either way (keima.server.accounts.standing.Standing.hidden).
        self.blocked: Callable[[str], Awaitable[frozenset[str]]] | None = None

    async def hidden(self, player_id: str | None) -> dict[str, str]:
        """The senders whose messages ``player_id`` is not sent: those they muted and, with no name, those a
        block stands between (empty for no player)."""
        found = await self.of(player_id)
        if player_id is None or self.blocked is None:
            return found
        more = await self.blocked(player_id)
        return {**{h: "" for h in more}, **found} if more else found

    def handle(self, key: str) -> str:
        """The public handle of the sender ``key`` (``"p:" + player id`` or ``"t:" + seat token hash``)."""
        digest = hmac.new(self.secret, f"sender|{key}".encode(), hashlib.sha256).digest()
        return "s." + base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")[:22]

    async def of(self, player_id: str | None) -> dict[str, str]:
        """The senders ``player_id`` muted (handle -> the name it was muted under); empty for no player."""
        if player_id is None:
            return {}
        hit = self._cache.get(player_id)
        if hit is not None and time.monotonic() - hit[0] < CACHE_S:
            return hit[1]

        def read() -> dict[str, str]:
            with self.store.engine.connect() as conn:
                rows = conn.execute(sa.select(chat_mutes.c.sender, chat_mutes.c.name)
                                    .where(chat_mutes.c.player_id == player_id).order_by(chat_mutes.c.at)).all()
            return {r.sender: r.name for r in rows}

        found = await asyncio.get_running_loop().run_in_executor(None, read)
        self._cache[player_id] = (time.monotonic(), found)
        if len(self._cache) > 10_000:  # a bounded cache: the oldest readings go first
            for key in sorted(self._cache, key=lambda k: self._cache[k][0])[:1000]:
                del self._cache[key]
        return found

    async def add(self, player_id: str, sender: str, name: str) -> None:
        """Mute ``sender`` for ``player_id`` (again: its name is updated). Raises ``Refused`` 422 for a handle
        that is not one, the player's own, or a list already ``MAX_MUTES`` long."""
        if not HANDLE.match(sender):
            raise Refused("invalid-request", "sender: not a sender's handle (a chat message's sender)", field="sender")
        if sender == self.handle("p:" + player_id):
            raise Refused("invalid-request", "sender: you cannot mute yourself", field="sender")
        have = await self.of(player_id)
        if sender not in have and len(have) >= MAX_MUTES:
            raise Refused("invalid-request", f"sender: at most {MAX_MUTES} senders can be muted", field="sender")

        def op(conn: Connection) -> None:
            conn.execute(chat_mutes.delete().where(chat_mutes.c.player_id == player_id,
                                                   chat_mutes.c.sender == sender))
            conn.execute(chat_mutes.insert().values(player_id=player_id, sender=sender, name=name[:80],
                                                    at=now_utc()))

        await self.store.write(op)
        self._cache.pop(player_id, None)

    async def remove(self, player_id: str, sender: str) -> None:
        """Unmute ``sender`` for ``player_id`` (nothing happens when it was not muted)."""

        def op(conn: Connection) -> None:
            conn.execute(chat_mutes.delete().where(chat_mutes.c.player_id == player_id,
                                                   chat_mutes.c.sender == sender))

        await self.store.write(op)
        self._cache.pop(player_id, None)

    async def forget(self, player_id: str) -> None:
        """Drop every mute of ``player_id`` (a deleted account)."""

        def op(conn: Connection) -> None:
            conn.execute(chat_mutes.delete().where(chat_mutes.c.player_id == player_id))

        await self.store.write(op)
        self._cache.pop(player_id, None)


def without_muted_state(state: str, muted: dict[str, str] | frozenset[str]) -> str:
    """A game's state JSON without the chat messages of the ``muted`` senders (``state`` itself when none)."""
    if not muted or '"sender"' not in state:
        return state
    data: dict[str, Any] = json.loads(state)
    chat = data.get("chat")
    if not isinstance(chat, list) or not any(m.get("sender") in muted for m in chat):
        return state
    data["chat"] = [m for m in chat if m.get("sender") not in muted]
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def without_muted_delta(delta: str, muted: dict[str, str] | frozenset[str]) -> str:
    """A WebSocket delta whose ``chatted`` event carries no message when its sender is ``muted``."""
    if not muted or '"chatted"' not in delta:
        return delta
    data: dict[str, Any] = json.loads(delta)
    event = data.get("event")
    if not isinstance(event, dict) or event.get("type") != "chatted":
        return delta
    if (event.get("message") or {}).get("sender") not in muted:
        return delta
    data["event"] = {"type": "chatted"}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
