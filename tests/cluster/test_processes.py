"""Two real ``keima serve --redis`` processes and two ``keima worker`` processes on one PostgreSQL and one Redis:
a move on one process seen on a WebSocket of the other within a second; concurrent conflicting
actions over both leave one consistent game; ``kill -9`` of a web process and of a worker in the middle of bot
games loses nothing and every bot game moves on; a restarted Redis: live updates resume."""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from tests.cluster.conftest import Cluster, RedisServer, in_thread, run_async

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture(scope="module")
def cluster(pg_url: str, own_redis: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(pg_url, own_redis.url, tmp_path_factory.mktemp("cluster"))
    try:
        c.wait_web(c.start_web())  # the first one migrates the database
        c.start_web()
        c.start_worker()
        c.start_worker()
        c.wait_web(c.webs[1])
        c.wait_workers(2)
        yield c
    finally:
        c.stop()


def new_game(base: str, **body: Any) -> tuple[str, str, dict[str, Any]]:
    r = httpx.post(f"{base}/api/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    d = r.json()
    return d["game"]["id"], d["seat"]["token"], d


def act(base: str, gid: str, token: str, action: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{base}/api/games/{gid}/actions", json=action, headers={"x-keima-seat": token}, timeout=30)


def state(base: str, gid: str) -> dict[str, Any]:
    r = httpx.get(f"{base}/api/games/{gid}", timeout=30)
    assert r.status_code == 200, r.text
    d: dict[str, Any] = r.json()
    return d


def wait_until(pred: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def ws_url(base: str, gid: str) -> str:
    return base.replace("http://", "ws://") + f"/api/games/{gid}/ws"


def test_a_move_on_one_process_reaches_a_websocket_of_the_other_within_a_second(cluster: Cluster) -> None:
    p1, p2 = cluster.base(0), cluster.base(1)
    gid, token, _ = new_game(p1, opponent="local", size=9)

    async def main() -> float:
        async with websockets.connect(ws_url(p2, gid)) as ws:
            first = json.loads(await ws.recv())
            assert first["game"]["version"] == 0
            await asyncio.sleep(0.3)  # the subscription reaches Redis
            t0 = time.perf_counter()
            async with httpx.AsyncClient() as c:
                r = await c.post(f"{p1}/api/games/{gid}/actions", json={"type": "play", "move": "E5"},
                                 headers={"x-keima-seat": token})
                assert r.status_code == 200, r.text
            msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
            assert msg["type"] == "delta" and msg["to"] == 1
            assert msg["event"]["move"]["vertex"] == "E5"
            return time.perf_counter() - t0

    assert run_async(main()) < 1.0


def test_a_seated_websocket_on_the_other_process_plays_on(cluster: Cluster) -> None:
    p1, p2 = cluster.base(0), cluster.base(1)
    gid, token, _ = new_game(p1, opponent="local", size=9)

    async def main() -> None:
        async with websockets.connect(ws_url(p2, gid), additional_headers={"x-keima-seat": token}) as ws:
            assert json.loads(await ws.recv())["game"]["you"] == ["B", "W"]
            await asyncio.sleep(0.3)
            r = act(p1, gid, token, {"type": "play", "move": "E5"})
            assert r.status_code == 200
            msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
            assert msg["type"] == "delta" and msg["to"] == 1 and msg["placed"] == [[40, "B"]]
            await ws.send(json.dumps({"type": "action", "id": "a", "action": {"type": "play", "move": "C3"}}))
            got = [json.loads(await asyncio.wait_for(ws.recv(), 5)) for _ in range(2)]
            assert got[-1] == {"type": "ack", "id": "a"}

    run_async(main())
    assert [m["vertex"] for m in state(p1, gid)["moves"]] == ["E5", "C3"]


def test_fifty_concurrent_conflicting_actions_over_both_processes(cluster: Cluster) -> None:
    p1, p2 = cluster.base(0), cluster.base(1)
    gid, black, d = new_game(p1, opponent="invite", size=9, color="B")
    r = httpx.post(f"{p2}/api/games/{gid}/join", json={"code": d["invite"]["code"]}, timeout=30)
    assert r.status_code == 200, r.text
    white = r.json()["seat"]["token"]
    rnd = random.Random(5)
    points = [f"{c}{n}" for c in "ABCDEFGHJ" for n in range(1, 10)]
    rnd.shuffle(points)
    actions = []
    for i in range(50):
        base = (p1, p2)[i % 2]
        token = rnd.choice((black, white))
        action: dict[str, Any] = {"type": "resign"} if i == 41 else {"type": "play", "move": points[i]}
        actions.append((base, token, action))

    async def main() -> list[tuple[int, dict[str, Any]]]:
        async with httpx.AsyncClient(timeout=60) as c:
            async def one(base: str, token: str, action: dict[str, Any]) -> tuple[int, dict[str, Any]]:
                r = await c.post(f"{base}/api/games/{gid}/actions", json=action, headers={"x-keima-seat": token})
                return r.status_code, action

            return list(await asyncio.gather(*(one(*a) for a in actions)))

    results = run_async(main())
    assert {code for code, _ in results} <= {200, 409}, results
    ok = [a for code, a in results if code == 200]
    final = state(p2, gid)
    assert state(p1, gid)["version"] == final["version"] == len(ok) + 1  # + the join
    colors = [m["color"] for m in final["moves"]]
    assert all(x != y for x, y in zip(colors, colors[1:], strict=False))
    assert sorted(m["vertex"] for m in final["moves"]) == sorted(a["move"] for a in ok if a["type"] == "play")
    if any(a["type"] == "resign" for a in ok):
        assert final["phase"] == "finished"


def _bot_games(cluster: Cluster, n: int, level: str = "beginner", **body: Any) -> list[tuple[str, str]]:
    games = []
    for i in range(n):
        gid, token, _ = new_game(cluster.base(i % 2), opponent="bot", size=9, color="B", bot_level=level, **body)
        games.append((gid, token))
    return games


def free_point(base: str, gid: str) -> str:
    """A point of the 9x9 board where no move was played yet (the bot may have taken any)."""
    played = {m["vertex"] for m in state(base, gid)["moves"]}
    return next(f"{c}{n}" for c in "EDFCGBHAJ" for n in (5, 4, 6, 3, 7, 2, 8, 1, 9) if f"{c}{n}" not in played)


def _play_and_wait_bot(cluster: Cluster, games: list[tuple[str, str]], moves_before: int, _hint: str,
                       bases: list[str], timeout: float = 60) -> None:
    for i, (gid, token) in enumerate(games):
        base = bases[i % len(bases)]
        r = act(base, gid, token, {"type": "play", "move": free_point(base, gid)})
        assert r.status_code == 200, r.text
    for gid, _token in games:
        wait_until(lambda gid=gid: len(state(bases[0], gid)["moves"]) >= moves_before + 2, timeout,
                   f"the bot's reply in {gid}")


def _check_bot_game(base: str, gid: str) -> None:
    s = state(base, gid)
    colors = [m["color"] for m in s["moves"]]
    assert colors == ["B", "W"] * (len(colors) // 2), s["moves"]  # the bot moved once per turn, never twice


def test_kill_a_web_process_mid_bot_games(cluster: Cluster) -> None:
    games = _bot_games(cluster, 6)
    _play_and_wait_bot(cluster, games, 0, "E5", [cluster.base(0), cluster.base(1)])
    # Moves through process 0, which dies at once: the bot's jobs are queued, the games stored.
    for gid, token in games:
        move = free_point(cluster.base(0), gid)
        assert act(cluster.base(0), gid, token, {"type": "play", "move": move}).status_code == 200
    cluster.webs[0].kill9()
    for gid, _ in games:
        wait_until(lambda gid=gid: len(state(cluster.base(1), gid)["moves"]) >= 4, 60, f"the bot in {gid}")
    # The clients reconnect to the other process and play on.
    _play_and_wait_bot(cluster, games, 4, "G7", [cluster.base(1)])
    for gid, _ in games:
        _check_bot_game(cluster.base(1), gid)
    # A new process takes the dead one's place for the tests that follow.
    cluster.webs[0] = cluster.start_web()
    cluster.wait_web(cluster.webs[0])


def test_workers_yield_the_cpu_to_web_processes(cluster: Cluster) -> None:
    """A worker lowers its priority by 10 (the default ``--nice``) before it starts any thread, so that its
    searches give way to the web processes on a shared host; the web processes keep theirs."""
    def nice_values(pid: int) -> set[int]:
        # Field 19 of /proc/PID/task/TID/stat; the command name (field 2) may hold spaces, so split after ")".
        return {int(Path(f"/proc/{pid}/task/{tid}/stat").read_text().rpartition(")")[2].split()[16])
                for tid in os.listdir(f"/proc/{pid}/task")}

    worker = cluster.workers[-1]
    assert worker.proc.poll() is None
    assert nice_values(worker.proc.pid) == {10}
    assert nice_values(cluster.webs[0].proc.pid) == {0}


def test_kill_a_worker_mid_search(cluster: Cluster) -> None:
    """A worker dies as it starts a search: its job is taken again after its in-progress mark expires
    (KEIMA_JOB_TIMEOUT=4 here: 14 s), and the bot moves once. The bot's 40 s clock runs meanwhile, so a job
    retaken later than that (arq's mark lasts the longest timeout of the worker's functions + 10 s: 70 s when
    the archive check had a 60 s timeout) loses the game on time and fails the test."""
    # The strong level searches by time (a share of its clock, here 1 to 2 s): long enough to die in the middle.
    games = _bot_games(cluster, 4, level="strong", clock={"type": "absolute", "main": 40})
    for i, (gid, token) in enumerate(games):
        assert act(cluster.base(i % 2), gid, token, {"type": "play", "move": "E5"}).status_code == 200
    before = [w.text().count("→ bot:") for w in cluster.workers]

    def searching() -> int | None:
        """The index of a worker that has started a search since the moves, or None."""
        for i, w in enumerate(cluster.workers):
            if w.text().count("→ bot:") > before[i]:
                return i
        return None

    # The first worker to start a search is killed as soon as it does (workers run at a lower priority: on a
    # loaded machine that may take more than the moment it takes on a quiet one). Either may be first: one that
    # woke earlier can take all four jobs before the other polls the queue.
    wait_until(lambda: searching() is not None, 60, "a worker taking a bot job")
    victim = searching()
    assert victim is not None
    cluster.workers[victim].kill9()
    for gid, _ in games:
        wait_until(lambda gid=gid: len(state(cluster.base(0), gid)["moves"]) >= 2, 90, f"the bot in {gid}")
    for gid, _ in games:
        _check_bot_game(cluster.base(1), gid)
    cluster.workers[victim] = cluster.start_worker()
    del cluster.workers[-1]  # start_worker also appended it: it takes the dead one's place only
    cluster.wait_workers(2)


def test_redis_restart_live_updates_resume(cluster: Cluster, own_redis: RedisServer) -> None:
    p1, p2 = cluster.base(0), cluster.base(1)
    gid, token, _ = new_game(p1, opponent="local", size=9)

    async def main() -> None:
        async with websockets.connect(ws_url(p2, gid)) as ws:
            await ws.recv()
            await asyncio.sleep(0.3)
            own_redis.restart()  # empty: the state is in PostgreSQL
            # A move made while the processes reconnect: the watcher still gets it (resync on resubscription).
            assert act(p1, gid, token, {"type": "play", "move": "E5"}).status_code == 200
            deadline = time.monotonic() + 15
            version = 0
            while version < 1 and time.monotonic() < deadline:
                msg = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic())))
                version = msg["to"] if msg["type"] == "delta" else msg["game"]["version"]
            assert version == 1
            # Once reconnected, a change reaches the other process within a second again.
            await asyncio.sleep(2.0)
            t0 = time.perf_counter()
            assert act(p1, gid, token, {"type": "play", "move": "C3"}).status_code == 200
            version = 1
            while version < 2:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                version = msg["to"] if msg["type"] == "delta" else msg["game"]["version"]
            assert version == 2 and time.perf_counter() - t0 < 1.0

    run_async(main())
    # The bot workers reconnect too: a bot game moves on.
    cluster.wait_workers(2, timeout=30)
    games = _bot_games(cluster, 2)
    _play_and_wait_bot(cluster, games, 0, "E5", [p1, p2])


def test_check_an_archive_on_the_workers(cluster: Cluster, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from keima.cli import main

    (tmp_path / "a.sgf").write_text("(;GM[1]FF[4]SZ[9]KM[7.5]RE[W+7.5];B[tt];W[tt])")
    (tmp_path / "b.sgf").write_text("(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[ee])")
    code = in_thread(lambda: main(["check", str(tmp_path), "--redis", cluster.redis, "--json"]))
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in lines[:-1]] == ["ok", "illegal"]
    assert lines[-1]["summary"]["jobs"] == "redis" and code == 1


def test_logs_hold_no_traceback(cluster: Cluster, tmp_path: Path) -> None:
    for p in cluster.webs:
        assert "Traceback" not in p.text(), p.text()[-3000:]
