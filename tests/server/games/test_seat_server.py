"""The server's computer seat (``keima.seat``): a disputed marking is said and play resumes, a GTP engine
plays in the browser's games under keima's refereeing, and the bot never keeps the state "warming up"."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import keima.ai
import keima.seat
from keima.server import create_app
from server.helpers import StandInPlayer, act, new_game, state, wait_for

GNUGO = "/usr/games/gnugo"


class Stubborn(StandInPlayer):
    """A computer player that passes and believes every stone alive."""

    name = "stubborn"
    managed = False
    manners = False
    default_seconds = 0.1

    def genmove(self, game: Any, color: int, seconds: float) -> None:
        return None

    def dead_stones(self, game: Any) -> frozenset[int]:
        return frozenset()


@pytest.fixture
def stubborn_client(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(keima.seat, "make_seat", lambda level, engines=None, **kw: keima.seat.Seat(Stubborn()))
    monkeypatch.setattr(keima.ai, "estimate_dead", lambda game: frozenset())
    with TestClient(create_app(sqlite_url)) as c:
        yield c


def test_a_disputed_marking_is_shown_and_play_resumes(stubborn_client: TestClient) -> None:
    c = stubborn_client
    g = new_game(c, size=9, opponent="bot", bot_level="beginner", color="B")
    gid, tok = g["game"]["id"], g["seat"]["token"]
    act(c, gid, tok, {"type": "play", "move": "E5"})
    wait_for(lambda: state(c, gid)["to_move"] == "B")  # the bot passed
    act(c, gid, tok, {"type": "pass"})
    wait_for(lambda: state(c, gid)["accepted"] == ["W"])  # nothing marked: the bot agrees
    assert state(c, gid)["bot_note"] is None
    # The human marks the stone dead: the bot waits while the marking is being made ...
    act(c, gid, tok, {"type": "toggle_dead", "point": "E5"})
    time.sleep(0.5)
    assert state(c, gid)["phase"] == "scoring" and state(c, gid)["dead"] != []
    # ... and once it is submitted says which chain it sees alive, and play resumes (no silent wait).
    act(c, gid, tok, {"type": "accept"})
    wait_for(lambda: state(c, gid)["phase"] == "play")
    s = state(c, gid)
    assert s["bot_note"] is not None and "stubborn thinks E5 is alive" in s["bot_note"]
    assert s["dead"] == [] and s["accepted"] == []
    # The note is stored with the resumption: the game read back from the database (after leaving memory, or
    # on another process of a cluster) still shows it.
    hub = c.app.state.hub  # type: ignore[attr-defined]
    hub.cache.drop(hub.cache.sessions[gid])
    assert state(c, gid)["bot_note"] == s["bot_note"]
    # Once the person plays on, the dispute is being settled on the board: the note goes.
    wait_for(lambda: state(c, gid)["to_move"] == "B")
    act(c, gid, tok, {"type": "play", "move": "C3"})
    assert state(c, gid)["bot_note"] is None


class Sayer(keima.seat.Seat):
    """A computer seat that says why it acts, as keima's does: it plays on once after a pass, then resigns."""

    def __init__(self) -> None:
        super().__init__(Stubborn())

    def move(self, game: Any, color: int, seconds: float) -> keima.seat.Decision:
        if game.consecutive_passes and not any(m.color == color and m.point == 20 for m in game.moves):
            return keima.seat.Decision("play", 20, say="keima plays on: the border is open at C7")
        if game.consecutive_passes:
            return keima.seat.Decision("resign", say="keima resigns: behind by about 25 points with no open fight")
        return keima.seat.Decision("pass")


def test_the_seat_says_why_it_plays_on_and_why_it_resigns(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 44: a resignation without a reason, or a bot playing on after a pass without saying where, leaves the
    # person guessing. The seat's words (Decision.say) are the game's bot_note, stored with the move.
    monkeypatch.setattr(keima.seat, "make_seat", lambda level, engines=None, **kw: Sayer())
    with TestClient(create_app(sqlite_url)) as c:
        g = new_game(c, size=9, opponent="bot", bot_level="beginner", color="B")
        gid, tok = g["game"]["id"], g["seat"]["token"]
        act(c, gid, tok, {"type": "pass"})
        wait_for(lambda: state(c, gid)["to_move"] == "B")
        assert state(c, gid)["bot_note"] == "keima plays on: the border is open at C7"
        hub = c.app.state.hub  # type: ignore[attr-defined]
        hub.cache.drop(hub.cache.sessions[gid])
        assert state(c, gid)["bot_note"] == "keima plays on: the border is open at C7"  # read back from the log
        act(c, gid, tok, {"type": "pass"})
        wait_for(lambda: state(c, gid)["phase"] == "finished")
        s = state(c, gid)
        assert s["result"] == "B+R" and s["end_reason"] == "resign"
        assert s["bot_note"] == "keima resigns: behind by about 25 points with no open fight"
        hub.cache.drop(hub.cache.sessions[gid])
        assert state(c, gid)["bot_note"] == s["bot_note"]


@pytest.fixture
def engine_client(sqlite_url: str) -> Iterator[TestClient]:
    engines = {"GNU Go": f"{GNUGO} --mode gtp --level 1"}
    with TestClient(create_app(sqlite_url, engines=engines)) as c:
        yield c


@pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason="GNU Go is not installed")
def test_a_gtp_engine_plays_in_the_browser_under_french_rules(engine_client: TestClient) -> None:
    c = engine_client
    info = c.get("/api/info").json()
    assert info["engines"] == ["GNU Go"]
    g = new_game(c, size=9, opponent="bot", engine="GNU Go", color="B", rules="french")
    gid, tok = g["game"]["id"], g["seat"]["token"]
    assert g["game"]["players"]["W"]["level"] == "engine:GNU Go"
    assert g["game"]["players"]["W"]["name"] == "GNU Go"  # the engine's own name, not "keima (engine:...)"
    assert g["game"]["bot_warming"] is False  # an engine needs no compiling
    candidates = [9 * r + col for r in (2, 6, 4) for col in (2, 6, 4)]
    for n in range(3):
        board = state(c, gid)["board"]
        act(c, gid, tok, {"type": "play", "move": next(p for p in candidates if board[p] == 0)})
        wait_for(lambda n=n: len(state(c, gid)["moves"]) == 2 * n + 2 or state(c, gid)["phase"] != "play")
    s = state(c, gid)
    assert s["phase"] == "play" and len(s["moves"]) == 6
    assert all(m["color"] == "W" for m in s["moves"][1::2])
    assert s["rules"]["name"] == "french"
    hub = c.app.state.hub  # type: ignore[attr-defined]
    assert gid in hub.bots.players  # GNU Go's process, for this game
    s = act(c, gid, tok, {"type": "resign"})["game"]
    assert s["result"] == "W+R"
    wait_for(lambda: gid not in hub.bots.players)  # its process ends with the game


def test_an_unknown_engine_is_refused(engine_client: TestClient) -> None:
    r = engine_client.post("/api/games", json={"opponent": "bot", "engine": "KataGo", "size": 9})
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["field"] == "engine" and "KataGo" in err["message"] and "GNU Go" in err["message"]


def test_the_bot_never_says_it_is_warming_up(fast_client: TestClient) -> None:
    """The bot compiles in the background and answers meanwhile (keima.ai.warmup): ``bot_warming`` stays in the
    state for the clients that read it, always false."""
    g = new_game(fast_client, size=9, opponent="bot", bot_level="beginner", color="W")
    gid = g["game"]["id"]
    assert g["game"]["bot_warming"] is False
    wait_for(lambda: len(state(fast_client, gid)["moves"]) == 1, timeout=120)
    assert state(fast_client, gid)["bot_warming"] is False


def test_an_engines_illegal_move_forfeits_its_game(sqlite_url: str) -> None:
    import sys
    from pathlib import Path

    fake = Path(__file__).parents[2] / "gtp" / "fake_engine.py"
    with TestClient(create_app(sqlite_url, engines={"fake": f"{sys.executable} {fake} illegal"})) as c:
        g = new_game(c, size=9, opponent="bot", engine="fake", color="B")
        gid, tok = g["game"]["id"], g["seat"]["token"]
        act(c, gid, tok, {"type": "play", "move": "E5"})
        wait_for(lambda: state(c, gid)["phase"] == "finished")
        s = state(c, gid)
        assert s["result"] == "B+F" and s["end_reason"] == "forfeit"
        wait_for(lambda: gid not in c.app.state.hub.bots.players)  # type: ignore[attr-defined]
