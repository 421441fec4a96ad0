"""The bot's turn survives a change made while it was thinking.

Regression test: when the human changed the dead-stone marking while the bot was judging the previous one, the
bot's task returned early and never looked again, leaving the game waiting in the dead-stone phase.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import keima.ai
import keima.seat
from keima.server import create_app
from server.helpers import StandInPlayer, act, new_game, state, wait_for


class SlowJudge(StandInPlayer):
    """A computer player (``keima.seat.ComputerPlayer``) that passes at once, and whose first judgement of a
    marking waits until the test lets it go; it agrees with every marking."""

    name = "judge"
    managed = False
    manners = False
    default_seconds = 0.1

    def __init__(self) -> None:
        self.judging = threading.Event()
        self.release = threading.Event()
        self.judgements = 0

    def genmove(self, game: Any, color: int, seconds: float | None) -> None:
        return None

    def dead_stones(self, game: Any) -> frozenset[int]:
        self.judgements += 1
        if self.judgements == 1:
            self.judging.set()
            assert self.release.wait(20), "the test never released the bot"
        return frozenset(game.dead)


@pytest.fixture
def judge(monkeypatch: pytest.MonkeyPatch) -> SlowJudge:
    bot = SlowJudge()
    monkeypatch.setattr(keima.seat, "make_seat", lambda level, engines=None, **kw: keima.seat.Seat(bot))
    monkeypatch.setattr(keima.ai, "estimate_dead", lambda game: frozenset())
    return bot


@pytest.fixture
def slow_client(sqlite_url: str, judge: SlowJudge) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url)) as c:
        yield c


def test_marking_changed_while_the_bot_judges(slow_client: TestClient, judge: SlowJudge) -> None:
    c = slow_client
    g = new_game(c, size=9, opponent="bot", bot_level="beginner", color="B")
    gid, tok = g["game"]["id"], g["seat"]["token"]
    act(c, gid, tok, {"type": "play", "move": "E5"})
    wait_for(lambda: state(c, gid)["to_move"] == "B")  # the bot passed
    act(c, gid, tok, {"type": "pass"})
    assert state(c, gid)["phase"] == "scoring"
    assert judge.judging.wait(20), "the bot never started judging the proposal"
    # While the bot judges the first marking, the human changes it...
    s = act(c, gid, tok, {"type": "toggle_dead", "point": "E5"})["game"]
    assert s["dead"] and s["accepted"] == []
    judge.release.set()
    # ...its answer about the old marking is dropped, and it waits while the person marks ...
    time.sleep(0.5)
    assert state(c, gid)["accepted"] == [] and judge.judgements == 1
    # ... then judges the new marking once it is submitted, rather than give up its turn.
    s = act(c, gid, tok, {"type": "accept"})["game"]
    assert s["accepted"] == ["B"]
    wait_for(lambda: state(c, gid)["phase"] == "finished")
    assert judge.judgements == 2 and state(c, gid)["end_reason"] == "score"
