"""The routes of games (docs/web-api.md, *Games*): the server's info and figures, creating, reading, joining,
acting in and downloading a game, and its WebSocket (``keima.server.games.socket``). Every change goes through the
hub's game service; refusals become HTTP answers at the edge (``keima.server.edge.http``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import Response

from keima import ai
from keima.rules.coords import MAX_SIZE, MIN_SIZE
from keima.server import timesource
from keima.server.accounts import (
    caller_player,
    caller_token,
    chat_player,
    is_https,
    needs_player,
    players_of,
    set_session_cookie,
    without_muted_state,
)
from keima.server.edge import json_response
from keima.server.edge import same_origin as _same_origin
from keima.server.errors import ErrorBody, Refused
from keima.server.games import newgame
from keima.server.games import socket as game_socket
from keima.server.games.answers import (
    Created,
    GameEnvelope,
    GameState,
    GcOut,
    InfoOut,
    InviteOut,
    SeatOut,
    SizesOut,
    StatsOut,
)
from keima.server.games.away import seated
from keima.server.games.chat import game_sgf
from keima.server.games.hub import Hub
from keima.server.games.newgame import new_game_id
from keima.server.games.schemas import ActionBody, JoinGame, NewGame
from keima.server.games.seats import token_hash
from keima.server.games.session import GameSession
from keima.server.games.view import colors_out, created_json, envelope_json
from keima.server.housekeeping import python_allocator
from keima.version import package_version

COOKIE_PREFIX = "keima_seat_"  # the seat token header and cookies are read by api_players.caller_token

router = APIRouter()


def hub_of(request: Request | WebSocket) -> Hub:
    """The process's hub."""
    hub: Hub = request.app.state.hub
    return hub


def _thash(token: str | None) -> str | None:
    return None if token is None else token_hash(token)


def _set_seat_cookie(resp: Response, game_id: str, token: str, secure: bool) -> None:
    resp.set_cookie(COOKIE_PREFIX + game_id, token, max_age=365 * 86400, path="/", httponly=True, samesite="lax",
                    secure=secure)


@router.get("/api/info")
async def info(request: Request) -> InfoOut:
    """What the new-game form needs: rulesets, bot levels, GTP engines, sizes, clock types."""
    from keima.rules.ruleset import DEFAULT_RULESET, PRESETS
    from keima.server.games.clock import CLOCK_TYPES, CORRESPONDENCE_PRESETS

    return InfoOut(
        version=package_version(),
        rulesets={name: r.as_dict() for name, r in PRESETS.items()},
        default_ruleset=DEFAULT_RULESET,
        bot_levels=list(ai.LEVELS),
        engines=list(hub_of(request).bots.engines),
        sizes=SizesOut(min=MIN_SIZE, max=MAX_SIZE, common=[9, 13, 19]),
        clock_types=list(CLOCK_TYPES),
        clock_presets=CORRESPONDENCE_PRESETS,
    )

@router.get("/api/stats")
async def stats(request: Request) -> StatsOut:
    """Server-side figures: games in memory, and the time from an action's arrival at its game to its
    stored change (the server's share of a move's round trip), over the last 100,000 actions."""
    hub = hub_of(request)
    ms = sorted(t * 1000 for t in hub.service.timings)

    def pct(q: float) -> float | None:
        return round(ms[min(len(ms) - 1, int(q * len(ms)))], 3) if ms else None

    return StatsOut(games_in_memory=len(hub.cache.sessions), actions=len(ms), p50_ms=pct(0.5), p99_ms=pct(0.99),
                    max_ms=round(ms[-1], 3) if ms else None, gc=GcOut(**hub.gc_pauses.summary()),
                    allocator=python_allocator())

def _created(request: Request, s: GameSession, token: str, invite: str | None, status: int,
             session_cookie: str | None = None) -> Response:
    seats = s.seats.held_by(_thash(token))
    inv = None if invite is None else InviteOut(code=invite, url=f"/g/{s.id}?invite={invite}")
    body = created_json(s.state_json(timesource.now(), seats), SeatOut(colors=colors_out(seats), token=token), inv)
    resp = json_response(body, status)
    _set_seat_cookie(resp, s.id, token, is_https(request))
    if session_cookie is not None:
        set_session_cookie(resp, session_cookie, is_https(request))
    return resp

errors: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 403, 404, 409, 413, 422, 503)
}

def _unregistered() -> Refused:
    # Ratings belong to accounts: a guest's would be lost with the guest (docs/ratings.md).
    return Refused("invalid-request", "a rated game is between registered players: log in or register first",
                   field="rated")


@router.post("/api/games", status_code=201, responses={201: {"model": Created}, **errors})
async def create_game(request: Request, body: NewGame | None = None) -> Response:
    """Create a game; the caller gets its seat (cookie and body) and, for an invitation, the link. A caller
    logged in as a player holds the seat as that player (on every device); an open challenge
    (``"opponent": "open"``) makes a guest player for a caller without one."""
    _same_origin(request)
    data = (body or NewGame()).model_dump()
    player, cookie = await caller_player(request, make=needs_player(request, data["opponent"] == "open"))
    if data["rated"] and (player is None or player.guest):
        raise _unregistered()
    await request.app.state.standing.check_play(None if player is None else player.id)
    gid = new_game_id()
    token = None if player is None else players_of(request).seat_token(player.id, gid)
    hub = hub_of(request)
    person = await hub.seat_person(None if player is None else player.person())
    s, token, invite = await newgame.create(hub.service, data, engines=hub.bots.engines, game_id=gid, token=token,
                                            person=person)
    if player is not None:
        await players_of(request).seat(s.id, sorted(s.people), player.id)
        await seated(request, player, s)
    return _created(request, s, token, invite, 201, cookie)

@router.get("/api/games/{game_id}", responses={200: {"model": GameState}, **errors})
async def get_game(game_id: str, request: Request) -> Response:
    """The game's state (``you``: the seats the caller holds)."""
    hub = hub_of(request)
    s = await hub.cache.get(game_id, fresh=True)
    seats = s.seats.held_by(_thash(await caller_token(request, game_id)))
    # The caller's muted senders' messages are left out (keima.server.accounts.mutes), and those of the players a
    # block stands between (keima.server.accounts.standing).
    muted = await request.app.state.mutes.hidden(await players_of(request).player_id(request.cookies))
    async with s.lock:
        state = s.state_json(timesource.now(), seats)
    return json_response(without_muted_state(state, muted))


@router.post("/api/games/{game_id}/join", responses={200: {"model": Created}, **errors})
async def join_game(game_id: str, body: JoinGame, request: Request) -> Response:
    """Take the invited seat (once) with the invitation code, or with no code the free seat of an open
    challenge (403 for one's own challenge, 409 when someone took it first)."""
    _same_origin(request)
    token = await caller_token(request, game_id)
    player, cookie = await caller_player(request, make=needs_player(request, body.code is None))
    waiting = await hub_of(request).cache.get(game_id)
    if (player is None or player.guest) and waiting.params.get("rated"):
        raise _unregistered()
    if player is not None:  # a suspended player, or a block with a seated player, takes no seat (docs/moderation.md)
        await request.app.state.standing.check_play(player.id)
        for sitting in list(waiting.people.values()):
            await request.app.state.standing.check_apart(player.id, sitting.get("id"))
    seat = None if player is None else players_of(request).seat_token(player.id, game_id)
    person = await hub_of(request).seat_person(None if player is None else player.person())
    s, new = await hub_of(request).service.join(game_id, body.code, _thash(token), token=seat, person=person)
    if new is None:
        assert token is not None
        return _created(request, s, token, None, 200, cookie)
    if player is not None and s.invite_color is not None:
        await players_of(request).seat(s.id, [s.invite_color], player.id)
        await seated(request, player, s)
    return _created(request, s, new, None, 200, cookie)

@router.post("/api/games/{game_id}/actions", responses={200: {"model": GameEnvelope}, **errors})
async def act(game_id: str, request: Request, action: ActionBody) -> Response:
    """Apply one action for the caller's seat (a chat message: for the caller's seat or player); answers
    the state once the change is stored."""
    _same_origin(request)
    token = await caller_token(request, game_id)
    th = _thash(token)
    data = action.root.model_dump()
    cookie = None
    if data["type"] == "chat":
        player, cookie = await chat_player(request, game_id, data)
        s = await request.app.state.chat.post(game_id, data, th, player)
    else:
        s = await hub_of(request).service.act(game_id, data, th)
    resp = json_response(envelope_json(s.state_json(timesource.now(), s.seats.held_by(th))))
    if cookie is not None:
        set_session_cookie(resp, cookie, is_https(request))
    return resp


@router.delete("/api/games/{game_id}", status_code=204, responses=errors)
async def withdraw_game(game_id: str, request: Request) -> Response:
    """Withdraw the caller's open challenge or unanswered invitation: 204, and the game is gone from every list
    (404 afterwards); 403 for anyone but its creator, 409 once someone has joined."""
    _same_origin(request)
    token = await caller_token(request, game_id)
    await hub_of(request).service.withdraw(game_id, _thash(token))
    resp = Response(status_code=204)
    resp.delete_cookie(COOKIE_PREFIX + game_id, path="/")
    return resp


@router.get("/api/games/{game_id}/sgf", responses={200: {"content": {"application/x-go-sgf": {}}}, **errors})
async def sgf(game_id: str, request: Request) -> Response:
    """The game record as an SGF file: players, ranks, date, clock, server and the chat as comments."""
    s = await hub_of(request).cache.get(game_id, fresh=True)
    async with s.lock:
        text = game_sgf(s)
    return Response(
        text,
        media_type="application/x-go-sgf",
        headers={"Content-Disposition": f'attachment; filename="keima-{s.id}.sgf"'},
    )

@router.websocket("/api/games/{game_id}/ws")
async def ws(websocket: WebSocket, game_id: str) -> None:
    await game_socket.serve(hub_of(websocket), websocket, game_id)

