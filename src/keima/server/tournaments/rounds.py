"""Online rounds: each pairing played as a keima game, its result carried to the standings, absent players
forfeited.

- At the round's start time the scheduler runs ``ROUND_JOB``: every table whose two players have keima accounts
  becomes a game between those accounts (both seats bound to them, so the clock of the player to move starts at
  once; rated when the tournament is), made through the game service. Its id is derived from the tournament,
  round and table (``game_id_of``), so that a job run again after a crash finds the games it made.
- ``keima.server.tournaments.results`` (a durable outbox subscriber of "finished" events) writes a tournament
  game's result into its table in the delivery's transaction: exactly once, whichever process delivers. A result
  a director entered first is kept.
- At the round's start time plus the tournament's ``forfeit_minutes`` the scheduler runs ``FORFEIT_JOB``: in each
  of the round's games still on, a player to move who has not made a single move has not shown up and loses by
  forfeit (so Black, absent from the start; or White, absent after Black's first move). The game ends through
  the game service, and its result reaches the table as any other, marked "by forfeit". When the opponent has
  neither moved nor checked in (``POST .../rounds/{n}/checkin``) either, both lose by forfeit.

Tables whose players have no account are played at the table: their results are entered by hand.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import logging
from datetime import datetime, timedelta
from typing import Any

from keima.rules.board import BLACK, WHITE
from keima.server import timesource
from keima.server.accounts import Players
from keima.server.errors import Refused
from keima.server.games import GameSession, Handler, Hub, build, token_hash
from keima.server.tournaments import changes as ops
from keima.server.tournaments import store as st
from keima.server.tournaments.results import SERVER
from keima.tournament.model import TimeSystem, Tournament

log = logging.getLogger("keima.server")


def game_id_of(tid: str, rn: int, table: int) -> str:
    """The keima game id of round ``rn``'s ``table`` of tournament ``tid`` (11 URL-safe characters)."""
    digest = hashlib.sha256(f"tournament {tid} {rn} {table}".encode()).digest()
    return base64.urlsafe_b64encode(digest)[:11].decode()


def _job(job_id: str) -> tuple[str, int]:
    tid, _, rn = job_id.rpartition("/")
    return tid, int(rn)


def default_clock(t: Tournament) -> dict[str, Any]:
    """The online games' clock when the director set none: the tournament's main time and byo-yomi (5 periods)."""
    g = t.general
    main = max(60, g.basic_time * 60)
    if g.time_system is TimeSystem.FISCHER:
        return {"type": "fischer", "main": main, "increment": max(1, g.fischer_time), "max": None}
    if g.time_system is TimeSystem.CANADIAN:
        return {"type": "canadian", "main": main, "period": max(1, g.canadian_time), "stones": max(1, g.canadian_moves)}
    if g.time_system is TimeSystem.SUDDEN_DEATH:
        return {"type": "absolute", "main": main}
    return {"type": "byoyomi", "main": main, "period": max(1, g.byo_yomi_time), "periods": 5}


def _new_session(s: st.Stored, rn: int, table: int, white: dict[str, Any], black: dict[str, Any],
                 players: Players) -> GameSession:
    t = s.tournament
    g = next(x for x in t.games_of_round(rn) if x.table == table)
    gid = game_id_of(s.id, rn, table)
    handicap = g.handicap if g.handicap >= 2 else 0
    body = {"size": int(t.general.size), "rules": t.general.rules,
            # A handicap game (one stone included) gives half a point of komi, as OpenGotha's files say.
            "komi": 0.5 if g.handicap else float(t.general.komi), "handicap": handicap,
            "placement": "fixed" if handicap else None, "clock": s.settings.get("clock") or default_clock(t),
            "opponent": "invite", "color": "B", "rated": bool(s.settings.get("rated"))}
    session, _, _ = build(body, {}, game_id=gid, token=players.seat_token(black["id"], gid), person=black)
    # The game names its tournament, round and table (its page links back; its SGF says EV and RO).
    session.params["event"] = {"id": s.id, "name": t.general.name, "round": rn, "table": table}
    # Both seats are the players' from the start: nobody is invited, and the clock of the player to move runs.
    session.seats.white = token_hash(players.seat_token(white["id"], gid))
    session.people[WHITE] = dict(white)
    session.invite_hash = None
    session.invite_color = None
    session.sync_clock(timesource.now())
    return session


def round_handler(hub: Hub, players: Players) -> Handler:
    """The scheduler's ``ROUND_JOB``: make the round's games (those not made yet) and set its forfeit judgement."""

    async def run(job_id: str) -> datetime | None:
        tid, rn = _job(job_id)
        engine = hub.store.engine
        s = await _run(st.read, engine, tid)
        if s is None or not s.settings.get("online") or not ops.started(s.settings, rn):
            return None
        accounts = s.accounts
        tables = [(g.table, accounts[g.white], accounts[g.black]) for g in s.tournament.games_of_round(rn)
                  if g.white in accounts and g.black in accounts]
        people = await _run(st.people_of, engine, [p for _, w, b in tables for p in (w, b)])
        made = [(table, game_id_of(tid, rn, table)) for table, _, _ in tables]
        start = datetime.fromisoformat(ops.round_info(s.settings, rn).get("start_at") or timesource.now_utc().isoformat())
        forfeit_at = start + timedelta(minutes=int(s.settings.get("forfeit_minutes") or 15))
        # The tables first: a game is never finished before its table knows it.
        await _run(st.change, engine, tid, ops.online_games(rn, made, forfeit_at), None, SERVER, timesource.now_utc())
        for table, w, b in tables:
            gid = game_id_of(tid, rn, table)
            try:
                await hub.cache.get(gid)
                continue  # made by an earlier run of this job
            except Refused as exc:
                if exc.code != "no-such-game":
                    raise
            white, black = await hub.seat_person(people[w]), await hub.seat_person(people[b])
            assert white is not None and black is not None
            session = _new_session(s, rn, table, white, black, players)
            await hub.service.create(session)
            await players.seat(gid, [BLACK], b)
            await players.seat(gid, [WHITE], w)
        return None

    return run


def forfeit_handler(hub: Hub) -> Handler:
    """The scheduler's ``FORFEIT_JOB``: the player to move who has not moved once loses by forfeit; when their
    opponent has neither moved nor checked in either, both lose by forfeit."""

    async def run(job_id: str) -> datetime | None:
        tid, rn = _job(job_id)
        engine = hub.store.engine
        s = await _run(st.read, engine, tid)
        if s is None:
            return None
        here = ops.present(s.settings, rn)
        for (r, table), gid in sorted(s.games.items()):
            if r != rn:
                continue
            with contextlib.suppress(Refused):  # a game gone or finished meanwhile
                await _judge(hub, s, rn, table, gid, here)
        return None

    return run


def _absent(session: GameSession) -> int | None:
    """The colour to move that has not moved once in a game still on, else None."""
    g = session.game
    if g.phase == "finished" or any(m.color == g.to_move for m in g.moves):
        return None
    return int(g.to_move)


async def _judge(hub: Hub, s: st.Stored, rn: int, table: int, gid: str, here: set[str]) -> None:
    engine = hub.store.engine
    session = await hub.cache.get(gid, fresh=True)
    late = _absent(session)
    if late is None:
        return
    g = next(x for x in s.tournament.games_of_round(rn) if x.table == table)
    other, other_key = (WHITE, g.white) if late == BLACK else (BLACK, g.black)
    came = other_key in here or any(m.color == other for m in session.game.moves)
    if not came:
        # The table's verdict first, so that the game's own end (a forfeit of the player to move) does not
        # replace it when its result arrives.
        await _run(st.change, engine, s.id, ops.both_absent(rn, table, True), None, SERVER, timesource.now_utc())

    def judge(session: GameSession) -> dict[str, Any] | None:
        c = _absent(session)
        if c is None:
            return None
        return session.forfeit(c, "absent at the round's forfeit limit", timesource.now())

    after = await hub.service.change(gid, judge, fresh=True)
    if not came and after.game.phase != "finished":
        # A move arrived meanwhile: the game goes on, and so does the table.
        await _run(st.change, engine, s.id, ops.both_absent(rn, table, False), None, SERVER, timesource.now_utc())


async def _run(fn: Any, *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


def install(hub: Hub, players: Players) -> None:
    """Give the hub's scheduler the online rounds' jobs."""
    hub.scheduler.handlers[ops.ROUND_JOB] = round_handler(hub, players)
    hub.scheduler.handlers[ops.FORFEIT_JOB] = forfeit_handler(hub)
