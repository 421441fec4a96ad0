"""A rated game ended as an abandoned start (a side played fewer than five stones: docs/ratings.md) is not shown
as rated: its state, its lobby line and "my games" said "rated" while no rating moved."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from keima.ratings.game import MIN_MOVES

from ..accounts.test_players import Browser, registered
from .test_ratings import rated_game


@pytest.mark.parametrize(("moves", "rated"), [(MIN_MOVES - 1, False), (MIN_MOVES, True)])
def test_an_abandoned_start_is_not_shown_as_rated(client: TestClient, moves: int, rated: bool) -> None:
    alice, bob = Browser(client), Browser(client)
    registered(alice, f"alice{moves}")
    registered(bob, f"bobby{moves}")
    gid = rated_game(alice, bob, moves=moves)
    assert alice.req("GET", f"/api/games/{gid}", 200).json()["rated"] is rated
    line = next(g for g in alice.req("GET", "/api/games?status=finished", 200).json()["games"] if g["id"] == gid)
    assert line["rated"] is rated
    assert bob.req("GET", "/api/me/games?status=finished", 200).json()["games"][0]["rated"] is rated
