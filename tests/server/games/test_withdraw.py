"""An open challenge or an invitation nobody answered can be withdrawn by its creator, without a result; nobody
plays a move before both seats are taken."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ..helpers import act, new_game, state


def seat(token: str) -> dict[str, str]:
    return {"X-Keima-Seat": token}


def test_the_creator_withdraws_an_open_challenge_and_it_is_gone(fast_client: TestClient) -> None:
    c = fast_client
    g = new_game(c, size=9, opponent="open", color="B")
    gid, tok = g["game"]["id"], g["seat"]["token"]
    assert gid in [x["id"] for x in c.get("/api/games", params={"status": "open"}).json()["games"]]
    refused = act(c, gid, tok, {"type": "play", "move": "E5"}, status=409)
    assert refused["error"]["code"] == "no-opponent"
    assert c.delete(f"/api/games/{gid}").json()["error"]["code"] == "not-creator"  # a stranger: 403
    assert c.delete(f"/api/games/{gid}").status_code == 403
    r = c.delete(f"/api/games/{gid}", headers=seat(tok))
    assert r.status_code == 204
    assert c.get(f"/api/games/{gid}").status_code == 404
    assert gid not in [x["id"] for x in c.get("/api/games", params={"status": "open"}).json()["games"]]
    assert c.delete(f"/api/games/{gid}", headers=seat(tok)).status_code == 404


def test_an_invitation_is_withdrawn_until_it_is_taken(fast_client: TestClient) -> None:
    c = fast_client
    g = new_game(c, size=9, opponent="invite", color="W")
    gid, tok = g["game"]["id"], g["seat"]["token"]
    with c.websocket_connect(f"/api/games/{gid}/ws") as watcher:
        watcher.receive_json()
        assert c.delete(f"/api/games/{gid}", headers=seat(tok)).status_code == 204
        gone = watcher.receive_json()
        assert gone["type"] == "delta" and gone["event"] == {"type": "withdrawn"}
    taken = new_game(c, size=9, opponent="invite", color="B")
    tid = taken["game"]["id"]
    r = c.post(f"/api/games/{tid}/join", json={"code": taken["invite"]["code"]}, headers=seat("nobody-yet"))
    assert r.status_code == 200
    c.cookies.clear()
    refused = c.delete(f"/api/games/{tid}", headers=seat(taken["seat"]["token"]))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game-started"
    act(c, tid, taken["seat"]["token"], {"type": "play", "move": "E5"})
    assert state(c, tid)["moves"][0]["vertex"] == "E5"
