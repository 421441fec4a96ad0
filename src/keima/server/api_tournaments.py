"""The tournament endpoints (docs/web-api.md, *Tournaments*): create or import, directors, players, rounds,
results, standings, the files, the log and the caller's own view.

Reading is public. Changing needs a session (401 without one) and, but for signing up and a player's result at the
table, a director or co-director of the tournament (403 for anyone else). Every change is one locked transaction
(``keima.server.store_tournaments.change``) that logs who made it; the rules of each change are in
``keima.server.tournaments``. After each change the tournament's channel is told (``tournament_channel``), so that
its pages update live, in every process.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from datetime import UTC, datetime
from typing import Any, Literal

from fastapi import APIRouter, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import Response

from keima.ratings import ranks
from keima.server import ratings_subscriber
from keima.server import store_tournaments as st
from keima.server import tournaments as ops
from keima.server.errors import ErrorBody, Refused, quote
from keima.server.hub import Hub
from keima.server.lobby import LOBBY
from keima.server.notice_socket import serve_notices
from keima.server.origin import same_origin
from keima.server.players import Player, name_key
from keima.server.requests import players_of
from keima.server.schemas_tournaments import (
    AbsentIn,
    DirectorIn,
    LogOut,
    MineOut,
    MyRoundOut,
    NewTournament,
    PairIn,
    PersonOut,
    PlayerIn,
    ResultIn,
    RoundOut,
    SettingsOut,
    StandingOut,
    StandingsOut,
    StartIn,
    SwapIn,
    TGameOut,
    TournamentLine,
    TournamentOut,
    TournamentPatch,
    TournamentsOut,
    TPlayerOut,
    YouOut,
)
from keima.tournament import egd_h9, ffg_tou, opengotha_xml, rating_lists
from keima.tournament.model import (
    DEFAULT_CRITERIA,
    GeneralParameters,
    HandicapParameters,
    PairingParameters,
    Result,
    System,
    Tournament,
    TournamentError,
    parse_rank,
    rank_text,
    rating_from_rank,
)
from keima.tournament.model import (
    Player as TPlayer,
)
from keima.tournament.results_table import score_text
from keima.tournament.standings import standings as engine_standings
from keima.tournament.standings import used_criteria

router = APIRouter()
_errors: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody} for code in (401, 403, 404, 409, 422)}
#: The largest OpenGotha file ``POST /api/tournaments/import`` reads.
IMPORT_MAX = 4 * 1024 * 1024


def tournament_channel(tid: str) -> str:
    """The pub/sub channel told of each change of tournament ``tid`` (its version)."""
    return f"tournament:{tid}"


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _json(model: Any, status: int = 200) -> Response:
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


async def _run(fn: Any, *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


def _now() -> datetime:
    return datetime.now(UTC)


async def _caller(request: Request, *, registered: bool = False) -> Player:
    player = await players_of(request).current(request.cookies)
    if player is None:
        raise Refused("not-logged-in", "log in first")
    if registered and player.guest:
        raise Refused("not-director", "a guest cannot direct a tournament: register first")
    return player


async def _stored(request: Request, tid: str) -> st.Stored:
    s: st.Stored | None = await _run(st.read, _hub(request).store.engine, tid)
    if s is None:
        raise Refused("not-found", f"no tournament {quote(tid)}")
    return s


async def _change(request: Request, tid: str, do: st.Change, *, director: bool = True) -> st.Stored:
    """Run ``do`` on tournament ``tid`` for the caller (a director when ``director``), tell its channel, and
    return the tournament as it is after."""
    same_origin(request)
    player = await _caller(request)
    engine = _hub(request).store.engine

    def guarded(s: st.Stored) -> st.Outcome:
        # Checked under the tournament's lock: a co-director removed meanwhile changes nothing.
        if director and player.id not in s.directors:
            raise Refused("not-director", "only the director and co-directors change this tournament")
        return do(s)

    try:
        await _run(st.change, engine, tid, guarded, player.id, player.name, _now())
    except TournamentError as exc:
        raise ops.engine_error(exc) from None
    after: st.Stored = await _stored(request, tid)
    _hub(request).pubsub.publish(tournament_channel(tid), after.version, '{"type":"tournament"}')
    return after


async def _answer(request: Request, s: st.Stored, status: int = 200) -> Response:
    player = await players_of(request).current(request.cookies)
    return _json(await _out(request, s, player), status)


# -- the answers -------------------------------------------------------------------------------------------------
async def _out(request: Request, s: st.Stored, caller: Player | None) -> TournamentOut:
    t, settings = s.tournament, s.settings
    names = await _run(st.names_of, _hub(request).store.engine, list(set(s.directors) | set(s.accounts.values())))
    rounds = []
    for rn in range(1, t.general.number_of_rounds + 1):
        info = ops.round_info(settings, rn)
        games = [TGameOut(table=g.table, white=g.white, black=g.black, handicap=g.handicap,
                          result=ops.RESULT_NAMES[g.result], by_forfeit=g.by_default,  # type: ignore[arg-type]
                          game=_made(s, rn, g.table)) for g in t.games_of_round(rn)]
        rounds.append(RoundOut(round=rn, started=bool(info.get("started")), start_at=info.get("start_at"),
                               bye=t.byes.get(rn), present=sorted(ops.present(settings, rn)), games=games))
    mine = None if caller is None else next((k for k, v in s.accounts.items() if v == caller.id), None)
    return TournamentOut(
        id=s.id, name=t.general.name, system=t.system.value.lower(), rounds=t.general.number_of_rounds,
        size=int(t.general.size), komi=t.general.komi, version=s.version,
        settings=SettingsOut(online=bool(settings.get("online")), rated=bool(settings.get("rated")),
                             registration_open=bool(settings.get("registration_open")),
                             forfeit_minutes=int(settings.get("forfeit_minutes") or 0)),
        directors=[PersonOut(name=names.get(pid, "?"), role=role)
                   for pid, role in sorted(s.directors.items(), key=lambda x: (x[1] != "director", x[0]))],
        players=[_player_out(p, s, names) for p in t.players],
        round_list=rounds,
        you=YouOut(role=None if caller is None else s.directors.get(caller.id), player=mine),
    )


def _made(s: st.Stored, rn: int, table: int) -> str | None:
    gid = s.games.get((rn, table))
    return gid if gid in s.made else None


def _player_out(p: TPlayer, s: st.Stored, names: dict[str, str]) -> TPlayerOut:
    account = s.accounts.get(p.key)
    return TPlayerOut(key=p.key, name=p.name, first_name=p.first_name, rank=rank_text(p.rank), rating=p.rating,
                      club=p.club, country=p.country, account=None if account is None else names.get(account),
                      absent=[r for r in range(1, s.tournament.general.number_of_rounds + 1) if not p.plays(r)])


# -- creating ----------------------------------------------------------------------------------------------------
def _new_tournament(body: NewTournament) -> Tournament:
    system = System.MCMAHON if body.system == "mcmahon" else System.SWISS
    try:
        bar = parse_rank(body.mm_bar)
    except TournamentError as exc:
        raise Refused("invalid-request", str(exc), field="mm_bar") from None
    day = body.begin_date or _now().date().isoformat()
    general = GeneralParameters(
        name=body.name, short_name=(body.name.replace(" ", "")[:20] or "tournament"), location=body.location,
        begin_date=day, end_date=day, number_of_rounds=body.rounds, size=str(body.size), komi=str(body.komi),
        rules=body.rules, internet=body.online, mm_bar=bar)
    # Swiss rounds are even games; McMahon keeps OpenGotha's handicap rule.
    handicap = HandicapParameters() if system is System.MCMAHON else HandicapParameters(ceiling=0)
    t = Tournament(general=general, handicap=handicap, criteria=DEFAULT_CRITERIA[system],
                   pairing=PairingParameters.for_system(system))
    try:
        t.general.ruleset()
    except TournamentError as exc:
        raise Refused("invalid-request", str(exc), field="rules") from None
    return t


async def _create(request: Request, t: Tournament, settings: dict[str, Any], action: str,
                  detail: dict[str, Any]) -> Response:
    same_origin(request)
    player = await _caller(request, registered=True)
    tid = secrets.token_urlsafe(8)
    await _run(st.create, _hub(request).store.engine, tid, t, settings, player.id, player.name, action, detail,
               _now())
    return await _answer(request, await _stored(request, tid), 201)


@router.post("/api/tournaments", status_code=201, responses={201: {"model": TournamentOut}, **_errors})
async def create_tournament(body: NewTournament, request: Request) -> Response:
    """Create a tournament directed by the caller, a registered player (401 without a session, 403 a guest)."""
    settings = ops.new_settings(online=body.online, rated=body.rated,
                                registration_open=body.registration_open, forfeit_minutes=body.forfeit_minutes,
                                clock=None if body.clock is None else body.clock.model_dump())
    return await _create(request, _new_tournament(body), settings, "create", {"name": body.name})


@router.post("/api/tournaments/import", status_code=201, responses={201: {"model": TournamentOut}, **_errors},
             openapi_extra={"requestBody": {"content": {"application/xml": {"schema": {"type": "string"}}},
                                            "required": True}})
async def import_tournament(request: Request) -> Response:
    """Create a tournament from an OpenGotha file (the request's body), directed by the caller; 422 for a file
    that is not one."""
    data = await request.body()
    if len(data) > IMPORT_MAX:
        raise Refused("too-large", "this file is too large")
    try:
        t = opengotha_xml.read(data)
        t.check()
    except (TournamentError, ValueError) as exc:
        raise Refused("invalid-request", f"not an OpenGotha file: {exc}") from None
    settings = ops.new_settings(registration_open=False)
    # The rounds the file has results in are under way: they are not paired again.
    for g in t.games:
        if g.result.value != "UNKNOWN":
            settings["rounds"][str(g.round)] = {"started": True, "start_at": None}
    detail = {"name": t.general.name, "players": len(t.players), "games": len(t.games)}
    return await _create(request, t, settings, "import", detail)


@router.get("/api/tournaments", responses={200: {"model": TournamentsOut}})
async def list_tournaments(request: Request, limit: int = Query(50, ge=1, le=200)) -> Response:
    """The tournaments, newest first."""
    rows = await _run(st.listing, _hub(request).store.engine, limit)
    return _json(TournamentsOut(tournaments=[TournamentLine(**r) for r in rows]))


@router.get("/api/tournaments/{tid}", responses={200: {"model": TournamentOut}, **_errors})
async def get_tournament(tid: str, request: Request) -> Response:
    """The whole tournament: settings, directors, players, each round's pairings and results."""
    return await _answer(request, await _stored(request, tid))


@router.patch("/api/tournaments/{tid}", responses={200: {"model": TournamentOut}, **_errors})
async def patch_tournament(tid: str, body: TournamentPatch, request: Request) -> Response:
    """Change the name or the settings (registration open, online, rated, forfeit limit, clock)."""
    patch = body.model_dump(exclude_unset=True)
    if "clock" in patch and body.clock is not None:
        patch["clock"] = body.clock.model_dump()
    return await _answer(request, await _change(request, tid, ops.update(patch)))


# -- directors ---------------------------------------------------------------------------------------------------
async def _account(request: Request, name: str, field: str) -> tuple[str, str, str | None]:
    row = await _run(st.player_by_name, _hub(request).store.engine, name_key(name))
    if row is None or row[3]:
        raise Refused("not-found", f"no registered player named {quote(name)}", field=field)
    return row[0], row[1], row[2]


@router.post("/api/tournaments/{tid}/directors", responses={200: {"model": TournamentOut}, **_errors})
async def add_director(tid: str, body: DirectorIn, request: Request) -> Response:
    """Name a registered player co-director (404 no such player, 409 directs already)."""
    pid, name, _ = await _account(request, body.name, "name")
    return await _answer(request, await _change(request, tid, ops.add_director(pid, name)))


@router.delete("/api/tournaments/{tid}/directors/{name}", responses={200: {"model": TournamentOut}, **_errors})
async def drop_director(tid: str, name: str, request: Request) -> Response:
    """Remove a co-director (the director stays: 409)."""
    pid, shown, _ = await _account(request, name, "name")
    return await _answer(request, await _change(request, tid, ops.drop_director(pid, shown)))


# -- players -----------------------------------------------------------------------------------------------------
def _typed_player(body: PlayerIn) -> tuple[TPlayer, str]:
    try:
        if body.ffg_line is not None:
            return next(rating_lists.read_ffg([body.ffg_line])).to_player(), "ffg"
        if body.egd_line is not None:
            return next(rating_lists.read_egd([body.egd_line])).to_player(rank_from_grade=True), "egd"
        rank = parse_rank(body.rank)
    except StopIteration:
        raise Refused("invalid-request", "this line is not a player of the list") from None
    except TournamentError as exc:
        raise Refused("invalid-request", str(exc)) from None
    rating = body.rating if body.rating is not None else rating_from_rank(rank)
    return TPlayer(name=body.name.strip(), first_name=body.first_name.strip(), rank=rank, rating=rating,
                   club=body.club, country=body.country.upper(), egf_pin=body.egf_pin,
                   ffg_licence=body.ffg_licence), "typed"


@router.post("/api/tournaments/{tid}/players", status_code=201,
             responses={201: {"model": TournamentOut}, **_errors})
async def register_player(tid: str, body: PlayerIn, request: Request) -> Response:
    """Register a player typed in, or from a line of the FFG or EGD rating list (409: registered already)."""
    player, how = _typed_player(body)
    account = None if body.account is None else (await _account(request, body.account, "account"))[0]
    return await _answer(request, await _change(request, tid, ops.register(player, account, how)), 201)


@router.post("/api/tournaments/{tid}/signup", status_code=201, responses={201: {"model": TournamentOut}, **_errors})
async def sign_up(tid: str, request: Request) -> Response:
    """The caller's account registers itself, under its name and rank, while registration is open (409 closed or
    registered already; a guest: 403). The rank is the one keima shows for the account: its rating's once it has
    played a rated game (or declared a rank, which starts its rating), else 20k, as a director would guess for a
    player nobody knows."""
    me = await _caller(request, registered=True)
    rated = await _run(ratings_subscriber.rating_of, _hub(request).store.engine, me.id)
    shown = ranks.rank_label(rated[0].rating) if rated is not None else me.rank
    try:
        rank = parse_rank(shown or "20k")
    except TournamentError:
        rank = parse_rank("20k")
    player = TPlayer(name=me.name, first_name="", rank=rank, rating=rating_from_rank(rank))
    return await _answer(request, await _change(request, tid, ops.sign_up(player, me.id), director=False), 201)


@router.delete("/api/tournaments/{tid}/players/{key}", responses={200: {"model": TournamentOut}, **_errors})
async def withdraw_player(tid: str, key: str, request: Request) -> Response:
    """Remove a player not paired yet (409 once paired: mark them absent instead)."""
    return await _answer(request, await _change(request, tid, ops.withdraw(key)))


@router.put("/api/tournaments/{tid}/players/{key}/absent", responses={200: {"model": TournamentOut}, **_errors})
async def set_absent(tid: str, key: str, body: AbsentIn, request: Request) -> Response:
    """Mark a player absent from a round (or present again) before that round pairs them."""
    return await _answer(request, await _change(request, tid, ops.set_absent(key, body.round, body.absent)))


# -- rounds ------------------------------------------------------------------------------------------------------
@router.post("/api/tournaments/{tid}/rounds/{rn}/pairing", responses={200: {"model": TournamentOut}, **_errors})
async def pair_round(tid: str, rn: int, body: PairIn, request: Request) -> Response:
    """Pair a round with the engine (McMahon or Swiss, as OpenGotha); ``again`` pairs it anew before it starts."""
    return await _answer(request, await _change(request, tid, ops.pair(rn, body.seed, body.again)))


@router.delete("/api/tournaments/{tid}/rounds/{rn}/pairing", responses={200: {"model": TournamentOut}, **_errors})
async def unpair_round(tid: str, rn: int, request: Request) -> Response:
    """Drop a round's pairing before it starts."""
    return await _answer(request, await _change(request, tid, ops.unpair(rn)))


@router.post("/api/tournaments/{tid}/rounds/{rn}/swap", responses={200: {"model": TournamentOut}, **_errors})
async def swap_players(tid: str, rn: int, body: SwapIn, request: Request) -> Response:
    """Exchange two players' places in a round before it starts."""
    return await _answer(request, await _change(request, tid, ops.swap(rn, body.a, body.b)))


@router.post("/api/tournaments/{tid}/rounds/{rn}/start", responses={200: {"model": TournamentOut}, **_errors})
async def start_round(tid: str, rn: int, body: StartIn, request: Request) -> Response:
    """Start a paired round: it is no longer paired again; online, its games begin at ``start_at``."""
    at = (body.start_at or _now()).astimezone(UTC)
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
