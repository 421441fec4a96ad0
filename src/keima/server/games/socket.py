"""The game WebSocket (``/api/games/{id}/ws``), protocol 2 (docs/web-api.md, *WebSocket*).

The first message is the whole state (``{"type": "state", "protocol": 2, "game": ...}``); every stored change then
comes as its delta (``keima.server.games.view``), from this process or, through Redis, from another. A socket that sees a
gap in the versions (it was too slow, a message was lost) sends the whole state instead, and so does a client that
asks for it (``{"type": "resync", "from": v}``). Actions come in as ``{"type": "action", ...}`` and are answered
by an ``ack`` (after the delta of the change) or an ``error``.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from keima.server import timesource
from keima.server.accounts import (
    caller_token,
    check_chat_flood,
    players_of,
    without_muted_delta,
    without_muted_state,
)
from keima.server.edge import cross_origin, read_frame, validation_error
from keima.server.errors import Refused
from keima.server.games.answers import WsAck, WsError, WsErrorDetail, WsNotice, WsPong
from keima.server.games.hub import Hub
from keima.server.games.schemas import WS_ADAPTER
from keima.server.games.seats import token_hash
from keima.server.games.session import GameSession
from keima.server.games.view import with_you, ws_state_json

PROTOCOL = 2
#: Benchmarks only (bench/cluster_load.py --full-states): send the whole state after every change, as protocol 1
#: did, so that both can be measured in one run. Never set in production.
FULL_STATES = os.environ.get("KEIMA_WS_FULL_STATES", "") == "1"
PONG = WsPong(type="pong").model_dump_json()
DELTA_PREFIX = '{"type":"delta"'
ACK_WAIT = 2.0  # seconds an ack waits for the delta of its change before the whole state goes instead


class GameSocket:
    """One watcher's socket: what it was sent (``last``: the version) and how to send it more."""

    def __init__(self, hub: Hub, websocket: WebSocket, game_id: str, thash: str | None,
                 player_id: str | None = None) -> None:
        self.hub = hub
        self.ws = websocket
        self.game_id = game_id
        self.thash = thash
        self.player_id = player_id  # whose muted senders' messages this socket leaves out
        self.last = -1
        self.sent = asyncio.Condition()

    async def _session(self, at_least: int) -> GameSession:
        s = self.hub.cache.sessions.get(self.game_id)
        if s is None or s.broken or s.version < at_least:
            s = await self.hub.cache.get(self.game_id, fresh=True)
        return s

    async def send_state(self, at_least: int = -1, *, first: bool = False) -> None:
        """Send the whole state (of a version at least ``at_least``), with this viewer's seats."""
        s = await self._session(at_least)
        seats = s.seats.held_by(self.thash)
        muted = await self._muted()
        await self.ws.send_text(ws_state_json(without_muted_state(s.state_json(timesource.now(), seats), muted),
                                              protocol=PROTOCOL if first else None))
        await self._sent(s.version)

    async def _muted(self) -> dict[str, str]:
        mutes = getattr(self.ws.app.state, "mutes", None)
        return {} if mutes is None or self.player_id is None else await mutes.hidden(self.player_id)

    async def _sent(self, version: int) -> None:
        async with self.sent:
            self.last = max(self.last, version)
            self.sent.notify_all()

    async def offer(self, version: int, text: str) -> None:
        """Send a published message of ``version``: a delta that follows what was sent, or (a gap) the whole
        state; a whole state newer than what was sent. Older messages are dropped."""
        if version <= self.last:
            return
        if text.startswith(DELTA_PREFIX):
            if version - 1 == self.last and not FULL_STATES:
                if self.player_id is not None and '"chatted"' in text:
                    text = without_muted_delta(text, await self._muted())
                await self.ws.send_text(text)
                await self._sent(version)
            else:
                await self.send_state(version)
            return
        seats = self.hub.cache.sessions[self.game_id].seats.held_by(self.thash) if self.game_id in self.hub.cache.sessions \
            else frozenset()
        state = with_you(text, seats) if seats else text
        if self.player_id is not None:
            state = without_muted_state(state, await self._muted())
        await self.ws.send_text(ws_state_json(state))
        await self._sent(version)

    async def caught_up(self, version: int) -> None:
        """Wait until this socket was sent ``version`` (the delta of the caller's own change), at most
        ``ACK_WAIT`` seconds; then send the whole state if it still was not."""
        try:
            async with self.sent:
                await asyncio.wait_for(self.sent.wait_for(lambda: self.last >= version), ACK_WAIT)
        except TimeoutError:
            await self.send_state(version)


async def serve(hub: Hub, websocket: WebSocket, game_id: str) -> None:
    """Serve one game WebSocket until it closes (see the module docstring)."""
    try:
        await hub.cache.get(game_id, fresh=True)
    except Refused:
        await websocket.close(code=4404)
        return
    await websocket.accept()
    # A page of another site may watch, never act: its socket is a spectator's whatever cookie came with it.
    foreign = cross_origin(websocket.headers)
    token = None if foreign else await caller_token(websocket, game_id)
    player = None if foreign else await players_of(websocket).current(websocket.cookies)
    sock = GameSocket(hub, websocket, game_id, None if token is None else token_hash(token),
                      None if player is None else player.id)
    sub = hub.pubsub.subscribe(game_id, _viewer(hub, game_id, sock, player))

    async def pump() -> None:
        try:
            async for version, text in sub:
                await sock.offer(version, text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the socket closed; the reader's end cleans up

    async def watch_workers() -> None:
        # Cluster mode: a bot game whose bot (or estimate) waits while no worker runs says so.
        sent: str | None = None
        try:
            while True:
                current = hub.cache.sessions.get(game_id)
                if current is not None:
                    waiting = hub.bots.task(current) is not None or hub.bots.needs_estimate(current)
                    want = "no-bot-worker" if waiting and await hub.jobs.workers() == 0 else None
                    if want != sent:
                        await websocket.send_text(WsNotice(type="notice", notice=want).model_dump_json())  # type: ignore[arg-type]
                        sent = want
                await asyncio.sleep(1.0)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass

    try:
        await sock.send_state(first=True)
    except (WebSocketDisconnect, RuntimeError, OSError, Refused):
        # The client left during the handshake (an overloaded server, a closed tab): uvicorn then refuses any
        # send with a RuntimeError. Nothing to serve.
        sub.close()
        return
    loop = asyncio.get_running_loop()
    sender = loop.create_task(pump())
    s0 = hub.cache.sessions.get(game_id)
    watcher = None
    if hub.jobs is not None and s0 is not None and s0.bot_color is not None:
        watcher = loop.create_task(watch_workers())
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            await _receive(hub, sock, frame.get("text"), player)
    except WebSocketDisconnect:
        pass
    finally:
        sub.close()
        sender.cancel()
        if watcher is not None:
            watcher.cancel()


def _viewer(hub: Hub, game_id: str, sock: GameSocket, player: Any) -> str | None:
    """Who the lobby's "watching" count sees in this socket: None for a seated player (the players are not
    watching), else the viewer's player (one person's tabs count once), else this socket alone."""
    s = hub.cache.sessions.get(game_id)
    if s is not None and s.seats.held_by(sock.thash):
        return None
    return f"player:{player.id}" if player is not None else f"socket:{id(sock)}"


async def _receive(hub: Hub, sock: GameSocket, raw: str | None, player: Any) -> None:
    msg_id: Any = None
    try:
        data, msg_id = read_frame(raw)
        try:
            msg = WS_ADAPTER.validate_python(data)
        except ValidationError as exc:
            raise validation_error(exc) from None
        if msg.type == "ping":
            await sock.ws.send_text(PONG)
            return
        if msg.type == "resync":
            await sock.send_state()
            return
        action = msg.action.model_dump()
        if action["type"] == "chat":
            await check_chat_flood(sock.ws, sock.game_id)
            # The player as of this message (an account deleted or logged out since the socket opened writes as
            # nobody), never as of the socket's opening.
            current = None if player is None else await players_of(sock.ws).current(sock.ws.cookies)
            s = await sock.ws.app.state.chat.post(sock.game_id, action, sock.thash, current)
        else:
            s = await hub.service.act(sock.game_id, action, sock.thash)
        await sock.caught_up(s.version)
        await sock.ws.send_text(WsAck(type="ack", id=msg_id).model_dump_json())
    except Refused as exc:
        detail = WsErrorDetail(**exc.detail().model_dump(), status=exc.status)
        await sock.ws.send_text(WsError(type="error", id=msg_id, error=detail).model_dump_json())
