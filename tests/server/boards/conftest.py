"""Players for the demo boards' tests: a registered player's session, sent as the cookie of each request."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from keima.server.accounts import SESSION_COOKIE


class As:
    """Requests to the application as one player (their session cookie), or as nobody."""

    def __init__(self, c: TestClient, name: str | None) -> None:
        self.c = c
        self.headers: dict[str, str] = {}
        self.id: str | None = None
        if name is not None:
            r = c.post("/api/players", json={"name": name, "password": "a long secret"})
            assert r.status_code == 201, r.text
            self.id = r.json()["id"]
            self.headers = {"Cookie": f"{SESSION_COOKIE}={c.cookies.get(SESSION_COOKIE)}"}
            c.cookies.clear()

    def req(self, method: str, path: str, status: int = 200, **kw: Any) -> Any:
        """A request; asserts its status and returns the JSON answer (None for an empty one)."""
        r = self.c.request(method, path, headers=self.headers, **kw)
        assert r.status_code == status, r.text
        return r.json() if r.content and r.headers.get("content-type", "").startswith("application/json") else r

    def op(self, bid: str, version: int, op: dict[str, Any], status: int = 200) -> Any:
        """``POST /api/boards/{bid}/ops``."""
        return self.req("POST", f"/api/boards/{bid}/ops", status, json={"version": version, "op": op})

    def ws(self, bid: str) -> Any:
        """The board's socket, as this player."""
        return self.c.websocket_connect(f"/api/boards/{bid}/ws", headers=self.headers)


@pytest.fixture
def people(fast_client: TestClient) -> dict[str, As]:
    """A teacher, two students and nobody (no player), on one application."""
    return {name: As(fast_client, None if name == "nobody" else name)
            for name in ("teacher", "ann", "bob", "nobody")}
