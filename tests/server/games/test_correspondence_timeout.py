"""A correspondence clock that runs out days later ends the game exactly once: with the server stopped meanwhile,
with two servers on the database, and across a weekend that pauses it. Time is moved, never waited for."""

from __future__ import annotations

from contextlib import ExitStack
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient

from keima.server import create_app
from keima.server.storage.store import make_engine
from keima.server.storage.tables import game_log, scheduled_jobs

from ..helpers import act, new_game, state, wait_for
from ..moved_time import moved_time

H = 3600.0
D = 86400.0


def utc(*args: int) -> float:
    return datetime(*args, tzinfo=UTC).timestamp()  # type: ignore[misc]


def timeouts_and_jobs(url: str, gid: str) -> tuple[int, int]:
    engine = make_engine(url)
    with engine.connect() as conn:
        entries = [r.entry for r in conn.execute(sa.select(game_log.c.entry).where(game_log.c.game_id == gid))]
        jobs = conn.execute(sa.select(sa.func.count()).select_from(scheduled_jobs)).scalar()
    engine.dispose()
    n = sum(1 for entry in entries for e in entry.get("events", ()) if e["kind"] == "timeout")
    return n, int(jobs or 0)


def test_a_timeout_due_while_no_server_ran_comes_once_from_two_servers(sqlite_url: str) -> None:
    with moved_time(utc(2026, 12, 2, 12, 0)) as clock:  # a Wednesday
        with TestClient(create_app(sqlite_url)) as c:
            g = new_game(c, size=9, opponent="local", clock={"type": "simple", "per_move": D, "weekend_pause": False})
            gid, tok = g["game"]["id"], g["seat"]["token"]
            act(c, gid, tok, {"type": "play", "move": "E5"})
            assert state(c, gid)["clock"]["running"] == "W"
        clock.move(2 * D)  # White's day ran out on Thursday, while no server ran
        with ExitStack() as stack:
            servers = [stack.enter_context(TestClient(create_app(sqlite_url))) for _ in range(2)]

            def finished() -> bool:
                return bool(timeouts_and_jobs(sqlite_url, gid)[0])

            wait_for(finished, timeout=20)  # nobody opens the game: a scheduler finds it
            s: dict[str, Any] = state(servers[1], gid)
            assert s["result"] == "B+T" and s["end_reason"] == "timeout"
            assert state(servers[0], gid)["result"] == "B+T"
            wait_for(lambda: timeouts_and_jobs(sqlite_url, gid) == (1, 0), timeout=5)
    assert timeouts_and_jobs(sqlite_url, gid) == (1, 0)


def test_a_weekend_moves_the_timeout_to_monday(sqlite_url: str) -> None:
    with moved_time(utc(2026, 12, 4, 18, 0)) as clock:  # a Friday, 18:00 UTC
        with TestClient(create_app(sqlite_url)) as c:
            g = new_game(c, size=9, opponent="local", clock={"type": "simple", "per_move": D})  # weekends pause
            gid, tok = g["game"]["id"], g["seat"]["token"]
            act(c, gid, tok, {"type": "play", "move": "E5"})
            clock.move(D + 6 * H)  # Sunday 00:00: White has its 18 hours of Monday left
            s = state(c, gid)["clock"]
            assert s["paused"]["W"] == "weekend" and abs(s["W"]["main"] - 18 * H) < 5
            assert s["resumes_at"] == utc(2026, 12, 7, 0, 0) and s["pauses_at"] is None  # Monday 00:00
            clock.move(D + 17 * H)  # Monday 17:00: an hour left
            c.get(f"/api/games/{gid}")
            left = state(c, gid)["clock"]
            assert left["paused"]["W"] is None and abs(left["W"]["main"] - H) < 5
            assert left["resumes_at"] is None and left["pauses_at"] == utc(2026, 12, 12, 0, 0)  # next Saturday
        clock.move(2 * H)  # Monday 19:00, the server restarted: it ran out at 18:00
        with TestClient(create_app(sqlite_url)) as c:
            wait_for(lambda: timeouts_and_jobs(sqlite_url, gid) == (1, 0), timeout=20)
            assert state(c, gid)["result"] == "B+T"
