"""The routes of the bot's reviews (docs/web-api.md, *Reviews by the bot*): start or find the review of a finished
game or of an uploaded record, read it, cancel it; and the bot's analysis of one position (any node of a record,
a variation or a move tried included). The work is ``keima.server.reviews.bot_reviews``'.

The requester, whom the limits count and who alone may cancel, is the caller's player (a browser gets a guest
player, as when it plays), else the caller's address (an API client without a player).
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from keima.record import DEFAULT_MAX_BYTES
from keima.server.accounts import caller_player, is_https, needs_player, set_session_cookie
from keima.server.edge import json_response
from keima.server.errors import Refused
from keima.server.reviews.bot_reviews import ReviewService, review_id
from keima.server.reviews.record_review import _setup_game
from keima.server.reviews.record_schemas import PositionSetup

router = APIRouter()

#: ``POST /api/analysis`` carries a record as large as ``POST /api/review``'s (the SGF reader's limit).
ANALYSIS_MAX_BODY = 2 * DEFAULT_MAX_BYTES + 1024
#: Analyses of one position waiting or running at once in a process at most (one runs at a time, in a thread of
#: lowered priority): past it, 429 ``review-queue-full``.
POSITIONS_QUEUED = 4


class RecordIn(BaseModel):
    """``POST /api/analysis``: the SGF text of the record to review."""

    model_config = ConfigDict(extra="forbid")
    sgf: Annotated[str, Field(min_length=2, max_length=DEFAULT_MAX_BYTES)]


def reviews_of(request: Request) -> ReviewService:
    """The process's review service."""
    service: ReviewService = request.app.state.reviews
    return service


async def _requester(request: Request) -> tuple[str, str | None, str | None]:
    """The requester's key ("player:ID" or "address:HOST"), a new session cookie to set (if one was made), and the
    group whose reviews are counted together: the address, for a guest or a caller without a player (None for an
    account)."""
    player, cookie = await caller_player(request, make=needs_player(request, False))
    address = f"address:{request.client.host if request.client else '?'}"
    if player is not None:
        return f"player:{player.id}", cookie, address if player.guest else None
    return address, None, address


def _answer(request: Request, body: dict[str, Any], started: bool, cookie: str | None) -> Response:
    resp = json_response(json.dumps(body), 202 if started else 200)
    resp.headers["Location"] = body["url"]
    if cookie is not None:
        set_session_cookie(resp, cookie, is_https(request))
    return resp


@router.post("/api/games/{game_id}/analysis", status_code=202)
async def analyse_game(game_id: str, request: Request) -> Response:
    """Start the bot's review of a finished game, or return the stored one (200; 202 when this request
    started it). 409 ``game-in-progress`` for a game still being played; 429 past the limits."""
    hub = request.app.state.hub
    s = await hub.cache.get(game_id, fresh=True)
    requester, cookie, group = await _requester(request)
    body, started = await reviews_of(request).start_game(s.game, s.id, requester, group)
    return _answer(request, body, started, cookie)


@router.get("/api/games/{game_id}/analysis")
async def game_review(game_id: str, request: Request) -> Response:
    """The stored review of a game, whatever its status, without starting one: a page that opens the game shows a
    review asked for before at once. When none was asked for: ``{"status": "none", "game_id": ...}`` (200: every
    finished game's page asks, and a 404 would be an error in its console); 404 ``no-such-game`` for no game."""
    try:
        return json_response(json.dumps(await reviews_of(request).get(review_id("game", game_id))))
    except Refused as exc:
        if exc.code != "not-found":
            raise
    await request.app.state.hub.cache.get(game_id)  # Refused no-such-game (404) for a game that does not exist
    return json_response(json.dumps({"status": "none", "game_id": game_id}))


@router.post("/api/analysis", status_code=202)
async def analyse_record(data: RecordIn, request: Request) -> Response:
    """Start the bot's review of an uploaded SGF record, or return the stored review of the same game (the same
    rules, setup and moves). 422 for a record that cannot be read; 409 ``game-in-progress`` for a record of a game
    in progress on this server; 429 past the limits."""
    requester, cookie, group = await _requester(request)
    body, started = await reviews_of(request).start_record(data.sgf, requester, group)
    return _answer(request, body, started, cookie)


@router.get("/api/analysis/{review_id}")
async def get_review(review_id: str, request: Request) -> Response:
    """A review: its status, progress and the per-move list so far."""
    return json_response(json.dumps(await reviews_of(request).get(review_id)))


@router.delete("/api/analysis/{review_id}")
async def cancel_review(review_id: str, request: Request) -> Response:
    """Cancel a queued or running review; only its requester may (403 ``not-requester``)."""
    requester, _cookie, _group = await _requester(request)
    return json_response(json.dumps(await reviews_of(request).cancel(review_id, requester)))


class _PositionSlots:
    """One process's analyses of positions: one at a time in a thread of lowered priority, a few waiting."""

    def __init__(self) -> None:
        from keima.ai.analysis import lower_priority

        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="keima-position", initializer=lower_priority)
        self.waiting = 0
        self.analyst: Any = None  # made on first use, its search tree kept: one search at a time uses it


@router.post("/api/analysis/position")
async def analyse_position(body: PositionSetup, request: Request) -> dict[str, Any]:
    """The bot's analysis of the position that ``body``'s setup and moves reach (any node of a record, a variation
    or a tried move included): Black's win rate and lead, and the candidates of the side to move there, each with
    the points it loses against the first (``keima.ai.analysis.position_json``), searched as a review searches a
    position. 422 for an illegal move (the field named); 409 ``game-in-progress`` when the moves are those of a
    game being played here; 429 ``review-queue-full`` when too many wait."""
    from keima.ai.analysis import Analyst, position_json

    game = _setup_game(body)
    service = reviews_of(request)
    if game.moves and await asyncio.to_thread(service.live_twin, game) is not None:
        raise Refused("game-in-progress", "these moves are a game in progress on this server: the bot analyses "
                      "its positions once it is finished, never during play")
    slots: _PositionSlots | None = getattr(request.app.state, "position_slots", None)
    if slots is None:
        slots = request.app.state.position_slots = _PositionSlots()
    if slots.waiting >= POSITIONS_QUEUED:
        raise Refused("review-queue-full", "the bot is analysing other positions: try again in a moment")
    slots.waiting += 1
    try:
        if slots.analyst is None:
            slots.analyst = Analyst()
        analyst, budget = slots.analyst, service.budget(game.size)
        ev = await asyncio.get_running_loop().run_in_executor(slots.pool, lambda: analyst.evaluate(game, budget=budget))
    finally:
        slots.waiting -= 1
    return position_json(ev, int(game.to_move), game.size)
