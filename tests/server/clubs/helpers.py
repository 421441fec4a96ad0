"""Helpers of the club tests: a club made by a registered admin, members joined by its invitation code."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from ..accounts.test_players import Browser, registered


def code_of(r: Any) -> str:
    """The refusal code of an error answer."""
    return str(r.json()["error"]["code"])


def club_with(client: TestClient, n: int = 3, **body: Any) -> tuple[Browser, list[Browser], dict[str, Any]]:
    """A club made by the admin ``boss`` with ``n`` more members (``member0``...) joined by its invitation code, in that
    order (the ladder: boss, member0, member1...); returns (admin, members, the club as the admin reads it)."""
    admin = Browser(client)
    registered(admin, "boss")
    club = admin.req("POST", "/api/clubs", 201, json={"name": "Club de go de Grenoble", "code": "38Gr",
                                                       "city": "Grenoble"} | body).json()
    members = []
    for i in range(n):
        b = Browser(client)
        registered(b, f"member{i}")
        b.req("POST", f"/api/clubs/{club['slug']}/members", 201, json={"code": club["you"]["code"]})
        members.append(b)
    return admin, members, club
