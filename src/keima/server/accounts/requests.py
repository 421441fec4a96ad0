"""Who is calling: the player a request or a socket comes from (the session cookie), the seat token it acts with in a
game (the seat header or cookie), and the guest made for a caller without a player."""

from __future__ import annotations

from typing import Any

from fastapi import Request, Response, WebSocket

from keima.server.accounts.limits import ChatFlood
from keima.server.accounts.service import SESSION_AGE, SESSION_COOKIE, Player, Players
from keima.server.errors import Refused

SEAT_HEADER = "x-keima-seat"


SEAT_COOKIE_PREFIX = "keima_seat_"


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
    player, cookie = await players.new_guest(conn.headers.get("accept-language") or "", address(conn))
    return player, cookie


def needs_player(conn: Request | WebSocket, public: bool) -> bool:
    """Whether creating or joining a game makes a guest player for a caller without one: for an open challenge
    (``public``: the lobby shows its players' names), and for a browser's page (a request with an ``Origin``
    header, which browsers send with every POST), whose "my games" needs a player. An API client without a
    player holds its seat by the seat token alone, as before, and makes no rows."""
    return public or "origin" in conn.headers


async def check_chat_flood(conn: Request | WebSocket, game_id: str) -> None:
    """Count a chat message to ``game_id`` against the limits per game and per client address
    (``keima.server.accounts.limits.ChatFlood``); raises ``Refused`` 429 past either."""
    flood: ChatFlood = conn.app.state.chat_flood
    await flood.check(game_id, address(conn))


async def chat_player(request: Request, game_id: str, action: dict[str, Any]) -> tuple[Player | None, str | None]:
    """The player a chat message (a ``ChatAction`` dict) posted over HTTP to ``game_id`` is written by, and the
    session cookie value to set when a guest was made for it: a message to the spectators' chat from a caller
    without a player needs one (its name is shown), a message to the players' chat is written by the seat. The
    message is counted first (``check_chat_flood``: 429), so that a flood makes no guests."""
    await check_chat_flood(request, game_id)
    return await caller_player(request, make=action.get("to") == "spectators")


def address(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client else "?"


async def required_player(request: Request) -> Player:
    """The logged-in player of ``request``; raises ``Refused`` ``not-logged-in`` (401) for a caller without one."""
    player = await players_of(request).current(request.cookies)
    if player is None:
        raise Refused("not-logged-in", "no player for this browser: play, chat or register first, or log in")
    return player
