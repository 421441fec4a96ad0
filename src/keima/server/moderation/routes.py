"""The routes of moderation (docs/web-api.md, *Moderation*): a player's blocks and standing, reports, and the
moderators' queue, actions and audit log (403 ``not-moderator`` for anyone else)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import BaseModel

from keima.server import timesource
from keima.server.accounts import Standing, caller_token, required_player
from keima.server.clubs import withdraw_between
from keima.server.edge import same_origin
from keima.server.errors import ErrorBody, Refused
from keima.server.games import token_hash
from keima.server.moderation import abandon, signals_store, store
from keima.server.moderation.schemas import (
    AbandonedOut,
    ActedOut,
    ActionIn,
    BlockedOut,
    BlocksOut,
    ClaimIn,
    ConductOut,
    LogListOut,
    QueueOut,
    ReportedOut,
    ReportIn,
    ReportOut,
    SignalOut,
    SignalsOut,
    StandingOut,
)
from keima.server.moderation.service import Moderation, _iso, log_out

router = APIRouter()
_errors: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody} for code in (401, 403, 404, 409, 422)}
Name = Annotated[str, Path(min_length=1, max_length=40)]


def _json(body: BaseModel, status: int = 200) -> Response:
    return Response(body.model_dump_json(), status_code=status, media_type="application/json")


def _mod(request: Request) -> Moderation:
    m: Moderation = request.app.state.moderation
    return m


def _standing(request: Request) -> Standing:
    s: Standing = request.app.state.standing
    return s


async def _run(fn: Any, *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


# -- blocks ----------------------------------------------------------------------------------------------------
@router.get("/api/me/blocks", responses={200: {"model": BlocksOut}, **_errors})
async def list_blocks(request: Request) -> Response:
    """The players the caller blocked, oldest first (401 without a player)."""
    player = await required_player(request)
    found = await _standing(request).blocked_by(player.id)
    names = await _run(store.names_of, _mod(request).store.engine, [pid for pid, _at in found])
    return _json(BlocksOut(blocks=[BlockedOut(name=names[pid], at=_iso(at) or "") for pid, at in found
                                   if pid in names]))


@router.put("/api/me/blocks/{name}", status_code=204, responses=_errors)
async def block(name: Name, request: Request) -> Response:
    """Block the player ``name``: no game, chat or notification between the two any more (204; 404 for a name
    nobody has, 422 for oneself, 409 ``not-registered`` for a guest)."""
    same_origin(request)
    player = await required_player(request)
    if player.guest:  # a guest is made for free, and a block belongs to an account (docs/moderation.md)
        raise Refused("not-registered", "only a registered player may block: register or log in first")
    other, _name = await _mod(request).named(name)
    await _standing(request).block(player.id, other)
    await asyncio.to_thread(withdraw_between, request.app.state.hub.store.engine, player.id, other)
    return Response(status_code=204)


@router.delete("/api/me/blocks/{name}", status_code=204, responses=_errors)
async def unblock(name: Name, request: Request) -> Response:
    """Lift the caller's block of ``name`` (204, also when there was none)."""
    same_origin(request)
    player = await required_player(request)
    other, _name = await _mod(request).named(name)
    await _standing(request).unblock(player.id, other)
    return Response(status_code=204)


@router.get("/api/me/standing", responses={200: {"model": StandingOut}, **_errors})
async def my_standing(request: Request) -> Response:
    """What a moderator holds against the caller now (nothing: nulls, ``banned`` false)."""
    player = await required_player(request)
    _standing(request).forget_cached(player.id)  # the player's own page reads it fresh
    held = await _standing(request).held(player.id)
    now = timesource.now_utc()
    muted = held.muted_until if held.muted_until and held.muted_until > now else None
    suspended = held.suspended_until if held.suspended_until and held.suspended_until > now else None
    moderator = await _run(store.is_moderator, _mod(request).store.engine, player.id)
    return _json(StandingOut(muted_until=_iso(muted), suspended_until=_iso(suspended), banned=held.banned,
                             reason=held.reason if (muted or suspended or held.banned) else "", moderator=moderator))


# -- reports ---------------------------------------------------------------------------------------------------
@router.post("/api/reports", status_code=201, responses={201: {"model": ReportedOut}, **_errors})
async def report(body: ReportIn, request: Request) -> Response:
    """Report a player, a game or a chat message (201; 409 ``already-reported`` for the same target twice)."""
    same_origin(request)
    player = await required_player(request)
    return _json(ReportedOut(id=await _mod(request).report(player, body)), 201)


# -- moderators ------------------------------------------------------------------------------------------------
@router.get("/api/moderation/reports", responses={200: {"model": QueueOut}, **_errors})
async def queue(request: Request, status: Literal["open", "all"] = Query("open")) -> Response:
    """The reports: ``open`` (the queue, oldest first) or ``all`` (newest first), each with its context."""
    mod = _mod(request)
    await mod.moderator(request)
    engine = mod.store.engine

    def read() -> QueueOut:
        rows = store.report_rows(engine, open_only=status == "open")
        names = store.names_of(engine, [i for r in rows for i in (r.reporter_id, r.player_id) if i])
        out = []
        for r in rows:
            history = [log_out(x) for x in store.log_rows(engine, r.player_id, 5)] if r.player_id else []
            out.append(ReportOut(id=r.id, kind=r.target.split(":", 1)[0], reporter=names.get(r.reporter_id),
                                 player=names.get(r.player_id or ""), game=r.game_id, quote=r.quote, reason=r.reason,
                                 text=r.text, at=_iso(r.at) or "", handled=r.handled_at is not None,
                                 reports=store.reports_about(engine, r.player_id) if r.player_id else 0,
                                 history=history))
        return QueueOut(reports=out)

    return _json(await _run(read))


@router.get("/api/moderation/log", responses={200: {"model": LogListOut}, **_errors})
async def audit_log(request: Request, name: str | None = Query(None, min_length=1, max_length=40)) -> Response:
    """The audit log, newest first (of the player ``name`` when given)."""
    mod = _mod(request)
    await mod.moderator(request)
    pid = None if name is None else (await mod.named(name))[0]
    rows = await _run(store.log_rows, mod.store.engine, pid)
    return _json(LogListOut(log=[log_out(r) for r in rows]))


@router.get("/api/moderation/signals", responses={200: {"model": SignalsOut}, **_errors})
async def signal_list(request: Request) -> Response:
    """Sandbagging, stalling and abandoning signals (docs/moderation.md, *Signals*): for a look, not a sanction."""
    mod = _mod(request)
    await mod.moderator(request)
    found = await _run(signals_store.signals, mod.store.engine)
    return _json(SignalsOut(signals=[SignalOut(kind=o["kind"], player=o["name"], count=o["count"], drop=o["drop"],
                                               games=o["games"]) for o in found]))


@router.post("/api/moderation/actions", responses={200: {"model": ActedOut}, **_errors})
async def act(body: ActionIn, request: Request) -> Response:
    """A moderator's action on a player, a game or a report (docs/moderation.md), with its audit log line."""
    same_origin(request)
    mod = _mod(request)
    moderator = await mod.moderator(request)
    return _json(ActedOut(log=await mod.act(moderator, body)))


# -- abandoned live games --------------------------------------------------------------------------------------
async def _thash(request: Request, game_id: str) -> str | None:
    token = await caller_token(request, game_id)
    return None if token is None else token_hash(token)


@router.get("/api/games/{game_id}/abandoned", responses={200: {"model": AbandonedOut}, **_errors})
async def abandoned(game_id: str, request: Request) -> Response:
    """Whether the caller's opponent has left every page long enough for a claim (403 for anyone but one of the
    two players; 409 for a game not in play or without a person against the caller)."""
    s = await request.app.state.hub.cache.get(game_id, fresh=True)
    got = await abandon.standing_of(_mod(request).presence, s, s.seats.held_by(await _thash(request, game_id)))
    return _json(AbandonedOut(**got))


@router.post("/api/games/{game_id}/abandoned", status_code=204, responses=_errors)
async def claim(game_id: str, body: ClaimIn, request: Request) -> Response:
    """End the game because the opponent left every page: ``win`` or ``annul`` (before move 10); 204. 409
    ``not-abandoned`` before the limit, ``not-live`` for a correspondence game."""
    same_origin(request)
    await abandon.claim(_mod(request).presence, request.app.state.hub, game_id, await _thash(request, game_id),
                        body.outcome)
    return Response(status_code=204)


@router.get("/api/players/{name}/conduct", responses={200: {"model": ConductOut}, **_errors})
async def conduct(name: Name, request: Request) -> Response:
    """The live games a player abandoned, out of their finished games (public; 404 for a name nobody has)."""
    mod = _mod(request)
    pid, _name = await mod.named(name)
    left, games = await abandon.ratio_of(mod.store.engine, pid)
    return _json(ConductOut(abandoned=left, games=games, shown=left >= abandon.SHOWN_FROM))
