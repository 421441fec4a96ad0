"""The bell across two ``keima serve --redis`` processes on one PostgreSQL: a notification stored by one process
reaches the player's lobby socket open on the other at once (the notice crosses through Redis)."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

import httpx
import pytest
from tests.cluster.conftest import Cluster, run_async

pytestmark = [pytest.mark.postgres, pytest.mark.slow]



def test_a_notification_reaches_a_socket_on_the_other_process(two_webs: Cluster) -> None:
    import websockets

    first, second = two_webs.base(0), two_webs.base(1)
    clock = {"type": "simple", "per_move": 86400}

    async def main() -> tuple[dict[str, Any], list[str]]:
        async with httpx.AsyncClient(base_url=first, timeout=30) as alice, \
                httpx.AsyncClient(base_url=first, timeout=30) as bob:
            for who in (alice, bob):  # the database outlives a run: names of this run only
                name = f"ring{secrets.token_hex(4)}"
                r = await who.post("/api/players", json={"name": name, "password": "correct horse"},
                                   headers={"Origin": first})
                assert r.status_code == 201, r.text
            r = await alice.post("/api/games", json={"opponent": "open", "size": 9, "clock": clock},
                                 headers={"Origin": first})
            gid = r.json()["game"]["id"]
            cookie = {"Cookie": f"keima_session={alice.cookies['keima_session']}", "Origin": second}
            async with websockets.connect(second.replace("http://", "ws://") + "/api/lobby/ws",
                                          additional_headers=cookie) as ws:
                assert json.loads(await ws.recv())["type"] == "lobby"
                # Bob takes the seat through the first process: the first process delivers the event at once.
                r = await bob.post(f"/api/games/{gid}/join", json={}, headers={"Origin": first})
                assert r.status_code == 200, r.text
                while (msg := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "notifications":
                    pass
            listed = (await alice.get("/api/me/notifications")).json()["notifications"]
            return msg, [n["kind"] for n in listed]

    msg, kinds = run_async(main())
    assert msg == {"type": "notifications", "unread": 1}
    assert kinds == ["challenge-accepted"]
