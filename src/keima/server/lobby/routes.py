"""The lobby's endpoints (docs/web-api.md, *Lobby*): the lists of games, "my games", and the lobby's socket, which
tells a page of new lists, of an automatch game found and of the bell."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any, Literal

from fastapi import APIRouter, Query, Request, Response, WebSocket, WebSocketDisconnect

from keima.server import timesource
from keima.server.accounts import players_of, required_player
from keima.server.automatch import MATCHED_PREFIX, matched_json
from keima.server.edge import WS_TRY_AGAIN_LATER, storage_unreachable
from keima.server.edge import cross_origin as _cross_origin
from keima.server.errors import ErrorBody
from keima.server.live import NOTICE as BELL_NOTICE
from keima.server.live import player_channel, serve_notices
from keima.server.lobby.lobby import LOBBY, Lobby
from keima.server.lobby.schemas import GamesOut
from keima.server.notifications import unread_count

log = logging.getLogger("keima.server.lobby")
router = APIRouter()
_errors: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody} for code in (400, 401, 403, 409, 422, 429)}


def _json(model: Any, status: int = 200) -> Response:
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


@router.get("/api/games", responses={200: {"model": GamesOut}, **_errors})
async def list_games(request: Request, status: Literal["open", "live", "finished"] = "live",
                     size: int | None = Query(None, ge=2, le=25),
                     limit: int = Query(30, ge=1, le=100)) -> Response:
    """Open challenges, live games (both seats taken) or finished games, newest first."""
    lobby: Lobby = request.app.state.lobby
    return _json(GamesOut(games=await lobby.games(status, size=size, limit=limit), now=round(timesource.now(), 3)))


@router.get("/api/me/games", responses={200: {"model": GamesOut}, **_errors})
async def my_games(request: Request, status: Literal["live", "finished"] = "live",
                   limit: int = Query(50, ge=1, le=100)) -> Response:
    """The caller's games in progress (open and waiting challenges included) or finished, newest first."""
    player = await required_player(request)
    lobby: Lobby = request.app.state.lobby
    return _json(GamesOut(games=await lobby.games(status, limit=limit, player_id=player.id),
                          now=round(timesource.now(), 3)))


@router.websocket("/api/lobby/ws")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby's lists at once and after each change; ``mine``: the reader's games in progress; the reader's
    unread notifications after each new one (``{"type": "notifications", "unread": n}``)."""
    lobby: Lobby = websocket.app.state.lobby
    # A page of another site sees the public lists, never a player's own games.
    pid = None if _cross_origin(websocket.headers) else await players_of(websocket).player_id(websocket.cookies)
    await websocket.accept()
    wake = asyncio.Event()
    subs = [lobby.hub.pubsub.subscribe(LOBBY)]
    if pid is not None:
        # Each page is a viewer of the player's channel: the pub/sub counts distinct viewers, and automatch asks
        # how many of this player's lobby pages are open in every process (keima.server.automatch.matchmaker.left).
        subs.append(lobby.hub.pubsub.subscribe(player_channel(pid), viewer=f"page-{id(websocket):x}"))
    newest = [0]
    # Automatch's "matched" notices (keima.server.automatch.matchmaker) go to the page as they come, apart from the lists.
    notices: list[str] = []
    if pid is not None:
        got = await websocket.app.state.matchmaker.status(pid)
        if got is not None and got[1] is not None:
            notices.append(matched_json(got[1]))

    # The bell's count (keima.server.live.bell), sent whenever a notification is stored for the reader (the page reads
    # the list itself when it opens).
    bell = [False]
    lists_due = [False]

    async def listen(sub: Any) -> None:
        async for version, msg in sub:
            if msg.startswith(MATCHED_PREFIX):
                notices.append(msg)
            elif msg == BELL_NOTICE:
                bell[0] = True
            else:
                newest[0] = max(newest[0], version)
                lists_due[0] = True
            wake.set()

    async def send() -> None:
        lists = await lobby.lists_json(newest[0])
        mine = "null"
        if pid is not None:
            mine = GamesOut(games=await lobby.games("live", player_id=pid)).model_dump_json(
                exclude={"now"})[len('{"games":'):-1]
        await websocket.send_text(f'{lists[:-1]},"mine":{mine},"now":{timesource.now():.3f}}}')

    async def tell() -> None:
        while notices:
            notice = notices.pop(0)
            await websocket.send_text(notice)
            await websocket.app.state.matchmaker.told(pid, json.loads(notice)["game"])
        if bell[0] and pid is not None:
            bell[0] = False
            n = await asyncio.get_running_loop().run_in_executor(None, unread_count, lobby.hub.store.engine, pid)
            await websocket.send_text(f'{{"type":"notifications","unread":{n}}}')

    async def pump() -> None:
        try:
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                await send()
                while True:
                    await tell()
                    await wake.wait()
                    wake.clear()
                    await tell()
                    if lists_due[0]:  # not for the bell alone: its count is one small message
                        lists_due[0] = False
                        await send()
                        await asyncio.sleep(0.2)  # notices in a burst make one message
        except Exception as exc:
            # The lists could not be read: the database is out of reach. The client reopens later.
            if not storage_unreachable(exc):
                raise
            log.warning("database unreachable: the lobby socket is closed (%s)", type(exc).__name__)
            with contextlib.suppress(RuntimeError, OSError):
                await websocket.close(code=WS_TRY_AGAIN_LATER)

    try:
        await serve_notices(websocket, subs, listen, pump)
    finally:
        if pid is not None:
            # The player's last open page gone: their automatch entry ends (keima.server.automatch.matchmaker), checked in
            # the background (the other processes' counts may need another look).
            lobby.hub.spawn(websocket.app.state.matchmaker.left(pid))
