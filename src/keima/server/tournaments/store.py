"""Storage of tournaments: the one module with their SQL (tables in ``keima.server.storage.tables``).

A tournament is stored as the engine's value written in OpenGotha's format (``body``: lossless, the engine reads it
back exactly) beside the server's own settings of it (``settings``, JSON). Every change goes through ``change``
(or ``change_in``): the caller's function computes the new state from the stored one, which is written with
``version`` one more and the log entries of who did what, in one transaction that locks the tournament's row and
stores the change only on the state it was computed from. Two changes of one tournament (two directors, a
director and a game's result arriving from the outbox) therefore take turns, on SQLite and on PostgreSQL,
whichever processes run them.

Blocking functions of a SQLAlchemy engine or connection: call them from a thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from keima.server.errors import Refused, quote
from keima.server.notifications import notify
from keima.server.storage import (
    games,
    players,
    scheduled_jobs,
    tournament_accounts,
    tournament_directors,
    tournament_games,
    tournament_log,
    tournaments,
)
from keima.tournament import opengotha_xml
from keima.tournament.model import Tournament


def _utc(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


@dataclass
class Stored:
    """A tournament as stored: the engine's value, the server's settings, its version and who may change it
    (``directors``: player id -> role, ``"director"`` or ``"co-director"``), the accounts of its players
    (``accounts``: player key -> player id) and its online games (``games``: (round, table) -> game id; ``made``: those
    of them stored already: a table is bound to its game just before the game is made)."""

    id: str
    tournament: Tournament
    settings: dict[str, Any]
    version: int
    created_at: datetime
    directors: dict[str, str] = field(default_factory=dict)
    accounts: dict[str, str] = field(default_factory=dict)
    games: dict[tuple[int, int], str] = field(default_factory=dict)
    made: set[str] = field(default_factory=set)


@dataclass
class Outcome:
    """What a change returns to ``change``: the new value and settings, the log entries ``(action, detail)``,
    account bindings to add (key -> player id) and to drop (keys), directors to add (id -> role) and drop (ids),
    the online games made (``(round, table, game id)``) and the scheduler's jobs to set (``(kind, job id, due)``:
    job ids name a tournament's round, ``"{tournament id}/{round}"``) and the results of online games a director
    fixed (``fixed``: game id -> ``"B+"``, ``"W+"``, ``"0"`` or ``"Void"``, what the ratings count)."""

    tournament: Tournament
    settings: dict[str, Any]
    log: list[tuple[str, dict[str, Any]]]
    bind: dict[str, str] = field(default_factory=dict)
    unbind: list[str] = field(default_factory=list)
    add_directors: dict[str, str] = field(default_factory=dict)
    drop_directors: list[str] = field(default_factory=list)
    games: list[tuple[int, int, str]] = field(default_factory=list)
    jobs: list[tuple[str, str, datetime]] = field(default_factory=list)
    fixed: dict[str, str] = field(default_factory=dict)


Change = Callable[[Stored], Outcome]


def create(engine: Engine, tid: str, t: Tournament, settings: dict[str, Any], director: str, by_name: str,
           action: str, detail: dict[str, Any], now: datetime, per_day: int | None = None) -> None:
    """Store a new tournament ``tid`` directed by player ``director``, with its first log entry. ``per_day``: how
    many tournaments ``director`` may have created in the last 24 hours (``Refused`` ``too-many-requests``
    beyond)."""
    with engine.begin() as conn:
        if per_day is not None:
            d = tournament_directors.c
            made = conn.execute(sa.select(sa.func.count()).select_from(
                tournament_directors.join(tournaments, tournaments.c.id == d.tournament_id)).where(
                d.player_id == director, d.role == "director",
                tournaments.c.created_at > now - timedelta(days=1))).scalar() or 0
            if made >= per_day:
                raise Refused("too-many-requests", f"you created {made} tournaments in the last 24 hours: "
                              "that is the most for a day")
        conn.execute(tournaments.insert().values(id=tid, name=t.general.name[:200], created_at=now, updated_at=now,
                                                 version=1, body=opengotha_xml.write(t),
                                                 settings=with_summary(t, settings)))
        conn.execute(tournament_directors.insert().values(tournament_id=tid, player_id=director, role="director"))
        conn.execute(tournament_log.insert().values(tournament_id=tid, at=now, player_id=director, by_name=by_name,
                                                    action=action, detail=detail))


def _read(conn: Connection, tid: str) -> Stored | None:
    row = conn.execute(sa.select(tournaments).where(tournaments.c.id == tid)).first()
    if row is None:
        return None
    s = Stored(row.id, opengotha_xml.read(row.body), dict(row.settings), row.version, _utc(row.created_at))
    d = tournament_directors.c
    s.directors = {r.player_id: r.role for r in conn.execute(sa.select(d.player_id, d.role)
                                                             .where(d.tournament_id == tid))}
    a = tournament_accounts.c
    s.accounts = {r.player_key: r.player_id for r in conn.execute(sa.select(a.player_key, a.player_id)
                                                                  .where(a.tournament_id == tid))}
    g = tournament_games.c
    rows = conn.execute(sa.select(g.game_id, g.round, g.table_number, games.c.id.label("made"))
                        .select_from(tournament_games.outerjoin(games, games.c.id == g.game_id))
                        .where(g.tournament_id == tid)).all()
    s.games = {(r.round, r.table_number): r.game_id for r in rows}
    s.made = {r.game_id for r in rows if r.made is not None}
    return s


def read(engine: Engine, tid: str) -> Stored | None:
    """The tournament ``tid`` as stored (None: no such tournament)."""
    with engine.connect() as conn:
        return _read(conn, tid)


def _lock(conn: Connection, tid: str) -> int | None:
    # A write first: it locks the row (PostgreSQL) or the database (SQLite) until the commit, so changes take turns
    # and none reads a state another is replacing. Returns the version (None: no such tournament).
    locked = conn.execute(tournaments.update().where(tournaments.c.id == tid)
                          .values(version=tournaments.c.version)).rowcount
    if not locked:
        return None
    version: int = conn.execute(sa.select(tournaments.c.version).where(tournaments.c.id == tid)).scalar_one()
    return version


def change_in(conn: Connection, tid: str, do: Change, player_id: str | None, by_name: str,
              now: datetime) -> tuple[Stored, Outcome]:
    """``change`` inside the caller's transaction ``conn``, the row locked from the start (the outbox's delivery
    uses it so that a game's result and the subscriber's progress commit together). Raises what ``do`` raises,
    and ``Refused`` ``not-found``."""
    s = _read(conn, tid) if _lock(conn, tid) is not None else None
    if s is None:
        raise Refused("not-found", f"no tournament {quote(tid)}")
    out = do(s)
    out.tournament.check()
    _write(conn, tid, s, out, opengotha_xml.write(out.tournament), player_id, by_name, now)
    return s, out


def _write(conn: Connection, tid: str, s: Stored, out: Outcome, body: str, player_id: str | None, by_name: str,
           now: datetime) -> None:
    conn.execute(tournaments.update().where(tournaments.c.id == tid).values(
        name=out.tournament.general.name[:200], updated_at=now, version=s.version + 1, body=body,
        settings=with_summary(out.tournament, out.settings)))
    for key in out.unbind:
        conn.execute(tournament_accounts.delete().where(tournament_accounts.c.tournament_id == tid,
                                                        tournament_accounts.c.player_key == key))
    for key, pid in out.bind.items():
        conn.execute(tournament_accounts.insert().values(tournament_id=tid, player_key=key, player_id=pid))
    for pid in out.drop_directors:
        conn.execute(tournament_directors.delete().where(tournament_directors.c.tournament_id == tid,
                                                         tournament_directors.c.player_id == pid))
    for pid, role in out.add_directors.items():
        conn.execute(tournament_directors.insert().values(tournament_id=tid, player_id=pid, role=role))
    for rn, table, gid in out.games:
        conn.execute(tournament_games.insert().values(game_id=gid, tournament_id=tid, round=rn, table_number=table))
    for gid, fixed in out.fixed.items():
        conn.execute(tournament_games.update().where(tournament_games.c.game_id == gid).values(fixed_result=fixed))
    for kind, job_id, due in out.jobs:
        _set_job(conn, kind, job_id, due)
    for action, detail in out.log:
        conn.execute(tournament_log.insert().values(tournament_id=tid, at=now, player_id=player_id,
                                                    by_name=by_name, action=action, detail=detail))
        if action in _TOLD:
            _tell_round(conn, tid, s, out, _TOLD[action], int(detail["round"]), detail.get("start_at"))


#: The log's actions that notify the round's players (``keima.server.notifications.notify.round_notices``).
_TOLD: dict[str, notify.RoundAction] = {"pair": "paired", "start": "started"}


def _tell_round(conn: Connection, tid: str, s: Stored, out: Outcome, action: notify.RoundAction, rn: int,
                start_at: str | None) -> None:
    # The accounts as this change leaves them, of the players the round pairs (its bye included).
    accounts = {k: v for k, v in s.accounts.items() if k not in out.unbind} | out.bind
    t = out.tournament
    keys = [k for g in t.games_of_round(rn) for k in (g.black, g.white)] + ([t.byes[rn]] if rn in t.byes else [])
    ids = [accounts[k] for k in keys if k in accounts]
    if ids:
        notify.round_notices(conn, tid, t.general.name, rn, action, ids, start_at)


def _set_job(conn: Connection, kind: str, job_id: str, due: datetime) -> None:
    key = f"{kind}:{job_id}"
    moved = conn.execute(scheduled_jobs.update().where(scheduled_jobs.c.key == key)
                         .values(due_at=due, claimed_until=None))
    if not moved.rowcount:
        conn.execute(scheduled_jobs.insert().values(key=key, kind=kind, game_id=job_id, due_at=due,
                                                    claimed_until=None))


#: How many times ``change`` computes a change on a fresh read before it holds the lock while computing.
OPTIMISTIC_TRIES = 4


def change(engine: Engine, tid: str, do: Change, player_id: str | None, by_name: str,
           now: datetime) -> tuple[Stored, Outcome]:
    """Apply ``do`` to the stored tournament ``tid`` and store its outcome in one transaction (see the module
    docstring); returns the tournament as it was and the outcome. Raises ``Refused`` ``not-found`` for no such
    tournament, and whatever ``do`` raises (then nothing is stored).

    The change (a pairing may take a while) is computed before the lock, on the tournament as read, and stored
    only if nobody changed it meanwhile (its version); else it is computed again, and after ``OPTIMISTIC_TRIES``
    under the lock. So the lock, which on SQLite holds every writer off, lasts only the writing."""
    for _ in range(OPTIMISTIC_TRIES):
        s = read(engine, tid)
        if s is None:
            raise Refused("not-found", f"no tournament {quote(tid)}")
        out = do(s)
        out.tournament.check()
        body = opengotha_xml.write(out.tournament)
        with engine.begin() as conn:
            version = _lock(conn, tid)
            if version is None:
                raise Refused("not-found", f"no tournament {quote(tid)}")
            if version == s.version:
                _write(conn, tid, s, out, body, player_id, by_name, now)
                return s, out
    with engine.begin() as conn:
        return change_in(conn, tid, do, player_id, by_name, now)


def version_of(engine: Engine, tid: str) -> int | None:
    """The version of tournament ``tid`` (None: no such tournament)."""
    with engine.connect() as conn:
        v: int | None = conn.execute(sa.select(tournaments.c.version).where(tournaments.c.id == tid)).scalar()
    return v


def with_summary(t: Tournament, settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` with ``summary``, what the list of tournaments shows without reading each tournament: dates,
    place, number of players and rounds, the last round paired and whether it has every result."""
    paired = max([g.round for g in t.games] + list(t.byes), default=0)
    g = t.general
    summary = {"begin_date": g.begin_date, "end_date": g.end_date, "location": g.location,
               "players": len(t.players), "rounds": g.number_of_rounds, "round": paired,
               "done": paired > 0 and all(x.result.value != "UNKNOWN" for x in t.games_of_round(paired))}
    return {**settings, "summary": summary}


def listing(engine: Engine, limit: int) -> list[dict[str, Any]]:
    """The newest tournaments first, at most ``limit``: ``{"id", "name", "created_at", "updated_at"}`` and the
    summary's keys (``with_summary``; a tournament stored before summaries were is read once to make its own)."""
    t = tournaments.c
    with engine.connect() as conn:
        rows = conn.execute(sa.select(t.id, t.name, t.created_at, t.updated_at, t.settings)
                            .order_by(t.created_at.desc()).limit(limit)).all()
        out = []
        for r in rows:
            summary = dict(r.settings).get("summary")
            if summary is None:
                body = conn.execute(sa.select(t.body).where(t.id == r.id)).scalar_one()
                summary = with_summary(opengotha_xml.read(body), {})["summary"]
            out.append({"id": r.id, "name": r.name, "created_at": _utc(r.created_at),
                        "updated_at": _utc(r.updated_at), **summary})
    return out


def log_of(engine: Engine, tid: str) -> list[dict[str, Any]]:
    """The log of tournament ``tid``, oldest first: ``{"seq", "at", "by", "action", "detail"}``."""
    lg = tournament_log.c
    with engine.connect() as conn:
        rows = conn.execute(sa.select(lg.seq, lg.at, lg.by_name, lg.action, lg.detail)
                            .where(lg.tournament_id == tid).order_by(lg.seq)).all()
    return [{"seq": r.seq, "at": _utc(r.at), "by": r.by_name, "action": r.action, "detail": r.detail} for r in rows]


def player_by_name(engine: Engine, name_key: str) -> tuple[str, str, str | None, bool] | None:
    """The registered or guest account whose folded name is ``name_key``: ``(id, name, rank, guest)``."""
    p = players.c
    with engine.connect() as conn:
        row = conn.execute(sa.select(p.id, p.name, p.rank, p.password_hash)
                           .where(p.name_key == name_key, p.deleted_at.is_(None))).first()
    return None if row is None else (row.id, row.name, row.rank, row.password_hash is None)


def names_of(engine: Engine, ids: list[str]) -> dict[str, str]:
    """The names of the accounts ``ids`` (a deleted account's is its anonymous name)."""
    if not ids:
        return {}
    with engine.connect() as conn:
        rows = conn.execute(sa.select(players.c.id, players.c.name).where(players.c.id.in_(ids))).all()
    return {r.id: r.name for r in rows}


def people_of(engine: Engine, ids: list[str]) -> dict[str, dict[str, Any]]:
    """The seat entries (``{"id", "name", "rank"}``, as games record their players) of the accounts ``ids``."""
    if not ids:
        return {}
    p = players.c
    with engine.connect() as conn:
        rows = conn.execute(sa.select(p.id, p.name, p.rank).where(p.id.in_(ids))).all()
    return {r.id: {"id": r.id, "name": r.name, "rank": r.rank} for r in rows}


def tournament_of_game(conn: Connection, game_id: str) -> tuple[str, int, int] | None:
    """The tournament, round and table of online game ``game_id`` (None: not a tournament game)."""
    g = tournament_games.c
    row = conn.execute(sa.select(g.tournament_id, g.round, g.table_number).where(g.game_id == game_id)).first()
    return None if row is None else (row.tournament_id, row.round, row.table_number)


