"""``/api/games/{id}/conditional``: the caller's conditional moves in a correspondence game
(``keima.server.games.conditional``; docs/web-api.md, *Conditional moves*)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Request, Response

from keima.server.accounts import caller_token
from keima.server.edge import same_origin as _same_origin
from keima.server.errors import ErrorBody, Refused
from keima.server.games import conditional, conditional_store
from keima.server.games.seats import token_hash
from keima.server.games.session import GameSession

router = APIRouter()
_errors: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody} for code in (400, 403, 404, 409, 422)}


async def _seat(request: Request, game_id: str) -> tuple[GameSession, int]:
    token = await caller_token(request, game_id)
    s = await request.app.state.hub.cache.get(game_id, fresh=True)
    held = s.seats.held_by(None if token is None else token_hash(token))
    if not held:
        raise Refused("not-your-seat", "only a player of this game leaves conditional moves in it")
    # Both seats (one screen): the tree answers the side to move, for the side waiting.
    color = next((c for c in sorted(held) if c != s.game.to_move), min(held))
    return s, color


def _json(data: Any) -> Response:
    return Response(json.dumps(data, separators=(",", ":")), media_type="application/json")


@router.put("/api/games/{game_id}/conditional", responses=_errors)
async def put_conditional(game_id: str, request: Request) -> Response:
    """Leave the caller's tree ``{"version", "tree"}``: 409 ``stale-version`` when the game is no longer at
    ``version`` (or moved on while the tree was checked); 422 naming the first move of the tree that cannot be
    played (``field``: its dotted path, ``reason``: the referee's) or a move with two answers."""
    _same_origin(request)
    try:
        body = await request.json()
    except ValueError:
        raise Refused("bad-request", "the body is not JSON") from None
    if not isinstance(body, dict) or not isinstance(body.get("version"), int) or "tree" not in body:
        raise Refused("invalid-request", "give {\"version\": the game's version, \"tree\": [...]}", field="tree")
    s, color = await _seat(request, game_id)
    if body["version"] != s.version:
        raise Refused("stale-version", f"the game has moved on (version {s.version}, not {body['version']}): "
                      "read it again", reason="stale-version")
    tree = conditional.check(s, color, body["tree"])
    if not await request.app.state.hub.store.write(conditional_store.put(game_id, color, s.version, tree)):
        raise Refused("stale-version", "the game has moved on while the tree was checked: read it again",
                      reason="stale-version")
    return _json({"version": s.version, "tree": tree})


@router.get("/api/games/{game_id}/conditional", responses=_errors)
async def get_conditional(game_id: str, request: Request) -> Response:
    """The caller's tree: ``{"version", "tree"}`` (``tree`` empty when there is none)."""
    s, color = await _seat(request, game_id)
    stored = await asyncio.get_running_loop().run_in_executor(
        None, conditional.read, request.app.state.hub.store.engine, game_id, color)
    version, tree = stored if stored is not None else (s.version, [])
    return _json({"version": version, "tree": tree})


@router.delete("/api/games/{game_id}/conditional", status_code=204, responses=_errors)
async def delete_conditional(game_id: str, request: Request) -> Response:
    """Drop the caller's tree."""
    _same_origin(request)
    s, color = await _seat(request, game_id)
    await request.app.state.hub.store.write(conditional_store.drop(game_id, color))
    return Response(status_code=204)
