"""A conditional answer survives the death of the process that stored the move it answers: the answer is stored
with the move, in one transaction. In process (a store that dies right after the move's write) and with a real
``keima serve`` killed with SIGKILL the moment the move is acknowledged."""

from __future__ import annotations

import time
from typing import Any

import httpx
from fastapi.testclient import TestClient

from keima.server import create_app
from keima.server.storage.store import Append

from ..helpers import act, state, two_players
from ..live import TIMEOUT, serve
from .test_conditional import CORR, TREE, get, put, vertices


def test_the_answer_is_stored_with_the_move_it_answers(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url)) as c:
        gid, black, white = two_players(c, clock=CORR)
        act(c, gid, black, {"type": "play", "move": "D4"})
        put(c, gid, black, {"version": state(c, gid)["version"], "tree": TREE}, 200)
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        real = store.write
        dead: list[bool] = []
        armed = [False]

        async def write(op: Any) -> Any:
            # The process "dies" once the first write of the game after arming is committed: nothing after it
            # reaches the database.
            if dead:
                raise RuntimeError("the process was killed")
            result = await real(op)
            if armed[0] and isinstance(op, Append) and op.game_id == gid:
                dead.append(True)
            return result

        store.write = write
        armed[0] = True
        act(c, gid, white, {"type": "play", "move": "C3"})
        time.sleep(1.0)  # whatever this process would still do after the move, it cannot store
        store.write = real
    with TestClient(create_app(sqlite_url)) as c:  # the server started again on the same database
        assert vertices(c, gid) == ["D4", "C3", "G7"]
        assert state(c, gid)["to_move"] == "W"
        assert get(c, gid, black)["tree"] == [{"if": "E5", "play": "F6", "then": []}]


def test_kill_9_right_after_the_move_loses_no_answer(db_url: str) -> None:
    env = {"KEIMA_TIME_START": "2026-12-02T10:00:00+00:00"}
    with serve(db_url, env=env) as (proc, base), httpx.Client(base_url=base, timeout=TIMEOUT) as http:
        g = http.post("/api/games", json={"size": 9, "opponent": "invite", "color": "B", "clock": CORR}).json()
        gid = g["game"]["id"]
        r = http.post(f"/api/games/{gid}/join", json={"code": g["invite"]["code"]}, headers={"X-Keima-Seat": "x"})
        black, white = {"X-Keima-Seat": g["seat"]["token"]}, {"X-Keima-Seat": r.json()["seat"]["token"]}
        assert http.post(f"/api/games/{gid}/actions", json={"type": "play", "move": "D4"}, headers=black).is_success
        version = http.get(f"/api/games/{gid}").json()["version"]
        r = http.put(f"/api/games/{gid}/conditional", json={"version": version, "tree": TREE}, headers=black)
        assert r.status_code == 200, r.text
        r = http.post(f"/api/games/{gid}/actions", json={"type": "play", "move": "C3"}, headers=white)
        proc.kill()  # SIGKILL the moment the move is acknowledged: no shutdown of any kind
        proc.wait()
        assert r.status_code == 200, r.text
    with serve(db_url, env=env) as (_proc, base), httpx.Client(base_url=base, timeout=TIMEOUT) as http:
        game = http.get(f"/api/games/{gid}").json()
        assert [m["vertex"] for m in game["moves"]] == ["D4", "C3", "G7"] and game["to_move"] == "W"
        tree = http.get(f"/api/games/{gid}/conditional", headers=black).json()["tree"]
        assert tree == [{"if": "E5", "play": "F6", "then": []}]
