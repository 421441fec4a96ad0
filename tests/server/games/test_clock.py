"""Clocks: the arithmetic of each time control, and the server deciding time losses by itself."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from keima.server.games.clock import ClockSpec, GameClock
from keima.server.games.view import clock_out
from server.helpers import act, new_game, state, two_players, wait_for

B, W = 1, 2


def test_absolute() -> None:
    c = GameClock(ClockSpec("absolute", main=10))
    c.start(B, 0.0)
    assert c.time_left(B, 4.0) == 6.0
    assert not c.stop(4.0)
    assert c.sides[B].main == 6.0 and c.sides[W].main == 10.0
    c.start(W, 4.0)
    assert c.stop(14.5)
    assert c.sides[W].expired and c.time_left(W) == 0.0


def test_fischer_adds_the_increment_up_to_the_cap() -> None:
    c = GameClock(ClockSpec("fischer", main=10, increment=5, max=12))
    assert not c.charge(B, 2.0)
    assert c.sides[B].main == 12.0  # 8 + 5 capped at 12
    assert not c.charge(B, 11.0)
    assert c.sides[B].main == 6.0
    assert c.charge(B, 6.5)


def test_byoyomi_periods() -> None:
    c = GameClock(ClockSpec("byoyomi", main=10, period=5, periods=3))
    assert not c.charge(B, 12.0)  # 10 main + 2 of the first period: kept, and reset
    assert (c.sides[B].main, c.sides[B].periods, c.sides[B].period) == (0.0, 3, 5.0)
    assert not c.charge(B, 4.9)
    assert c.sides[B].periods == 3
    assert not c.charge(B, 7.0)  # overran one period
    assert c.sides[B].periods == 2 and c.time_left(B) == 10.0
    assert c.charge(B, 10.0)  # both remaining periods used up: time loss
    assert c.sides[B].expired and c.sides[B].periods == 0


def test_canadian_overtime() -> None:
    c = GameClock(ClockSpec("canadian", main=5, period=20, stones=2))
    assert not c.charge(B, 8.0)  # 3 s of overtime, one stone
    assert (c.sides[B].period, c.sides[B].stones) == (17.0, 1)
    assert not c.charge(B, 10.0)  # second stone: a new period starts
    assert (c.sides[B].period, c.sides[B].stones) == (20.0, 2)
    assert not c.charge(B, 19.0)
    assert c.charge(B, 1.5)


def test_view_counts_the_running_side_down_and_snapshot_round_trips() -> None:
    c = GameClock(ClockSpec("byoyomi", main=1, period=10, periods=2))
    c.start(W, 100.0)
    v = clock_out(c, 104.0)
    assert v is not None
    assert v.running == "W" and v.W.main == 0 and v.W.period == 7.0 and v.W.periods == 2
    assert v.B.main == 1
    assert c.sides[W].period == 10  # the view charged a copy, not the clock
    c.stop(104.0)
    d = GameClock(ClockSpec("byoyomi", main=1, period=10, periods=2))
    d.restore(c.snapshot())
    assert d.sides == c.sides


@pytest.mark.parametrize("bad", [
    {"type": "absolute", "main": 0}, {"type": "byoyomi", "main": 1, "period": 5, "periods": 0},
    {"type": "canadian", "main": 1, "period": 0, "stones": 5}, {"type": "hourglass"},
])
def test_bad_specs(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        ClockSpec.from_dict(bad)


@given(st.lists(st.floats(min_value=0, max_value=30), min_size=1, max_size=30),
       st.sampled_from(["absolute", "byoyomi", "canadian", "fischer"]))
def test_time_left_never_grows_without_a_move_and_expiry_is_final(elapsed: list[float], kind: str) -> None:
    spec = ClockSpec(kind, main=20, period=5, periods=3, stones=3, increment=2)  # type: ignore[arg-type]
    c = GameClock(spec)
    for e in elapsed:
        before = c.time_left(B)
        probe = GameClock(spec, {B: type(c.sides[B])(**vars(c.sides[B])), W: c.sides[W]})
        probe.charge(B, e, moved=False)
        assert probe.time_left(B) <= before + 1e-9
        flagged = c.charge(B, e)
        if flagged:
            assert c.time_left(B) == 0 and c.charge(B, 0.0)
            break
        assert e < before + 1e-9  # a side that had the time left does not flag


def test_the_server_decides_a_time_loss(fast_client: TestClient) -> None:
    gid, black, white = two_players(fast_client, clock={"type": "absolute", "main": 3})
    s = state(fast_client, gid)
    assert s["clock"]["running"] == "B" and s["clock"]["spec"] == {"type": "absolute", "main": 3,
                                                                         "weekend_pause": False, "vacation": True}
    act(fast_client, gid, black, {"type": "play", "move": 40})
    assert state(fast_client, gid)["clock"]["running"] == "W"
    wait_for(lambda: state(fast_client, gid)["result"] is not None, timeout=10)
    s = state(fast_client, gid)
    assert s["result"] == "B+T" and s["end_reason"] == "timeout" and s["clock"]["W"]["expired"]
    assert s["clock"]["running"] is None
    err = act(fast_client, gid, white, {"type": "play", "move": 41}, status=409)["error"]
    assert err["code"] == "wrong-phase"


def test_clock_waits_for_the_invited_player(fast_client: TestClient) -> None:
    g = new_game(fast_client, size=9, clock={"type": "byoyomi", "main": 60, "period": 10, "periods": 3})
    assert g["game"]["clock"]["running"] is None
    gid = g["game"]["id"]
    fast_client.post(f"/api/games/{gid}/join", json={"code": g["invite"]["code"]})
    fast_client.cookies.clear()
    s = state(fast_client, gid)
    assert s["clock"]["running"] == "B" and s["clock"]["B"]["periods"] == 3
