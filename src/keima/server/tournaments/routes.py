"""The tournament endpoints (docs/web-api.md, *Tournaments*): create or import, directors, players, rounds,
results, standings, the files, the log and the caller's own view.

Reading is public. Changing needs a session (401 without one) and, but for signing up and a player's result at the
table, a director or co-director of the tournament (403 for anyone else). Every change is one locked transaction
(``keima.server.tournaments.store.change``) that logs who made it; the rules of each change are in
``keima.server.tournaments.changes``. After each change the tournament's channel is told (``tournament_channel``), so that
its pages update live, in every process.
"""

from __future__ import annotations

import asyncio
import secrets
from datetime import datetime, timedelta
from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from keima.ratings import ranks
from keima.server import timesource
from keima.server.accounts import Player, name_key, players_of
from keima.server.clubs import MEMBER_ROLES, role_at
from keima.server.edge import same_origin
from keima.server.errors import ErrorBody, Refused, quote
from keima.server.games import Hub
from keima.server.ratings import ShownRank, shown_ranks
from keima.server.ratings import subscriber as ratings_subscriber
from keima.server.tournaments import changes as ops
from keima.server.tournaments import hand, player_ops
from keima.server.tournaments import settings as settings_of
from keima.server.tournaments import store as st
from keima.server.tournaments.limits import CREATED_PER_DAY, check_players
from keima.server.tournaments.schemas import (
    AbsentIn,
    DirectorIn,
    NewTournament,
    PersonOut,
    PlayerIn,
    RoundOut,
    SettingsOut,
    SignUpIn,
    TGameOut,
    TournamentLine,
    TournamentOut,
    TournamentPatch,
    TournamentsOut,
    TPlayerOut,
    WarningOut,
    YouOut,
)
from keima.tournament import opengotha_xml, rating_lists
from keima.tournament.checks import round_warnings
from keima.tournament.model import (
    DEFAULT_CRITERIA,
    GeneralParameters,
    PairingParameters,
    System,
    Tournament,
    TournamentError,
    is_line_breaking,
    parse_rank,
    rank_text,
    rating_from_rank,
)
from keima.tournament.model import (
    Player as TPlayer,
)

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
        await _run(st.change, engine, tid, guarded, player.id, player.name, timesource.now_utc())
    except TournamentError as exc:
        raise ops.engine_error(exc) from None
    after: st.Stored = await _stored(request, tid)
    _hub(request).pubsub.publish(tournament_channel(tid), after.version, '{"type":"tournament"}')
    return after


async def _check_play(request: Request, tid: str, player: Player) -> None:
    # An online tournament's rounds are keima games: a suspended or banned account joins none (docs/moderation.md);
    # a tournament played over the board is not keima's to refuse.
    if (await _stored(request, tid)).settings.get("online"):
        await request.app.state.standing.check_play(player.id)


async def _answer(request: Request, s: st.Stored, status: int = 200) -> Response:
    player = await players_of(request).current(request.cookies)
    return _json(await _out(request, s, player), status)


# -- the answers -------------------------------------------------------------------------------------------------
async def _out(request: Request, s: st.Stored, caller: Player | None) -> TournamentOut:
    t, settings = s.tournament, s.settings
    people = set(s.directors) | set(s.accounts.values()) | set(s.settings.get("proposals", {}).values())
    names = await _run(st.names_of, _hub(request).store.engine, list(people))
    # Only earned ranks (nothing typed is given): a tournament's own rank is the one it declared.
    earned = await _run(shown_ranks, _hub(request).store.engine, dict.fromkeys(s.accounts.values()))
    rounds = []
    for rn in range(1, t.general.number_of_rounds + 1):
        info = ops.round_info(settings, rn)
        games = [TGameOut(table=g.table, white=g.white, black=g.black, handicap=g.handicap,
                          result=ops.RESULT_NAMES[g.result], by_forfeit=g.by_default,  # type: ignore[arg-type]
                          game=_made(s, rn, g.table)) for g in t.games_of_round(rn)]
        rounds.append(RoundOut(round=rn, started=bool(info.get("started")), start_at=info.get("start_at"),
                               forfeit_at=_forfeit_at(settings, info), bye=t.byes.get(rn),
                               present=sorted(ops.present(settings, rn)), games=games,
                               hand_tables=hand.hand_tables(settings, rn), hand_bye=hand.hand_bye(settings, rn),
                               warnings=[] if info.get("started") else _warnings(t, rn)))
    mine = None if caller is None else next((k for k, v in s.accounts.items() if v == caller.id), None)
    return TournamentOut(
        id=s.id, name=t.general.name, system=t.system.value.lower(), rounds=t.general.number_of_rounds,
        size=int(t.general.size), komi=t.general.komi, version=s.version,
        settings=SettingsOut(**settings_of.out(t, settings)),
        directors=[PersonOut(name=names.get(pid, "?"), role=role)
                   for pid, role in sorted(s.directors.items(), key=lambda x: (x[1] != "director", x[0]))],
        players=[_player_out(p, s, names, earned) for p in t.players],
        round_list=rounds,
        you=YouOut(role=None if caller is None else s.directors.get(caller.id), player=mine,
                   proposed=None if caller is None else next(
                       (k for k, a in settings.get("proposals", {}).items() if a == caller.id), None)),
    )


def _forfeit_at(settings: dict[str, Any], info: dict[str, Any]) -> str | None:
    # An online round's players lose by forfeit when they have not shown up this long after its start.
    if not settings.get("online") or not info.get("start_at"):
        return None
    start = datetime.fromisoformat(info["start_at"])
    return (start + timedelta(minutes=int(settings.get("forfeit_minutes") or 15))).isoformat()


def _warnings(t: Tournament, rn: int) -> list[WarningOut]:
    try:
        found = round_warnings(t, rn)
    except TournamentError:
        return []  # a tournament the engine cannot rank has nothing to warn about its pairing
    return [WarningOut(kind=w.kind, round=w.round, table=w.table, players=list(w.players),  # type: ignore[arg-type]
                       value=w.value) for w in found]


def _made(s: st.Stored, rn: int, table: int) -> str | None:
    gid = s.games.get((rn, table))
    return gid if gid in s.made else None


def _player_out(p: TPlayer, s: st.Stored, names: dict[str, str],
                earned: dict[str, ShownRank] | None = None) -> TPlayerOut:
    account = s.accounts.get(p.key)
    proposed = s.settings.get("proposals", {}).get(p.key)
    shown = (earned or {}).get(account) if account is not None else None
    return TPlayerOut(account_rank=None if shown is None else shown.rank,
                      account_provisional=shown is not None and shown.provisional, key=p.key, name=p.name,
                      first_name=p.first_name, rank=rank_text(p.rank), rating=p.rating, club=p.club,
                      country=p.country, ffg_licence=p.ffg_licence, egf_pin=p.egf_pin,
                      account=None if account is None else names.get(account),
                      proposed_account=None if proposed is None else names.get(proposed),
                      absent=[r for r in range(1, s.tournament.general.number_of_rounds + 1) if not p.plays(r)])


# -- creating ----------------------------------------------------------------------------------------------------
async def _club_of(request: Request, slug: str, player_id: str, *, admin: bool = True) -> str | None:
    """``player_id``'s role in the club at ``slug`` (404 naming ``club`` when there is none); with ``admin``, only
    an admin of the club restricts a tournament to its members (403 ``not-admin``)."""
    found = await _run(role_at, _hub(request).store.engine, slug, player_id)
    if found is None:
        raise Refused("not-found", f"no club {quote(slug)}", field="club")
    if admin and found[1] != "admin":
        raise Refused("not-admin", "only an admin of the club restricts a tournament to its members", field="club")
    role: str | None = found[1]
    return role


def _new_tournament(body: NewTournament) -> Tournament:
    system = System.MCMAHON if body.system == "mcmahon" else System.SWISS
    day = body.begin_date or timesource.now_utc().date().isoformat()
    general = GeneralParameters(
        name=body.name, short_name=(body.name.replace(" ", "")[:20] or "tournament"), begin_date=day, end_date=day)
    t = Tournament(general=general, handicap=settings_of.handicap_for(system, body.size),
                   criteria=DEFAULT_CRITERIA[system], pairing=PairingParameters.for_system(system))
    # The form's values over the defaults, by the rules of a change (``settings.apply``).
    values = body.model_dump(exclude={"clock", "rated", "registration_open", "forfeit_minutes", "club"})
    values["begin_date"], values["end_date"] = day, values["end_date"] or day
    return settings_of.apply(t, values)


async def _create(request: Request, t: Tournament, settings: dict[str, Any], action: str,
                  detail: dict[str, Any]) -> Response:
    same_origin(request)
    player = await _caller(request, registered=True)
    tid = secrets.token_urlsafe(8)
    await _run(st.create, _hub(request).store.engine, tid, t, settings, player.id, player.name, action, detail,
               timesource.now_utc(), CREATED_PER_DAY)
    return await _answer(request, await _stored(request, tid), 201)


@router.post("/api/tournaments", status_code=201, responses={201: {"model": TournamentOut}, **_errors})
async def create_tournament(body: NewTournament, request: Request) -> Response:
    """Create a tournament directed by the caller, a registered player (401 without a session, 403 a guest)."""
    if body.club is not None:
        await _club_of(request, body.club, (await _caller(request, registered=True)).id)
    settings = ops.new_settings(online=body.online, rated=body.rated,
                                registration_open=body.registration_open, forfeit_minutes=body.forfeit_minutes,
                                clock=None if body.clock is None else body.clock.model_dump(), club=body.club)
    return await _create(request, _new_tournament(body), settings, "create", {"name": body.name})


def _read_import(data: bytes) -> Tournament:
    """The tournament of an OpenGotha file; raises ``Refused`` ``invalid-request`` (422) for a file that is not one,
    one of more than ``MAX_PLAYERS`` players, or a name with a control character or a line break."""
    try:
        t = opengotha_xml.read(data)
        t.check()
    except (TournamentError, ValueError) as exc:
        raise Refused("invalid-request", f"not an OpenGotha file: {exc}") from None
    check_players(len(t.players))
    g = t.general
    texts = [("name", g.name), ("short name", g.short_name), ("location", g.location)]
    texts += [(f"player {p.key}", f"{p.name} {p.first_name} {p.club} {p.country} {p.ffg_licence} {p.egf_pin}")
              for p in t.players]
    for what, text in texts:
        if any(is_line_breaking(ch) for ch in text):
            raise Refused("invalid-request", f"the file's {quote(what)} holds a control character or a line break")
    return t


@router.post("/api/tournaments/import", status_code=201, responses={201: {"model": TournamentOut}, **_errors},
             openapi_extra={"requestBody": {"content": {"application/xml": {"schema": {"type": "string"}}},
                                            "required": True}})
async def import_tournament(request: Request) -> Response:
    """Create a tournament from an OpenGotha file (the request's body), directed by the caller; 422 for a file
    that is not one."""
    data = await request.body()
    if len(data) > IMPORT_MAX:
        raise Refused("too-large", f"this file is too large: at most {IMPORT_MAX // (1024 * 1024)} MiB")
    # Read in a thread: a large file takes seconds, which no other request waits for.
    t = await asyncio.to_thread(_read_import, data)
    settings = ops.new_settings(registration_open=False)
    # The rounds the file has results in are under way: they are not paired again.
    for g in t.games:
        if g.result.value != "UNKNOWN":
            settings["rounds"][str(g.round)] = {"started": True, "start_at": None}
    detail = {"name": t.general.name, "players": len(t.players), "games": len(t.games)}
    return await _create(request, t, settings, "import", detail)


@router.get("/api/tournaments", responses={200: {"model": TournamentsOut}})
async def list_tournaments(request: Request, limit: int = Query(50, ge=1, le=200)) -> Response:
    """The tournaments, newest first, with their dates, status and number of players."""
    rows = await _run(st.listing, _hub(request).store.engine, limit)
    lines = []
    for r in rows:
        done = r.pop("done")
        status: Literal["registration", "round", "finished"] = (
            "registration" if not r["round"] else "finished" if done and r["round"] == r["rounds"] else "round")
        lines.append(TournamentLine(**r, status=status))
    return _json(TournamentsOut(tournaments=lines))


@router.get("/api/tournaments/{tid}", responses={200: {"model": TournamentOut}, **_errors})
async def get_tournament(tid: str, request: Request) -> Response:
    """The whole tournament: settings, directors, players, each round's pairings and results."""
    return await _answer(request, await _stored(request, tid))


@router.patch("/api/tournaments/{tid}", responses={200: {"model": TournamentOut}, **_errors})
async def patch_tournament(tid: str, body: TournamentPatch, request: Request) -> Response:
    """Change the settings (``TournamentPatch``): what a paired round forbids is refused with 409 and a sentence
    saying why (``keima.server.tournaments.settings``)."""
    patch = body.model_dump(exclude_unset=True)
    if patch.get("club") is not None:
        await _club_of(request, patch["club"], (await _caller(request)).id)
    if "clock" in patch and body.clock is not None:
        patch["clock"] = body.clock.model_dump()
    return await _answer(request, await _change(request, tid, settings_of.update(patch)))


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
    """Remove a co-director: the director only (403 for a co-director; the director stays: 409)."""
    caller = await _caller(request)
    pid, shown, _ = await _account(request, name, "name")
    return await _answer(request, await _change(request, tid, ops.drop_director(pid, shown, caller.id)))


# -- players -----------------------------------------------------------------------------------------------------
def _typed_player(body: PlayerIn) -> tuple[TPlayer, str]:
    try:
        if body.ffg_line is not None:
            return next(rating_lists.read_ffg([body.ffg_line])).to_player(), "ffg"
        if body.egd_line is not None:
            return next(rating_lists.read_egd([body.egd_line])).to_player(rank_from_grade=True), "egd"
        rank = parse_rank(body.rank, strict=True)
    except StopIteration:
        raise Refused("invalid-request", "this line is not a player of the list") from None
    except TournamentError as exc:
        field = "ffg_line" if body.ffg_line is not None else "egd_line" if body.egd_line is not None else "rank"
        raise Refused("invalid-request", str(exc), field=field) from None
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


@router.post("/api/tournaments/{tid}/players/{key}/confirm", responses={200: {"model": TournamentOut}, **_errors})
async def confirm_account(tid: str, key: str, request: Request) -> Response:
    """The caller's account confirms that it plays for the player ``key``, as a director proposed when registering
    them (404 when no such proposal names the caller's account)."""
    player = await _caller(request, registered=True)
    await _check_play(request, tid, player)
    return await _answer(request, await _change(request, tid, ops.confirm_account(key, player.id), director=False))


@router.post("/api/tournaments/{tid}/signup", status_code=201, responses={201: {"model": TournamentOut}, **_errors})
async def sign_up(tid: str, request: Request, body: SignUpIn | None = None) -> Response:
    """The caller's account registers itself, under its name (or ``name``) and rank, with the first name, club,
    licence and country of ``body``, while registration is open (409 closed or registered already; a guest: 403).
    The rank is the one keima shows for the account: its rating's once it has played a rated game (or declared a
    rank, which starts its rating), else 20k, as a director would guess for a player nobody knows."""
    me = await _caller(request, registered=True)
    club = (await _stored(request, tid)).settings.get("club")
    if club and await _club_of(request, club, me.id, admin=False) not in MEMBER_ROLES:
        raise Refused("not-member", "registration is for the members of the tournament's club: join it first")
    await _check_play(request, tid, me)
    form = body or SignUpIn()
    rated = await _run(ratings_subscriber.rating_of, _hub(request).store.engine, me.id)
    shown = ranks.rank_label(rated[0].rating) if rated is not None else me.rank
    try:
        rank = parse_rank(shown or "20k")
    except TournamentError:
        rank = parse_rank("20k")
    player = TPlayer(name=form.name.strip() or me.name, first_name=form.first_name.strip(), rank=rank,
                     rating=rating_from_rank(rank), club=form.club.strip(), country=form.country.strip().upper(),
                     ffg_licence=form.ffg_licence.strip())
    return await _answer(request, await _change(request, tid, ops.sign_up(player, me.id), director=False), 201)


@router.delete("/api/tournaments/{tid}/players/{key}", responses={200: {"model": TournamentOut}, **_errors})
async def remove_player(tid: str, key: str, request: Request) -> Response:
    """Remove a player never paired; a player paired once is withdrawn from the remaining rounds instead."""
    return await _answer(request, await _change(request, tid, player_ops.remove(key)))


@router.put("/api/tournaments/{tid}/players/{key}/absent", responses={200: {"model": TournamentOut}, **_errors})
async def set_absent(tid: str, key: str, body: AbsentIn, request: Request) -> Response:
    """Mark a player absent from a round (or present again) before that round pairs them."""
    return await _answer(request, await _change(request, tid, ops.set_absent(key, body.round, body.absent)))
