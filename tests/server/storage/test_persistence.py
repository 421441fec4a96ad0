"""Nothing acknowledged is lost: restarts, a server killed hard in the middle of play, failed writes."""

from __future__ import annotations

import signal
import threading
import time
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from keima.rules.game import Game, GameError
from keima.server import create_app
from server.helpers import act, new_game, state, two_players, wait_for
from server.live import serve


def test_restart_resumes_every_game(db_url: str) -> None:
    with TestClient(create_app(db_url)) as c:
        gid, black, white = two_players(c, clock={"type": "byoyomi", "main": 300, "period": 30, "periods": 5})
        for who, p in [(black, 40), (white, 41), (black, 42)]:
            act(c, gid, who, {"type": "play", "move": p})
        act(c, gid, black, {"type": "undo_request"})
        act(c, gid, white, {"type": "undo_answer", "accept": True})
        act(c, gid, black, {"type": "play", "move": 50})
        act(c, gid, white, {"type": "undo_request"})  # left pending across the restart
        local = new_game(c, size=5, opponent="local")
        for p in [1, 3, 6, 8, 11, 13, 16, 18, 21, 23]:
            act(c, local["game"]["id"], local["seat"]["token"], {"type": "play", "move": p})
        act(c, local["game"]["id"], local["seat"]["token"], {"type": "pass"})
        act(c, local["game"]["id"], local["seat"]["token"], {"type": "pass"})
        before = state(c, gid, black)
        before_local = state(c, local["game"]["id"])
        deadline = time.monotonic() + 10
        while before_local["proposal"] is None and time.monotonic() < deadline:
            time.sleep(0.02)
            before_local = state(c, local["game"]["id"])
    with TestClient(create_app(db_url)) as c:
        after = state(c, gid, black)
        for key in ("version", "board", "moves", "to_move", "prisoners", "undo_request", "phase", "you"):
            assert after[key] == before[key], key
        assert after["clock"]["B"]["periods"] == 5 and after["clock"]["B"]["main"] <= 300
        assert after["clock"]["running"] == "W"
        # The seats and the pending undo request survived: White answers it, play goes on.
        s = act(c, gid, black, {"type": "undo_answer", "accept": False})["game"]
        assert s["undo_request"] is None
        act(c, gid, white, {"type": "play", "move": 60})
        after_local = state(c, local["game"]["id"])
        for key in ("version", "phase", "dead", "proposal", "board"):
            assert after_local[key] == before_local[key], key
        s = act(c, local["game"]["id"], local["seat"]["token"], {"type": "accept"})["game"]
        assert s["phase"] == "finished"


def test_a_failed_write_changes_nothing(fast_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, black, white = two_players(fast_client)
    act(fast_client, gid, black, {"type": "play", "move": 40})
    hub = fast_client.app.state.hub  # type: ignore[attr-defined]
    real = hub.store.write
    calls = {"n": 0}

    async def failing(op: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            raise OSError("disk full")
        return await real(op)

    monkeypatch.setattr(hub.store, "write", failing)
    err = act(fast_client, gid, white, {"type": "play", "move": 41}, status=503)["error"]
    assert err["code"] == "storage-error"
    s = state(fast_client, gid)
    assert [m["point"] for m in s["moves"]] == [40] and s["to_move"] == "W" and s["version"] == 2
    act(fast_client, gid, white, {"type": "play", "move": 41})
    assert [m["point"] for m in state(fast_client, gid)["moves"]] == [40, 41]


@pytest.mark.slow
def test_kill_hard_mid_game_loses_no_acknowledged_move(db_url: str) -> None:
    moves: list[int] = []
    game = Game(9)
    with serve(db_url) as (proc, base), httpx.Client(base_url=base, timeout=10) as http:
        r = http.post("/api/games", json={"size": 9, "opponent": "local"})
        gid, tok = r.json()["game"]["id"], r.json()["seat"]["token"]
        acked: list[int] = []
        stop = threading.Event()

        def player() -> None:
            # Plays legal moves as fast as the server acknowledges them, until the server dies.
            for p in range(81):
                if stop.is_set() or game.legality(p) is not None:
                    continue
                try:
                    r = http.post(f"/api/games/{gid}/actions", json={"type": "play", "move": p},
                                  headers={"X-Keima-Seat": tok})
                except httpx.TransportError:
                    return
                if r.status_code != 200:
                    return
                game.play(p)
                acked.append(p)

        t = threading.Thread(target=player)
        t.start()
        deadline = time.monotonic() + 60
        while len(acked) < 12:
            assert time.monotonic() < deadline and t.is_alive(), f"only {len(acked)} moves acknowledged"
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)  # no shutdown of any kind
        proc.wait(timeout=10)
        stop.set()
        t.join(timeout=20)
        moves = list(acked)
    assert len(moves) >= 12
    with serve(db_url) as (_proc, base), httpx.Client(base_url=base, timeout=10) as http:
        s = http.get(f"/api/games/{gid}").json()
        stored = [m["point"] for m in s["moves"]]
        # Every acknowledged move is there; at most the one in flight at the kill is there too.
        assert stored[: len(moves)] == moves and len(stored) <= len(moves) + 1
        p = next(q for q in range(81) if s["board"][q] == 0 and q not in stored)
        r = http.post(f"/api/games/{gid}/actions", json={"type": "play", "move": p}, headers={"X-Keima-Seat": tok})
        assert r.status_code in (200, 409), r.text  # the referee still rules (409 only for a real rule)
        if r.status_code == 409:
            assert r.json()["error"]["code"] == "illegal-move"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["play", "pass", "undo", "resign"]), st.integers(0, 24)), max_size=40))
def test_random_games_match_the_referee_and_replay(sqlite_url: str, steps: list[tuple[str, int]]) -> None:
    """Any sequence of intents gives the referee's own outcome, and the stored log rebuilds it exactly."""
    with TestClient(create_app(sqlite_url)) as c:
        g = new_game(c, size=5, opponent="local")
        gid, tok = g["game"]["id"], g["seat"]["token"]
        ref = Game(5)
        for kind, p in steps:
            if kind == "undo":
                r = c.post(f"/api/games/{gid}/actions", json={"type": "undo_request"}, headers={"X-Keima-Seat": tok})
                if ref.phase == "play" and ref.moves:
                    assert r.status_code == 200, r.text
                    last = ref.moves[-1].color
                    while ref.moves and ref.moves[-1].color == last:
                        ref.undo()
                        break
                else:
                    assert r.status_code == 409
                continue
            action: dict[str, Any] = {"type": kind} | ({"move": p} if kind == "play" else {})
            r = c.post(f"/api/games/{gid}/actions", json=action, headers={"X-Keima-Seat": tok})
            try:
                if kind == "play":
                    ref.play(p)
                elif kind == "pass":
                    ref.pass_move()
                else:
                    ref.resign()
            except GameError as exc:
                assert r.status_code == 409, r.text
                assert r.json()["error"]["reason"] == exc.reason
                continue
            assert r.status_code == 200, r.text
        # Two passes start the count: the dead-stone estimator's proposal comes after, from a worker thread, as a
        # change of its own. Read the game once it has come, or the restarted server may read one version more.
        wait_for(lambda: state(c, gid)["phase"] != "scoring" or state(c, gid)["proposal"] is not None)
        s = state(c, gid)
        assert s["board"] == ref.board.colors and s["phase"] == ref.phase and s["result"] == ref.result
    with TestClient(create_app(sqlite_url)) as c:
        assert state(c, gid) == s


def test_games_dropped_from_memory_reload_from_the_database(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, cache_size=2)) as c:
        games = []
        for i in range(5):
            g = new_game(c, size=9, opponent="local")
            act(c, g["game"]["id"], g["seat"]["token"], {"type": "play", "move": i})
            games.append(g)
        hub = c.app.state.hub  # type: ignore[attr-defined]
        assert len(hub.cache.sessions) == 2
        for i, g in enumerate(games):
            gid, tok = g["game"]["id"], g["seat"]["token"]
            s = act(c, gid, tok, {"type": "play", "move": 40})["game"]
            assert [m["point"] for m in s["moves"]] == [i, 40] and s["you"] == ["B", "W"]
        assert len(hub.cache.sessions) == 2
        # A game with a running clock stays in memory (its timer lives there).
        timed = new_game(c, size=9, opponent="local", clock={"type": "absolute", "main": 600})
        for _ in range(3):
            new_game(c, size=9, opponent="local")
        assert timed["game"]["id"] in hub.cache.sessions
