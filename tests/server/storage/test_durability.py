"""What a commit promises: the durable option (a commit on the disk, for power losses), and no acknowledged move
lost when the server is killed hard in the middle of WebSocket play (SQLite, and PostgreSQL when
``KEIMA_TEST_PG_URL`` is set)."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import uvicorn

from keima.cli import main
from keima.server.storage.store import make_engine
from server.live import Seat, game_state, run_async, serve

NORMAL, FULL = 1, 2  # PRAGMA synchronous
PG_URL = os.environ.get("KEIMA_TEST_PG_URL")


def sqlite_sync(url: str, **kw: Any) -> int:
    engine = make_engine(url, **kw)
    try:
        with engine.connect() as conn:
            return int(conn.exec_driver_sql("PRAGMA synchronous").scalar_one())
    finally:
        engine.dispose()


def test_durable_engines_flush_every_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'k.db'}"
    monkeypatch.delenv("KEIMA_DURABLE", raising=False)
    monkeypatch.delenv("KEIMA_SQLITE_SYNC", raising=False)
    assert sqlite_sync(url) == NORMAL  # survives a killed process, not a power loss
    assert sqlite_sync(url, durable=True) == FULL
    monkeypatch.setenv("KEIMA_DURABLE", "1")
    assert sqlite_sync(url) == FULL
    assert sqlite_sync(url, durable=False) == NORMAL


@pytest.mark.skipif(PG_URL is None, reason="KEIMA_TEST_PG_URL is not set")
def test_durable_postgresql_insists_on_synchronous_commit() -> None:
    assert PG_URL is not None
    engine = make_engine(PG_URL, durable=True)
    try:
        with engine.connect() as conn:
            # Set by the client for its session: whatever the database server's or the database's default.
            row = conn.execute(sa.text("SELECT setting, source FROM pg_settings WHERE name = 'synchronous_commit'"))
            assert tuple(row.one()) == ("on", "client")
    finally:
        engine.dispose()


def test_serve_durable_flag_reaches_the_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'k.db'}"
    monkeypatch.setenv("KEIMA_DURABLE", "0")  # restored after the test (serve sets it for its process)
    monkeypatch.delenv("KEIMA_SQLITE_SYNC", raising=False)
    seen: dict[str, int] = {}

    def fake_run(self: uvicorn.Server, sockets: Any = None) -> None:
        # In place of serving: the engine the application would open now.
        seen["sync"] = sqlite_sync(url)
        for s in sockets or ():
            s.close()

    monkeypatch.setattr(uvicorn.Server, "run", fake_run)
    main(["serve", "--no-open", "--port", "0", "--db", url])
    assert seen["sync"] == NORMAL
    main(["serve", "--no-open", "--port", "0", "--db", url, "--durable"])
    assert seen["sync"] == FULL
    assert "durable commits" in capsys.readouterr().out


@pytest.mark.slow
def test_kill_hard_during_websocket_play_loses_no_acknowledged_move(db_url: str) -> None:
    # A local game (one seat token holds both colours); moves go out over the socket up to four ahead of their
    # acknowledgements, so that several are in flight when the server is killed.
    points = [p for p in range(81) if (p // 9 + p % 9) % 2 == 0]  # never neighbours: no captures
    with serve(db_url) as (proc, base):
        g = httpx.post(base + "/api/games", json={"size": 9, "opponent": "local"}, timeout=20).json()
        gid, token = g["game"]["id"], g["seat"]["token"]

        async def play() -> tuple[list[int], list[int]]:
            seat = await Seat.open(base, gid, token)
            sent: list[int] = []
            acked: list[int] = []
            pending: list[tuple[str, int]] = []
            try:
                for p in points:
                    pending.append((await seat.send({"type": "play", "move": p}), p))
                    sent.append(p)
                    if len(pending) < 4:
                        continue
                    mid, q = pending.pop(0)
                    reply = await seat.reply(mid)
                    assert reply["type"] == "ack", reply
                    acked.append(q)
                    if len(acked) == 12:
                        proc.send_signal(signal.SIGKILL)  # no shutdown of any kind, moves in flight
                        break
                # Whatever was still in flight may or may not have been stored; its reply never comes.
                await asyncio.sleep(0.2)
            finally:
                await seat.close()
            return sent, acked

        sent, acked = run_async(play(), 120)
        proc.wait(timeout=10)
    assert len(acked) == 12
    with serve(db_url) as (_proc, base):
        st = game_state(base, gid)
        stored = [m["point"] for m in st["moves"]]
        # Every acknowledged move is there, in order, once; beyond them only moves that were in flight, in the
        # order they were sent; and the game plays on.
        assert stored[: len(acked)] == acked and stored == sent[: len(stored)]
        assert st["version"] == len(stored)
        nxt = next(p for p in points if p not in stored)
        r = httpx.post(f"{base}/api/games/{gid}/actions", json={"type": "play", "move": nxt},
                       headers={"X-Keima-Seat": token}, timeout=20)
        assert r.status_code == 200, r.text
