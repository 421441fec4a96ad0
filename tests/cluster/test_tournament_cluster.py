"""A four-round online tournament of six accounts played by API over two ``keima serve --redis`` processes on one
PostgreSQL: each round's games are made by one process's scheduler, the players act on either process, both
processes deliver the outbox, and every result reaches the standings exactly once."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from tests.cluster.conftest import Cluster, RedisServer

from keima.server.storage.store import make_engine
from keima.server.storage.tables import tournament_games, tournament_log

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

RANKS = ["2d", "1d", "1k", "2k", "3k", "4k"]


@pytest.fixture()
def pair(pg_url: str, own_redis: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(pg_url, own_redis.url, tmp_path_factory.mktemp("tournament"))
    c.env["KEIMA_REGISTER_LIMIT"] = "100"
    try:
        c.wait_web(c.start_web())
        c.wait_web(c.start_web())
        yield c
    finally:
        c.stop()


def round_games(d: httpx.Client, url: str, rn: int, done: Any, timeout: float = 60) -> list[dict[str, Any]]:
    """Round ``rn``'s games of the tournament at ``url`` once ``done(games)`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        games: list[dict[str, Any]] = ok(d.get(url))["round_list"][rn - 1]["games"]
        if done(games):
            return games
        assert time.monotonic() < deadline, games
        time.sleep(0.2)


def ok(r: httpx.Response, status: int = 200) -> Any:
    assert r.status_code == status, r.text
    return r.json()


def test_four_online_rounds_over_two_processes(pair: Cluster, pg_url: str) -> None:
    bases = [pair.base(0), pair.base(1)]
    clients = [httpx.Client(timeout=30) for _ in range(7)]
    run = secrets.token_hex(3)  # the database is shared with other tests: names of this run's own
    try:
        d = clients[0]
        ok(d.post(f"{bases[0]}/api/players", json={"name": f"td{run}", "password": "correct horse"}), 201)
        tid = ok(d.post(f"{bases[0]}/api/tournaments", json={
            "name": "Cluster cup", "rounds": 4, "size": 9, "online": True,
            "clock": {"type": "byoyomi", "main": 600, "period": 30, "periods": 5}}), 201)["id"]
        key_of: dict[str, httpx.Client] = {}
        for i, c in enumerate(clients[1:]):
            base = bases[i % 2]
            ok(c.post(f"{base}/api/players", json={"name": f"p{i}{run}", "password": "correct horse"}), 201)
            ok(c.patch(f"{base}/api/me", json={"rank": RANKS[i]}))
            ok(c.post(f"{bases[(i + 1) % 2]}/api/tournaments/{tid}/signup"), 201)
            key_of[f"P{i}{run}".upper()] = c
        wins = dict.fromkeys(key_of, 0)
        for rn in range(1, 5):
            tbase = f"{bases[rn % 2]}/api/tournaments/{tid}"
            ok(d.post(f"{tbase}/rounds/{rn}/pairing", json={}))
            ok(d.post(f"{tbase}/rounds/{rn}/start", json={}))
            games = round_games(d, tbase, rn, lambda gs: len(gs) == 3 and all(g["game"] for g in gs))
            for j, g in enumerate(games):
                base = bases[j % 2]
                black, white = key_of[g["black"]], key_of[g["white"]]
                state = ok(black.get(f"{base}/api/games/{g['game']}"))
                assert state["you"] == ["B"]
                if state["to_move"] == "B":
                    ok(black.post(f"{base}/api/games/{g['game']}/actions", json={"type": "play", "move": "E5"}))
                # On the other process, the loser resigns: White at odd tables, Black at even ones.
                loser = white if g["table"] % 2 else black
                ok(loser.post(f"{bases[(j + 1) % 2]}/api/games/{g['game']}/actions", json={"type": "resign"}))
                wins[g["black"] if g["table"] % 2 else g["white"]] += 1
            round_games(d, tbase, rn, lambda gs: all(g["result"] != "unknown" for g in gs))
        time.sleep(3)  # both processes' deliveries have run again: still once
        standings = ok(d.get(f"{bases[1]}/api/tournaments/{tid}/standings"))
        start = {x["key"]: int(x["values"]["MMS"])
                 for x in ok(d.get(f"{bases[0]}/api/tournaments/{tid}/standings?after_round=0"))["lines"]}
        assert standings["after_round"] == 4
        assert {x["key"]: int(x["values"]["MMS"]) - start[x["key"]] for x in standings["lines"]} == wins
        assert sum(wins.values()) == 12
        t = ok(d.get(f"{bases[0]}/api/tournaments/{tid}"))
        met = [frozenset((g["white"], g["black"])) for r in t["round_list"] for g in r["games"]]
        assert len(met) == 12 and len(set(met)) == 12  # nobody met twice
    finally:
        for c in clients:
            c.close()
    engine = make_engine(pg_url)
    try:
        with engine.connect() as conn:
            actions = [r.action for r in conn.execute(sa.select(tournament_log.c.action)
                                                      .where(tournament_log.c.tournament_id == tid))]
            made_games = conn.execute(sa.select(sa.func.count()).select_from(tournament_games)
                                      .where(tournament_games.c.tournament_id == tid)).scalar()
    finally:
        engine.dispose()
    assert actions.count("game-result") == 12 and actions.count("games") == 4 and made_games == 12


def test_a_killed_process_loses_neither_a_round_nor_a_result(pg_url: str, own_redis: RedisServer,
                                                             tmp_path_factory: pytest.TempPathFactory) -> None:
    """The process that started a round is killed before the start time: the other one makes the games. The
    process that ends a game is killed before delivering it: the result reaches its table once all the same."""
    c = Cluster(pg_url, own_redis.url, tmp_path_factory.mktemp("tournament-kill"))
    c.env["KEIMA_REGISTER_LIMIT"] = "100"
    c.env["KEIMA_OUTBOX_PAUSE"] = "6"
    run = secrets.token_hex(3)
    clients = [httpx.Client(timeout=30) for _ in range(3)]
    try:
        c.wait_web(c.start_web())
        c.wait_web(c.start_web())
        b0, b1 = c.base(0), c.base(1)
        d, p, q = clients
        for i, x in enumerate(clients):
            ok(x.post(f"{b1}/api/players", json={"name": f"k{i}{run}", "password": "correct horse"}), 201)
        tid = ok(d.post(f"{b1}/api/tournaments", json={"name": "Kill cup", "rounds": 2, "size": 9,
                                                      "online": True}), 201)["id"]
        for x in (p, q):
            ok(x.post(f"{b1}/api/tournaments/{tid}/signup"), 201)
        ok(d.post(f"{b0}/api/tournaments/{tid}/rounds/1/pairing", json={}))
        start = (datetime.now(UTC) + timedelta(seconds=4)).isoformat()
        ok(d.post(f"{b0}/api/tournaments/{tid}/rounds/1/start", json={"start_at": start}))
        c.webs[0].kill9()
        g = round_games(d, f"{b1}/api/tournaments/{tid}", 1, lambda gs: bool(gs[0]["game"]))[0]
        c.wait_web(c.start_web())  # process 2: it holds its deliveries back as long, so only it is left to deliver
        players = {f"K1{run}".upper(): p, f"K2{run}".upper(): q}
        black = players[g["black"]]
        state = ok(black.get(f"{b1}/api/games/{g['game']}"))
        if state["to_move"] == "B":
            ok(black.post(f"{b1}/api/games/{g['game']}/actions", json={"type": "play", "move": "E5"}))
        ok(black.post(f"{b1}/api/games/{g['game']}/actions", json={"type": "resign"}))
        c.webs[1].kill9()  # ended there, not delivered yet (its pause)
        b2 = c.base(2)
        got = round_games(d, f"{b2}/api/tournaments/{tid}", 1, lambda gs: gs[0]["result"] != "unknown")
        assert got[0]["result"] == "white"
        time.sleep(3)
    finally:
        for x in clients:
            x.close()
        c.stop()
    engine = make_engine(pg_url)
    try:
        with engine.connect() as conn:
            actions = [r.action for r in conn.execute(sa.select(tournament_log.c.action)
                                                      .where(tournament_log.c.tournament_id == tid))]
    finally:
        engine.dispose()
    assert actions.count("game-result") == 1 and actions.count("games") == 1
