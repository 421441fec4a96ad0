"""Conditional moves in correspondence games: a tree checked move by move when it is stored (422 naming the
move), tied to the game's version (409), played at once when the opponent follows it, dropped when they leave it."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from ..helpers import act, state, two_players, wait_for

CORR = {"type": "simple", "per_move": 86400, "weekend_pause": False}


def put(c: TestClient, gid: str, token: str, body: dict[str, Any], status: int) -> dict[str, Any]:
    r = c.put(f"/api/games/{gid}/conditional", json=body, headers={"X-Keima-Seat": token})
    assert r.status_code == status, r.text
    data: dict[str, Any] = r.json()
    return data


def get(c: TestClient, gid: str, token: str) -> dict[str, Any]:
    data: dict[str, Any] = c.get(f"/api/games/{gid}/conditional", headers={"X-Keima-Seat": token}).json()
    return data


def vertices(c: TestClient, gid: str) -> list[str]:
    return [m["vertex"] for m in state(c, gid)["moves"]]


TREE = [{"if": "C3", "play": "G7", "then": [{"if": "E5", "play": "F6", "then": []}]},
        {"if": "g3", "play": "c7", "then": []}]


def test_a_followed_sequence_plays_itself(fast_client: TestClient) -> None:
    c = fast_client
    gid, black, white = two_players(c, clock=CORR)
    act(c, gid, black, {"type": "play", "move": "D4"})
    version = state(c, gid)["version"]
    out = put(c, gid, black, {"version": version, "tree": TREE}, 200)
    assert out["tree"][1] == {"if": "G3", "play": "C7", "then": []}  # vertices as the board names them
    assert get(c, gid, black)["tree"] == out["tree"]
    assert get(c, gid, white)["tree"] == []  # private to its player
    act(c, gid, white, {"type": "play", "move": "C3"})
    wait_for(lambda: vertices(c, gid) == ["D4", "C3", "G7"], timeout=10)
    assert get(c, gid, black)["tree"] == [{"if": "E5", "play": "F6", "then": []}]
    act(c, gid, white, {"type": "play", "move": "E5"})
    wait_for(lambda: vertices(c, gid) == ["D4", "C3", "G7", "E5", "F6"], timeout=10)
    assert get(c, gid, black)["tree"] == []
    assert state(c, gid)["to_move"] == "W" and state(c, gid)["clock"]["running"] == "W"


def test_a_move_off_the_tree_drops_it(fast_client: TestClient) -> None:
    c = fast_client
    gid, black, white = two_players(c, clock=CORR)
    act(c, gid, black, {"type": "play", "move": "D4"})
    put(c, gid, black, {"version": state(c, gid)["version"], "tree": TREE}, 200)
    act(c, gid, white, {"type": "play", "move": "H8"})
    wait_for(lambda: get(c, gid, black)["tree"] == [], timeout=10)
    assert vertices(c, gid) == ["D4", "H8"] and state(c, gid)["to_move"] == "B"


def test_every_move_is_checked_and_the_version_must_be_the_games(fast_client: TestClient) -> None:
    c = fast_client
    gid, black, white = two_players(c, clock=CORR)
    act(c, gid, black, {"type": "play", "move": "D4"})
    version = state(c, gid)["version"]
    # [tree, words the refusal names]
    for tree, named in [
        ([{"if": "D4", "play": "C3", "then": []}], "D4"),  # the opponent's move on a stone
        ([{"if": "C3", "play": "C3", "then": []}], "C3 C3"),  # the answer on the opponent's stone
        ([{"if": "C3", "play": "G7", "then": [{"if": "G7", "play": "F6", "then": []}]}], "C3 G7 G7"),
        ([{"if": "Z99", "play": "G7", "then": []}], "Z99"),
        ([{"if": "C3", "play": "G7"}, {"if": "C3", "play": "G3"}], "two answers"),
    ]:
        err = put(c, gid, black, {"version": version, "tree": tree}, 422)["error"]
        assert err["field"] == "tree" and named in err["message"], err
    assert put(c, gid, black, {"version": version - 1, "tree": TREE}, 409)["error"]["code"] == "stale-version"
    assert put(c, gid, white, {"version": version, "tree": TREE}, 409)["error"]["reason"] == "wrong-turn"
    assert get(c, gid, black)["tree"] == []
    put(c, gid, black, {"version": version, "tree": TREE}, 200)
    assert c.delete(f"/api/games/{gid}/conditional", headers={"X-Keima-Seat": black}).status_code == 204
    assert get(c, gid, black)["tree"] == []


def test_a_live_game_has_no_conditional_moves(fast_client: TestClient) -> None:
    c = fast_client
    gid, black, _white = two_players(c, clock={"type": "fischer", "main": 600, "increment": 5})
    act(c, gid, black, {"type": "play", "move": "D4"})
    err = put(c, gid, black, {"version": state(c, gid)["version"], "tree": TREE}, 422)["error"]
    assert err["field"] == "tree" and "correspondence" in err["message"]
