"""Game events that must have their effect exactly once: the outbox, written with the change, delivered at least
once, applied once (the players' records of won and lost games are the subscriber here); and the durable
scheduler, which ends a game whose clock ran out whatever the server did meanwhile.

Real ``keima serve`` processes, killed with SIGKILL between a change and what follows it.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import sqlalchemy as sa

from keima.server.ratings import records
from keima.server.storage.store import make_engine, migrate, now_utc
from keima.server.storage.tables import game_log, game_outbox, games, player_records

from ..helpers import deliver_racing, wait_for
from ..live import TIMEOUT, serve


def finish_a_game(base: str) -> tuple[str, str, str]:
    """Two guests play an open challenge that White resigns at once; returns (game id, Black's player id, White's)."""
    origin = {"Origin": base}  # a page of the server's own: the players are made as a browser's would be
    with httpx.Client(base_url=base, timeout=TIMEOUT) as a, httpx.Client(base_url=base, timeout=TIMEOUT) as b:
        g = a.post("/api/games", json={"size": 9, "opponent": "open", "color": "B"}, headers=origin).json()
        gid = g["game"]["id"]
        assert b.post(f"/api/games/{gid}/join", json={}, headers=origin).status_code == 200
        assert a.post(f"/api/games/{gid}/actions", json={"type": "play", "move": "E5"}, headers=origin).status_code == 200
        r = b.post(f"/api/games/{gid}/actions", json={"type": "resign"}, headers=origin)
        assert r.status_code == 200 and r.json()["game"]["result"] == "B+R", r.text
        black, white = a.get("/api/me").json()["id"], b.get("/api/me").json()["id"]
    return gid, black, white


def record_rows(url: str) -> dict[str, tuple[int, int]]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return {r.player_id: (r.won, r.lost) for r in conn.execute(sa.select(player_records))}
    finally:
        engine.dispose()


def test_a_finished_game_counts_once_when_the_server_dies_before_delivering_it(db_url: str) -> None:
    with serve(db_url, env={"KEIMA_OUTBOX_PAUSE": "60"}) as (proc, base):
        gid, black, white = finish_a_game(base)
        proc.kill()  # SIGKILL: the change is stored, its delivery had not run
        proc.wait()
    assert record_rows(db_url) == {}
    engine = make_engine(db_url)
    with engine.connect() as conn:
        kinds = [r.kind for r in conn.execute(sa.select(game_outbox.c.kind).where(game_outbox.c.game_id == gid))]
    engine.dispose()
    assert kinds == ["joined", "finished"]  # the seat taken (for the notifications), the end
    with serve(db_url) as (_proc, base):
        wait_for(lambda: record_rows(db_url) == {black: (1, 0), white: (0, 1)}, timeout=30)
        time.sleep(1.5)  # more rounds of delivery: nothing more
        assert record_rows(db_url) == {black: (1, 0), white: (0, 1)}
    with serve(db_url) as (_proc, base):  # a restart delivers nothing again
        time.sleep(1.5)
        assert record_rows(db_url) == {black: (1, 0), white: (0, 1)}


def test_deliveries_racing_apply_each_event_once(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    now = now_utc()
    with engine.begin() as conn:
        for i in range(30):
            people = {"B": {"id": "p-black"}, "W": {"id": f"p-white-{i % 3}"}}
            conn.execute(games.insert().values(id=f"g{i}", created_at=now, updated_at=now, params={}, mode="invite",
                                               clock={}, phase="finished", people=people))
            conn.execute(game_outbox.insert().values(game_id=f"g{i}", version=1, kind="finished",
                                                     data={"result": "B+R" if i % 2 else "W+3.5"}, created_at=now))

    deliver_racing(engine, records.SUBSCRIBER, limit=4)
    got = {pid: records.record_of(engine, pid) for pid in ("p-black", "p-white-0", "p-white-1", "p-white-2")}
    engine.dispose()
    # Black won the 15 odd games and lost the 15 even ones; each white lost or won its share.
    assert got["p-black"] == {"won": 15, "lost": 15, "drawn": 0}
    assert sum(g["won"] + g["lost"] for g in got.values()) == 60


def test_a_clock_runs_out_once_after_a_kill_and_the_downtime_is_nobodys(db_url: str) -> None:
    clock = {"type": "absolute", "main": 4}
    with serve(db_url) as (proc, base):
        with httpx.Client(base_url=base, timeout=TIMEOUT) as http:
            g = http.post("/api/games", json={"size": 9, "opponent": "local", "clock": clock}).json()
            gid, tok = g["game"]["id"], g["seat"]["token"]
            r = http.post(f"/api/games/{gid}/actions", json={"type": "play", "move": "E5"},
                          headers={"X-Keima-Seat": tok})
            assert r.status_code == 200
        time.sleep(1.0)  # White thinks 1 s of its 4 ...
        proc.kill()  # ... and the server dies
        proc.wait()
    time.sleep(5.0)  # longer than White had left: the time no server ran is charged to nobody
    started = time.monotonic()
    with serve(db_url) as (_proc, base):
        def state() -> dict[str, Any]:
            out: dict[str, Any] = httpx.get(f"{base}/api/games/{gid}", timeout=TIMEOUT).json()
            return out

        # Nobody opens the game: the scheduler finds its job, and the loss comes about 3 s after the restart.
        wait_for(lambda: state()["phase"] == "finished", timeout=30)
        waited = time.monotonic() - started
        s = state()
        assert s["result"] == "B+T" and s["end_reason"] == "timeout"
    assert waited >= 2.0, waited  # not at once: White still had about 3 s when the server died
    engine = make_engine(db_url)
    with engine.connect() as conn:
        entries = [r.entry for r in conn.execute(sa.select(game_log.c.entry).where(game_log.c.game_id == gid))]
        jobs = conn.execute(sa.text("SELECT count(*) FROM scheduled_jobs")).scalar()
    engine.dispose()
    timeouts = [e for entry in entries for e in entry.get("events", ()) if e["kind"] == "timeout"]
    assert len(timeouts) == 1 and jobs == 0
