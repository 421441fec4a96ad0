"""A socket opened on a brand-new game gets its state at once."""

from __future__ import annotations

from fastapi.testclient import TestClient

from server.helpers import new_game


def test_new_game_socket_gets_the_state_before_any_move(fast_client: TestClient) -> None:
    g = new_game(fast_client, size=9, opponent="local")
    gid = g["game"]["id"]
    assert g["game"]["version"] == 0  # nothing stored in the log yet: the case that used to be skipped
    with fast_client.websocket_connect(f"/api/games/{gid}/ws", headers={"X-Keima-Seat": g["seat"]["token"]}) as ws:
        # The ping's pong bounds the wait: the state must come before it, not only after a first move.
        ws.send_json({"type": "ping"})
        first = ws.receive_json()
        assert first["type"] == "state", first
        assert first["game"]["version"] == 0 and first["game"]["you"] == ["B", "W"]
        assert ws.receive_json() == {"type": "pong"}
