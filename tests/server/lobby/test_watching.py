"""The lobby's "watching" count: the people watching a game who do not play in it, each counted once however many
pages they have open (issue 23 item 4: the players were counted, and a player's second tab counted as one more)."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient

from keima.server.accounts.service import SESSION_COOKIE

from ..helpers import two_players, wait_for


def watching(c: TestClient, gid: str) -> int:
    games = c.get("/api/games", params={"status": "live"}).json()["games"]
    return int(next(g["spectators"] for g in games if g["id"] == gid))


def session_of(c: TestClient, name: str) -> str:
    r = c.post("/api/players", json={"name": name, "password": "a long secret"})
    assert r.status_code in (200, 201), r.text
    value = c.cookies.get(SESSION_COOKIE)
    assert value
    c.cookies.clear()
    return value


def test_players_are_not_watching_and_each_watcher_counts_once(fast_client: TestClient) -> None:
    c = fast_client
    gid, black, white = two_players(c)
    carol = session_of(c, "carol")
    url = f"/api/games/{gid}/ws"
    pages: list[tuple[str, dict[str, Any]]] = [
        ("black", {"X-Keima-Seat": black}), ("black", {"X-Keima-Seat": black}),  # two tabs
        ("white", {"X-Keima-Seat": white}),
        ("carol", {"Cookie": f"{SESSION_COOKIE}={carol}"}), ("carol", {"Cookie": f"{SESSION_COOKIE}={carol}"}),
    ]
    with ExitStack() as stack:
        for _who, headers in pages:
            stack.enter_context(c.websocket_connect(url, headers=headers)).receive_json()
        assert watching(c, gid) == 1  # carol, once; neither player
        with c.websocket_connect(url) as stranger:  # no cookie: one more watcher
            stranger.receive_json()
            assert watching(c, gid) == 2
        wait_for(lambda: watching(c, gid) == 1)
    wait_for(lambda: watching(c, gid) == 0)


def test_a_player_with_nobody_watching_shows_zero(fast_client: TestClient) -> None:
    c = fast_client
    gid, black, _white = two_players(c)
    with c.websocket_connect(f"/api/games/{gid}/ws", headers={"X-Keima-Seat": black}) as a, \
            c.websocket_connect(f"/api/games/{gid}/ws", headers={"X-Keima-Seat": black}) as b:
        a.receive_json()
        b.receive_json()
        assert watching(c, gid) == 0
