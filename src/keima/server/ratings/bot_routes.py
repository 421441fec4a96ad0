"""The bot levels as opponents of a rank (docs/web-api.md, *Bots by rank*): ``GET /api/bots``.

Each level of keima's bot is a rated player (``keima.server.ratings.bot_players``), so its rank now is known; the
ranked levels (``keima.ai.RANKED``) start at the rank they were calibrated at against GNU Go. ``for_me`` names
the ranked level nearest to the caller's strength (their rating, else the rank they typed): "a bot of my rank",
which the new-game form offers first.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict
from sqlalchemy.engine import Engine

from keima import ai
from keima.ratings import game as rating_game
from keima.server.accounts import caller_player
from keima.server.games import bot_name
from keima.server.ratings import bot_players
from keima.server.ratings.shown import shown_rank
from keima.server.ratings.store import ratings_of

router = APIRouter()


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BotOut(_Strict):
    """One level: ``level`` (what ``bot_level`` takes), ``name`` (as games show it), ``rank`` now and whether it
    is ``provisional``, ``ranked``: a level named by its calibrated rank."""

    level: str
    name: str
    rank: str | None
    provisional: bool
    ranked: bool


class BotsOut(_Strict):
    """``GET /api/bots``: every keima level, and ``for_me``, the ranked level nearest to the caller (null for a
    caller with neither a rating nor a typed rank)."""

    levels: list[BotOut]
    for_me: str | None


def _bots(engine: Engine, player_id: str | None, typed: str | None) -> BotsOut:
    keys = {level: bot_players.key(level) for level in ai.LEVELS}
    ids = [*keys.values(), *([player_id] if player_id else [])]
    rated = ratings_of(engine, ids)
    out: list[BotOut] = []
    strength: dict[str, float] = {}
    for level in ai.LEVELS:
        start = bot_players.starting_rank(level)
        current = rated.get(keys[level])
        shown = shown_rank(current, start)
        out.append(BotOut(level=level, name=bot_name(level), rank=shown.rank, provisional=shown.provisional,
                          ranked=level in ai.RANKED))
        if level in ai.RANKED:
            strength[level] = (current or rating_game.initial(start)).rating
    mine = rated.get(player_id) if player_id else None
    if mine is None and typed:
        mine = rating_game.initial(typed)
    return BotsOut(levels=out, for_me=None if mine is None else bot_players.nearest(strength, mine.rating))


@router.get("/api/bots", responses={200: {"model": BotsOut}})
async def get_bots(request: Request) -> Response:
    """The bot levels with their ranks now, and the ranked level nearest to the caller's strength."""
    player, _cookie = await caller_player(request)
    engine = request.app.state.hub.store.engine
    pid = None if player is None else player.id
    typed = None if player is None else player.rank
    out = await asyncio.get_running_loop().run_in_executor(None, _bots, engine, pid, typed)
    return Response(out.model_dump_json(), media_type="application/json")
