"""Online rounds in one server process: the games made at the round's start time by the scheduler, seats bound to
the players' accounts, results reaching the standings by themselves (once each), a player absent at the forfeit
limit losing by forfeit, and a director's result winning over the game's."""

from __future__ import annotations

import time
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient

from keima.server.storage.store import make_engine, now_utc
from keima.server.storage.tables import scheduled_jobs, tournament_log

from ..accounts.test_players import Browser, registered
from ..helpers import wait_for

RANKS = ["1d", "1k", "2k", "3k", "4k", "5k"]


def code_of(r: Any) -> str:
    return str(r.json()["error"]["code"])


def online_tournament(client: TestClient, n: int = 6, **settings: Any) -> tuple[Browser, dict[str, Browser], str]:
    """A director and ``n`` accounts signed up to an online McMahon tournament on 9x9; returns (director,
    player key -> browser, tournament id)."""
    d = Browser(client)
    registered(d, "director")
    body = {"name": "Online cup", "rounds": 4, "size": 9, "online": True,
            "clock": {"type": "byoyomi", "main": 600, "period": 30, "periods": 5}} | settings
    tid = d.req("POST", "/api/tournaments", 201, json=body).json()["id"]
    by_key: dict[str, Browser] = {}
    for i in range(n):
        b = Browser(client)
        registered(b, f"player{i}")
        b.req("PATCH", "/api/me", 200, json={"rank": RANKS[i % len(RANKS)]})
        b.req("POST", f"/api/tournaments/{tid}/signup", 201)
        by_key[f"PLAYER{i}"] = b
    return d, by_key, tid


def play_round(d: Browser, players: dict[str, Browser], tid: str, rn: int) -> dict[int, str]:
    """Pair and start round ``rn``; wait for its games; at each table Black plays a stone and White resigns
    (the lower table numbers) or Black resigns. Returns table -> the winner's key."""
    base = f"/api/tournaments/{tid}"
    d.req("POST", f"{base}/rounds/{rn}/pairing", 200, json={})
    d.req("POST", f"{base}/rounds/{rn}/start", 200, json={})
    games: list[dict[str, Any]] = []

    def made() -> bool:
        games[:] = d.req("GET", base, 200).json()["round_list"][rn - 1]["games"]
        return bool(games) and all(g["game"] for g in games)

    wait_for(made)
    winners = {}
    for g in games:
        black, white = players[g["black"]], players[g["white"]]
        # The player's view names the game; the seat is theirs by their session alone.
        mine = black.req("GET", f"{base}/me", 200).json()["rounds"][rn - 1]
        assert mine["game"] == g["game"] and mine["color"] == "B" and mine["opponent"]["key"] == g["white"]
        state = black.req("GET", f"/api/games/{g['game']}", 200).json()
        assert state["you"] == ["B"] and state["players"]["W"]["name"] == white.me()["name"]
        if state["to_move"] == "B":
            black.req("POST", f"/api/games/{g['game']}/actions", 200, json={"type": "play", "move": "E5"})
        loser = white if g["table"] % 2 else black
        loser.req("POST", f"/api/games/{g['game']}/actions", 200, json={"type": "resign"})
        winners[g["table"]] = g["black"] if g["table"] % 2 else g["white"]
    return winners


def test_an_online_round_reaches_the_standings_once(fast_client: TestClient, sqlite_url: str) -> None:
    d, players, tid = online_tournament(fast_client)
    base = f"/api/tournaments/{tid}"
    winners = play_round(d, players, tid, 1)

    def recorded() -> bool:
        games = d.req("GET", base, 200).json()["round_list"][0]["games"]
        return all(g["result"] != "unknown" for g in games)

    wait_for(recorded)
    t = d.req("GET", base, 200).json()
    for g in t["round_list"][0]["games"]:
        assert g["result"] == ("black" if winners[g["table"]] == g["black"] else "white")
        assert not g["by_forfeit"]
    st = d.req("GET", f"{base}/standings", 200).json()
    wins = {line["key"]: line for line in st["lines"]}
    for key in players:
        start = d.req("GET", f"{base}/standings?after_round=0", 200).json()
        before = next(x for x in start["lines"] if x["key"] == key)["values"]["MMS"]
        assert int(wins[key]["values"]["MMS"]) == int(before) + (key in winners.values())
    engine = make_engine(sqlite_url)
    with engine.connect() as conn:
        actions = [r.action for r in conn.execute(sa.select(tournament_log.c.action, tournament_log.c.by_name)
                                                  .where(tournament_log.c.tournament_id == tid))]
    engine.dispose()
    assert actions.count("game-result") == 3 and actions.count("games") == 1
    # A director's later fix wins; the next round pairs from the results.
    g1 = t["round_list"][0]["games"][0]
    d.req("PUT", f"{base}/rounds/1/tables/{g1['table']}/result", 200, json={"result": "both_lose"})
    t2 = d.req("POST", f"{base}/rounds/2/pairing", 200, json={}).json()
    met = {frozenset((g["white"], g["black"])) for g in t["round_list"][0]["games"]}
    assert all(frozenset((g["white"], g["black"])) not in met for g in t2["round_list"][1]["games"])


def test_a_player_absent_at_the_limit_loses_by_forfeit(fast_client: TestClient, sqlite_url: str) -> None:
    d, players, tid = online_tournament(fast_client, n=2, forfeit_minutes=5)
    base = f"/api/tournaments/{tid}"
    d.req("POST", f"{base}/rounds/1/pairing", 200, json={})
    d.req("POST", f"{base}/rounds/1/start", 200, json={})
    wait_for(lambda: bool(d.req("GET", base, 200).json()["round_list"][0]["games"][0]["game"]))
    g = d.req("GET", base, 200).json()["round_list"][0]["games"][0]
    players[g["black"]].req("POST", f"/api/games/{g['game']}/actions", 200, json={"type": "play", "move": "E5"})
    # The forfeit judgement is due five minutes after the start: bring it forward.
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:
        done = conn.execute(scheduled_jobs.update().where(scheduled_jobs.c.kind == "t-forfeit")
                            .values(due_at=now_utc()))
        assert done.rowcount == 1
    engine.dispose()

    def forfeited() -> bool:
        x = d.req("GET", base, 200).json()["round_list"][0]["games"][0]
        return bool(x["result"] != "unknown")

    wait_for(forfeited)
    x = d.req("GET", base, 200).json()["round_list"][0]["games"][0]
    assert (x["result"], x["by_forfeit"]) == ("black", True)  # White never moved
    assert d.req("GET", f"/api/games/{g['game']}", 200).json()["result"] == "B+F"


def test_a_fixed_result_rerates_the_rated_game(fast_client: TestClient) -> None:
    d, players, tid = online_tournament(fast_client, n=2, rated=True)
    base = f"/api/tournaments/{tid}"
    d.req("POST", f"{base}/rounds/1/pairing", 200, json={})
    d.req("POST", f"{base}/rounds/1/start", 200, json={})
    wait_for(lambda: bool(d.req("GET", base, 200).json()["round_list"][0]["games"][0]["game"]))
    g = d.req("GET", base, 200).json()["round_list"][0]["games"][0]
    black, white = players[g["black"]], players[g["white"]]
    assert g["handicap"] == 0  # 1d against 1k: an even game
    for b, w in zip(["C3", "C4", "C5", "C6", "C7"], ["G3", "G4", "G5", "G6", "G7"], strict=True):
        black.req("POST", f"/api/games/{g['game']}/actions", 200, json={"type": "play", "move": b})
        white.req("POST", f"/api/games/{g['game']}/actions", 200, json={"type": "play", "move": w})
    white.req("POST", f"/api/games/{g['game']}/actions", 200, json={"type": "resign"})
    bname = black.me()["name"]

    def rating() -> float:
        return float(d.req("GET", f"/api/players/{bname}", 200).json()["rating"]["rating"])

    wait_for(lambda: d.req("GET", base, 200).json()["round_list"][0]["games"][0]["result"] == "black")
    wait_for(lambda: d.req("GET", f"/api/players/{bname}", 200).json()["games"]["won"] == 1)
    won = rating()
    # The director finds White won after all: the game is rated again as White's win.
    d.req("PUT", f"{base}/rounds/1/tables/{g['table']}/result", 200, json={"result": "white"})
    lost = rating()
    assert lost < won
    # Fixed to "both lose": the game no longer counts for the ratings.
    d.req("PUT", f"{base}/rounds/1/tables/{g['table']}/result", 200, json={"result": "both_lose"})
    assert d.req("GET", f"/api/players/{bname}/ratings", 200).json()["ratings"] == []


def test_absent_at_the_limit_alone_or_both(fast_client: TestClient, sqlite_url: str) -> None:
    d, players, tid = online_tournament(fast_client, n=4, forfeit_minutes=5)
    base = f"/api/tournaments/{tid}"
    d.req("POST", f"{base}/rounds/1/pairing", 200, json={})
    d.req("POST", f"{base}/rounds/1/start", 200, json={})
    wait_for(lambda: all(g["game"] for g in d.req("GET", base, 200).json()["round_list"][0]["games"]))
    g1, g2 = d.req("GET", base, 200).json()["round_list"][0]["games"]
    # Table 1: nobody comes. Table 2: the player not to move checks in; the one to move never moves.
    to_move = d.req("GET", f"/api/games/{g2['game']}", 200).json()["to_move"]
    waiting = g2["white"] if to_move == "B" else g2["black"]
    t = players[waiting].req("POST", f"{base}/rounds/1/checkin", 200).json()
    assert t["round_list"][0]["present"] == [waiting]
    players[waiting].req("POST", f"{base}/rounds/1/checkin", 200)  # twice: once in the log
    assert code_of(d.req("POST", f"{base}/rounds/1/checkin", 403)) == "not-director"  # not a player
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:
        conn.execute(scheduled_jobs.update().where(scheduled_jobs.c.kind == "t-forfeit").values(due_at=now_utc()))
    engine.dispose()
    wait_for(lambda: all(g["result"] != "unknown" for g in d.req("GET", base, 200).json()["round_list"][0]["games"]))
    time.sleep(1.5)  # the games' own results have been delivered too: the tables keep the verdicts
    x1, x2 = d.req("GET", base, 200).json()["round_list"][0]["games"]
    assert (x1["result"], x1["by_forfeit"]) == ("both_lose", True)
    assert (x2["result"], x2["by_forfeit"]) == ("white" if to_move == "B" else "black", True)
    log = [e["action"] for e in d.req("GET", f"{base}/log", 200).json()["entries"]]
    assert log.count("check-in") == 1 and log.count("both-absent") == 1


def test_a_tournament_game_names_its_tournament_round_and_table(fast_client: TestClient) -> None:
    d, players, tid = online_tournament(fast_client, n=2)
    base = f"/api/tournaments/{tid}"
    d.req("POST", f"{base}/rounds/1/pairing", 200, json={})
    t = d.req("POST", f"{base}/rounds/1/start", 200, json={"start_at": "2026-12-02T10:00:00Z"}).json()
    r1 = t["round_list"][0]
    # The players of an online round see when it starts and when an absent player loses by forfeit.
    assert (r1["start_at"], r1["forfeit_at"]) == ("2026-12-02T10:00:00+00:00", "2026-12-02T10:15:00+00:00")
    games: list[dict[str, Any]] = []

    def made() -> bool:
        games[:] = d.req("GET", base, 200).json()["round_list"][0]["games"]
        return bool(games) and all(g["game"] for g in games)

    wait_for(made)
    gid = games[0]["game"]
    state = d.req("GET", f"/api/games/{gid}", 200).json()
    assert state["event"] == {"id": tid, "name": "Online cup", "round": 1, "table": 1}
    sgf = d.req("GET", f"/api/games/{gid}/sgf", 200).text
    assert "EV[Online cup]" in sgf and "RO[1 (table 1)]" in sgf
