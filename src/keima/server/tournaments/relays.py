"""Relays of tables played at the table (issue 45 item 4, docs/teaching.md): a director gives a table of a round to a
recorder, who enters its moves on a demo board (``keima.server.boards``) tied to the table; the tournament's page
lists its relays; the recorder's result goes to the table (a director can still fix it, as any result).

A tournament keeps its relays in its settings (``relays``: ``"round:table"`` -> the board and the recorder), so that
they change, and are logged, like everything else of the tournament.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from keima.server.boards import Boards, BoardTree, tree_from_sgf
from keima.server.errors import Refused
from keima.server.games import Hub, game_sgf
from keima.server.tournaments import changes as ops
from keima.server.tournaments import store as st
from keima.server.tournaments.routes import _account, _caller, _change, _errors, _run, _stored
from keima.server.tournaments.schemas import ResultIn
from keima.server.tournaments.store import Change, Outcome, Stored
from keima.tournament.model import Game, Result, Tournament, TournamentError, rank_text

router = APIRouter()


class RelayIn(BaseModel):
    """``PUT .../relay``: the recorder, a registered player's name."""

    model_config = ConfigDict(extra="forbid")
    recorder: str = Field(min_length=1, max_length=40)


def _key(rn: int, table: int) -> str:
    return f"{rn}:{table}"


def _table(s: Stored, rn: int, table: int) -> Game:
    """Round ``rn``'s table ``table``, played at the table (409 for one played on keima)."""
    t = s.tournament
    ops._check_round(t, rn)
    g = ops._game_at(t, rn, table)
    if (rn, table) in s.games or s.settings.get("online"):
        raise Refused("wrong-phase", "this table is played on keima: watch its game instead of relaying it")
    return g


def set_relay(rn: int, table: int, entry: dict[str, Any]) -> Change:
    """Tie round ``rn``'s ``table`` to a relay (``entry``: ``board``, ``recorder``, ``name``), replacing any."""

    def do(s: Stored) -> Outcome:
        _table(s, rn, table)
        relays = {**s.settings.get("relays", {}), _key(rn, table): entry}
        detail = {"round": rn, "table": table, "recorder": entry["name"], "board": entry["board"]}
        return Outcome(s.tournament, {**s.settings, "relays": relays}, [("relay", detail)])

    return do


def _person(t: Tournament, key: str) -> tuple[str, str]:
    """A player's name as a record writes it, and their rank."""
    try:
        p = t.player(key)
    except TournamentError:
        return key, ""
    return f"{p.first_name} {p.name}".strip(), rank_text(p.rank)


@router.put("/api/tournaments/{tid}/rounds/{rn}/tables/{table}/relay", responses=_errors)
async def relay(tid: str, rn: int, table: int, body: RelayIn, request: Request) -> JSONResponse:
    """A director gives the table to a recorder: a public demo board owned by the recorder, its record's details
    those of the table (EV, RO, PB, PW, BR, WR). 403 ``not-director``, 404 for a round, table or player that is
    not there, 409 for a table played on keima."""
    me = await _caller(request)
    s = await _stored(request, tid)
    if me.id not in s.directors:
        raise Refused("not-director", "only the director and co-directors relay a table")
    g = _table(s, rn, table)
    rid, rname, _ = await _account(request, body.recorder, "recorder")
    t = s.tournament
    (pb, br), (pw, wr) = _person(t, g.black), _person(t, g.white)
    info = {"EV": t.general.name, "RO": str(rn), "PB": pb, "PW": pw, "BR": br, "WR": wr}
    tree = BoardTree(int(t.general.size), t.general.rules, float(t.general.komi))
    boards: Boards = request.app.state.boards
    board = await boards.create({"id": rid, "name": rname}, f"{t.general.name} · {rn}/{table}: {pb} - {pw}"[:80],
                                "public", tree, info, relay={"tournament": tid, "round": rn, "table": table})
    entry = {"board": board.id, "recorder": rid, "name": rname}
    await _change(request, tid, set_relay(rn, table, entry))
    return JSONResponse({"round": rn, "table": table, **entry})


@router.put("/api/tournaments/{tid}/rounds/{rn}/tables/{table}/relay/result", responses=_errors)
async def relay_result(tid: str, rn: int, table: int, body: ResultIn, request: Request) -> JSONResponse:
    """The recorder ends the relayed game: its result goes to the table (once: a director fixes it after, with
    the table's result endpoint) and to the board's record (RE). 403 for anyone but the recorder or a director."""
    me = await _caller(request)
    s = await _stored(request, tid)
    entry = s.settings.get("relays", {}).get(_key(rn, table))
    if entry is None:
        raise Refused("not-found", f"round {rn}'s table {table} is not relayed")
    director = me.id in s.directors
    if me.id != entry["recorder"] and not director:
        raise Refused("not-director", "only the table's recorder and the directors end a relayed game")
    result_set = ops.set_result(rn, table, body.result, body.by_forfeit, None, True)

    def do(st: Stored) -> Outcome:
        g = ops._game_at(st.tournament, rn, table)
        if not director and g.result is not Result.UNKNOWN:
            raise Refused("wrong-phase", "this result is entered already: ask a director to fix it")
        return result_set(st)

    await _change(request, tid, do, director=False)
    sgf = {"black": "B+", "white": "W+", "draw": "0", "unknown": "?"}.get(body.result, "Void")
    await request.app.state.boards.note_result(entry["board"], sgf)
    return JSONResponse({"round": rn, "table": table, "result": body.result, "board": entry["board"]})


@router.get("/api/tournaments/{tid}/relays", responses=_errors)
async def relays(tid: str, request: Request) -> JSONResponse:
    """The tournament's relayed tables, the latest round first, then by table (the top boards first): round,
    table, board, recorder, the players and the table's result."""
    s = await _stored(request, tid)
    boards: Boards = request.app.state.boards
    out = []
    for key, entry in s.settings.get("relays", {}).items():
        rn, table = (int(x) for x in key.split(":"))
        try:
            g = ops._game_at(s.tournament, rn, table)
        except Refused:
            continue  # the round was paired again since: the table is gone
        out.append({"round": rn, "table": table, "board": entry["board"], "recorder": entry["name"],
                    "black": _person(s.tournament, g.black)[0], "white": _person(s.tournament, g.white)[0],
                    "result": ops.RESULT_NAMES[g.result], "watchers": len(boards.watchers.get(entry["board"], ()))})
    out.sort(key=lambda r: (-r["round"], r["table"]))
    return JSONResponse({"relays": out})


@router.post("/api/tournaments/{tid}/rounds/{rn}/tables/{table}/review", status_code=201, responses=_errors)
async def review(tid: str, rn: int, table: int, request: Request) -> JSONResponse:
    """Review a table's game together: a demo board of its record (its keima game once over, else its relay), owned
    by the caller, the tournament's directors and the table's two players in control. The caller is a director or
    one of the two (403 ``not-director`` else); 409 ``game-in-progress`` for a keima game not over, 404 for a
    table with no record (neither played on keima nor relayed)."""
    me = await _caller(request)
    s = await _stored(request, tid)
    t = s.tournament
    ops._check_round(t, rn)
    g = ops._game_at(t, rn, table)
    players = [a for a in (s.accounts.get(g.black), s.accounts.get(g.white)) if a]
    if me.id not in s.directors and me.id not in players:
        raise Refused("not-director", "the directors and the table's two players review its game together")
    boards: Boards = request.app.state.boards
    gid = s.games.get((rn, table))
    relay = s.settings.get("relays", {}).get(_key(rn, table))
    if gid is not None:
        hub: Hub = request.app.state.hub
        session = await hub.cache.get(gid)
        async with session.lock:
            if session.game.phase != "finished":
                raise Refused("game-in-progress", "a game is reviewed together once it is over")
            text = game_sgf(session)
    elif relay is not None:
        text = (await boards.get(relay["board"])).sgf()
    else:
        raise Refused("not-found", f"round {rn}'s table {table} has no record: it is neither on keima nor relayed")
    tree, info = await _run(tree_from_sgf, text)
    (pb, br), (pw, wr) = _person(t, g.black), _person(t, g.white)
    info.update({"EV": t.general.name, "RO": str(rn), "PB": pb, "PW": pw, "BR": br, "WR": wr})
    invited_ids = [i for i in [*s.directors, *players] if i != me.id]
    names = await _run(st.names_of, request.app.state.hub.store.engine, invited_ids)
    invited = [{"id": i, "name": names.get(i, "?")} for i in dict.fromkeys(invited_ids)]
    board = await boards.create({"id": me.id, "name": me.name}, f"{t.general.name} · {rn}/{table}: {pb} - {pw}"[:80],
                                "link", tree, info, invited, at_end=True)
    return JSONResponse({"board": board.id}, status_code=201)
