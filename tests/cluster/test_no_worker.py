"""Cluster mode without any worker running: a bot game says so on its WebSocket instead of hanging, and its
job waits in the queue for the first worker."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from keima.server import create_app

pytestmark = pytest.mark.postgres


def test_a_bot_game_says_no_worker_runs(pg_url: str, redis_url: str) -> None:
    import redis

    r = redis.Redis.from_url(redis_url)
    for key in r.scan_iter(match="keima:worker:*"):
        r.delete(key)  # a worker of an earlier test, already gone
    with TestClient(create_app(pg_url, redis_url=redis_url)) as c:
        # The human takes White: the bot (Black) is to move at once.
        d = c.post("/api/games", json={"opponent": "bot", "size": 9, "color": "W", "bot_level": "beginner"}).json()
        gid = d["game"]["id"]
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            first = ws.receive_json()
            assert first["type"] == "state" and first["game"]["to_move"] == "B"
            msg = ws.receive_json()
            assert msg == {"type": "notice", "notice": "no-bot-worker"}
        # The bot's job is queued for the first worker that starts (web processes never search).
        assert r.zscore("keima:jobs", f"bot:{gid}:0") is not None
        assert len(c.get(f"/api/games/{gid}").json()["moves"]) == 0
    r.close()


def test_a_human_game_gets_no_notice(pg_url: str, redis_url: str) -> None:
    with TestClient(create_app(pg_url, redis_url=redis_url)) as c:
        d = c.post("/api/games", json={"opponent": "local", "size": 9}).json()
        gid, token = d["game"]["id"], d["seat"]["token"]
        with c.websocket_connect(f"/api/games/{gid}/ws", headers={"x-keima-seat": token}) as ws:
            assert ws.receive_json()["type"] == "state"
            ws.send_text(json.dumps({"type": "action", "id": "1", "action": {"type": "play", "move": "E5"}}))
            kinds = [ws.receive_json()["type"] for _ in range(2)]
            assert kinds == ["delta", "ack"]
