"""Time zones and vacations: the days a player holds (7 to start, 1 more for each 7 days, 30 at most, spent while
away, ending by itself at 0), and their correspondence clocks pausing while they are away."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from keima.server import create_app
from keima.server.accounts.vacation import CAP_S, DAY, MIN_START_S, START_S, Vacation

from ..accounts.test_players import Browser, open_challenge, registered
from ..helpers import wait_for
from ..moved_time import MovedTime, moved_time

H = 3600.0


@pytest.mark.parametrize(("days_since_start", "days_left"), [
    (0, 7), (6.9, 7 + 6.9 / 7), (7, 8), (14, 9), (70, 17), (161, 30), (1000, 30),
])
def test_a_player_earns_a_day_of_vacation_a_week_up_to_thirty(days_since_start: float, days_left: float) -> None:
    assert Vacation(at=0.0).left_at(days_since_start * DAY) == pytest.approx(days_left * DAY)


def test_days_are_spent_while_away_and_a_vacation_ends_by_itself_at_zero() -> None:
    v = Vacation(at=0.0).start(7 * DAY)  # 8 days held
    assert v.away(7 * DAY) and v.left_at(10 * DAY) == pytest.approx(5 * DAY)  # no day earned while away
    assert v.ends_at() == 15 * DAY and v.interval() == (7 * DAY, 15 * DAY)
    assert not v.away(15 * DAY) and v.left_at(15 * DAY) == 0
    assert v.left_at(22 * DAY) == pytest.approx(DAY)  # earning again from the day it ended
    back = v.start(9 * DAY + 1) if not v.away(9 * DAY) else v.stop(9 * DAY)
    assert not back.away(9 * DAY) and back.left_at(9 * DAY) == pytest.approx(6 * DAY)
    with pytest.raises(ValueError, match="no vacation left"):
        v.start(15 * DAY)
    with pytest.raises(ValueError, match="already"):
        v.start(8 * DAY)


@given(st.lists(st.tuples(st.booleans(), st.floats(0, 60 * DAY)), max_size=20))
def test_the_days_held_stay_between_zero_and_thirty(steps: list[tuple[bool, float]]) -> None:
    v, t = Vacation(at=0.0), 0.0
    for go, wait in steps:
        t += wait
        held = v.left_at(t)
        assert 0 <= held <= CAP_S + 1e-6
        if go and not v.away(t) and held >= MIN_START_S:
            v = v.start(t)
        elif not go:
            v = v.stop(t)
            assert v.left_at(t) == pytest.approx(held)  # coming back keeps what is left


# -------------------------------------------------------------------------------------------- the API
@pytest.fixture
def moved() -> Iterator[MovedTime]:
    with moved_time(datetime(2026, 12, 2, 12, 0, tzinfo=UTC).timestamp()) as t:  # a Wednesday
        yield t


@pytest.fixture
def two(moved: MovedTime, sqlite_url: str) -> Iterator[tuple[Browser, Browser]]:
    with TestClient(create_app(sqlite_url)) as c:
        yield Browser(c), Browser(c)


def game(a: Browser, b: Browser, clock: dict[str, Any]) -> str:
    g = open_challenge(a, clock=clock)
    gid: str = g["game"]["id"]
    b.req("POST", f"/api/games/{gid}/join", 200, json={})
    return gid


def clock_of(b: Browser, gid: str) -> dict[str, Any]:
    out: dict[str, Any] = b.req("GET", f"/api/games/{gid}", 200).json()["clock"]
    return out


def test_a_time_zone_is_an_iana_name(two: tuple[Browser, Browser]) -> None:
    a, _b = two
    registered(a, "alice")
    assert a.req("PATCH", "/api/me", 200, json={"time_zone": "Europe/Paris"}).json()["time_zone"] == "Europe/Paris"
    for bad in ("Mars/Olympus", "../../etc/passwd", "CEST"):
        r = a.req("PATCH", "/api/me", 422, json={"time_zone": bad})
        assert r.json()["error"]["field"] == "time_zone"
    assert a.req("GET", "/api/me", 200).json()["time_zone"] == "Europe/Paris"


def test_a_vacation_pauses_only_the_players_own_clock(two: tuple[Browser, Browser], moved: MovedTime) -> None:
    a, b = two
    registered(a, "alice")
    registered(b, "bob")
    assert a.req("GET", "/api/me", 200).json()["vacation"] == {"on": False, "days_left": 7.0, "until": None}
    gid = game(a, b, {"type": "simple", "per_move": 2 * DAY, "weekend_pause": False})
    other = game(a, b, {"type": "simple", "per_move": 2 * DAY, "weekend_pause": False, "vacation": False})
    blitz = game(a, b, {"type": "fischer", "main": 600, "increment": 5})
    moved.move(H)
    me = a.req("PUT", "/api/me/vacation", 200).json()
    assert me["vacation"]["on"] and me["vacation"]["until"] == pytest.approx(moved.time() + 7 * DAY + H / 7, abs=5)
    moved.move(3 * DAY)  # away: Black's clock stands still, where vacation counts
    c = clock_of(b, gid)
    assert c["paused"] == {"B": "vacation", "W": None} and c["B"]["main"] == pytest.approx(2 * DAY - H, abs=5)
    assert clock_of(b, other)["paused"]["B"] is None
    assert clock_of(b, blitz)["paused"]["B"] is None
    # Back after 3 days: 4 days left, and the clock runs again.
    me = a.req("DELETE", "/api/me/vacation", 200).json()
    assert me["vacation"] == {"on": False, "days_left": pytest.approx(4.0 + H / 7 / DAY, abs=1e-2), "until": None}
    moved.move(H)
    c = clock_of(b, gid)
    assert c["paused"]["B"] is None and c["B"]["main"] == pytest.approx(2 * DAY - 2 * H, abs=5)
    # The game offered with "no vacation" ran all along: Black's 2 days are gone there.
    # (the durable scheduler finds it at its next poll)
    wait_for(lambda: b.req("GET", f"/api/games/{other}", 200).json()["result"] == "W+T", timeout=20)


def test_a_vacation_ends_by_itself_when_its_days_are_spent(two: tuple[Browser, Browser], moved: MovedTime) -> None:
    a, b = two
    registered(a, "alice")
    registered(b, "bob")
    gid = game(a, b, {"type": "simple", "per_move": 2 * DAY, "weekend_pause": False})
    a.req("PUT", "/api/me/vacation", 200)
    moved.move(7 * DAY + 2 * H)  # the 7 days (and the few minutes earned) are spent: the clock ran again since
    me = a.req("GET", "/api/me", 200).json()
    assert me["vacation"]["on"] is False and me["vacation"]["days_left"] < 2 * H / 7 / DAY
    c = clock_of(b, gid)
    assert c["paused"]["B"] is None and c["B"]["main"] == pytest.approx(2 * DAY - 2 * H, abs=5)
    assert a.req("PUT", "/api/me/vacation", 409).json()["error"]["code"] == "no-vacation-left"
    assert START_S == 7 * DAY


def test_the_vacation_and_time_zone_reach_a_game_joined_later(two: tuple[Browser, Browser],
                                                               moved: MovedTime) -> None:
    a, b = two
    registered(a, "alice")
    registered(b, "bob")
    b.req("PATCH", "/api/me", 200, json={"time_zone": "Asia/Tokyo"})
    b.req("PUT", "/api/me/vacation", 200)
    gid = game(a, b, {"type": "simple", "per_move": DAY})
    assert clock_of(a, gid)["paused"]["W"] == "vacation"
    a.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "play", "move": "E5"})
    # Friday 2026-12-04 16:00 UTC is Saturday 01:00 in Tokyo: once back, White's weekend pauses it.
    b.req("DELETE", "/api/me/vacation", 200)
    moved.move(2 * DAY + 4 * H)
    assert clock_of(a, gid)["paused"]["W"] == "weekend"
