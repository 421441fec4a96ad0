"""The club's ladder and FFG list endpoints (docs/web-api.md, *Clubs*): read the ladder, challenge, accept or
withdraw a challenge (the accepted one becomes a keima game: ``keima.server.clubs.ladder_games``); import the
club's lines of the FFG rating list, propose each to an account, and the account holder's answer.

The ladder's rules are ``keima.server.clubs.ladder``; who may do what is checked here against the caller's role
and seat: a member challenges, the defender accepts, the challenger withdraws, an admin imports and proposes, the
account a line is proposed to answers.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from keima.server import timesource
from keima.server.accounts import players_of
from keima.server.clubs import ladder_games
from keima.server.clubs import page_store as pst
from keima.server.clubs import store as st
from keima.server.clubs.routes import ERRORS, account, acting, club_at, engine_of, json, run
from keima.server.clubs.schemas import (
    AnswerIn,
    ChallengeIn,
    ChallengeOut,
    ImportIn,
    ImportLine,
    ImportsOut,
    LadderOut,
    LadderSettings,
    ProposeIn,
    RungOut,
)
from keima.server.clubs.store import MEMBER_ROLES
from keima.server.errors import Refused, quote
from keima.server.games import away_of
from keima.tournament import rating_lists
from keima.tournament.model import TournamentError, rank_text

router = APIRouter()
#: A challenge's id as a path: a positive number the database can hold (a larger one is 422, never a fault).
ChallengeId = Annotated[int, Path(ge=1, le=2**53)]


async def _ladder(request: Request, club: dict[str, Any]) -> LadderOut:
    engine = engine_of(request)
    order, challenges = await run(st.ladder_of, engine, club["id"], timesource.now_utc())
    ids = list({*order, *(c["challenger"] for c in challenges), *(c["defender"] for c in challenges)})
    names: dict[str, tuple[str, str | None]] = await run(st.names_of, engine, ids)

    def name(pid: str) -> str:
        return names.get(pid, ("?", None))[0]

    return LadderOut(ladder=[RungOut(place=i, name=name(p), rank=names.get(p, ("?", None))[1])
                             for i, p in enumerate(order, start=1)],
                     challenges=[ChallengeOut(id=c["id"], challenger=name(c["challenger"]),
                                              defender=name(c["defender"]), status=c["status"], game=c["game_id"],
                                              result=c["result"], due_at=c["due_at"].timestamp())
                                 for c in challenges],
                     settings=LadderSettings(**club["settings"]))


@router.get("/api/clubs/{slug}/ladder", responses={200: {"model": LadderOut}, **ERRORS})
async def get_ladder(slug: str, request: Request) -> Response:
    """The ladder (public): its order, the challenges in progress and the last ended, its rules."""
    return json(await _ladder(request, await club_at(request, slug)))


@router.post("/api/clubs/{slug}/ladder/challenges", status_code=201, responses={201: {"model": LadderOut}, **ERRORS})
async def challenge(slug: str, body: ChallengeIn, request: Request) -> Response:
    """A member challenges ``defender``, one of the places within the club's reach above their own: 403
    ``not-member``, ``suspended``/``banned`` or ``blocked``, 404 for a player not on the ladder, 409
    ``out-of-reach`` or ``busy``."""
    club = await club_at(request, slug)
    player, role = await acting(request, club)
    if role not in MEMBER_ROLES:
        raise Refused("not-member", "only a member of the club challenges on its ladder")
    pid, _ = await account(request, body.defender, "defender")
    # A ladder challenge is a game the defender must take or lose: none from a suspended player, none across a
    # block (docs/moderation.md).
    await request.app.state.standing.check_play(player.id)
    await request.app.state.standing.check_apart(player.id, pid)
    await run(st.challenge, engine_of(request), club["id"], player.id, pid, timesource.now_utc())
    return json(await _ladder(request, club), 201)


@router.post("/api/clubs/{slug}/ladder/challenges/{cid}/accept", responses={200: {"model": LadderOut}, **ERRORS})
async def accept(slug: str, cid: ChallengeId, request: Request) -> Response:
    """The defender accepts: the ladder game is made (its id in the challenge's ``game``). 403 for anyone else,
    409 ``not-open`` for a challenge answered or past its time (then lost by the defender)."""
    club = await club_at(request, slug)
    player, _ = await acting(request, club)
    gid = ladder_games.game_id_of(club["id"], cid)
    c = await run(st.answer, engine_of(request), club["id"], cid, player.id, True, gid, timesource.now_utc())
    try:
        await ladder_games.start(request.app.state.hub, players_of(request), club, c["challenger"], c["defender"],
                                 gid)
    except Exception:
        # No game, no challenge in play: it waits again for the defender (a retry makes the same game id).
        await run(st.reopen, engine_of(request), club["id"], cid)
        raise
    if club["settings"].get("speed") != "live":  # each player's time zone and vacation reach the game's clock
        away = away_of(request)
        for pid in (c["challenger"], c["defender"]):
            await away.pass_on(pid, await away.get(pid), only=gid)
    return json(await _ladder(request, club))


@router.delete("/api/clubs/{slug}/ladder/challenges/{cid}", responses={200: {"model": LadderOut}, **ERRORS})
async def withdraw(slug: str, cid: ChallengeId, request: Request) -> Response:
    """The challenger withdraws an open challenge (nothing changes on the ladder)."""
    club = await club_at(request, slug)
    player, _ = await acting(request, club)
    await run(st.answer, engine_of(request), club["id"], cid, player.id, False, "", timesource.now_utc())
    return json(await _ladder(request, club))


# -- the FFG rating list -------------------------------------------------------------------------------------------
def club_lines(text: str, code: str) -> list[dict[str, Any]]:
    """The lines of the FFG list ``text`` whose club code is ``code`` (case aside) and that have a licence:
    ``{"licence", "name", "rank"}``. Raises ``Refused`` 422 (``field`` ``lines``) for an unreadable line."""
    try:
        rated = list(rating_lists.read_ffg(text.splitlines()))
    except TournamentError as exc:
        raise Refused("invalid-request", str(exc), field="lines") from None
    return [{"licence": p.ffg_licence, "name": f"{p.name} {p.first_name}".strip()[:80],
             "rank": rank_text(p.rank()).lower()}
            for p in rated if p.club.lower() == code.lower() and p.ffg_licence]


async def _imports(request: Request, club: dict[str, Any], added: int = 0) -> Response:
    lines = await run(pst.imports, engine_of(request), club["id"])
    return json(ImportsOut(lines=[ImportLine(**ln) for ln in lines], added=added))


@router.post("/api/clubs/{slug}/imports", responses={200: {"model": ImportsOut}, **ERRORS})
async def import_list(slug: str, body: ImportIn, request: Request) -> Response:
    """Admins: read the FFG list's lines of the club's code (409 ``invalid-request`` naming ``code`` for a club
    without one) and keep them as proposals; a licence kept already stays as it is."""
    club = await club_at(request, slug)
    await acting(request, club, admin=True)
    if not club["code"]:
        raise Refused("invalid-request", "give the club its FFG code first", field="code")
    added = await run(pst.import_lines, engine_of(request), club["id"], club_lines(body.lines, club["code"]))
    return await _imports(request, club, added)


@router.get("/api/clubs/{slug}/imports", responses={200: {"model": ImportsOut}, **ERRORS})
async def list_imports(slug: str, request: Request) -> Response:
    """Admins: the club's imported lines and whom each is proposed to."""
    club = await club_at(request, slug)
    await acting(request, club, admin=True)
    return await _imports(request, club)


@router.put("/api/clubs/{slug}/imports/{licence}", responses={200: {"model": ImportsOut}, **ERRORS})
async def propose(slug: str, licence: str, body: ProposeIn, request: Request) -> Response:
    """Admins: propose the line ``licence`` to an account (``account`` null: to nobody); the account holder
    confirms (``.../answer``)."""
    club = await club_at(request, slug)
    await acting(request, club, admin=True)
    pid = None if body.account is None else (await account(request, body.account, "account"))[0]
    if not await run(pst.propose, engine_of(request), club["id"], licence, pid):
        raise Refused("not-found", f"no line {quote(licence)} waiting in this club's import")
    return await _imports(request, club)


@router.post("/api/clubs/{slug}/imports/{licence}/answer", responses={200: {"model": ImportsOut}, **ERRORS})
async def answer(slug: str, licence: str, body: AnswerIn, request: Request) -> Response:
    """The account holder the line was proposed to confirms it (a member of the club with this licence, on the
    ladder's bottom if not a member yet) or refuses it. 404 when no such line waits for the caller."""
    club = await club_at(request, slug)
    player, role = await acting(request, club)
    engine = engine_of(request)
    if not await run(pst.answered, engine, club["id"], licence, player.id, body.accept):
        raise Refused("not-found", f"no line {quote(licence)} proposed to you in this club")
    if body.accept:
        if role not in MEMBER_ROLES:
            await run(st.join, engine, club["id"], player.id, "member", timesource.now_utc(), licence)
        else:
            await run(pst.set_licence, engine, club["id"], player.id, licence)
    lines = [ln for ln in await run(pst.imports, engine, club["id"]) if ln["licence"] == licence]
    return json(ImportsOut(lines=[ImportLine(**ln) for ln in lines]))
