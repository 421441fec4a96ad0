"""The scoring phase of a correspondence game has a deadline: 3 days after its last change, 7 days after it began
at most; past it the marking on the board stands and the game is scored, once, by the durable scheduler."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from keima.server import create_app

from ..helpers import act, new_game, state, wait_for
from ..moved_time import moved_time

H = 3600.0
D = 86400.0
CORR = {"type": "simple", "per_move": D, "weekend_pause": False}
A1 = 8 * 9  # the point A1 of a 9x9 board (row 8 from the top, column 0)


def to_scoring(c: TestClient, clock: dict[str, object]) -> tuple[str, str]:
    g = new_game(c, size=9, opponent="local", clock=clock)
    gid, tok = g["game"]["id"], g["seat"]["token"]
    for action in ({"type": "play", "move": "E5", "color": "B"}, {"type": "play", "move": "A1", "color": "W"},
                   {"type": "pass", "color": "B"}, {"type": "pass", "color": "W"}):
        act(c, gid, tok, action)
    assert state(c, gid)["phase"] == "scoring"
    # The estimator's proposal comes first (a change of the game, which moves the deadline): wait for it.
    wait_for(lambda: state(c, gid)["proposal"] is not None, timeout=20)
    return gid, tok


def test_past_the_deadline_the_marking_on_the_board_stands(sqlite_url: str) -> None:
    start = datetime(2026, 12, 2, 12, 0, tzinfo=UTC).timestamp()
    with moved_time(start) as clock, TestClient(create_app(sqlite_url)) as c:
        gid, tok = to_scoring(c, CORR)
        s = state(c, gid)
        assert s["scoring_deadline"] == pytest.approx(start + 3 * D, abs=5) and s["clock"]["running"] is None
        if A1 not in state(c, gid)["dead"]:  # the estimator may have marked it already
            act(c, gid, tok, {"type": "toggle_dead", "point": "A1", "color": "B"})
        act(c, gid, tok, {"type": "accept", "color": "B"})  # White never answers
        clock.move(3 * D - H)
        assert state(c, gid)["phase"] == "scoring"
        clock.move(2 * H)
        wait_for(lambda: state(c, gid)["phase"] == "finished", timeout=20)
        s = state(c, gid)
        assert s["end_reason"] == "score" and s["result"].startswith("B+") and s["dead"] and \
            s["scoring_deadline"] is None


def test_the_deadline_moves_with_each_change_but_not_past_seven_days(sqlite_url: str) -> None:
    start = datetime(2026, 12, 2, 12, 0, tzinfo=UTC).timestamp()
    with moved_time(start) as clock, TestClient(create_app(sqlite_url)) as c:
        gid, tok = to_scoring(c, CORR)
        for day in (2, 4, 6):
            clock.move(2 * D)
            act(c, gid, tok, {"type": "toggle_dead", "point": "A1", "color": "W"})
            want = min(start + day * D + 3 * D, start + 7 * D)
            assert state(c, gid)["scoring_deadline"] == pytest.approx(want, abs=5)
        clock.move(D + H)
        wait_for(lambda: state(c, gid)["phase"] == "finished", timeout=20)


def test_a_live_game_has_no_scoring_deadline(fast_client: TestClient) -> None:
    gid, _tok = to_scoring(fast_client, {"type": "fischer", "main": 600, "increment": 5})
    assert state(fast_client, gid)["scoring_deadline"] is None
