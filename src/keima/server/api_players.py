"""Endpoints of players, sessions, the lobby and "my games" (docs/web-api.md, *Players* and *Lobby*), and the
helpers ``keima.server.app`` uses to seat players in games.

``setup(app, hub)`` makes the process's ``Players``, ``Lobby`` and ``Chat`` (``app.state``); ``router`` holds the
endpoints.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any, Literal

from fastapi import APIRouter, FastAPI, Query, Request, Response, WebSocket, WebSocketDisconnect

from keima.server import store_reads, timesource
from keima.server.away import Away, AwaySettings
from keima.server.bell import NOTICE as BELL_NOTICE
from keima.server.chat import Chat
from keima.server.errors import Refused
from keima.server.hub import Hub
from keima.server.limits import ChatFlood, Limits
from keima.server.lobby import LOBBY, Lobby
from keima.server.matchmaker import MATCHED_PREFIX, matched_json
from keima.server.mutes import Mutes
from keima.server.notice_socket import serve_notices
from keima.server.notify import prefs_of as notify_prefs
from keima.server.notify import unread_count
from keima.server.notify_settings import update_settings
from keima.server.origin import cross_origin as _cross_origin
from keima.server.origin import same_origin as _same_origin
from keima.server.players import SESSION_AGE, SESSION_COOKIE, Player, Players, load_secret
from keima.server.pubsub import player_channel
from keima.server.ratings_subscriber import has_rated_game
from keima.server.schemas import ErrorBody
from keima.server.schemas_players import Credentials, GamesOut, MeOut, MePatch, PasswordChange, VacationOut
from keima.server.session import token_hash
from keima.server.storage_errors import WS_TRY_AGAIN_LATER, storage_unreachable
from keima.server.text import rank_words

SEAT_HEADER = "x-keima-seat"
SEAT_COOKIE_PREFIX = "keima_seat_"

log = logging.getLogger("keima.server.players")
router = APIRouter()
_errors: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody} for code in (400, 401, 403, 409, 422, 429)}


async def setup(app: FastAPI, hub: Hub, limits: Limits | None = None) -> None:
    """Make ``app.state.players``, ``app.state.lobby``, ``app.state.mutes`` and ``app.state.chat`` for ``hub`` (reads or makes the
    signing key: see ``load_secret``), their rate limits made by ``limits`` (default: in this process)."""
    secret = await asyncio.get_running_loop().run_in_executor(None, load_secret, hub.store)
    app.state.players = Players(hub.store, secret, limits, engines=hub.engines)
    app.state.lobby = Lobby(hub)
    app.state.mutes = Mutes(hub.store, secret)
    app.state.chat = Chat(hub, limits, handle=app.state.mutes.handle)
    app.state.chat_flood = ChatFlood(limits or Limits())
    app.state.away = AwaySettings(hub.store, hub.service)


def players_of(conn: Request | WebSocket) -> Players:
    """The process's ``Players``."""
    p: Players = conn.app.state.players
    return p


def is_https(conn: Request | WebSocket) -> bool:
    """Whether ``conn`` came over TLS (behind a TLS proxy uvicorn sets the scheme from X-Forwarded-Proto).

    Read from the ASGI scope, not ``conn.url``: building the URL parses it through ``urllib``'s cache, whose
    entries (one per game's URL) outlive the requests and pin the allocator's memory after a load."""
    return conn.scope.get("scheme") in ("https", "wss")


def set_session_cookie(resp: Response, value: str, secure: bool) -> None:
    """Put the session cookie on ``resp`` (signed value, HttpOnly, SameSite=Lax, Secure over HTTPS)."""
    resp.set_cookie(SESSION_COOKIE, value, max_age=SESSION_AGE, path="/", httponly=True, samesite="lax",
                    secure=secure)


async def caller_token(conn: Request | WebSocket, game_id: str) -> str | None:
    """The seat token a request acts with in ``game_id``: the ``X-Keima-Seat`` header, else the game's seat
    cookie, else the token of the logged-in player's seat (derived, ``Players.seat_token``), else None."""
    token = conn.headers.get(SEAT_HEADER) or conn.cookies.get(SEAT_COOKIE_PREFIX + game_id)
    if token is not None and 8 <= len(token) <= 200:
        return str(token)
    players = players_of(conn)
    pid = await players.player_id(conn.cookies)
    return None if pid is None else players.seat_token(pid, game_id)


async def caller_player(conn: Request | WebSocket, *, make: bool = False) -> tuple[Player | None, str | None]:
    """The logged-in player of a request, and a new session cookie value when ``make`` made a guest for a caller
    without one (the caller must set it on the answer). Raises ``Refused`` 429 when the caller's address made
    too many guests lately."""
    players = players_of(conn)
    player = await players.current(conn.cookies)
    if player is not None or not make:
        return player, None
    player, cookie = await players.new_guest(conn.headers.get("accept-language") or "", _address(conn))
    return player, cookie


def needs_player(conn: Request | WebSocket, public: bool) -> bool:
    """Whether creating or joining a game makes a guest player for a caller without one: for an open challenge
    (``public``: the lobby shows its players' names), and for a browser's page (a request with an ``Origin``
    header, which browsers send with every POST), whose "my games" needs a player. An API client without a
    player holds its seat by the seat token alone, as before, and makes no rows."""
    return public or "origin" in conn.headers


async def check_chat_flood(conn: Request | WebSocket, game_id: str) -> None:
    """Count a chat message to ``game_id`` against the limits per game and per client address
    (``keima.server.limits.ChatFlood``); raises ``Refused`` 429 past either."""
    flood: ChatFlood = conn.app.state.chat_flood
    await flood.check(game_id, _address(conn))


async def chat_player(request: Request, game_id: str, action: dict[str, Any]) -> tuple[Player | None, str | None]:
    """The player a chat message (a ``ChatAction`` dict) posted over HTTP to ``game_id`` is written by, and the
    session cookie value to set when a guest was made for it: a message to the spectators' chat from a caller
    without a player needs one (its name is shown), a message to the players' chat is written by the seat. The
    message is counted first (``check_chat_flood``: 429), so that a flood makes no guests."""
    await check_chat_flood(request, game_id)
    return await caller_player(request, make=action.get("to") == "spectators")


def me_out(p: Player | None, away: Away | None = None) -> MeOut:
    """``GET /api/me``'s body: the player, or every field null (``guest`` true) for a caller without one;
    ``away``: the player's time zone and vacation."""
    if p is None:
        return MeOut(id=None, name=None, rank=None, rank_text=None, guest=True)
    if away is None:
        return MeOut(id=p.id, name=p.name, rank=p.rank, rank_text=rank_words(p.rank), guest=p.guest)
    return MeOut(id=p.id, name=p.name, rank=p.rank, rank_text=rank_words(p.rank), guest=p.guest,
                 time_zone=away.time_zone, vacation=VacationOut(**away.out(timesource.now())), email=away.email,
                 email_verified=away.email_verified, lang=away.lang, notify=dict(notify_prefs(away.notify)))


def away_of(conn: Request | WebSocket) -> AwaySettings:
    """The players' time zones and vacations (``keima.server.away``)."""
    settings: AwaySettings = conn.app.state.away
    return settings


def _json(model: Any, status: int = 200) -> Response:
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


def _address(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client else "?"


async def _need(request: Request) -> Player:
    player = await players_of(request).current(request.cookies)
    if player is None:
        raise Refused("not-logged-in", "no player for this browser: play, chat or register first, or log in")
    return player


@router.get("/api/me", responses={200: {"model": MeOut}, **_errors})
async def get_me(request: Request) -> Response:
    """The caller's player; without one, every field null and ``guest`` true (nothing is stored: a guest is made
    by the first action that needs a player)."""
    player, _ = await caller_player(request)
    return _json(me_out(player, None if player is None else await away_of(request).get(player.id)))


@router.patch("/api/me", responses={200: {"model": MeOut}, **_errors})
async def patch_me(body: MePatch, request: Request) -> Response:
    """Change the caller's name and/or rank (409 ``name-taken`` for a name taken; 409 ``rank-earned`` for a rank
    after the player's first rated game: it is their rating's from then on); a caller without a player gets a
    guest."""
    _same_origin(request)
    player, cookie = await caller_player(request, make=True)
    assert player is not None
    fields = body.model_fields_set
    if "rank" in fields and body.rank != player.rank and await asyncio.get_running_loop().run_in_executor(
            None, has_rated_game, request.app.state.hub.store.engine, player.id):
        raise Refused("rank-earned", "your rank is earned now: it follows your rated games and can no longer be "
                      "typed in", field="rank")
    updated = await players_of(request).update(player, body.name, body.rank, "rank" in fields)
    await _rename_in_games(request, updated)
    if body.time_zone is not None:
        await away_of(request).set_time_zone(player.id, body.time_zone)
    wanted: dict[str, Any] = {k: getattr(body, k) for k in ("email", "lang", "notify") if k in fields}
    if wanted:
        await update_settings(request, player.id, wanted)
    away = await away_of(request).get(player.id)
    resp = _json(me_out(updated, away))
    if cookie is not None:
        set_session_cookie(resp, cookie, is_https(request))
    return resp


@router.put("/api/me/vacation", responses={200: {"model": MeOut}, **_errors})
async def start_vacation(request: Request) -> Response:
    """Go on vacation: the caller's clocks pause in their correspondence games (but those offered with "no
    vacation") while days are left; 409 ``no-vacation-left`` without a day; 401 for a caller without a player."""
    _same_origin(request)
    player = await _need(request)
    return _json(me_out(player, await away_of(request).set_vacation(player.id, True)))


@router.delete("/api/me/vacation", responses={200: {"model": MeOut}, **_errors})
async def end_vacation(request: Request) -> Response:
    """Come back from vacation: the caller's clocks run again (the days not spent are kept)."""
    _same_origin(request)
    player = await _need(request)
    return _json(me_out(player, await away_of(request).set_vacation(player.id, False)))


async def seated(conn: Request | WebSocket, player: Player, s: Any) -> None:
    """``player`` just sat down in the game ``s``: its clock learns their time zone and vacation (a
    correspondence game only)."""
    if s.clock.spec.correspondence:
        settings = away_of(conn)
        await settings.pass_on(player.id, await settings.get(player.id), only=s.id)


async def _rename_in_games(conn: Request | WebSocket, player: Player) -> None:
    # Through the game service: the player's games not started yet (open challenges, invitations) show the new
    # name in every process; a game that has started keeps the names of the day.
    hub: Hub = conn.app.state.hub
    lobby: Lobby = conn.app.state.lobby
    for line in await lobby.games("live", limit=100, player_id=player.id):
        if line.status in ("open", "waiting"):
            with contextlib.suppress(Refused):
                await hub.service.rename(line.id, player.id, player.person())


async def _anonymize(conn: Request | WebSocket, player_id: str, name: str) -> None:
    # A deleted account's games keep its seats under a name that is no longer anyone's: the stored records are
    # rewritten, and the copies in memory read again from them.
    hub: Hub = conn.app.state.hub
    games = await asyncio.get_running_loop().run_in_executor(
        None, store_reads.anonymize, hub.store.engine, player_id, name)
    for gid in games:
        s = hub.sessions.get(gid)
        if s is not None:
            hub.drop(s)


@router.post("/api/players", status_code=201, responses={201: {"model": MeOut}, **_errors})
async def register(body: Credentials, request: Request) -> Response:
    """Register the caller's guest player under a name and password, or a new player for a caller without one
    (201; 409 for a name taken; 429 past the registrations allowed an address). The session id changes."""
    _same_origin(request)
    player, _ = await caller_player(request)
    registered, cookie = await players_of(request).register(player, body.name, body.password, _address(request))
    if player is not None:
        await _rename_in_games(request, registered)
    resp = _json(me_out(registered), 201)
    set_session_cookie(resp, cookie, is_https(request))
    return resp


@router.post("/api/session", responses={200: {"model": MeOut}, **_errors})
async def login(body: Credentials, request: Request) -> Response:
    """Log in (401: wrong name or password, one message for both; 429 past 10 attempts a minute for a name or
    an address)."""
    _same_origin(request)
    player, cookie = await players_of(request).login(body.name, body.password, _address(request))
    resp = _json(me_out(player))
    set_session_cookie(resp, cookie, is_https(request))
    _drop_seat_cookies(request, resp)
    return resp


def _drop_seat_cookies(request: Request, resp: Response) -> None:
    # Seats held through this browser's seat cookies belong to the player who leaves it.
    for name in request.cookies:
        if name.startswith(SEAT_COOKIE_PREFIX):
            resp.delete_cookie(name, path="/")


@router.delete("/api/session", status_code=204, responses=_errors)
async def logout(request: Request) -> Response:
    """Log out: the session ends; this browser's seat cookies are dropped (204)."""
    _same_origin(request)
    await players_of(request).end_session(request.cookies)
    resp = Response(status_code=204)
    resp.delete_cookie(SESSION_COOKIE, path="/")
    _drop_seat_cookies(request, resp)
    return resp


@router.post("/api/me/password", status_code=204, responses=_errors)
async def change_password(body: PasswordChange, request: Request) -> Response:
    """Change a registered player's password (401 for a wrong old password; 429 past the login attempts
    allowed): the session id changes and the account's other sessions end."""
    _same_origin(request)
    cookie = await players_of(request).change_password(await _need(request), body.old, body.new, _address(request))
    resp = Response(status_code=204)
    set_session_cookie(resp, cookie, is_https(request))
    return resp


@router.delete("/api/me", status_code=204, responses=_errors)
async def delete_me(request: Request) -> Response:
    """Delete a registered player's account: their open challenges are withdrawn, their games in progress
    resigned (nobody could play their side any more) and their seats revoked in every game, they are logged out
    everywhere, the name is freed, the games are kept under a name that is no longer theirs (204)."""
    _same_origin(request)
    player = await _need(request)
    if player.guest:
        raise Refused("not-registered", "a guest has no account to delete")
    await _retire_all(request, player)
    await request.app.state.matchmaker.cancel(player.id)
    former = await players_of(request).delete(player)
    await request.app.state.mutes.forget(player.id)
    await _anonymize(request, player.id, former)
    resp = Response(status_code=204)
    resp.delete_cookie(SESSION_COOKIE, path="/")
    _drop_seat_cookies(request, resp)
    return resp


async def _retire_all(request: Request, player: Player) -> None:
    # Every game of the account, however many: its open challenges withdrawn, its games in progress resigned
    # (nobody could play its side any more), its seats revoked everywhere, through the game service (so every
    # process of a cluster sees it).
    hub: Hub = request.app.state.hub
    games = await asyncio.get_running_loop().run_in_executor(None, store_reads.seats_of, hub.store.engine,
                                                             player.id)
    for gid, colors in games.items():
        thash = token_hash(players_of(request).seat_token(player.id, gid))
        with contextlib.suppress(Refused):  # a game gone meanwhile
            await hub.service.retire(gid, frozenset(colors), thash)


@router.get("/api/games", responses={200: {"model": GamesOut}, **_errors})
async def list_games(request: Request, status: Literal["open", "live", "finished"] = "live",
                     size: int | None = Query(None, ge=2, le=25),
                     limit: int = Query(30, ge=1, le=100)) -> Response:
    """Open challenges, live games (both seats taken) or finished games, newest first."""
    lobby: Lobby = request.app.state.lobby
    return _json(GamesOut(games=await lobby.games(status, size=size, limit=limit), now=round(time.time(), 3)))


@router.get("/api/me/games", responses={200: {"model": GamesOut}, **_errors})
async def my_games(request: Request, status: Literal["live", "finished"] = "live",
                   limit: int = Query(50, ge=1, le=100)) -> Response:
    """The caller's games in progress (open and waiting challenges included) or finished, newest first."""
    player = await _need(request)
    lobby: Lobby = request.app.state.lobby
    return _json(GamesOut(games=await lobby.games(status, limit=limit, player_id=player.id),
                          now=round(time.time(), 3)))


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
        # how many of this player's lobby pages are open in every process (keima.server.matchmaker.left).
        subs.append(lobby.hub.pubsub.subscribe(player_channel(pid), viewer=f"page-{id(websocket):x}"))
    newest = [0]
    # Automatch's "matched" notices (keima.server.matchmaker) go to the page as they come, apart from the lists.
    notices: list[str] = []
    if pid is not None:
        got = await websocket.app.state.matchmaker.status(pid)
        if got is not None and got[1] is not None:
            notices.append(matched_json(got[1]))

    # The bell's count (keima.server.bell), sent whenever a notification is stored for the reader (the page reads
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
        await websocket.send_text(f'{lists[:-1]},"mine":{mine},"now":{time.time():.3f}}}')

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
            # The player's last open page gone: their automatch entry ends (keima.server.matchmaker), checked in
            # the background (the other processes' counts may need another look).
            lobby.hub.spawn(websocket.app.state.matchmaker.left(pid))
