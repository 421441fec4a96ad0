"""A player's games and their score against each opponent: what the player page lists (docs/web-api.md,
*Players' games and opponents*).

``GET /api/players/{name}/games`` and ``GET /api/players/{name}/opponents``: public, read-only; the player is
found by name as names are matched (``find_player``: 404 for a name nobody has), their games by their id
(``keima.server.players.store``), so that the games keep the names of the day. A bot level's page (``keima
(strong)``, a GTP engine's name) lists the games of that level.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any, Literal, cast

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict

from keima.server import timesource
from keima.server.accounts import name_key, players_of
from keima.server.errors import ErrorBody, Refused, quote
from keima.server.games import Color, bot_name
from keima.server.lobby import GameSummary, Lobby
from keima.server.players import store as store_player
from keima.server.ratings import bot_players, find_player

router = APIRouter()
_errors: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody}, 422: {"model": ErrorBody}}

#: The most games one page may ask for.
PAGE_LIMIT = 100


class PlayerGamesOut(BaseModel):
    """``GET /api/players/{name}/games``: the games (``you``: the reader's seats, as everywhere), and the seats
    the player of the page held in each (``seats``: game id -> colours), which tell won from lost whatever
    name the record keeps."""

    model_config = ConfigDict(extra="forbid")

    games: list[GameSummary]
    seats: dict[str, list[Color]]
    now: float


class OpponentOut(BaseModel):
    """The player's games against one opponent, counted from the player's side. ``kind``: ``player`` (a
    registered account: ``name`` is its name today, its page ``/p/<name>``), ``guest``, ``deleted`` (an account
    deleted since) or ``bot`` (a level of keima or a GTP engine, as games name it)."""

    model_config = ConfigDict(extra="forbid")

    name: str
    kind: Literal["player", "guest", "deleted", "bot"]
    won: int
    lost: int
    drawn: int


class OpponentsOut(BaseModel):
    """``GET /api/players/{name}/opponents``: most games first."""

    model_config = ConfigDict(extra="forbid")

    opponents: list[OpponentOut]


@router.get("/api/players/{name}/games", responses={200: {"model": PlayerGamesOut}, **_errors})
async def player_games(request: Request, name: str,
                       status: Literal["finished", "live"] = "finished",
                       size: int | None = Query(None, ge=2, le=25),
                       result: Literal["won", "lost"] | None = None,
                       opponent: str | None = Query(None, min_length=1, max_length=40),
                       limit: int = Query(20, ge=1, le=PAGE_LIMIT),
                       before: str | None = Query(None, min_length=1, max_length=32)) -> Response:
    """A player's finished games, the newest end first, each with its end (``ended_at``), or games in progress,
    the newest start first; ``before``: the id of the last game of the previous page."""
    engine, row = await find_player(request, name)
    loop = asyncio.get_running_loop()
    if result is not None and status != "finished":
        raise Refused("invalid-request", "result: only finished games are won or lost", field="result")
    opponent_id = opponent_level = None
    if opponent is not None:
        opponent_id = await loop.run_in_executor(None, store_player.player_id_named, engine, name_key(opponent))
        if opponent_id is None and row.level is None:
            # A person's opponent may be a bot level, named as games name it.
            opponent_level = bot_players.level_named(opponent, request.app.state.hub.bots.engines)
        if opponent_id is None and opponent_level is None:
            raise Refused("invalid-request", f"opponent: no player named {quote(opponent)}", field="opponent")

    Rows = list[tuple[str, dict[str, Any] | None, dict[str, Any] | None]]

    def read() -> tuple[Rows, dict[str, list[Color]], dict[str, datetime | None]]:
        if row.level is not None:
            found = store_player.bot_game_lines(engine, row.level, status, size=size, outcome=result,
                                                opponent_id=opponent_id, limit=limit, before=before)
            return ([(gid, line, people) for gid, line, people, _c, _e in found],
                    {gid: ["B" if c == store_player.BLACK else "W"] for gid, _l, _p, c, _e in found},
                    {gid: e for gid, _l, _p, _c, e in found})
        lines = store_player.game_lines(engine, row.id, status, size=size, outcome=result, opponent_id=opponent_id,
                                        opponent_level=opponent_level, limit=limit, before=before)
        return ([(gid, line, people) for gid, line, people, _e in lines],
                {gid: [cast(Color, c) for c, p in sorted((people or {}).items()) if p.get("id") == row.id]
                 for gid, _line, people, _e in lines},
                {gid: e for gid, _l, _p, e in lines})

    try:
        rows, seats, ended = await loop.run_in_executor(None, read)
    except store_player.NoSuchGame:
        raise Refused("invalid-request", f"before: no game {quote(before or '')}", field="before") from None
    lobby: Lobby = request.app.state.lobby
    reader = await players_of(request).player_id(request.cookies)
    games = await lobby.summaries(rows, reader)
    for g in games:
        at = ended.get(g.id)
        g.ended_at = None if at is None else at.isoformat()
    out = PlayerGamesOut(games=games, seats=seats, now=round(timesource.now(), 3))
    return Response(out.model_dump_json(), media_type="application/json")


@router.get("/api/players/{name}/opponents", responses={200: {"model": OpponentsOut}, **_errors})
async def player_opponents(request: Request, name: str) -> Response:
    """The player's games won, lost and drawn against each opponent, most games first."""
    engine, row = await find_player(request, name)
    loop = asyncio.get_running_loop()
    if row.level is not None:
        found = await loop.run_in_executor(None, store_player.bot_opponents, engine, row.level)
    else:
        found = await loop.run_in_executor(None, store_player.opponents, engine, row.id)
    table = [OpponentOut(name=bot_name(o["level"]) if o["kind"] == "bot" else o["name"], kind=o["kind"],
                         won=o["won"], lost=o["lost"], drawn=o["drawn"]) for o in found]
    table.sort(key=lambda o: (-(o.won + o.lost + o.drawn), o.name.casefold(), o.kind))
    out = OpponentsOut(opponents=table)
    return Response(out.model_dump_json(), media_type="application/json")
