"""Endpoints of players, sessions, the lobby and "my games" (docs/web-api.md, *Players* and *Lobby*), and the
helpers ``keima.server.app`` uses to seat players in games.

``setup(app, hub)`` makes the process's ``Players``, ``Lobby`` and ``Chat`` (``app.state``); ``router`` holds the
endpoints.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, Request, Response, WebSocket

from keima.server import timesource
from keima.server.accounts import (
    SEAT_COOKIE_PREFIX,
    SESSION_COOKIE,
    Away,
    Player,
    address,
    caller_player,
    is_https,
    players_of,
    rank_words,
    required_player,
    set_session_cookie,
)
from keima.server.clubs import leave_all as club_leave_all
from keima.server.edge import same_origin as _same_origin
from keima.server.errors import ErrorBody, Refused
from keima.server.games import Hub, away_of, token_hash
from keima.server.games import reads as store_reads
from keima.server.lobby import Lobby
from keima.server.notifications import prefs_of as notify_prefs
from keima.server.notifications import update_settings
from keima.server.players.schemas import Credentials, MeOut, MePatch, PasswordChange, VacationOut
from keima.server.ratings import ShownRank, rank_of, shown_rank

log = logging.getLogger("keima.server.players")
router = APIRouter()
_errors: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody} for code in (400, 401, 403, 409, 422, 429)}


def me_out(p: Player | None, away: Away | None = None, shown: ShownRank | None = None) -> MeOut:
    """``GET /api/me``'s body: the player, or every field null (``guest`` true) for a caller without one;
    ``away``: the player's time zone and vacation; ``shown``: their rank as shown (``shown_rank_of``; None: the
    typed one)."""
    if p is None:
        return MeOut(id=None, name=None, rank=None, rank_text=None, guest=True)
    shown = shown or shown_rank(None, p.rank)
    out = MeOut(id=p.id, name=p.name, guest=p.guest, rank=shown.rank, rank_text=rank_words(shown.rank),
                provisional=shown.provisional, rank_earned=shown.earned)
    if away is None:
        return out
    return out.model_copy(update={
        "time_zone": away.time_zone, "vacation": VacationOut(**away.out(timesource.now())), "email": away.email,
        "email_verified": away.email_verified, "email_bounced": away.email_bounced, "lang": away.lang,
        "notify": dict(notify_prefs(away.notify))})


async def shown_rank_of(request: Request, p: Player | None) -> ShownRank | None:
    """The rank shown for ``p`` now (``keima.server.ratings.rank_of``: earned, else typed); None without a
    player."""
    if p is None:
        return None
    engine = request.app.state.hub.store.engine
    return await asyncio.get_running_loop().run_in_executor(None, rank_of, engine, p.id, p.rank)


def _json(model: Any, status: int = 200) -> Response:
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


@router.get("/api/me", responses={200: {"model": MeOut}, **_errors})
async def get_me(request: Request) -> Response:
    """The caller's player; without one, every field null and ``guest`` true (nothing is stored: a guest is made
    by the first action that needs a player)."""
    player, _ = await caller_player(request)
    return _json(me_out(player, None if player is None else await away_of(request).get(player.id),
                        await shown_rank_of(request, player)))


@router.patch("/api/me", responses={200: {"model": MeOut}, **_errors})
async def patch_me(body: MePatch, request: Request) -> Response:
    """Change the caller's name and/or rank (409 ``name-taken`` for a name taken; 409 ``rank-earned`` for a rank
    after the player's first rated game: it is their rating's from then on; the rank sent back as it was, typed
    or shown, is no change); a caller without a player gets a guest."""
    _same_origin(request)
    player, cookie = await caller_player(request, make=True)
    assert player is not None
    fields = body.model_fields_set
    shown = await shown_rank_of(request, player)
    assert shown is not None
    if "rank" in fields and shown.earned and body.rank not in (player.rank, shown.rank):
        raise Refused("rank-earned", "your rank is earned now: it follows your rated games and can no longer be "
                      "typed in", field="rank")
    updated = await players_of(request).update(player, body.name, body.rank, "rank" in fields and not shown.earned)
    await _rename_in_games(request, updated)
    if body.time_zone is not None:
        await away_of(request).set_time_zone(player.id, body.time_zone)
    wanted: dict[str, Any] = {k: getattr(body, k) for k in ("email", "lang", "notify") if k in fields}
    if wanted:
        await update_settings(request, player.id, wanted)
    away = await away_of(request).get(player.id)
    resp = _json(me_out(updated, away, await shown_rank_of(request, updated)))
    if cookie is not None:
        set_session_cookie(resp, cookie, is_https(request))
    return resp


@router.put("/api/me/vacation", responses={200: {"model": MeOut}, **_errors})
async def start_vacation(request: Request) -> Response:
    """Go on vacation: the caller's clocks pause in their correspondence games (but those offered with "no
    vacation") while days are left; 409 ``no-vacation-left`` without a day; 401 for a caller without a player."""
    _same_origin(request)
    player = await required_player(request)
    return _json(me_out(player, await away_of(request).set_vacation(player.id, True),
                        await shown_rank_of(request, player)))


@router.delete("/api/me/vacation", responses={200: {"model": MeOut}, **_errors})
async def end_vacation(request: Request) -> Response:
    """Come back from vacation: the caller's clocks run again (the days not spent are kept)."""
    _same_origin(request)
    player = await required_player(request)
    return _json(me_out(player, await away_of(request).set_vacation(player.id, False),
                        await shown_rank_of(request, player)))


async def _rename_in_games(conn: Request | WebSocket, player: Player) -> None:
    # Through the game service: the player's games not started yet (open challenges, invitations) show the new
    # name in every process; a game that has started keeps the names of the day.
    hub: Hub = conn.app.state.hub
    lobby: Lobby = conn.app.state.lobby
    person: dict[str, Any] | None = None
    for line in await lobby.games("live", limit=100, player_id=player.id):
        if line.status in ("open", "waiting"):
            person = person or await hub.seat_person(player.person())
            assert person is not None
            with contextlib.suppress(Refused):
                await hub.service.rename(line.id, player.id, person)


async def _anonymize(conn: Request | WebSocket, player_id: str, name: str) -> None:
    # A deleted account's games keep its seats under a name that is no longer anyone's: the stored records are
    # rewritten, and the copies in memory read again from them.
    hub: Hub = conn.app.state.hub
    games = await asyncio.get_running_loop().run_in_executor(
        None, store_reads.anonymize, hub.store.engine, player_id, name)
    for gid in games:
        s = hub.cache.sessions.get(gid)
        if s is not None:
            hub.cache.drop(s)


@router.post("/api/players", status_code=201, responses={201: {"model": MeOut}, **_errors})
async def register(body: Credentials, request: Request) -> Response:
    """Register the caller's guest player under a name and password, or a new player for a caller without one
    (201; 409 for a name taken; 429 past the registrations allowed an address). The session id changes."""
    _same_origin(request)
    player, _ = await caller_player(request)
    registered, cookie = await players_of(request).register(player, body.name, body.password, address(request))
    if player is not None:
        await _rename_in_games(request, registered)
    resp = _json(me_out(registered, None, await shown_rank_of(request, registered)), 201)
    set_session_cookie(resp, cookie, is_https(request))
    return resp


@router.post("/api/session", responses={200: {"model": MeOut}, **_errors})
async def login(body: Credentials, request: Request) -> Response:
    """Log in (401: wrong name or password, one message for both; 429 past 10 attempts a minute for a name or
    an address)."""
    _same_origin(request)
    player, cookie = await players_of(request).login(body.name, body.password, address(request))
    held = await request.app.state.standing.held(player.id)
    if held.banned:  # a banned account opens no session (docs/moderation.md); the password was right: say why
        raise Refused("banned", f"this account is banned: {held.reason}")
    resp = _json(me_out(player, None, await shown_rank_of(request, player)))
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
    cookie = await players_of(request).change_password(await required_player(request), body.old, body.new, address(request))
    resp = Response(status_code=204)
    set_session_cookie(resp, cookie, is_https(request))
    return resp


@router.delete("/api/me", status_code=204, responses=_errors)
async def delete_me(request: Request) -> Response:
    """Delete a registered player's account: their open challenges are withdrawn, their games in progress
    resigned (nobody could play their side any more) and their seats revoked in every game, they are logged out
    everywhere, the name is freed, the games are kept under a name that is no longer theirs (204)."""
    _same_origin(request)
    player = await required_player(request)
    if player.guest:
        raise Refused("not-registered", "a guest has no account to delete")
    await _retire_all(request, player)
    await request.app.state.matchmaker.cancel(player.id)
    former = await players_of(request).delete(player)
    await request.app.state.mutes.forget(player.id)
    await request.app.state.standing.forget_player(player.id)  # its blocks, either way (docs/moderation.md)
    await asyncio.get_running_loop().run_in_executor(None, club_leave_all, request.app.state.hub.store.engine,
                                                     player.id, timesource.now_utc())  # its clubs (docs/clubs.md)
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


