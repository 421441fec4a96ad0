"""Automatch endpoints (docs/web-api.md, *Automatch*): ``POST``, ``GET`` and ``DELETE /api/automatch``, and
``GET /api/automatch/speeds``, each speed's clock (the panel's "play a bot of my rank now" makes its game with it).

The queue and the pairing are ``keima.server.automatch.matchmaker``'s; these routes check the caller and the request.
Guests may automatch: a caller without a player gets a guest (as for an open challenge), and a game with a guest
in it is unrated (ratings belong to accounts, docs/ratings.md).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from keima.server.accounts import caller_player, is_https, players_of, set_session_cookie
from keima.server.automatch.matchmaker import Matchmaker, waits_alone
from keima.server.automatch.pairs import SPEEDS, Entry
from keima.server.clubs import MEMBER_ROLES, role_at
from keima.server.edge import same_origin
from keima.server.errors import ErrorBody, Refused

router = APIRouter()
_errors: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody} for code in (401, 403, 409, 422, 429)}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AutomatchIn(_Strict):
    """``POST /api/automatch``: the board sizes one accepts (9, 13, 19; the first preferred), the speed
    (``"blitz"``, ``"live"``, ``"correspondence"``), the ruleset,
    and whether one accepts a handicap game (given only when both players ask for it)."""

    sizes: Annotated[list[int], Field(min_length=1, max_length=3)]
    speed: Annotated[str, Field(min_length=1, max_length=40)]
    rules: Annotated[str, Field(min_length=1, max_length=40)] = "french"
    handicap: bool = False
    #: A club's address: a game with another member of that club only (the caller a member: 403 otherwise).
    club: Annotated[str, Field(min_length=1, max_length=48)] | None = None


class AutomatchOut(_Strict):
    """Where the caller stands: ``waiting`` in the queue (for ``waited_s`` seconds so far, for a game of ``speed``
    on ``sizes``; ``page_needed``: whether the wait ends when the caller's last page closes, false for an
    account's correspondence wait, which lasts a day at most), or matched with ``game`` (a game made in the last
    minute), or neither (both false/null)."""

    waiting: bool
    game: str | None
    # Seconds since the caller asked, by the server's clock: a reloaded page shows the wait from its start.
    waited_s: float | None = None
    speed: str | None = None
    sizes: list[int] | None = None
    page_needed: bool | None = None


def matchmaker_of(request: Request) -> Matchmaker:
    """The process's ``Matchmaker``."""
    m: Matchmaker = request.app.state.matchmaker
    return m


def _json(out: AutomatchOut) -> Response:
    return Response(out.model_dump_json(), media_type="application/json")


@router.post("/api/automatch", responses={200: {"model": AutomatchOut}, **_errors})
async def enter(body: AutomatchIn, request: Request) -> Response:
    """Wait for an automatch game (a caller without a player gets a guest). The answer has the game when a
    match was made at once; otherwise the lobby socket says ``{"type": "matched", "game": id}`` later. 409
    ``already-waiting`` for a second request while waiting, 422 for a size, speed or ruleset not offered."""
    same_origin(request)
    player, cookie = await caller_player(request, make=True)
    assert player is not None
    await request.app.state.standing.check_play(player.id)  # a suspended player waits for no game
    if body.club is not None:
        found = await asyncio.get_running_loop().run_in_executor(None, role_at, request.app.state.hub.store.engine,
                                                                  body.club, player.id)
        if found is None:
            raise Refused("not-found", "no such club", field="club")
        if found[1] not in MEMBER_ROLES:
            raise Refused("not-member", "only the club's members wait for a game with its members", field="club")
    game = await matchmaker_of(request).enter(player, body.sizes, body.speed, body.rules, body.handicap, body.club)
    out = AutomatchOut(waiting=False, game=game)
    if game is None:
        got = await matchmaker_of(request).status(player.id)
        out = _waiting(got[0], 0.0) if got is not None and got[1] is None else out
    resp = _json(out)
    if cookie is not None:
        set_session_cookie(resp, cookie, is_https(request))
    return resp


@router.get("/api/automatch", responses={200: {"model": AutomatchOut}, **_errors})
async def status(request: Request) -> Response:
    """Whether the caller is waiting, or the game they were matched with in the last minute and not told of yet
    (told once: by this answer, or by their lobby socket)."""
    pid = await players_of(request).player_id(request.cookies)
    got = None if pid is None else await matchmaker_of(request).status(pid)
    if pid is None or got is None:
        return _json(AutomatchOut(waiting=False, game=None))
    entry, game = got
    if game is not None:
        await matchmaker_of(request).told(pid, game)
        return _json(AutomatchOut(waiting=False, game=game))
    return _json(_waiting(entry, round(max(0.0, matchmaker_of(request).clock() - entry.since), 1)))


def _waiting(entry: Entry, waited: float) -> AutomatchOut:
    return AutomatchOut(waiting=True, game=None, waited_s=waited, speed=entry.speed, sizes=list(entry.sizes),
                        page_needed=not waits_alone(entry))


@router.delete("/api/automatch", status_code=204, responses={204: {}, 404: {"model": ErrorBody}, **_errors})
async def cancel(request: Request) -> Response:
    """Stop waiting (204); 404 ``not-waiting`` when the caller was not waiting (never asked, or matched
    already: the game stands)."""
    same_origin(request)
    pid = await players_of(request).player_id(request.cookies)
    if pid is None or not await matchmaker_of(request).cancel(pid):
        raise Refused("not-waiting", "you are not waiting for an automatch game (a game found already stands)")
    return Response(status_code=204)


@router.get("/api/automatch/speeds", responses={200: {}})
async def speeds() -> dict[str, dict[str, Any]]:
    """Each speed automatch offers and its clock (a ``ClockSpec`` as ``POST /api/games`` takes it): the one
    list, read by the panel that offers a game against a bot of the player's rank at the chosen speed."""
    return {name: dict(clock) for name, clock in SPEEDS.items()}
