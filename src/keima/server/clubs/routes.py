"""The club endpoints (docs/web-api.md, *Clubs*): create, list, read and change a club, its members and admins,
its announcements, and a player's clubs. The ladder and the FFG list are ``keima.server.clubs.ladder_routes``.

Reading is public. Changing needs a session (401 without one); creating a club needs a registered account (403
for a guest) and each account creates at most ``CLUBS_PER_PLAYER`` clubs (409 beyond); what only an admin may do
answers 403 ``not-admin`` to anyone else, checked against the caller's role as stored at the time of the request.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from keima.server import timesource
from keima.server.accounts import Player, name_key, players_of, required_player
from keima.server.clubs import names as club_names
from keima.server.clubs import page_store as pst
from keima.server.clubs import store as st
from keima.server.clubs.schemas import (
    AnnouncementIn,
    AnnouncementOut,
    ClubLine,
    ClubOut,
    ClubPatch,
    ClubsOut,
    GameLine,
    JoinIn,
    LadderSettings,
    MemberOut,
    NewClub,
    PlayerClubsOut,
    RoleIn,
    TournamentLine,
    YouOut,
)
from keima.server.edge import same_origin
from keima.server.errors import ErrorBody, Refused, quote
from keima.server.ratings import shown_ranks

router = APIRouter()
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody} for code in (401, 403, 404, 409, 422)}
#: The clubs one account may create: enough for a player who runs a club and its school, few enough that
#: nobody fills the list with names taken from others.
CLUBS_PER_PLAYER = 3


def engine_of(request: Request) -> Any:
    """The database engine of the process."""
    return request.app.state.hub.store.engine


def json(model: Any, status: int = 200) -> Response:
    """``model`` as a JSON answer."""
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


async def run(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` on a worker thread (the storage is blocking)."""
    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


async def club_at(request: Request, slug: str) -> dict[str, Any]:
    """The club at ``slug``; ``Refused`` 404 ``not-found`` when there is none."""
    club: dict[str, Any] | None = await run(st.read, engine_of(request), slug)
    if club is None:
        raise Refused("not-found", f"no club {quote(slug)}")
    return club


async def acting(request: Request, club: dict[str, Any], *, admin: bool = False) -> tuple[Player, str | None]:
    """The caller of a change and their role in ``club``: 403 ``cross-origin`` from another site's page, 401
    without a session, 403 ``not-admin`` when ``admin`` and they are not one."""
    same_origin(request)
    player = await required_player(request)
    role: str | None = await run(st.role_of, engine_of(request), club["id"], player.id)
    if admin and role != "admin":
        raise Refused("not-admin", "only an admin of the club does this")
    return player, role


async def account(request: Request, name: str, field: str = "name") -> tuple[str, str]:
    """(id, name) of the registered player ``name``; 404 naming ``field`` when there is none."""
    found: tuple[str, str] | None = await run(st.player_named, engine_of(request), name_key(name))
    if found is None:
        raise Refused("not-found", f"no registered player {quote(name)}", field=field)
    return found


def rank_order(rank: str | None) -> int:
    """A rank's place in the order, stronger higher ("3d" > "1d" > "1k" > "15k" > no rank)."""
    if not rank or not rank[:-1].isdigit():
        return -1000
    n = int(rank[:-1])
    return {"p": 200 + n, "d": 100 + n}.get(rank[-1], -n)


async def _checked_name(request: Request, name: str, club_id: str | None) -> str:
    name = club_names.check_club_name(name)
    others = [(cid, n) for cid, n, _ in await run(st.names, engine_of(request)) if cid != club_id]
    like = club_names.lookalike(name, others)
    if like is not None:
        raise Refused("name-taken", f"the club {like!r} has this name or one that looks like it", field="name")
    return name


@router.post("/api/clubs", status_code=201, responses={201: {"model": ClubOut}, **ERRORS})
async def create_club(body: NewClub, request: Request) -> Response:
    """Create a club; the caller is its first admin, first on its ladder. 403 for a guest, 409 ``club-limit``
    past ``CLUBS_PER_PLAYER``, 409 ``name-taken`` for a name like another club's, 409 ``code-taken``."""
    same_origin(request)
    player = await required_player(request)
    if player.guest:
        raise Refused("no-player", "a guest cannot create a club: register first")
    engine = engine_of(request)
    if await run(st.created_by, engine, player.id) >= CLUBS_PER_PLAYER:
        raise Refused("club-limit", f"an account creates at most {CLUBS_PER_PLAYER} clubs")
    name = await _checked_name(request, body.name, None)
    taken = [slug for _, _, slug in await run(st.names, engine)]
    slug = club_names.slug_of(name, taken)
    club: dict[str, Any] = {"id": secrets.token_urlsafe(12), "slug": slug, "name": name,
            "code": club_names.check_code(body.code), "city": body.city, "description": body.description,
            "link": body.link or None, "invite_code": secrets.token_urlsafe(12),
            "settings": body.ladder.model_dump()}
    await run(st.create, engine, club, player.id, timesource.now_utc())
    return json(await _page(request, slug, player), 201)


@router.get("/api/clubs", responses={200: {"model": ClubsOut}})
async def list_clubs(request: Request, mine: bool = False) -> Response:
    """Every club by name with its number of members; ``mine=true``: the caller's clubs (with their role; 401
    without a session)."""
    pid = (await required_player(request)).id if mine else None
    rows = await run(st.listing, engine_of(request), pid)
    return json(ClubsOut(clubs=[ClubLine(**r) for r in rows]))


async def _page(request: Request, slug: str, reader: Player | None) -> ClubOut:
    engine = engine_of(request)
    club = await club_at(request, slug)
    everyone = await run(st.members, engine, club["id"])
    shown = await run(shown_ranks, engine, {m["id"]: m["rank"] for m in everyone})
    mine = next((m for m in everyone if reader is not None and m["id"] == reader.id), None)
    role = None if mine is None else mine["role"]

    def out(m: dict[str, Any]) -> MemberOut:
        s = shown[m["id"]]
        return MemberOut(name=m["name"], rank=s.rank, provisional=s.provisional, earned=s.earned, role=m["role"],
                         place=m["place"], licence=m["licence"])

    members = sorted((out(m) for m in everyone if m["role"] != "requested"),
                     key=lambda m: (-rank_order(m.rank), m.name.casefold()))
    requests = [out(m) for m in everyone if m["role"] == "requested"] if role == "admin" else []
    live, recent = await run(pst.member_games, engine, club["id"])
    said = await run(pst.announcements, engine, club["id"])
    held = await run(pst.club_tournaments, engine, club["slug"])
    proposal = None if reader is None else await run(pst.proposal, engine, club["id"], reader.id)
    you = YouOut(role=role, code=club["invite_code"] if role == "admin" else None, proposal=proposal)
    return ClubOut(slug=club["slug"], name=club["name"], code=club["code"], city=club["city"],
                   description=club["description"], link=club["link"],
                   ladder_settings=LadderSettings(**club["settings"]), members=members, requests=requests,
                   live=[GameLine(**g) for g in live], recent=[GameLine(**g) for g in recent],
                   announcements=[AnnouncementOut(**a) for a in said],
                   tournaments=[TournamentLine(**x) for x in held], you=you)


@router.get("/api/clubs/{slug}", responses={200: {"model": ClubOut}, 404: {"model": ErrorBody}})
async def get_club(slug: str, request: Request) -> Response:
    """The club's page: public; an admin also sees the requests to join and the invitation code."""
    reader = await players_of(request).current(request.cookies)
    return json(await _page(request, slug, reader))


@router.patch("/api/clubs/{slug}", responses={200: {"model": ClubOut}, **ERRORS})
async def patch_club(slug: str, body: ClubPatch, request: Request) -> Response:
    """Change the club's fields (admins only)."""
    club = await club_at(request, slug)
    player, _ = await acting(request, club, admin=True)
    values: dict[str, Any] = {}
    if body.name is not None:
        values["name"] = await _checked_name(request, body.name, club["id"])
    if "code" in body.model_fields_set:
        values["code"] = club_names.check_code(body.code)
    for field in ("city", "description"):
        if getattr(body, field) is not None:
            values[field] = getattr(body, field)
    if body.link is not None:
        values["link"] = body.link or None
    if body.ladder is not None:
        values["settings"] = body.ladder.model_dump()
    if body.new_invite:
        values["invite_code"] = secrets.token_urlsafe(12)
    if values:
        await run(st.update, engine_of(request), club["id"], values)
    return json(await _page(request, slug, player))


@router.post("/api/clubs/{slug}/members", status_code=201, responses={201: {"model": ClubOut}, **ERRORS})
async def join_club(slug: str, body: JoinIn, request: Request) -> Response:
    """Join with the invitation ``code`` (a member at once, at the bottom of the ladder) or ask to join (no
    code: an admin accepts). 403 ``bad-invitation`` for a wrong code, 409 ``already-member``."""
    club = await club_at(request, slug)
    player, _ = await acting(request, club)
    if player.guest:
        raise Refused("no-player", "a guest cannot join a club: register first")
    if body.code is not None and not secrets.compare_digest(body.code, club["invite_code"]):
        raise Refused("bad-invitation", "this invitation code is not (or no longer) the club's", field="code")
    role = "member" if body.code is not None else "requested"
    await run(st.join, engine_of(request), club["id"], player.id, role, timesource.now_utc())
    return json(await _page(request, slug, player), 201)


@router.put("/api/clubs/{slug}/members/{name}", responses={200: {"model": ClubOut}, **ERRORS})
async def set_member(slug: str, name: str, body: RoleIn, request: Request) -> Response:
    """Admins: accept a request (``member``), name an admin or make one a plain member again (409
    ``last-admin``: a club keeps one)."""
    club = await club_at(request, slug)
    player, _ = await acting(request, club, admin=True)
    pid, _ = await account(request, name)
    engine = engine_of(request)
    role = await run(st.role_of, engine, club["id"], pid)
    if role == "requested":  # accepted: a member from now, at the bottom of the ladder
        await run(st.join, engine, club["id"], pid, body.role, timesource.now_utc())
    else:
        await run(st.set_role, engine, club["id"], pid, body.role)
    return json(await _page(request, slug, player))


@router.delete("/api/clubs/{slug}/members/{name}", responses={200: {"model": ClubOut}, **ERRORS})
async def drop_member(slug: str, name: str, request: Request) -> Response:
    """Leave the club (``name`` the caller's own) or, for an admin, remove a member or refuse a request."""
    club = await club_at(request, slug)
    player, role = await acting(request, club)
    pid, _ = await account(request, name)
    if pid != player.id and role != "admin":
        raise Refused("not-admin", "only an admin removes another member")
    await run(st.remove, engine_of(request), club["id"], pid, timesource.now_utc())
    return json(await _page(request, slug, player))


@router.post("/api/clubs/{slug}/announcements", status_code=201, responses={201: {"model": ClubOut}, **ERRORS})
async def announce(slug: str, body: AnnouncementIn, request: Request) -> Response:
    """Admins: post an announcement; it goes to each other member's bell (and email by their settings)."""
    club = await club_at(request, slug)
    player, _ = await acting(request, club, admin=True)
    text = body.text.strip()
    if not text:
        raise Refused("invalid-request", "an announcement needs some text", field="text")
    await run(pst.announce, engine_of(request), club, player.id, text, timesource.now_utc())
    return json(await _page(request, slug, player), 201)


@router.get("/api/players/{name}/clubs", responses={200: {"model": PlayerClubsOut}})
async def player_clubs(name: str, request: Request) -> Response:
    """The clubs the player is a member of, by name (none for a name nobody has)."""
    rows = await run(pst.player_clubs, engine_of(request), name_key(name))
    return json(PlayerClubsOut(clubs=[ClubLine(**r) for r in rows]))
