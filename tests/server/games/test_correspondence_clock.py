"""Correspondence clocks: days and hours, the "correspondence" rule, simple timing, weekend pauses in each
player's time zone (across changes of daylight saving time), and the time shown as "2 d 5 h"."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from keima.server.games import pauses
from keima.server.games.clock import CORRESPONDENCE_PRESETS, ClockSpec, GameClock, duration_words
from keima.server.games.pauses import Pause

from ..helpers import act, new_game, state, two_players

H = 3600.0
D = 86400.0
B, W = 1, 2


def at(zone: str, *args: int) -> float:
    """The Unix time of a local wall-clock time in ``zone``."""
    return datetime(*args, tzinfo=ZoneInfo(zone)).timestamp()  # type: ignore[misc]


@pytest.mark.parametrize(("spec", "per_move", "correspondence"), [
    # Fischer: main / 120 + increment.
    (ClockSpec("fischer", main=3 * D, increment=D, max=7 * D), 3 * D / 120 + D, True),
    (ClockSpec("fischer", main=600, increment=5), 10.0, False),
    (ClockSpec("fischer", main=120 * H - 120, increment=0), H - 1, False),  # just short of an hour a move
    (ClockSpec("fischer", main=120 * H, increment=0), H, True),
    # simple: the time per move.
    (ClockSpec("simple", per_move=2 * D), 2 * D, True),
    (ClockSpec("simple", per_move=59 * 60), 59 * 60, False),
    # byo-yomi: main / 120 + the period.
    (ClockSpec("byoyomi", main=7 * D, period=D, periods=5), 7 * D / 120 + D, True),
    (ClockSpec("byoyomi", main=1200, period=30, periods=5), 40.0, False),
    # Canadian: main / 120 + the period over its stones.
    (ClockSpec("canadian", main=0, period=10 * H, stones=5), 2 * H, True),
    # absolute: main / 120.
    (ClockSpec("absolute", main=28 * D), 28 * D / 120, True),
    (ClockSpec("absolute", main=3 * D), 3 * D / 120, False),  # 36 min a move over a 240-move game
])
def test_a_clock_is_correspondence_from_one_hour_a_move(spec: ClockSpec, per_move: float,
                                                         correspondence: bool) -> None:
    assert spec.per_move_s == pytest.approx(per_move)
    assert spec.correspondence is correspondence


def test_no_clock_is_not_correspondence() -> None:
    assert not ClockSpec().correspondence


@pytest.mark.parametrize("name", sorted(CORRESPONDENCE_PRESETS))
def test_every_preset_is_a_correspondence_clock_with_weekend_pauses(name: str) -> None:
    spec = ClockSpec.from_dict(CORRESPONDENCE_PRESETS[name])
    assert spec.correspondence and spec.weekend_pause


@pytest.mark.parametrize(("seconds", "words"), [
    (0, "0 s"), (30, "30 s"), (45 * 60, "45 min"), (5 * H + 30 * 60, "5 h 30 min"), (3 * D, "3 d"),
    (2 * D + 5 * H + 59 * 60, "2 d 5 h"), (D + 59, "1 d"), (D + 60, "1 d"), (-5, "0 s"),
])
def test_durations_show_their_two_largest_units(seconds: float, words: str) -> None:
    assert duration_words(seconds) == words


def test_simple_timing_gives_each_move_its_time_and_no_more() -> None:
    c = GameClock(ClockSpec("simple", per_move=2 * D))
    assert c.time_left(B) == 2 * D
    assert not c.charge(B, 2 * D - 1)  # a move just in time: the next one has 2 days again
    assert c.time_left(B) == 2 * D
    assert c.charge(B, 2 * D + 1) and c.sides[B].expired


def test_fischer_in_days_is_capped() -> None:
    c = GameClock(ClockSpec("fischer", main=3 * D, increment=D, max=7 * D))
    for _ in range(10):
        c.charge(B, H)
    assert c.time_left(B) == 7 * D


# -------------------------------------------------------------------------------------------- weekends
@pytest.mark.parametrize(("zone", "saturday", "hours"), [
    ("Europe/Paris", (2026, 3, 21), 48),
    ("Europe/Paris", (2026, 3, 28), 47),  # summer time starts on Sunday 29 March: the weekend is an hour short
    ("Europe/Paris", (2026, 10, 24), 49),  # and ends on Sunday 25 October: an hour longer
    ("America/New_York", (2026, 3, 7), 47),  # summer time starts on Sunday 8 March there
    ("America/New_York", (2026, 10, 31), 49),  # and ends on Sunday 1 November
    ("America/New_York", (2026, 3, 28), 48),
])
def test_a_weekend_runs_from_saturday_to_monday_midnight_in_the_players_zone(
        zone: str, saturday: tuple[int, int, int], hours: int) -> None:
    start = at(zone, *saturday, 0, 0)
    p = Pause(weekend=True, tz=zone)
    a, b = next(pauses.weekends(zone, start - D))
    assert (a, b) == (start, start + hours * H)
    # Friday 23:00 to Monday 01:00 local: two hours counted, whatever the weekend lasted.
    friday_23 = start - H
    monday_1 = b + H
    assert pauses.counted(p, friday_23, monday_1) == pytest.approx(2 * H)
    assert pauses.paused(p, start) == "weekend" and pauses.paused(p, b - 1) == "weekend"
    assert pauses.paused(p, start - 1) is None and pauses.paused(p, b) is None
    # A week counts its five weekdays, 120 hours, across a change of time too.
    assert pauses.counted(p, b - 7 * D, b) == pytest.approx(120 * H, abs=H) and \
        pauses.counted(p, at(zone, *saturday, 0, 0) - 5 * D, b) == pytest.approx(120 * H)


def test_the_same_instant_is_a_weekend_for_one_player_and_not_the_other() -> None:
    # Monday 2026-03-09 03:00 in Paris is still Sunday evening (22:00, summer time) in New York.
    t = at("Europe/Paris", 2026, 3, 9, 3, 0)
    assert pauses.paused(Pause(weekend=True, tz="Europe/Paris"), t) is None
    assert pauses.paused(Pause(weekend=True, tz="America/New_York"), t) == "weekend"


def test_a_clock_with_a_day_left_on_friday_evening_runs_out_on_monday() -> None:
    zone = "Europe/Paris"
    c = GameClock(ClockSpec("simple", per_move=D, weekend_pause=True))
    c.sides[B].tz = zone
    friday_18 = at(zone, 2026, 3, 27, 18, 0)
    c.start(B, friday_18)
    # 6 hours on Friday, the weekend (47 hours: summer time starts), 18 hours on Monday.
    assert c.runs_out_at(B, friday_18) == at(zone, 2026, 3, 30, 18, 0)
    assert c.time_left(B, at(zone, 2026, 3, 29, 12, 0)) == pytest.approx(18 * H)
    assert c.paused(B, at(zone, 2026, 3, 29, 12, 0)) == "weekend"


def test_a_vacation_pauses_only_in_a_correspondence_game_that_allows_it() -> None:
    t0 = 1_800_000_000.0
    for spec, pauses_it in [(ClockSpec("simple", per_move=D), True),
                            (ClockSpec("simple", per_move=D, vacation=False), False),
                            (ClockSpec("fischer", main=300, increment=5), False)]:
        c = GameClock(spec)
        c.sides[B].away = (t0 + H, t0 + 3 * H)
        assert c.counted(B, t0, t0 + 4 * H) == (2 * H if pauses_it else 4 * H)
        assert c.counted(W, t0, t0 + 4 * H) == 4 * H  # the other player is not away


zones = st.sampled_from(["Europe/Paris", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "UTC"])
instants = st.floats(min_value=1.7e9, max_value=1.9e9)


@settings(max_examples=200, deadline=None)
@given(zones, instants, st.floats(min_value=0, max_value=40 * D), st.booleans(),
       st.none() | st.tuples(st.floats(0, 20 * D), st.floats(0, 20 * D)))
def test_a_clock_runs_out_exactly_when_it_has_counted_its_time(zone: str, t0: float, left: float, weekend: bool,
                                                               away: tuple[float, float] | None) -> None:
    p = Pause(weekend=weekend, tz=zone, away=None if away is None else (t0 + away[0], t0 + away[0] + away[1]))
    end = pauses.run_out_at(p, t0, left)
    assert end >= t0 + left - 1e-6
    assert pauses.counted(p, t0, end) == pytest.approx(left, abs=1e-3)
    if left > 1:  # a second before, it had not
        assert pauses.counted(p, t0, end - 1) < left


@settings(max_examples=200, deadline=None)
@given(zones, instants, st.floats(0, 20 * D), st.floats(0, 20 * D))
def test_counted_time_adds_up_and_never_exceeds_the_time_passed(zone: str, t0: float, d1: float, d2: float) -> None:
    p = Pause(weekend=True, tz=zone)
    a = pauses.counted(p, t0, t0 + d1)
    b = pauses.counted(p, t0 + d1, t0 + d1 + d2)
    assert a + b == pytest.approx(pauses.counted(p, t0, t0 + d1 + d2), abs=1e-3)
    assert 0 <= a <= d1 + 1e-6
    # Five days of seven at most, whatever the week (plus the part of a week that starts on a weekday).
    assert a <= d1 * 5 / 7 + 2 * D + 1e-6


# -------------------------------------------------------------------------------------------- the API
def test_a_two_day_simple_clock_is_accepted_and_pauses_on_weekends_by_default(fast_client: TestClient) -> None:
    gid, black, _white = two_players(fast_client, clock={"type": "simple", "per_move": 172800})
    clock = state(fast_client, gid)["clock"]
    assert clock["spec"] == {"type": "simple", "per_move": 172800, "weekend_pause": True, "vacation": True}
    assert clock["B"]["main"] == pytest.approx(172800, abs=5) and clock["running"] == "B"
    assert set(clock["paused"]) == {"B", "W"} and clock["paused"]["W"] is None
    act(fast_client, gid, black, {"type": "play", "move": "E5"})
    assert state(fast_client, gid)["clock"]["running"] == "W"


def test_a_blitz_clock_has_no_weekend_pause_unless_asked(fast_client: TestClient) -> None:
    g = new_game(fast_client, opponent="local", clock={"type": "fischer", "main": 300, "increment": 5})
    assert g["game"]["clock"]["spec"]["weekend_pause"] is False
    g = new_game(fast_client, opponent="local", clock={"type": "simple", "per_move": 86400, "weekend_pause": False})
    assert g["game"]["clock"]["spec"]["weekend_pause"] is False


@pytest.mark.parametrize(("clock", "ok"), [
    ({"type": "fischer", "main": 259200, "increment": 86400, "max": 604800}, True),
    ({"type": "absolute", "main": 28 * D}, True),
    ({"type": "absolute", "main": 90 * D}, True),
    ({"type": "absolute", "main": 90 * D + 1}, False),
    ({"type": "byoyomi", "main": 7 * D, "period": D, "periods": 5}, True),
    ({"type": "simple", "per_move": 30 * D}, True),
    ({"type": "simple", "per_move": 30 * D + 1}, False),
    ({"type": "simple", "per_move": 0}, False),
    ({"type": "fischer", "main": 3 * D, "increment": 31 * D}, False),
])
def test_clock_values_are_bounded_at_90_days_and_30_days_a_move(fast_client: TestClient, clock: dict[str, float],
                                                                ok: bool) -> None:
    r = fast_client.post("/api/games", json={"size": 9, "opponent": "local", "clock": clock})
    assert r.status_code == (201 if ok else 422), r.text
