"""Deleting an account ends it everywhere: every game in progress (not only the newest hundred) is resigned, its
open challenges withdrawn, its seat tokens revoked in every game, live or finished, and a socket opened before
the deletion no longer writes under its name."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from ..accounts.test_players import Browser, open_challenge, registered


@pytest.fixture
def two(fast_client: TestClient) -> Iterator[tuple[Browser, Browser]]:
    yield Browser(fast_client), Browser(fast_client)


def test_deleting_an_account_ends_every_game_and_every_seat(two: tuple[Browser, Browser]) -> None:
    a, b = two
    registered(a, "delia")
    registered(b, "bruno")
    live: list[tuple[str, str]] = []
    for _ in range(104):  # more than a page of "my games"
        g = open_challenge(a)
        b.req("POST", f"/api/games/{g['game']['id']}/join", 200, json={})
        live.append((g["game"]["id"], g["seat"]["token"]))
    done = open_challenge(a)
    done_id, done_token = done["game"]["id"], done["seat"]["token"]
    b.req("POST", f"/api/games/{done_id}/join", 200, json={})
    b.req("POST", f"/api/games/{done_id}/actions", 200, json={"type": "resign"})
    waiting = open_challenge(a)["game"]["id"]  # nobody took it
    gid, token = live[-1]
    with a.ws(f"/api/games/{gid}/ws") as sock:
        assert sock.receive_json()["type"] == "state"
        a.req("DELETE", "/api/me", 204)
        sock.send_json({"type": "action", "id": "c", "action": {"type": "chat", "text": "still me?"}})
        while (msg := sock.receive_json())["type"] != "error":
            pass
        assert msg["error"]["status"] == 403
    assert b.req("GET", "/api/me/games", 200, params={"status": "live"}).json()["games"] == []
    results = {b.req("GET", f"/api/games/{g}", 200).json()["result"] for g, _ in live}
    assert results == {"W+R"}  # every one resigned: delia held Black
    assert b.req("GET", f"/api/games/{waiting}").status_code == 404  # withdrawn, without a result
    seat = {"X-Keima-Seat": token}
    for game, tok in ((gid, token), (done_id, done_token)):
        refused = b.c.post(f"/api/games/{game}/actions", json={"type": "chat", "text": "hello"},
                           headers={"X-Keima-Seat": tok})
        assert refused.status_code == 403, refused.text
    assert b.c.post(f"/api/games/{gid}/actions", json={"type": "undo_request"}, headers=seat).status_code in (403, 409)
    chat = b.req("GET", f"/api/games/{gid}", 200).json()["chat"]
    assert all(m["text"] != "still me?" for m in chat)
    names = b.req("GET", f"/api/games/{done_id}", 200).json()["players"]
    assert names["B"]["name"].startswith("deleted-") and names["B"]["seated"]
