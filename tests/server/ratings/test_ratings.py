"""Ratings on the server: rated games between registered players, rated once each in outbox order, the player
endpoints that show them, and ``keima ratings recompute`` agreeing with the live ratings."""

from __future__ import annotations

import random
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from keima.cli import main as cli_main
from keima.ratings import game as rating_game
from keima.ratings.glicko2 import Rating
from keima.ratings.handicap import rank_difference
from keima.rules.ruleset import get_ruleset
from keima.server.ratings import subscriber as ratings_subscriber
from keima.server.storage import queues as store_events
from keima.server.storage.store import make_engine, migrate, now_utc
from keima.server.storage.tables import game_outbox, games, rating_history, ratings

from ..accounts.test_players import Browser, registered
from ..helpers import deliver_racing, wait_for

# Five stones each on a 9x9 board, far from each other: the shortest game that is rated.
BLACK_MOVES = ["C3", "C4", "C5", "C6", "C7"]
WHITE_MOVES = ["G3", "G4", "G5", "G6", "G7"]


def rated_game(black: Browser, white: Browser, *, moves: int = 5, end: str = "W resigns") -> str:
    """``black`` offers a rated 9x9 invitation, ``white`` takes it, each plays ``moves`` stones, then ``end``
    ("W resigns", "B resigns"); returns the game id."""
    g = black.req("POST", "/api/games", 201, json={"size": 9, "opponent": "invite", "color": "B",
                                                    "rated": True}).json()
    gid, tb = g["game"]["id"], g["seat"]["token"]
    assert g["game"]["players"]["B"]["name"]
    tw = white.req("POST", f"/api/games/{gid}/join", 200, json={"code": g["invite"]["code"]}).json()["seat"]["token"]
    for b, w in list(zip(BLACK_MOVES, WHITE_MOVES, strict=True))[:moves]:
        black.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "play", "move": b},
                  headers={"X-Keima-Seat": tb})
        white.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "play", "move": w},
                  headers={"X-Keima-Seat": tw})
    loser, token = (white, tw) if end == "W resigns" else (black, tb)
    loser.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "resign"}, headers={"X-Keima-Seat": token})
    return gid


def table_rows(url: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            r = [tuple(x) for x in conn.execute(sa.select(ratings).order_by(ratings.c.player_id))]
            h = [tuple(x) for x in conn.execute(sa.select(rating_history)
                                                .order_by(rating_history.c.seq, rating_history.c.player_id))]
    finally:
        engine.dispose()
    return r, h


def test_rated_games_between_registered_players(client: TestClient, db_url: str) -> None:
    alice, bob = Browser(client), Browser(client)
    registered(alice, "alice")
    registered(bob, "bob")
    alice.req("PATCH", "/api/me", 200, json={"rank": "5k"})
    before = alice.req("GET", "/api/players/alice", 200).json()
    assert before["rank"] == "5k" and before["provisional"] is True
    assert before["rating"]["deviation"] == 250 and before["games"] == {"won": 0, "lost": 0}

    g1 = rated_game(alice, bob)
    wait_for(lambda: len(alice.req("GET", "/api/players/bob/ratings", 200).json()["ratings"]) == 1)
    # An even game at the usual komi: no rank difference; each player from their values before the game.
    expect_a, expect_b = rating_game.rate(rating_game.initial("5k"), Rating(), 1.0)
    a = alice.req("GET", "/api/players/ALICE", 200).json()  # names match as names do, case aside
    b = bob.req("GET", "/api/players/bob", 200).json()
    assert a["rating"] == pytest.approx({"rating": expect_a.rating, "deviation": expect_a.deviation,
                                         "volatility": expect_a.volatility})
    assert b["rating"]["rating"] == pytest.approx(expect_b.rating)
    assert a["games"] == {"won": 1, "lost": 0} and b["games"] == {"won": 0, "lost": 1}
    assert a["rating"]["rating"] > before["rating"]["rating"] and b["rating"]["rating"] < 1500
    history = alice.req("GET", "/api/players/alice/ratings", 200).json()["ratings"]
    assert [(h["game"], h["rating"]) for h in history] == [(g1, pytest.approx(expect_a.rating))]

    # An abandoned start (four stones each) is not rated, but it is a game won and lost.
    rated_game(alice, bob, moves=4, end="B resigns")
    wait_for(lambda: alice.req("GET", "/api/players/alice", 200).json()["games"]["lost"] == 1)
    assert alice.req("GET", "/api/players/alice", 200).json()["rating"]["rating"] == pytest.approx(expect_a.rating)

    # The second rated game starts from the first one's values.
    g3 = rated_game(bob, alice)  # bob Black this time, and he wins
    wait_for(lambda: len(alice.req("GET", "/api/players/alice/ratings", 200).json()["ratings"]) == 2)
    expect_b2, expect_a2 = rating_game.rate(expect_b, expect_a, 1.0)
    history = alice.req("GET", "/api/players/alice/ratings", 200).json()["ratings"]
    assert [h["game"] for h in history] == [g1, g3]
    assert history[1]["rating"] == pytest.approx(expect_a2.rating)
    assert history[1]["deviation"] == pytest.approx(expect_a2.deviation)
    assert bob.req("GET", "/api/players/bob", 200).json()["rating"]["rating"] == pytest.approx(expect_b2.rating)

    # Recompute gives the very numbers the live updates gave.
    live = table_rows(db_url)
    assert len(live[0]) == 2 and len(live[1]) == 4
    assert cli_main(["ratings", "recompute", "--db", db_url]) == 0
    assert table_rows(db_url) == live

    paths = client.get("/openapi.json").json()["paths"]
    assert "get" in paths["/api/players/{name}"] and "get" in paths["/api/players/{name}/ratings"]
    assert "rated" in client.get("/openapi.json").json()["components"]["schemas"]["NewGame"]["properties"]
    assert alice.req("GET", "/api/players/nobody", 404).json()["error"]["code"] == "not-found"
    assert alice.req("GET", "/api/players/nobody/ratings", 404).status_code == 404


def test_rated_games_are_for_registered_players_only(client: TestClient) -> None:
    alice, guest = Browser(client), Browser(client)
    registered(alice, "alice")
    guest.me()
    err = guest.req("POST", "/api/games", 422, json={"opponent": "invite", "rated": True}).json()["error"]
    assert err["field"] == "rated"
    # A game on one screen is nobody's to rate; one against the bot is (tests/server/ratings/test_bot_ratings.py).
    assert alice.req("POST", "/api/games", 422, json={"opponent": "local", "rated": True}).json()[
        "error"]["field"] == "rated"
    g = alice.req("POST", "/api/games", 201, json={"size": 9, "opponent": "open", "rated": True}).json()
    gid = g["game"]["id"]
    assert guest.req("POST", f"/api/games/{gid}/join", 422, json={}).json()["error"]["field"] == "rated"
    nobody = Browser(client)  # no player at all: an open challenge would make a guest, still not registered
    assert nobody.req("POST", f"/api/games/{gid}/join", 422, json={}).status_code == 422
    # An unrated game is anyone's, as before.
    g = alice.req("POST", "/api/games", 201, json={"size": 9, "opponent": "open"}).json()
    guest.req("POST", f"/api/games/{g['game']['id']}/join", 200, json={})


RULES = ["french", "japanese", "chinese"]


def seed_games(url: str, n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` finished games between four players straight into the outbox, as the service writes them: some rated,
    some not, some void, some abandoned, some with handicap; returns their events in outbox order."""
    rng = random.Random(seed)
    engine = make_engine(url)
    migrate(engine)
    now = now_utc()
    out = []
    with engine.begin() as conn:
        for i in range(n):
            b, w = rng.sample(["p1", "p2", "p3", "p4"], 2)
            people = {"B": {"id": b, "name": b, "rank": "3k" if b == "p1" else None},
                      "W": {"id": w, "name": w, "rank": None}}
            rules = rng.choice(RULES)
            handicap = rng.choice([0, 0, 2, 4])
            params = {"size": rng.choice([9, 13, 19]), "rules": rules, "handicap": handicap, "placement": "fixed",
                      "komi": get_ruleset(rules).default_komi if handicap == 0 else 0.5, "rated": True}
            data = {"result": rng.choice(["B+R", "W+3.5", "B+T", "0", "Void"]), "reason": "resign",
                    "rated": rng.random() < 0.8, "moves": {"B": rng.choice([3, 40]), "W": 40}}
            conn.execute(games.insert().values(id=f"g{i}", created_at=now, updated_at=now, params=params,
                                               mode="invite", clock={}, phase="finished", people=people))
            conn.execute(game_outbox.insert().values(game_id=f"g{i}", version=1, kind="finished", data=data,
                                                     created_at=now))
            out.append({"people": people, "params": params, "data": data})
    engine.dispose()
    return out


def by_hand(events: list[dict[str, Any]]) -> dict[str, Rating]:
    """The ratings after ``events``, one game after the other, from the pure functions alone."""
    now: dict[str, Rating] = {}
    for e in events:
        d, p, people = e["data"], e["params"], e["people"]
        score = rating_game.score_of(d["result"])
        if not d["rated"] or min(d["moves"].values()) < 5 or score is None:
            continue
        b, w = people["B"], people["W"]
        rb = now.get(b["id"]) or rating_game.initial(b["rank"])
        rw = now.get(w["id"]) or rating_game.initial(w["rank"])
        shift = rank_difference(p["handicap"], p["size"], p["komi"], get_ruleset(p["rules"]))
        now[b["id"]], now[w["id"]] = rating_game.rate(rb, rw, score, shift)
    return now


def test_racing_deliveries_rate_each_game_once_in_order(db_url: str) -> None:
    events = seed_games(db_url, 40, seed=24)
    engine = make_engine(db_url)
    sub = ratings_subscriber.SUBSCRIBER

    deliver_racing(engine, sub, limit=3)
    expected = by_hand(events)
    assert expected, "the seed rates no game: pick another"
    got = {pid: ratings_subscriber.rating_of(engine, pid) for pid in expected}
    for pid, r in expected.items():
        rated = got[pid]
        assert rated is not None
        assert rated[0] == pytest.approx(r, rel=1e-12)
    rated_games = sum(1 for e in events if e["data"]["rated"] and min(e["data"]["moves"].values()) >= 5
                      and e["data"]["result"] != "Void")
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(rating_history)).scalar() == 2 * rated_games
    # Delivering again (a restart, another process's poll) reads nothing and changes nothing; recomputing from the
    # start gives the same rows.
    before = table_rows(db_url)
    assert store_events.deliver(engine, sub.name, sub.kinds, sub.apply) == 0
    assert table_rows(db_url) == before
    assert ratings_subscriber.recompute(engine) == rated_games
    assert table_rows(db_url) == before
    engine.dispose()


class Died(Exception):
    """A process dying in the middle of a delivery, after the subscriber's effect and before the commit."""


def test_a_delivery_that_dies_after_its_effect_is_delivered_again_and_counts_once(db_url: str) -> None:
    events = seed_games(db_url, 12, seed=7)
    engine = make_engine(db_url)
    sub = ratings_subscriber.SUBSCRIBER
    seen: list[int] = []

    def dying(conn: sa.Connection, event: dict[str, Any]) -> None:
        sub.apply(conn, event)
        seen.append(event["seq"])
        if len(seen) == 5:
            raise Died

    with pytest.raises(Died):
        store_events.deliver(engine, sub.name, sub.kinds, dying)
    assert table_rows(db_url) == ([], [])  # the effects of the first four went with the transaction
    while store_events.deliver(engine, sub.name, sub.kinds, sub.apply):
        pass
    expected = by_hand(events)
    assert expected
    for pid, r in expected.items():
        rated = ratings_subscriber.rating_of(engine, pid)
        assert rated is not None and rated[0] == pytest.approx(r, rel=1e-12)
    engine.dispose()
