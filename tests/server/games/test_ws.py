"""The WebSocket: the whole state on connection, then one delta per change to players and spectators, actions
with ack/error."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from server.helpers import act, two_players


def _next(ws: Any, kind: str) -> dict[str, Any]:
    """Read messages until one of type ``kind``."""
    for _ in range(20):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def test_spectator_and_players_get_live_updates(client: TestClient) -> None:
    gid, black, white = two_players(client)
    url = f"/api/games/{gid}/ws"
    with client.websocket_connect(url) as spect, client.websocket_connect(url, headers={"X-Keima-Seat": white}) as w:
        first = spect.receive_json()
        assert first["type"] == "state" and first["game"]["you"] == [] and first["game"]["version"] == 1
        assert first["protocol"] == 2
        assert w.receive_json()["game"]["you"] == ["W"]
        act(client, gid, black, {"type": "play", "move": 40})
        d = _next(spect, "delta")
        assert (d["from"], d["to"]) == (1, 2) and d["placed"] == [[40, "B"]] and d["to_move"] == "W"
        assert d["event"] == {"type": "moved", "move": {"n": 1, "color": "B", "point": 40, "vertex": "E5",
                                                         "captures": 0}}
        assert "board" not in d and "moves" not in d and "you" not in d
        assert _next(w, "delta")["placed"] == [[40, "B"]]
        # White answers over the socket: the delta of the move, then the ack.
        w.send_json({"type": "action", "id": "w1", "action": {"type": "play", "move": "D5"}})
        d = _next(w, "delta")
        assert d["event"]["move"]["vertex"] == "D5"
        assert w.receive_json() == {"type": "ack", "id": "w1"}
        assert _next(spect, "delta")["to"] == 3


def test_socket_errors_keep_the_socket_open(client: TestClient) -> None:
    gid, black, white = two_players(client)
    with client.websocket_connect(f"/api/games/{gid}/ws", headers={"X-Keima-Seat": white}) as w:
        w.receive_json()
        w.send_text("this is not json")
        err = w.receive_json()
        assert err["type"] == "error" and err["id"] is None and err["error"]["code"] == "bad-request"
        w.send_json({"type": "action", "id": "x", "action": {"type": "play", "move": 40}})
        err = w.receive_json()
        assert err == {"type": "error", "id": "x", "error": {
            "code": "illegal-move", "reason": "wrong-turn", "status": 409, "field": None, "line": None,
            "message": err["error"]["message"]}}
        w.send_json({"type": "action", "id": "y", "action": {"type": "fly"}})
        assert w.receive_json()["error"]["code"] == "bad-request"
        w.send_json({"type": "action", "id": "z", "action": {"type": "play", "move": 40, "extra": 1}})
        assert w.receive_json()["error"]["code"] == "invalid-request"
        w.send_text(json.dumps({"type": "action", "id": "big", "action": {"type": "play", "move": "x" * 20000}}))
        assert w.receive_json()["error"]["code"] == "too-large"
        w.send_bytes(b'{"type": "ping"}')
        assert w.receive_json()["error"]["code"] == "bad-request"
        w.send_json({"type": "ping"})
        assert w.receive_json() == {"type": "pong"}
    # A spectator's socket cannot act.
    with client.websocket_connect(f"/api/games/{gid}/ws") as spect:
        spect.receive_json()
        spect.send_json({"type": "action", "id": "s", "action": {"type": "play", "move": 40}})
        assert spect.receive_json()["error"]["code"] == "not-your-seat"
    s = client.get(f"/api/games/{gid}").json()
    assert s["version"] == 1 and s["moves"] == []


def test_reconnection_gets_the_current_state(client: TestClient) -> None:
    gid, black, white = two_players(client)
    with client.websocket_connect(f"/api/games/{gid}/ws", headers={"X-Keima-Seat": black}) as b:
        b.receive_json()
        b.send_json({"type": "action", "id": "1", "action": {"type": "play", "move": 40}})
        _next(b, "ack")
    act(client, gid, white, {"type": "play", "move": 41})  # while Black is away
    with client.websocket_connect(f"/api/games/{gid}/ws", headers={"X-Keima-Seat": black}) as b:
        s = b.receive_json()["game"]
        assert [m["point"] for m in s["moves"]] == [40, 41] and s["you"] == ["B"]


def test_unknown_game_closes_the_socket(client: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect) as info, client.websocket_connect("/api/games/nosuchgame/ws") as ws:
        ws.receive_json()
    assert info.value.code == 4404
