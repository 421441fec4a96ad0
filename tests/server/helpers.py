"""Helpers for the server tests: create, join, act and read games through the API."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient


def new_game(c: TestClient, **body: Any) -> dict[str, Any]:
    """Create a game (201 expected); returns the response body."""
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    c.cookies.clear()  # tests name the acting seat explicitly (header), never through a leftover cookie
    data: dict[str, Any] = r.json()
    return data


def act(c: TestClient, gid: str, token: str | None, action: dict[str, Any], status: int = 200) -> dict[str, Any]:
    """Send an action with the seat header (no cookie: each test says who acts); checks the status."""
    headers = {"X-Keima-Seat": token} if token else {}
    r = c.post(f"/api/games/{gid}/actions", json=action, headers=headers)
    assert r.status_code == status, r.text
    data: dict[str, Any] = r.json()
    return data


def state(c: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    """The game's state as the holder of ``token`` sees it."""
    headers = {"X-Keima-Seat": token} if token else {}
    r = c.get(f"/api/games/{gid}", headers=headers)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def wait_for(pred: Callable[[], bool], timeout: float = 20.0) -> None:
    """Poll ``pred`` until it holds; fails the test after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.02)
    raise AssertionError("condition not met in time")


def two_players(c: TestClient, **body: Any) -> tuple[str, str, str]:
    """Create an invitation game and join it from a second client; returns (game id, Black token, White token)."""
    body.setdefault("size", 9)
    g = new_game(c, opponent="invite", color="B", **body)
    gid = g["game"]["id"]
    r = c.post(f"/api/games/{gid}/join", json={"code": g["invite"]["code"]}, headers={"X-Keima-Seat": "none-yet-x"})
    assert r.status_code == 200, r.text
    c.cookies.clear()
    return gid, g["seat"]["token"], r.json()["seat"]["token"]


class StandInPlayer:
    """The quiet part of a computer player the tests put in a seat (``keima.seat.Seat``): no win rate, nothing to
    warm up or close. Subclasses give the moves and the dead-stone judgement."""

    def winrate(self) -> None:
        return None

    def warm_up(self) -> None:
        pass

    def close(self) -> None:
        pass


NOT_A_FIELD = {"type", "from", "to", "event", "placed", "removed", "clock"}


def apply_delta(game: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """Apply one delta to a state as a client must (raises AssertionError for a delta that does not follow)."""
    assert delta["type"] == "delta" and delta["from"] == game["version"], (delta["from"], game["version"])
    g = copy.deepcopy(game)
    for point, color in delta.get("placed", ()):
        g["board"][point] = 1 if color == "B" else 2
    for point in delta.get("removed", ()):
        g["board"][point] = 0
    event = delta["event"]
    if event["type"] in ("moved", "passed"):
        g["moves"].append(event["move"])
    elif event["type"] == "undone":
        del g["moves"][len(g["moves"]) - event["moves"]:]
    elif event["type"] == "chatted":
        g["chat"] = (g["chat"] + [event["message"]])[-100:]
    for key, value in delta.items():
        if key not in NOT_A_FIELD:
            g[key] = value
    if "clock" in delta:
        clock = dict(g["clock"])
        clock.update(delta["clock"])
        g["clock"] = clock
    g["version"] = delta["to"]
    return g


def deliver_racing(engine: Any, subscriber: Any, limit: int, threads: int = 4) -> None:
    """Deliver the outbox to ``subscriber`` (a ``keima.server.games.outbox.Subscriber``) from ``threads`` threads at
    once, ``limit`` events a round, then to the end; fails with the first error a thread met (SQLite's "database
    is locked" aside: that thread tries again)."""
    import threading

    import sqlalchemy as sa

    from keima.server.storage import queues as store_events

    errors: list[BaseException] = []

    def deliver() -> None:
        try:
            for _ in range(20):
                try:
                    store_events.deliver(engine, subscriber.name, subscriber.kinds, subscriber.apply, limit=limit)
                except sa.exc.OperationalError:  # SQLite: the other writer held the database; go on
                    time.sleep(0.01)
        except BaseException as exc:
            errors.append(exc)

    running = [threading.Thread(target=deliver) for _ in range(threads)]
    for th in running:
        th.start()
    for th in running:
        th.join()
    while store_events.deliver(engine, subscriber.name, subscriber.kinds, subscriber.apply):
        pass
    assert not errors, errors
