"""Abandoned live games (issue 47 item 4): a player whose every page is gone for the game's limit lets the
opponent claim the win, or annul before move 10; a player back in time loses nothing; correspondence games keep
their clocks; the games abandoned count on the player's conduct."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from ..accounts.test_players import Browser, open_challenge, registered

BLITZ = {"clock": {"type": "byoyomi", "main": 300, "period": 10, "periods": 5}}
MOVES = ["C3", "G7", "C7", "G3", "E5", "D4", "F6", "E3", "D6", "F4"]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def game(fast_client: TestClient) -> Any:
    a, b, c = Browser(fast_client), Browser(fast_client), Browser(fast_client)
    registered(a, "alice")
    registered(b, "bobby")
    clock = Clock()
    fast_client.app.state.moderation.presence.clock = clock  # type: ignore[attr-defined]

    def make(body: dict[str, Any] = BLITZ) -> str:
        gid: str = open_challenge(a, **body)["game"]["id"]
        b.req("POST", f"/api/games/{gid}/join", 200, json={})
        return gid

    return a, b, c, clock, make


def look(a: Browser, gid: str) -> dict[str, Any]:
    data: dict[str, Any] = a.req("GET", f"/api/games/{gid}/abandoned", 200).json()
    return data


def claim(a: Browser, gid: str, outcome: str, status: int) -> Any:
    return a.req("POST", f"/api/games/{gid}/abandoned", status, json={"outcome": outcome})


def test_the_opponent_claims_the_win_after_the_limit_without_a_page(game: Any) -> None:
    a, b, _c, clock, make = game
    gid = make()
    with b.ws("/api/lobby/ws") as page:  # bobby's page is open: nothing to claim
        page.receive_json()
        assert look(a, gid) == {"away_s": 0.0, "claim_after_s": 60.0, "can_claim": False, "may_annul": True}
        clock.now += 100
        assert claim(a, gid, "win", 409).json()["error"]["code"] == "not-abandoned"
    assert look(a, gid)["away_s"] == 0.0  # gone from now on
    clock.now += 59
    refused = claim(a, gid, "win", 409).json()["error"]
    assert refused["code"] == "not-abandoned" and "1 seconds" in refused["message"]
    clock.now += 1
    assert look(a, gid)["can_claim"] is True
    claim(a, gid, "win", 204)
    state = a.req("GET", f"/api/games/{gid}", 200).json()
    assert (state["phase"], state["result"]) == ("finished", "B+F")
    assert a.req("GET", "/api/players/bobby/conduct", 200).json() == {"abandoned": 1, "games": 1, "shown": False}
    assert look_status(a, gid) == 409


def look_status(a: Browser, gid: str) -> int:
    status: int = a.req("GET", f"/api/games/{gid}/abandoned").status_code
    return status


def test_a_player_back_in_time_loses_nothing(game: Any) -> None:
    a, b, _c, clock, make = game
    gid = make()
    look(a, gid)
    clock.now += 50
    with b.ws("/api/lobby/ws") as page:  # back before the limit: the count starts again
        page.receive_json()
        assert look(a, gid)["away_s"] == 0.0
    clock.now += 30
    look(a, gid)
    clock.now += 30
    assert claim(a, gid, "win", 409).json()["error"]["code"] == "not-abandoned"
    assert a.req("GET", f"/api/games/{gid}", 200).json()["phase"] == "play"


def test_annul_before_move_ten_only_and_unrated(game: Any) -> None:
    a, b, _c, clock, make = game
    gid = make()
    look(a, gid)
    clock.now += 61
    claim(a, gid, "annul", 204)
    state = a.req("GET", f"/api/games/{gid}", 200).json()
    assert (state["result"], state["rated"]) == ("Void", False)
    later = make()
    for i, move in enumerate(MOVES):
        (a if i % 2 == 0 else b).req("POST", f"/api/games/{later}/actions", 200, json={"type": "play", "move": move})
    assert look(a, later)["may_annul"] is False
    clock.now += 61
    look(a, later)
    clock.now += 61
    assert claim(a, later, "annul", 422).json()["error"]["field"] == "outcome"
    claim(a, later, "win", 204)


def test_correspondence_games_and_spectators_cannot_claim(game: Any) -> None:
    a, _b, c, clock, make = game
    gid = make({"clock": {"type": "fischer", "main": 86400 * 3, "increment": 86400, "max": 86400 * 7}})
    assert look(a, gid)["claim_after_s"] is None
    clock.now += 10_000
    assert claim(a, gid, "win", 409).json()["error"]["code"] == "not-live"
    c.me()
    live = make()
    assert c.req("GET", f"/api/games/{live}/abandoned", 403).json()["error"]["code"] == "not-your-seat"
    assert claim(c, live, "win", 403).json()["error"]["code"] == "not-your-seat"
    assert claim(a, live, "draw", 422).status_code == 422
