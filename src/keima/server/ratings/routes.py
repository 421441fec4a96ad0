"""A player's rank, rating and record, and the history of their rating (docs/web-api.md, *Players' ratings*).

``GET /api/players/{name}`` and ``GET /api/players/{name}/ratings``: public, read-only; the name is matched as
names are (case and Unicode form aside, ``keima.server.accounts.service.name_key``); 404 for a name nobody has. A bot's
name (``"keima (strong)"``, a GTP engine's) answers for that bot level, a rated player of its own
(``keima.server.ratings.bot_players``).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict
from sqlalchemy.engine import Engine

from keima.ratings import game as rating_game
from keima.server.accounts import name_key
from keima.server.errors import ErrorBody, Refused
from keima.server.games import Hub
from keima.server.ratings import bot_players
from keima.server.ratings.records import record_of
from keima.server.ratings.shown import shown_rank
from keima.server.ratings.subscriber import history_of, rating_of
from keima.server.storage import players

router = APIRouter()
_errors: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody}}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RatingOut(_Strict):
    """Glicko-2 values: the rating, its deviation (one standard deviation) and volatility."""

    rating: float
    deviation: float
    volatility: float


class RecordOut(_Strict):
    won: int
    lost: int


class PlayerOut(_Strict):
    """``GET /api/players/{name}``: ``rank`` as shown beside the player's name everywhere
    (``keima.server.ratings.shown``): from the rating (``"5k"``, ``"2d"``), ``provisional`` while the deviation
    is 160 or more; before the first rated game, the declared rank (provisional), or null for none. A player
    with no rated game has the rating of their declared rank (or 1500).
    ``kind``: ``player`` (a person's account) or ``bot`` (a level of keima or a GTP engine, from its starting
    rank before its first rated game)."""

    name: str
    kind: Literal["player", "bot"] = "player"
    rank: str | None
    provisional: bool
    rating: RatingOut
    games: RecordOut


class RatingPoint(_Strict):
    """The rating after one rated game (``at``: when it finished)."""

    game: str
    at: datetime
    rating: float
    deviation: float


class RatingsOut(_Strict):
    """``GET /api/players/{name}/ratings``: one entry per rated game, oldest first."""

    ratings: list[RatingPoint]


@dataclass(frozen=True)
class Found:
    """A player found by name: ``id`` (a person's, or a bot level's key in the ratings), ``name``, ``rank`` (the
    declared one, or a bot level's starting rank) and ``level`` (a bot's level; None for a person)."""

    id: str
    name: str
    rank: str | None
    level: str | None = None


def _player(engine: Engine, name: str, engines: list[str]) -> Found | None:
    with engine.connect() as conn:
        row = conn.execute(sa.select(players.c.id, players.c.name, players.c.rank)
                           .where(players.c.name_key == name_key(name), players.c.deleted_at.is_(None))).first()
    if row is not None:
        # An account named before an engine of that name was configured keeps its page.
        return Found(row.id, row.name, row.rank)
    level = bot_players.level_named(name, engines)
    if level is None:
        return None
    bot = bot_players.person(level)
    return Found(bot["id"], bot["name"], bot["rank"], level)


async def find_player(request: Request, name: str) -> tuple[Engine, Found]:
    """The database and the player named ``name``: a person, or a bot level of this server (keima's levels, the
    GTP engines it offers). Raises ``Refused`` 404 for a name nobody has (a deleted account's included)."""
    hub: Hub = request.app.state.hub
    engine = hub.store.engine
    found = await asyncio.get_running_loop().run_in_executor(None, _player, engine, name, list(hub.bots.engines))
    if found is None:
        raise Refused("not-found", f"no player named {name!r}")
    return engine, found


def player_out(name: str, declared: str | None, rated: Any, record: dict[str, int], *,
               bot: bool = False) -> PlayerOut:
    """The answer for a player ``name`` of declared rank ``declared``, rating ``rated`` (``rating_of``'s answer)
    and ``record`` (``record_of``'s); ``bot``: a bot level's."""
    r = rating_game.initial(declared) if rated is None else rated[0]
    shown = shown_rank(None if rated is None else rated[0], declared)
    return PlayerOut(name=name, kind="bot" if bot else "player", rank=shown.rank, provisional=shown.provisional,
                     rating=RatingOut(rating=r.rating, deviation=r.deviation, volatility=r.volatility),
                     games=RecordOut(won=record["won"], lost=record["lost"]))


@router.get("/api/players/{name}", responses={200: {"model": PlayerOut}, **_errors})
async def get_player(name: str, request: Request) -> Response:
    """A player's rank, rating and won/lost games (a bot level's too: ``keima (strong)``)."""
    engine, row = await find_player(request, name)
    loop = asyncio.get_running_loop()
    rated = await loop.run_in_executor(None, rating_of, engine, row.id)
    if row.level is not None:
        record = await loop.run_in_executor(None, bot_players.record, engine, row.level)
    else:
        record = await loop.run_in_executor(None, record_of, engine, row.id)
    out = player_out(row.name, row.rank, rated, record, bot=row.level is not None)
    return Response(out.model_dump_json(), media_type="application/json")


@router.get("/api/players/{name}/ratings", responses={200: {"model": RatingsOut}, **_errors})
async def get_ratings(name: str, request: Request) -> Response:
    """A player's rating after each rated game."""
    engine, row = await find_player(request, name)
    points = await asyncio.get_running_loop().run_in_executor(None, history_of, engine, row.id)
    out = RatingsOut(ratings=[RatingPoint(**p) for p in points])
    return Response(out.model_dump_json(), media_type="application/json")
