"""The chat's limits per game and per address (issue 30, item 8): many fresh guests cannot flood a game's chat
between them, over HTTP or the WebSocket, and a refused flood makes no guests."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

import keima.server.accounts.limits as limits_mod
import keima.server.games.chat as chat_mod
from keima.server import create_app
from keima.server.accounts.limits import CHAT_ADDRESS_LIMIT, CHAT_GAME_LIMIT

from ..accounts.test_players import Browser, open_challenge


def spectator_says(c: TestClient, gid: str, text: str, status: int | None = None) -> dict[str, object]:
    """A fresh browser (a new guest) writes to the spectators' chat."""
    body: dict[str, object] = Browser(c).req("POST", f"/api/games/{gid}/actions", status,
                                             json={"type": "chat", "text": text, "to": "spectators"}).json()
    return body


def test_fresh_guests_from_one_address_are_limited(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url)) as c:
        gid = open_challenge(Browser(c))["game"]["id"]
        for i in range(CHAT_ADDRESS_LIMIT):
            spectator_says(c, gid, f"hello {i}", 200)
        err = spectator_says(c, gid, "one more", 429)["error"]
        assert err["code"] == "too-many-requests" and "from this address" in err["message"]  # type: ignore[index]
        for _ in range(20):
            spectator_says(c, gid, "and more", 429)
        state = c.get(f"/api/games/{gid}").json()
        assert len(state["chat"]) == CHAT_ADDRESS_LIMIT
    engine = sa.create_engine(sqlite_url)
    with engine.connect() as conn:
        guests = conn.execute(sa.text("SELECT count(*) FROM players")).scalar_one()
    engine.dispose()
    assert guests == 1 + CHAT_ADDRESS_LIMIT  # the refused messages made no player


def test_a_game_has_its_own_limit(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Addresses are not what this test is about: one address may send as many as it likes here.
    monkeypatch.setattr(limits_mod, "CHAT_ADDRESS_LIMIT", 10_000)
    with TestClient(create_app(sqlite_url)) as c:
        gid = open_challenge(Browser(c))["game"]["id"]
        other = open_challenge(Browser(c))["game"]["id"]
        for i in range(CHAT_GAME_LIMIT):
            spectator_says(c, gid, f"hello {i}", 200)
        err = spectator_says(c, gid, "one more", 429)["error"]
        assert "in this game" in err["message"]  # type: ignore[index]
        spectator_says(c, other, "another game is not flooded", 200)


def test_messages_over_the_websocket_count_too(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chat_mod, "CHAT_LIMIT", 1000)  # one sender here: its own limit is not the subject
    with TestClient(create_app(sqlite_url)) as c:
        host = Browser(c)
        gid = open_challenge(host)["game"]["id"]
        with host.ws(f"/api/games/{gid}/ws") as ws:
            ws.receive_json()
            refused = 0
            for i in range(CHAT_ADDRESS_LIMIT + 3):
                ws.send_json({"type": "action", "id": str(i), "action": {"type": "chat", "text": f"m{i}"}})
                while True:
                    msg = ws.receive_json()
                    if msg["type"] in ("ack", "error") and msg["id"] == str(i):
                        break
                if msg["type"] == "error":
                    assert msg["error"]["status"] == 429 and "from this address" in msg["error"]["message"]
                    refused += 1
            assert refused == 3
