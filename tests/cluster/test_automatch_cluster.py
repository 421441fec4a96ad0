"""Automatch across two ``keima serve --redis`` processes on one PostgreSQL: two players, each on their own
process, asking at the same moment, get exactly one game, and both lobby sockets are told of it."""

from __future__ import annotations

import asyncio
import json
import secrets

import httpx
import pytest
import sqlalchemy as sa
from tests.cluster.conftest import Cluster, run_async

from keima.server.storage.store import make_engine
from keima.server.storage.tables import automatch, game_players, players

pytestmark = [pytest.mark.postgres, pytest.mark.slow]



def _stored(url: str, names: list[str]) -> tuple[set[str | None], set[str]]:
    """The games of the players' automatch entries (None: waiting), and the games they have seats in."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            ids = list(conn.execute(sa.select(players.c.id).where(players.c.name.in_(names))).scalars())
            matched = set(conn.execute(sa.select(automatch.c.game_id).where(automatch.c.player_id.in_(ids)))
                          .scalars())
            seated = set(conn.execute(sa.select(game_players.c.game_id).where(game_players.c.player_id.in_(ids)))
                         .scalars())
    finally:
        engine.dispose()
    return matched, seated


def test_two_players_on_two_processes_get_exactly_one_game(two_webs: Cluster, pg_url: str) -> None:
    import websockets

    bases = [two_webs.base(0), two_webs.base(1)]
    tag = secrets.token_hex(3)  # the cluster's database is shared by the module's tests: names of our own
    left, right = f"left{tag}", f"right{tag}"

    async def player(i: int, name: str, start: asyncio.Event) -> tuple[str, str, str]:
        base = bases[i]
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            r = await http.post("/api/players", json={"name": name, "password": "correct horse"},
                                headers={"Origin": base})
            assert r.status_code == 201, r.text
            cookie = f"keima_session={http.cookies['keima_session']}"
            url = base.replace("http://", "ws://") + "/api/lobby/ws"
            async with websockets.connect(url, additional_headers={"Cookie": cookie}) as ws:
                assert json.loads(await ws.recv())["type"] == "lobby"
                await start.wait()
                r = await http.post("/api/automatch", json={"sizes": [9], "speed": "live"}, headers={"Origin": base})
                assert r.status_code == 200, r.text
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
                    if msg["type"] == "matched":
                        break
            state = (await http.get(f"/api/games/{msg['game']}")).json()
            return msg["game"], state["players"]["B"]["name"] + "/" + state["players"]["W"]["name"], \
                "".join(state["you"])

    async def main() -> list[tuple[str, str, str]]:
        start = asyncio.Event()
        tasks = [asyncio.create_task(player(0, left, start)), asyncio.create_task(player(1, right, start))]
        await asyncio.sleep(1.0)
        start.set()  # both ask at once, each on its own process
        return list(await asyncio.gather(*tasks))

    (g0, names0, you0), (g1, names1, you1) = run_async(main())
    assert g0 == g1 and names0 == names1 and sorted(names0.split("/")) == [left, right]
    assert sorted(you0 + you1) == ["B", "W"]
    # One game in the database: both players seated in it alone, and no entry waiting (each is gone once its player
    # was told, or still matched with that game).
    matched, seated = _stored(pg_url, [left, right])
    assert seated == {g0} and matched <= {g0}


def test_a_wait_ends_when_the_last_page_closes_in_either_process(two_webs: Cluster) -> None:
    import websockets

    bases = [two_webs.base(0), two_webs.base(1)]
    name = f"carol{secrets.token_hex(3)}"

    async def main() -> list[bool]:
        seen: list[bool] = []
        async with httpx.AsyncClient(base_url=bases[0], timeout=30) as http:
            r = await http.post("/api/players", json={"name": name, "password": "correct horse"},
                                headers={"Origin": bases[0]})
            assert r.status_code == 201, r.text
            cookie = {"Cookie": f"keima_session={http.cookies['keima_session']}"}

            async def waiting() -> bool:
                return bool((await http.get("/api/automatch")).json()["waiting"])

            urls = [b.replace("http://", "ws://") + "/api/lobby/ws" for b in bases]
            async with websockets.connect(urls[0], additional_headers=cookie) as ws0:
                await ws0.recv()
                async with websockets.connect(urls[1], additional_headers=cookie) as ws1:
                    await ws1.recv()
                    await asyncio.sleep(3)  # each process advertises its sockets every 2 s
                    r = await http.post("/api/automatch", json={"sizes": [19], "speed": "blitz"},
                                        headers={"Origin": bases[0]})
                    assert r.json() == {"waiting": True, "game": None, "waited_s": 0.0, "speed": "blitz", "sizes": [19],
                                        "page_needed": True}
                await asyncio.sleep(3)
                seen.append(await waiting())  # the page on the first process is still open
            deadline = asyncio.get_running_loop().time() + 25
            while await waiting() and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.3)
            seen.append(await waiting())
        return seen

    assert run_async(main()) == [True, False]
