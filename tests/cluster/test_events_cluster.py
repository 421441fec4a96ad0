"""Durable game events across two ``keima serve --redis`` processes on one PostgreSQL: a finished game counts
exactly once in the players' records although the process that stored it was killed (``kill -9``) before
delivering it and both processes deliver; a clock that runs out on a killed process's game is ended once by the
other process's scheduler, with nobody watching."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from tests.cluster.conftest import Cluster, RedisServer

from keima.server.storage.store import make_engine
from keima.server.storage.tables import game_log, player_records

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

PAUSE = 8  # seconds each process holds a delivery back: the window to kill the one that stored the change


@pytest.fixture()
def pair(pg_url: str, own_redis: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(pg_url, own_redis.url, tmp_path_factory.mktemp("events"))
    c.env["KEIMA_OUTBOX_PAUSE"] = str(PAUSE)
    try:
        c.wait_web(c.start_web())
        c.wait_web(c.start_web())
        yield c
    finally:
        c.stop()


def records_of(url: str, ids: list[str]) -> dict[str, tuple[int, int]]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.select(player_records).where(player_records.c.player_id.in_(ids))).all()
    finally:
        engine.dispose()
    return {r.player_id: (r.won, r.lost) for r in rows}


def test_a_game_finished_on_a_killed_process_counts_once(pair: Cluster, pg_url: str) -> None:
    base = pair.base(0)
    origin = {"Origin": base}
    with httpx.Client(base_url=base, timeout=30) as a, httpx.Client(base_url=pair.base(1), timeout=30) as b:
        g = a.post("/api/games", json={"size": 9, "opponent": "open", "color": "B"}, headers=origin).json()
        gid = g["game"]["id"]
        # The other player joins and plays on the second process.
        assert b.post(f"/api/games/{gid}/join", json={}, headers={"Origin": pair.base(1)}).status_code == 200
        assert a.post(f"/api/games/{gid}/actions", json={"type": "play", "move": "E5"},
                      headers=origin).status_code == 200
        black = a.get("/api/me").json()["id"]
        white = b.get("/api/me").json()["id"]
        r = a.post(f"/api/games/{gid}/actions", json={"type": "resign"}, headers=origin)
        assert r.status_code == 200 and r.json()["game"]["result"] == "W+R"
    pair.webs[0].kill9()
    assert records_of(pg_url, [black, white]) == {}  # stored, not yet delivered
    del pair.env["KEIMA_OUTBOX_PAUSE"]
    restarted = pair.start_web()  # delivers at once; the other process delivers too, after its pause
    pair.wait_web(restarted)
    deadline = time.monotonic() + 30
    while records_of(pg_url, [black, white]) != {black: (0, 1), white: (1, 0)} and time.monotonic() < deadline:
        time.sleep(0.2)
    assert records_of(pg_url, [black, white]) == {black: (0, 1), white: (1, 0)}
    time.sleep(PAUSE + 2)  # the second process's own delivery has run too: still once
    assert records_of(pg_url, [black, white]) == {black: (0, 1), white: (1, 0)}


def test_the_other_process_ends_a_killed_process_game_on_time_once(pair: Cluster, pg_url: str) -> None:
    base = pair.base(0)
    r = httpx.post(f"{base}/api/games", json={"size": 9, "opponent": "local", "clock": {"type": "absolute", "main": 4}},
                   timeout=30)
    gid, tok = r.json()["game"]["id"], r.json()["seat"]["token"]
    assert httpx.post(f"{base}/api/games/{gid}/actions", json={"type": "play", "move": "E5"},
                      headers={"x-keima-seat": tok}, timeout=30).status_code == 200
    pair.webs[0].kill9()  # White's clock runs; its timer died with the process
    deadline = time.monotonic() + 30

    def engine_entries() -> list[dict[str, Any]]:
        engine = make_engine(pg_url)
        try:
            with engine.connect() as conn:
                return [row.entry for row in conn.execute(
                    sa.select(game_log.c.entry).where(game_log.c.game_id == gid).order_by(game_log.c.seq))]
        finally:
            engine.dispose()

    def timeouts() -> int:
        return sum(1 for e in engine_entries() for ev in e.get("events", ()) if ev["kind"] == "timeout")

    while timeouts() == 0 and time.monotonic() < deadline:  # nobody opens the game: the scheduler finds it
        time.sleep(0.3)
    assert timeouts() == 1
    s = httpx.get(f"{pair.base(1)}/api/games/{gid}", timeout=30).json()
    assert s["result"] == "B+T"
    time.sleep(3)
    assert timeouts() == 1


def test_a_game_read_during_a_redis_outage_keeps_its_watchers_up_to_date(pair: Cluster,
                                                                          own_redis: RedisServer) -> None:
    """A read of the game on the watchers' process while Redis is down (a page load, a GET) must not leave
    their sockets behind once Redis is back."""
    import asyncio
    import json

    import websockets

    base0, base1 = pair.base(0), pair.base(1)
    r = httpx.post(f"{base0}/api/games", json={"size": 9, "opponent": "local"}, timeout=30)
    gid, tok = r.json()["game"]["id"], r.json()["seat"]["token"]
    seat = {"x-keima-seat": tok}

    async def main() -> int:
        url = base1.replace("http://", "ws://") + f"/api/games/{gid}/ws"
        async with websockets.connect(url) as ws:
            version = json.loads(await ws.recv())["game"]["version"]
            await asyncio.sleep(0.3)
            own_redis.stop()
            async with httpx.AsyncClient(timeout=30) as http:
                assert (await http.post(f"{base0}/api/games/{gid}/actions", json={"type": "play", "move": "E5"},
                                        headers=seat)).status_code == 200
                assert (await http.get(f"{base1}/api/games/{gid}")).json()["version"] == 1  # read meanwhile
                own_redis.start()
                await asyncio.sleep(2.0)  # the processes reconnect
                assert (await http.post(f"{base0}/api/games/{gid}/actions", json={"type": "play", "move": "C3"},
                                        headers=seat)).status_code == 200
            deadline = time.monotonic() + 15
            while version < 2 and time.monotonic() < deadline:
                msg = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic())))
                if msg["type"] == "delta":
                    version = msg["to"] if msg["from"] == version else version
                elif msg["type"] == "state":
                    version = msg["game"]["version"]
            return version

    from tests.cluster.conftest import run_async

    assert run_async(main()) == 2
