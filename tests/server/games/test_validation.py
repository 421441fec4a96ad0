"""Malformed and forged requests: a clear 4xx that names what was wrong, and nothing changed."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from keima.server import create_app
from server.helpers import act, new_game, state, two_players


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"size": 30}, 422, "size"),
        ({"size": 1}, 422, "size"),
        ({"size": "nine"}, 422, "size"),
        ({"handicap": 12}, 422, "handicap"),
        ({"rules": "klingon"}, 422, "rules"),
        ({"opponent": "alien"}, 422, "opponent"),
        ({"colour": "B"}, 422, "colour"),
        ({"clock": {"type": "byoyomi", "main": 10}}, 422, "clock.period"),
        ({"clock": {"type": "absolute", "main": -5}}, 422, "clock.main"),
        ({"clock": {"type": "sundial"}}, 400, "clock"),
        ({"opponent": "bot", "bot_level": "godlike"}, 422, "bot_level"),
        ({"size": 3, "handicap": 9}, 422, None),
    ],
)
def test_bad_new_game_is_refused(fast_client: TestClient, body: dict[str, object], status: int,
                                 field: str | None) -> None:
    r = fast_client.post("/api/games", json=body)
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["field"] == field and err["message"]


def test_non_json_and_non_object_bodies(fast_client: TestClient) -> None:
    r = fast_client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad-request"
    gid, black, _white = two_players(fast_client)
    for bad in ([1, 2], "play", {"move": 40}, {"type": "teleport"}):
        r = fast_client.post(f"/api/games/{gid}/actions", json=bad, headers={"X-Keima-Seat": black})
        assert r.status_code == 400, (bad, r.text)
    for bad in ({"type": "play"}, {"type": "play", "move": 4.5}, {"type": "play", "move": [1]},
                {"type": "undo_answer", "accept": "yes"}, {"type": "play", "move": 40, "color": "red"},
                {"type": "place_handicap", "points": list(range(20))}):
        r = fast_client.post(f"/api/games/{gid}/actions", json=bad, headers={"X-Keima-Seat": black})
        assert r.status_code == 422, (bad, r.text)
        assert r.json()["error"]["code"] == "invalid-request"
    err = act(fast_client, gid, black, {"type": "play", "move": "Z99"}, status=409)["error"]
    assert err["reason"] == "off-board"
    assert state(fast_client, gid)["version"] == 1


def test_body_size_limit(fast_client: TestClient) -> None:
    gid, black, _white = two_players(fast_client)
    big = b'{"type": "play", "move": 40, "pad": "' + b"x" * 20000 + b'"}'
    r = fast_client.post(f"/api/games/{gid}/actions", content=big,
                         headers={"content-type": "application/json", "X-Keima-Seat": black})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too-large"
    assert state(fast_client, gid)["moves"] == []


def test_unknown_games_and_paths(fast_client: TestClient) -> None:
    for gid in ("nosuchgame", "bad$id", "x" * 40):
        r = fast_client.get(f"/api/games/{gid}")
        assert r.status_code == 404 and r.json()["error"]["code"] in ("no-such-game", "not-found")
    r = fast_client.post("/api/games/nosuchgame/actions", json={"type": "pass"})
    assert r.status_code == 404
    r = fast_client.get("/api/nothing-here")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not-found"
    r = fast_client.delete("/api/games")
    assert r.status_code == 405


def test_static_ui_is_served_and_confined(tmp_path: Path, sqlite_url: str) -> None:
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>keima ui</title>")
    (dist / "assets" / "app.js").write_text("console.log('keima')")
    (tmp_path / "secret.txt").write_text("no")
    with TestClient(create_app(sqlite_url, dist=dist)) as c:
        assert "keima ui" in c.get("/").text
        assert "keima ui" in c.get("/g/abc123").text
        r = c.get("/assets/app.js")
        assert r.status_code == 200 and "keima" in r.text
        assert c.get("/../secret.txt").status_code == 404
        assert c.get("/assets/%2e%2e/%2e%2e/secret.txt").status_code == 404
        assert c.get("/missing.js").status_code == 404
    with TestClient(create_app(sqlite_url, dist=tmp_path / "none")) as c:
        r = c.get("/")
        assert r.status_code == 200 and "not built" in r.text


def test_forged_seat_cookie_is_a_spectator(fast_client: TestClient) -> None:
    g = new_game(fast_client, size=9, opponent="local")
    gid = g["game"]["id"]
    fast_client.cookies.set(f"keima_seat_{gid}", g["seat"]["token"][:-2] + "xx")
    assert fast_client.get(f"/api/games/{gid}").json()["you"] == []
    r = fast_client.post(f"/api/games/{gid}/actions", json={"type": "pass"})
    assert r.status_code == 403
    fast_client.cookies.set(f"keima_seat_{gid}", g["seat"]["token"])
    r = fast_client.post(f"/api/games/{gid}/actions", json={"type": "play", "move": 40})
    assert r.status_code == 200


def test_pages_of_other_sites_cannot_act(fast_client: TestClient) -> None:
    gid, black, _white = two_players(fast_client)
    evil = {"Origin": "https://evil.example", "X-Keima-Seat": black}
    r = fast_client.post(f"/api/games/{gid}/actions", json={"type": "play", "move": 40}, headers=evil)
    assert r.status_code == 403 and r.json()["error"]["code"] == "cross-origin"
    r = fast_client.post("/api/games", json={}, headers={"Origin": "http://elsewhere:8000"})
    assert r.status_code == 403
    with fast_client.websocket_connect(f"/api/games/{gid}/ws", headers=evil) as ws:
        assert ws.receive_json()["game"]["you"] == []
        ws.send_json({"type": "action", "id": "e", "action": {"type": "play", "move": 40}})
        assert ws.receive_json()["error"]["code"] == "not-your-seat"
    # The server's own pages (same host) act normally.
    ok = {"Origin": "http://testserver", "X-Keima-Seat": black}
    r = fast_client.post(f"/api/games/{gid}/actions", json={"type": "play", "move": 40}, headers=ok)
    assert r.status_code == 200
