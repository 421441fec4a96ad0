"""Relays of tables played at the table (issue 45 item 4): a director gives a table to a recorder, the recorder
enters the moves on a demo board whose record names the tournament, round and players, the tournament lists its
relays, and the recorder's result goes to the table (once; a director fixes it after)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from keima.record import load_record

from ..accounts.test_players import Browser, registered
from .test_tournaments import code, setup_six


def test_a_recorder_relays_a_table_and_its_result_goes_to_the_table(client: TestClient) -> None:
    d, _co, p1, _p2, t = setup_six(client)
    tid = t["id"]
    base = f"/api/tournaments/{tid}"
    rec = Browser(client)
    registered(rec, "recorder")
    d.req("POST", f"{base}/rounds/1/pairing", 200, json={})
    relay = f"{base}/rounds/1/tables/1/relay"
    assert code(p1.req("PUT", relay, 403, json={"recorder": "recorder"})) == "not-director"
    assert code(d.req("PUT", f"{base}/rounds/1/tables/9/relay", 404, json={"recorder": "recorder"})) == "not-found"
    assert d.req("PUT", relay, 404, json={"recorder": "nobody-here"}).json()["error"]["field"] == "recorder"
    r = d.req("PUT", relay, 200, json={"recorder": "recorder"}).json()
    bid = r["board"]
    assert r["round"] == 1 and r["table"] == 1 and r["name"] == "recorder"
    # The recorder is in control of the board; the director is not (the recorder's board).
    b = rec.req("GET", f"/api/boards/{bid}", 200).json()
    assert b["you"]["control"] and b["relay"] == {"tournament": tid, "round": 1, "table": 1}
    assert rec.req("POST", f"/api/boards/{bid}/ops", 200,
                   json={"version": 0, "op": {"type": "node", "parent": 0, "move": {"color": "B", "vertex": "Q16"}}})
    listed = p1.req("GET", f"{base}/relays", 200).json()["relays"]
    table1 = next(g for g in t_games(d, base) if g["table"] == 1)
    assert listed == [{"round": 1, "table": 1, "board": bid, "recorder": "recorder", "black": listed[0]["black"],
                       "white": listed[0]["white"], "result": "unknown", "watchers": 0}]
    assert table1["black"] and listed[0]["black"]
    # The result: a player of another table may not; the recorder does, once; a director fixes it.
    assert code(p1.req("PUT", f"{relay}/result", 403, json={"result": "black"})) == "not-director"
    assert code(rec.req("PUT", f"{base}/rounds/1/tables/2/relay/result", 404, json={"result": "black"})) == "not-found"
    rec.req("PUT", f"{relay}/result", 200, json={"result": "black"})
    assert code(rec.req("PUT", f"{relay}/result", 409, json={"result": "white"})) == "wrong-phase"
    d.req("PUT", f"{relay}/result", 200, json={"result": "white"})
    assert next(g for g in t_games(d, base) if g["table"] == 1)["result"] == "white"
    record = load_record(rec.req("GET", f"/api/boards/{bid}/sgf", 200).text)
    assert record.info["EV"] == "Coupe de Lyon" and record.info["RO"] == "1"
    assert record.info["PB"] and record.info["PW"] and record.info["BR"] and record.result_text == "W+"
    # Reviewing the table together: the directors and its players, from the relay's record.
    assert code(rec.req("POST", f"{base}/rounds/1/tables/1/review", 403)) == "not-director"
    assert code(d.req("POST", f"{base}/rounds/1/tables/2/review", 404)) == "not-found"  # no record
    review = d.req("POST", f"{base}/rounds/1/tables/1/review", 201).json()["board"]
    b = d.req("GET", f"/api/boards/{review}", 200).json()
    assert b["you"]["owner"] and b["tree"]["nodes"][1]["move"] == {"color": "B", "vertex": "Q16"}
    assert b["info"]["EV"] == "Coupe de Lyon" and b["visibility"] == "link"


def t_games(d: Browser, base: str) -> list[dict[str, object]]:
    games: list[dict[str, object]] = d.req("GET", base, 200).json()["round_list"][0]["games"]
    return games


def test_an_online_tables_game_is_reviewed_together_by_its_players_and_directors(fast_client: TestClient) -> None:
    from .test_tournament_online import online_tournament, play_round

    d, players, tid = online_tournament(fast_client, n=2)
    play_round(d, players, tid, 1)
    black, white = players["PLAYER0"], players["PLAYER1"]
    relay = d.req("PUT", f"/api/tournaments/{tid}/rounds/1/tables/1/relay", 409, json={"recorder": "player0"})
    assert code(relay) == "wrong-phase"  # a table played on keima is watched, not relayed
    board = black.req("POST", f"/api/tournaments/{tid}/rounds/1/tables/1/review", 201).json()["board"]
    b = white.req("GET", f"/api/boards/{board}", 200).json()
    assert b["you"]["control"] and {p["name"] for p in b["controllers"]} >= {"director"}
    assert b["info"]["EV"] == "Online cup" and len(b["tree"]["nodes"]) >= 1
