"""The endpoints of a tournament's rounds (docs/web-api.md, *Tournaments*): pairing, swapping, starting, checking in,
results, standings, the files sent to the federations, the log, a player's own view and the live socket; the
tournament, its directors and players are ``keima.server.tournaments.routes``'."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC
from typing import Any, Literal

from fastapi import APIRouter, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import Response

from keima.server import timesource
from keima.server.accounts import players_of
from keima.server.games import Hub
from keima.server.live import serve_notices
from keima.server.lobby import LOBBY
from keima.server.ratings import subscriber as ratings_subscriber
from keima.server.tournaments import changes as ops
from keima.server.tournaments import hand
from keima.server.tournaments import store as st
from keima.server.tournaments.limits import Pairings
from keima.server.tournaments.routes import (
    _answer,
    _caller,
    _change,
    _errors,
    _hub,
    _json,
    _made,
    _player_out,
    _run,
    _stored,
    tournament_channel,
)
from keima.server.tournaments.schemas import (
    ByeIn,
    LogOut,
    MatchIn,
    MineOut,
    MyRoundOut,
    PairIn,
    ResultIn,
    StandingOut,
    StandingsOut,
    StartIn,
    SwapIn,
    TournamentOut,
)
from keima.tournament import egd_h9, ffg_tou, opengotha_xml
from keima.tournament.model import (
    Result,
    TournamentError,
    rank_text,
)
from keima.tournament.results_table import score_text
from keima.tournament.standings import standings as engine_standings
from keima.tournament.standings import used_criteria

router = APIRouter()
#: The pairings under way in this process (``keima.server.tournaments.limits``).
PAIRINGS = Pairings()


# -- rounds ------------------------------------------------------------------------------------------------------
@router.post("/api/tournaments/{tid}/rounds/{rn}/pairing", responses={200: {"model": TournamentOut}, **_errors})
async def pair_round(tid: str, rn: int, body: PairIn, request: Request) -> Response:
    """Pair a round with the engine (McMahon or Swiss, as OpenGotha); ``again`` pairs it anew before it starts.
    429 while this tournament is being paired, or the process pairs as many tournaments as it may."""
    async with PAIRINGS.slot(tid):
        changed = await _change(request, tid, hand.pair(rn, body.seed, body.again, body.keep))
    return await _answer(request, changed)


@router.delete("/api/tournaments/{tid}/rounds/{rn}/pairing", responses={200: {"model": TournamentOut}, **_errors})
async def unpair_round(tid: str, rn: int, request: Request) -> Response:
    """Drop a round's pairing before it starts."""
    return await _answer(request, await _change(request, tid, hand.unpair(rn)))


@router.post("/api/tournaments/{tid}/rounds/{rn}/swap", responses={200: {"model": TournamentOut}, **_errors})
async def swap_players(tid: str, rn: int, body: SwapIn, request: Request) -> Response:
    """Exchange two players' places in a round before it starts."""
    return await _answer(request, await _change(request, tid, hand.swap(rn, body.a, body.b)))


@router.put("/api/tournaments/{tid}/rounds/{rn}/bye", responses={200: {"model": TournamentOut}, **_errors})
async def choose_bye(tid: str, rn: int, body: ByeIn, request: Request) -> Response:
    """Give a round's bye to a player before it starts (before the pairing: the engine pairs the others)."""
    return await _answer(request, await _change(request, tid, hand.choose_bye(rn, body.player)))


@router.post("/api/tournaments/{tid}/rounds/{rn}/match", responses={200: {"model": TournamentOut}, **_errors})
async def match_players(tid: str, rn: int, body: MatchIn, request: Request) -> Response:
    """Seat two players at one table by hand before the round starts (their former opponents meet each other)."""
    return await _answer(request, await _change(request, tid, hand.match(rn, body.a, body.b)))


@router.post("/api/tournaments/{tid}/rounds/{rn}/start", responses={200: {"model": TournamentOut}, **_errors})
async def start_round(tid: str, rn: int, body: StartIn, request: Request) -> Response:
    """Start a paired round: it is no longer paired again; online, its games begin at ``start_at``."""
    at = (body.start_at or timesource.now_utc()).astimezone(UTC)
    return await _answer(request, await _change(request, tid, ops.start(rn, at)))


@router.post("/api/tournaments/{tid}/rounds/{rn}/checkin", responses={200: {"model": TournamentOut}, **_errors})
async def check_in(tid: str, rn: int, request: Request) -> Response:
    """A player of an online round says they are here: at the forfeit limit they are not counted absent."""
    me = await _caller(request)
    return await _answer(request, await _change(request, tid, ops.check_in(rn, me.id), director=False))


@router.put("/api/tournaments/{tid}/rounds/{rn}/tables/{table}/result",
            responses={200: {"model": TournamentOut}, **_errors})
async def enter_result(tid: str, rn: int, table: int, body: ResultIn, request: Request) -> Response:
    """Enter (or, a director, fix) a table's result; a player of the game enters it once, at the table."""
    player = await _caller(request)
    s = await _stored(request, tid)
    director = player.id in s.directors
    do = ops.set_result(rn, table, body.result, body.by_forfeit, player.id, director)
    after = await _change(request, tid, do, director=director)
    if (rn, table) in after.games and after.settings.get("rated"):
        # A rated online game's result changed: the ratings are computed again from the start, with the fix.
        await _run(ratings_subscriber.recompute, _hub(request).store.engine)
    return await _answer(request, after)


# -- reading -----------------------------------------------------------------------------------------------------
@router.get("/api/tournaments/{tid}/standings", responses={200: {"model": StandingsOut}, **_errors})
async def get_standings(tid: str, request: Request,
                        after_round: int | None = Query(None, ge=0, le=20)) -> Response:
    """The standings after a round (default: the last round with a result entered, 0 before any: a round just
    paired has changed nobody's score yet), by the tournament's placement criteria."""
    t = (await _stored(request, tid)).tournament
    if after_round is None:
        after_round = max((g.round for g in t.games if g.result is not Result.UNKNOWN), default=0)
    try:
        lines = engine_standings(t, after_round)
        criteria = used_criteria(t.criteria)
    except TournamentError as exc:
        raise ops.engine_error(exc) from None
    return _json(StandingsOut(after_round=after_round, criteria=list(criteria), lines=[
        StandingOut(place=x.place, key=x.player.key, name=x.player.name, first_name=x.player.first_name,
                    rank=rank_text(x.player.rank), values={c: score_text(v, c) for c, v in x.values})
        for x in lines]))


_FORMATS = {
    "tou": ("text/plain; charset=iso-8859-15", "tou"),
    "h9": ("text/plain; charset=utf-8", "h9"),
    "xml": ("application/xml", "xml"),
}


@router.get("/api/tournaments/{tid}/export/{fmt}", responses={200: {"content": {"text/plain": {}}}, **_errors})
async def export(tid: str, fmt: Literal["tou", "h9", "xml"], request: Request) -> Response:
    """The tournament's file: the FFG's results (``tou``), the EGD's (``h9``) or OpenGotha's (``xml``)."""
    t = (await _stored(request, tid)).tournament
    try:
        data = (ffg_tou.encode(t) if fmt == "tou" else egd_h9.encode(t) if fmt == "h9"
                else opengotha_xml.write(t).encode("utf-8"))
    except TournamentError as exc:
        raise ops.engine_error(exc) from None
    media, ext = _FORMATS[fmt]
    name = "".join(ch for ch in t.general.short_name if ch.isalnum() or ch in "-_") or "tournament"
    return Response(data, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}.{ext}"'})


@router.get("/api/tournaments/{tid}/log", responses={200: {"model": LogOut}, **_errors})
async def get_log(tid: str, request: Request) -> Response:
    """Every change of the tournament, who made it and when (oldest first)."""
    await _stored(request, tid)
    return _json(LogOut.model_validate({"entries": await _run(st.log_of, _hub(request).store.engine, tid)}))


@router.get("/api/tournaments/{tid}/me", responses={200: {"model": MineOut}, **_errors})
async def my_view(tid: str, request: Request) -> Response:
    """The caller's table, colour, opponent and game in each paired round (``player`` null: not registered)."""
    s = await _stored(request, tid)
    caller = await players_of(request).current(request.cookies)
    key = None if caller is None else next((k for k, v in s.accounts.items() if v == caller.id), None)
    rounds: list[MyRoundOut] = []
    if key is not None:
        t = s.tournament
        names = await _run(st.names_of, _hub(request).store.engine, list(s.accounts.values()))
        for rn in range(1, t.general.number_of_rounds + 1):
            if t.byes.get(rn) == key:
                rounds.append(MyRoundOut(round=rn, bye=True, table=None, color=None, opponent=None, handicap=0,
                                         result=None, game=None))
            for g in t.games_of_round(rn):
                if key in (g.white, g.black):
                    rounds.append(MyRoundOut(
                        round=rn, bye=False, table=g.table, color="W" if g.white == key else "B",
                        opponent=_player_out(t.player(g.opponent(key)), s, names), handicap=g.handicap,
                        result=ops.RESULT_NAMES[g.result],  # type: ignore[arg-type]
                        game=_made(s, rn, g.table)))
    return _json(MineOut(player=key, rounds=rounds))


#: How often a tournament socket looks at the version when no notice came (a result written by another
#: process's outbox delivery tells no channel).
SOCKET_POLL_S = 3.0


@router.websocket("/api/tournaments/{tid}/ws")
async def tournament_socket(websocket: WebSocket, tid: str) -> None:
    """``{"type": "tournament", "version": n}`` at once and after each change of the tournament (the page reads
    it again then): on the tournament's channel, on the lobby's (a game of it ended), and every few seconds."""
    hub: Hub = websocket.app.state.hub
    engine = hub.store.engine
    await websocket.accept()
    wake = asyncio.Event()
    subs = [hub.pubsub.subscribe(tournament_channel(tid)), hub.pubsub.subscribe(LOBBY)]

    async def listen(sub: Any) -> None:
        async for _version, _msg in sub:
            wake.set()

    async def pump() -> None:
        sent: int | None = -1
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            while True:
                version = await _run(st.version_of, engine, tid)
                if version is None:
                    await websocket.send_text('{"type":"gone"}')
                    await websocket.close()
                    return
                if version != sent:
                    await websocket.send_text(f'{{"type":"tournament","version":{version}}}')
                    sent = version
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(wake.wait(), SOCKET_POLL_S)
                wake.clear()
                await asyncio.sleep(0.2)  # notices in a burst make one message

    await serve_notices(websocket, subs, listen, pump)
