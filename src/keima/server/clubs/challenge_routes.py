"""Challenges offered to a club's members only (docs/web-api.md, *Clubs*): a member offers an invitation game
whose code only the members of the club read (``GET /api/me/club-games``: the lobby's "my clubs"), so nobody else
can take the seat; the game itself is a normal keima invitation, joined by its link (``/g/<id>?invite=<code>``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict

from keima.server import timesource
from keima.server.accounts import players_of, required_player
from keima.server.clubs import page_store as pst
from keima.server.clubs.ladder_games import CORRESPONDENCE_CLOCK, LIVE_CLOCK
from keima.server.clubs.routes import ERRORS, acting, club_at, engine_of, json, run
from keima.server.clubs.store import MEMBER_ROLES
from keima.server.errors import Refused
from keima.server.games import away_of, build, new_game_id

router = APIRouter()


class ClubGameIn(BaseModel):
    """``POST /api/clubs/{slug}/games``: the board, the speed (the ladder's clocks) and the creator's colour."""

    model_config = ConfigDict(extra="forbid")
    size: Literal[9, 13, 19] = 19
    speed: Literal["live", "correspondence"] = "live"
    color: Literal["B", "W", "random"] = "random"


class ClubGameLine(BaseModel):
    """A challenge offered to a club: the game, the club (address and name), who offers it, board, speed, the
    invitation ``code`` (members only), and whether the reader offered it."""

    model_config = ConfigDict(extra="forbid")
    id: str
    club: str
    club_name: str
    by: str
    size: int
    speed: Annotated[str, Literal["live", "correspondence"]]
    code: str
    mine: bool


class ClubGamesOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    games: list[ClubGameLine]


@router.post("/api/clubs/{slug}/games", status_code=201, responses={201: {"model": ClubGameLine}, **ERRORS})
async def offer(slug: str, body: ClubGameIn, request: Request) -> Response:
    """A member offers a challenge to the club's members only (403 ``not-member`` for anyone else,
    ``suspended``/``banned`` for a sanctioned member): an invitation game whose creator holds their seat by their
    session."""
    club = await club_at(request, slug)
    player, role = await acting(request, club)
    if role not in MEMBER_ROLES:
        raise Refused("not-member", "only a member offers a challenge to the club")
    await request.app.state.standing.check_play(player.id)  # a suspended player offers no game (docs/moderation.md)
    hub = request.app.state.hub
    players = players_of(request)
    gid = new_game_id()
    clock = LIVE_CLOCK if body.speed == "live" else CORRESPONDENCE_CLOCK
    spec = {"size": body.size, "rules": "french", "komi": None, "handicap": 0, "placement": None,
            "clock": dict(clock), "opponent": "invite", "color": body.color, "rated": False}
    person = await hub.seat_person(player.person())
    s, _, code = build(spec, {}, game_id=gid, token=players.seat_token(player.id, gid), person=person)
    assert code is not None
    await hub.service.create(s)
    await players.seat(gid, sorted(s.people), player.id)
    if s.clock.spec.correspondence:  # the creator's time zone and vacation reach the new game's clock
        away = away_of(request)
        await away.pass_on(player.id, await away.get(player.id), only=gid)
    await run(pst.add_club_game, engine_of(request), gid, club["id"], player.id, code, timesource.now_utc())
    return json(ClubGameLine(id=gid, club=slug, club_name=club["name"], by=player.name, size=body.size,
                             speed=body.speed, code=code, mine=True), 201)


@router.get("/api/me/club-games", responses={200: {"model": ClubGamesOut}, **ERRORS})
async def my_club_games(request: Request) -> Response:
    """The challenges offered to the caller's clubs and not taken yet, newest first (401 without a session)."""
    player = await required_player(request)
    rows = await run(pst.waiting_club_games, engine_of(request), player.id)
    return json(ClubGamesOut(games=[ClubGameLine(**r) for r in rows]))
