"""Every request of the fuzz corpus gets a 4xx (or a success), never a 5xx, and every error is the JSON error
body; every WebSocket frame gets an answer and leaves the socket open."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from keima.server import create_app
from keima.server.errors import ErrorBody
from keima.server.games.answers import WsError
from server.fuzz_corpus import HEADERS, WS_FRAMES, http_corpus


@pytest.fixture
def raw_client(tmp_path: Path) -> Iterator[TestClient]:
    """A client that sees a server error as a 500 answer instead of an exception in the test."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'fuzz.db'}"), raise_server_exceptions=False) as c:
        yield c


def _headers(h: dict[str, str]) -> dict[str, Any]:
    # Header values outside ASCII travel as their latin-1 bytes, as a real client could send them.
    return {k: v.encode("latin-1") for k, v in h.items()}


def test_no_request_of_the_corpus_gets_a_5xx(raw_client: TestClient) -> None:
    started = time.monotonic()
    g = raw_client.post("/api/games", json={"size": 9, "opponent": "invite"}).json()
    gid = g["game"]["id"]
    corpus = http_corpus(gid)
    assert len(corpus) > 300
    failures = []
    for method, path, headers, body in corpus:
        raw_client.cookies.clear()
        r = raw_client.request(method, path, headers=_headers(headers), content=body)
        where = f"{method} {path[:80]!r} {headers!r} {(body or b'')[:60]!r}"
        if r.status_code >= 500:
            failures.append(f"{r.status_code} for {where}: {r.text[:200]}")
            continue
        assert r.headers.get("x-content-type-options") == "nosniff", where
        assert "frame-ancestors 'none'" in r.headers.get("content-security-policy", ""), where
        if r.status_code >= 400 and method != "HEAD":
            err = ErrorBody.model_validate_json(r.content).error
            assert err.code and err.message, where
            # A client's text is quoted cut short: no message repeats a whole oversized input.
            assert len(err.message) < 400, (where, err.message)
    assert not failures, "\n".join(failures)
    # The game the corpus hammered is intact: nobody held its seats, so nothing changed.
    s = raw_client.get(f"/api/games/{gid}").json()
    assert s["version"] == 0 and s["moves"] == [] and s["invite_open"] is True
    assert time.monotonic() - started < 60


def _answer(ws: Any) -> dict[str, Any]:
    """The answer to the frame just sent (states sent on a change come first)."""
    for _ in range(10):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] != "state":
            return msg
    raise AssertionError("no answer to the frame")


@pytest.mark.parametrize("headers", [{}, *HEADERS[:7]], ids=lambda h: "-".join(h) or "plain")
def test_every_websocket_frame_gets_an_answer_and_the_socket_stays_open(raw_client: TestClient,
                                                                       headers: dict[str, str]) -> None:
    g = raw_client.post("/api/games", json={"size": 9, "opponent": "local"}).json()
    gid, token = g["game"]["id"], g["seat"]["token"]
    raw_client.cookies.clear()
    with raw_client.websocket_connect(f"/api/games/{gid}/ws",
                                      headers=_headers(headers) | {"x-keima-seat": token}) as ws:
        assert ws.receive_json()["type"] == "state"
        for frame in WS_FRAMES:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            msg = _answer(ws)
            if msg["type"] == "error":
                err = WsError.model_validate(msg).error
                assert err.status < 500 and err.message, (frame[:80], msg)
            else:
                assert msg["type"] in ("ack", "pong"), (frame[:80], msg)
        ws.send_json({"type": "ping"})
        assert _answer(ws) == {"type": "pong"}
