"""Conditional moves in correspondence games: a tree checked move by move when it is stored (422 naming the
move), tied to the game's version (409), played at once when the opponent follows it, dropped when they leave it."""

from __future__ import annotations

from typing import Any

import pytest
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


def test_the_version_must_be_the_games(fast_client: TestClient) -> None:
    c = fast_client
    gid, black, white = two_players(c, clock=CORR)
    act(c, gid, black, {"type": "play", "move": "D4"})
    version = state(c, gid)["version"]
    assert put(c, gid, black, {"version": version - 1, "tree": TREE}, 409)["error"]["code"] == "stale-version"
    assert put(c, gid, white, {"version": version, "tree": TREE}, 409)["error"]["reason"] == "wrong-turn"
    assert get(c, gid, black)["tree"] == []
    put(c, gid, black, {"version": version, "tree": TREE}, 200)
    assert c.delete(f"/api/games/{gid}/conditional", headers={"X-Keima-Seat": black}).status_code == 204
    assert get(c, gid, black)["tree"] == []


def ko_to_take(c: TestClient) -> tuple[str, str, str]:
    """A correspondence game where Black may take a ko at E4 (White's D4 in atari) and White waits: White's tree
    answers Black's next move. Returns (id, Black's token, White's)."""
    gid, black, white = two_players(c, clock=CORR)
    for i, move in enumerate(["C4", "E5", "D5", "F4", "D3", "E3", "J9", "D4"]):
        act(c, gid, black if i % 2 == 0 else white, {"type": "play", "move": move})
    return gid, black, white


# [the tree White leaves, the refusal's reason, its field (the node's dotted path), the line its message names]
REFUSED: list[tuple[list[dict[str, Any]], str, str, str]] = [
    ([{"if": "C4", "play": "H2"}], "occupied", "tree.0.if", "C4: C4 is occupied"),
    ([{"if": "H8", "play": "H8"}], "occupied", "tree.0.play", "H8 H8: H8 is occupied"),
    ([{"if": "E4", "play": "D4"}], "ko", "tree.0.play", "E4 D4: "),  # retaking the ko at once
    ([{"if": "B1", "play": "H2", "then": [{"if": "A2", "play": "A1"}]}], "suicide", "tree.0.then.0.play",
     "B1 H2 A2 A1: "),
    ([{"if": "Z99", "play": "H2"}], "off-board", "tree.0.if", "Z99: "),
    ([{"if": "H8", "play": "J10"}], "off-board", "tree.0.play", "H8 J10: "),
    ([{"if": "H8", "play": "hello"}], "off-board", "tree.0.play", "H8 hello: "),
    ([{"if": "H8", "play": "H2", "then": [{"if": "H2", "play": "G2"}]}], "occupied", "tree.0.then.0.if",
     "H8 H2 H2: "),
    ([{"if": "H8", "play": "H2"}, {"if": "h8", "play": "H3"}], "two-answers", "tree.1.play", "H8: two answers"),
    ([{"if": "H8", "play": "H2", "then": [{"if": "G8", "play": "G2"}]},
      {"if": "H8", "play": "H2", "then": [{"if": "g8", "play": "F2"}]}], "two-answers", "tree.1.then.0.play",
     "H8 H2 G8: two answers to the same move, G2 and F2"),
]


@pytest.mark.parametrize(("tree", "reason", "field", "says"), REFUSED)
def test_each_bad_line_is_refused_with_the_referees_reason(fast_client: TestClient, tree: list[dict[str, Any]],
                                                            reason: str, field: str, says: str) -> None:
    c = fast_client
    gid, _black, white = ko_to_take(c)
    err = put(c, gid, white, {"version": state(c, gid)["version"], "tree": tree}, 422)["error"]
    assert (err["code"], err["reason"], err["field"]) == ("invalid-request", reason, field), err
    assert err["message"].startswith(says), err
    assert get(c, gid, white)["tree"] == []  # nothing of a refused tree is kept


def test_two_lines_with_the_same_start_are_one_tree(fast_client: TestClient) -> None:
    c = fast_client
    gid, black, white = ko_to_take(c)
    version = state(c, gid)["version"]
    # [what is sent, what is stored]
    for sent, stored in [
        ([{"if": "H8", "play": "H2", "then": [{"if": "G8", "play": "G2"}]},
          {"if": "h8", "play": "h2", "then": [{"if": "F8", "play": "F2"}]}],
         [{"if": "H8", "play": "H2", "then": [{"if": "G8", "play": "G2", "then": []},
                                              {"if": "F8", "play": "F2", "then": []}]}]),
        ([{"if": "H8", "play": "H2"}, {"if": "H8", "play": "H2", "then": [{"if": "G8", "play": "G2"}]}],
         [{"if": "H8", "play": "H2", "then": [{"if": "G8", "play": "G2", "then": []}]}]),
        ([{"if": "H8", "play": "H2", "then": [{"if": "G8", "play": "G2"}]},
          {"if": "H8", "play": "H2", "then": [{"if": "G8", "play": "G2", "then": [{"if": "F8", "play": "F2"}]}]}],
         [{"if": "H8", "play": "H2", "then": [{"if": "G8", "play": "G2", "then": [
             {"if": "F8", "play": "F2", "then": []}]}]}]),
    ]:
        assert put(c, gid, white, {"version": version, "tree": sent}, 200)["tree"] == stored
        assert get(c, gid, white)["tree"] == stored
    act(c, gid, black, {"type": "play", "move": "H8"})
    assert vertices(c, gid)[-2:] == ["H8", "H2"]  # answered in the move's own change: no wait
    assert get(c, gid, white)["tree"] == [{"if": "G8", "play": "G2", "then": [{"if": "F8", "play": "F2", "then": []}]}]


def test_a_live_game_has_no_conditional_moves(fast_client: TestClient) -> None:
    c = fast_client
    gid, black, _white = two_players(c, clock={"type": "fischer", "main": 600, "increment": 5})
    act(c, gid, black, {"type": "play", "move": "D4"})
    err = put(c, gid, black, {"version": state(c, gid)["version"], "tree": TREE}, 422)["error"]
    assert err["field"] == "tree" and "correspondence" in err["message"]
