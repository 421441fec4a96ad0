"""A rated game's ``rated`` flag and, once rated, its ``rating_change`` in the state, the lobby lines, "my games"
and the game's socket; and a rank that is earned after the first rated game."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from keima.ratings import game as rating_game
from keima.ratings.glicko2 import Rating

from ..accounts.test_players import Browser, registered
from ..helpers import wait_for
from .test_ratings import rated_game


def _change(b: Browser, gid: str) -> Any:
    return b.req("GET", f"/api/games/{gid}", 200).json()["rating_change"]


def test_the_rating_change_reaches_the_game_and_its_lines(client: TestClient) -> None:
    alice, bob = Browser(client), Browser(client)
    registered(alice, "alice")
    registered(bob, "bobby")
    alice.req("PATCH", "/api/me", 200, json={"rank": "5k"})
    gid = rated_game(alice, bob)  # alice (Black) wins
    state = alice.req("GET", f"/api/games/{gid}", 200).json()
    assert state["rated"] is True
    with alice.ws(f"/api/games/{gid}/ws") as sock:
        first = sock.receive_json()
        assert first["type"] == "state"
        wait_for(lambda: _change(alice, gid) is not None)
        if first["game"]["rating_change"] is None:  # rated after the page opened: a delta tells it
            while (msg := sock.receive_json()).get("event", {}).get("type") != "rated":
                pass
            assert msg["rating_change"] == msg["event"]["rating_change"] == _change(alice, gid)
    new_b, new_w = rating_game.rate(rating_game.initial("5k"), Rating(), 1.0)
    change = _change(alice, gid)
    assert change == {"B": round(new_b.rating - rating_game.initial("5k").rating, 1),
                      "W": round(new_w.rating - 1500, 1)}
    assert change["B"] > 0 > change["W"]
    finished = alice.req("GET", "/api/games?status=finished", 200).json()["games"]
    assert [(g["id"], g["rated"], g["rating_change"]) for g in finished] == [(gid, True, change)]
    mine = bob.req("GET", "/api/me/games?status=finished", 200).json()["games"]
    assert mine[0]["rating_change"] == change


def test_an_unrated_game_has_no_rating_change(client: TestClient) -> None:
    a, b = Browser(client), Browser(client)
    registered(a, "casual")
    registered(b, "friendly")
    g = a.req("POST", "/api/games", 201, json={"size": 9, "opponent": "invite"}).json()["game"]
    assert g["rated"] is False and g["rating_change"] is None
    line = a.req("GET", "/api/me/games", 200).json()["games"][0]
    assert line["rated"] is False and line["rating_change"] is None


@pytest.mark.parametrize("rank", ["3k", None])
def test_a_rank_is_earned_after_the_first_rated_game(client: TestClient, rank: str | None) -> None:
    alice, bob = Browser(client), Browser(client)
    registered(alice, "earner")
    registered(bob, "other")
    alice.req("PATCH", "/api/me", 200, json={"rank": "5k"})  # before any rated game: declared freely
    rated_game(alice, bob)
    wait_for(lambda: len(alice.req("GET", "/api/players/earner/ratings", 200).json()["ratings"]) == 1)
    err = alice.req("PATCH", "/api/me", 409, json={"rank": rank}).json()["error"]
    assert err["code"] == "rank-earned" and err["field"] == "rank" and "rank" in err["message"]
    # The rank sent back unchanged (a form that sends every field) and a rename still pass.
    assert alice.req("PATCH", "/api/me", 200, json={"rank": "5k", "name": "earner2"}).json()["name"] == "earner2"
