"""Demo boards over HTTP (issue 45, docs/web-api.md *Demo boards*): every op, who may write, the limits, the SGF."""

from __future__ import annotations

from typing import Any

import pytest

from keima.record import read_tree
from keima.server.boards import service

from ..helpers import act
from .conftest import As


def new_board(who: As, status: int = 201, **body: Any) -> Any:
    return who.req("POST", "/api/boards", status, json={"title": "Lesson", "size": 9, **body})


def play(who: As, bid: str, version: int, parent: int, color: str, vertex: str, status: int = 200) -> Any:
    return who.op(bid, version, {"type": "node", "parent": parent, "move": {"color": color, "vertex": vertex}},
                  status)


def test_an_empty_board_has_its_root_and_its_owner_in_control(people: dict[str, As]) -> None:
    b = new_board(people["teacher"])
    assert b["title"] == "Lesson" and b["owner"]["name"] == "teacher" and b["version"] == 0
    assert b["tree"]["size"] == 9 and b["tree"]["nodes"] == [{"id": 0, "parent": None, "children": []}]
    assert b["cursor"] == 0 and b["controllers"] == [] and b["you"]["control"] is True
    seen = people["ann"].req("GET", f"/api/boards/{b['id']}")
    assert seen["you"]["control"] is False and seen["tree"] == b["tree"]


def test_moves_are_the_referees_captures_and_ko(people: dict[str, As]) -> None:
    t = people["teacher"]
    bid = new_board(t)["id"]
    v, parent = 0, 0
    # Black captures the white stone at E5; White may not take back at once (ko).
    for color, vertex in (("B", "D5"), ("W", "E5"), ("B", "E4"), ("W", "F4"), ("B", "E6"), ("W", "F6"),
                          ("B", "A1"), ("W", "G5"), ("B", "F5")):
        out = play(t, bid, v, parent, color, vertex)
        v, parent = out["version"], out["op"]["id"]
    assert out["op"]["captured"] == ["E5"]
    err = play(t, bid, v, parent, "W", "E5", 409)["error"]
    assert err["code"] == "illegal-move" and err["reason"] == "ko"
    tree = t.req("GET", f"/api/boards/{bid}")
    assert tree["cursor"] == parent and tree["version"] == v and len(tree["tree"]["nodes"]) == 10


def test_a_variation_a_setup_select_marks_and_comments(people: dict[str, As]) -> None:
    t = people["teacher"]
    bid = new_board(t)["id"]
    a = play(t, bid, 0, 0, "B", "E5")
    b = play(t, bid, 1, 0, "B", "C3")  # a second line from the root
    assert (a["op"]["id"], b["op"]["id"]) == (1, 2)
    again = play(t, bid, 2, 0, "B", "E5")  # the move is there: the op goes to it
    assert again["op"] == {"type": "select", "node": 1}
    s = t.op(bid, 3, {"type": "node", "parent": 1, "setup": {"white": ["D4", "F6"], "to_move": "B"}})
    assert s["op"] == {"type": "node", "parent": 1, "id": 3, "setup": {"white": ["D4", "F6"], "to_move": "B"}}
    assert t.op(bid, 4, {"type": "select", "node": 2})["op"] == {"type": "select", "node": 2}
    m = t.op(bid, 5, {"type": "mark", "node": 1, "point": "c3", "kind": "triangle"})
    assert m["op"] == {"type": "mark", "node": 1, "point": "C3", "kind": "triangle"}
    m = t.op(bid, 6, {"type": "mark", "node": 1, "point": "D3", "kind": "letter"})
    assert m["op"]["label"] == "A"
    m = t.op(bid, 7, {"type": "mark", "node": 1, "point": "D2", "kind": "number", "label": "7"})
    assert m["op"]["label"] == "7"
    assert t.op(bid, 8, {"type": "mark", "node": 1, "point": "C3", "kind": "none"})["op"]["kind"] == "none"
    c = t.op(bid, 9, {"type": "comment", "node": 1, "text": "<b>tengen</b>\nwhy not?"})
    assert c["op"]["text"] == "<b>tengen</b>\nwhy not?"
    nodes = t.req("GET", f"/api/boards/{bid}")["tree"]["nodes"]
    assert nodes[0]["children"] == [1, 2] and nodes[1]["children"] == [3]
    assert nodes[1]["marks"] == [{"point": "D3", "kind": "letter", "label": "A"},
                                 {"point": "D2", "kind": "number", "label": "7"}]
    assert nodes[1]["comment"] == "<b>tengen</b>\nwhy not?"


@pytest.mark.parametrize(("op", "field"), [
    ({"type": "dance"}, "op.type"),
    ({"type": "node", "parent": 9, "move": {"color": "B", "vertex": "E5"}}, "op.parent"),
    ({"type": "node", "parent": 0, "move": {"color": "X", "vertex": "E5"}}, "op.move.color"),
    ({"type": "node", "parent": 0, "move": {"color": "B", "vertex": "Z99"}}, "op.move.vertex"),
    ({"type": "node", "parent": 0}, "op.move"),
    ({"type": "node", "parent": 0, "setup": {"black": ["A1", "A1"]}}, None),
    ({"type": "node", "parent": 0, "setup": {"red": ["A1"]}}, "op.setup"),
    ({"type": "select", "node": "x"}, "op.node"),
    ({"type": "mark", "node": 0, "point": "E5", "kind": "star"}, "op.kind"),
    ({"type": "mark", "node": 0, "point": "E5", "kind": "letter", "label": "TOO LONG"}, "op.label"),
    ({"type": "comment", "node": 0, "text": "x" * 2001}, "op.text"),
    ({"type": "comment", "node": 0, "text": "bell\x07"}, "op.text"),
    ({"type": "control", "to": "nobody-here"}, "op.to"),
])
def test_a_bad_op_is_a_422_naming_its_field(people: dict[str, As], op: dict[str, Any], field: str | None) -> None:
    t = people["teacher"]
    bid = new_board(t)["id"]
    r = t.op(bid, 0, op, 409 if field is None else 422)
    if field is not None:
        assert r["error"]["field"] == field, r
    assert t.req("GET", f"/api/boards/{bid}")["version"] == 0


def test_a_stale_version_is_a_409_with_the_current_one(people: dict[str, As]) -> None:
    t = people["teacher"]
    bid = new_board(t)["id"]
    play(t, bid, 0, 0, "B", "E5")
    r = play(t, bid, 0, 0, "W", "C3", 409)
    assert r["error"]["code"] == "stale-version" and r["version"] == 1


def test_only_those_in_control_write_and_only_the_owner_gives_control(people: dict[str, As]) -> None:
    t, ann, bob, nobody = people["teacher"], people["ann"], people["bob"], people["nobody"]
    bid = new_board(t)["id"]
    assert nobody.op(bid, 0, {"type": "select", "node": 0}, 401)["error"]["code"] == "not-logged-in"
    assert ann.op(bid, 0, {"type": "select", "node": 0}, 403)["error"]["code"] == "not-in-control"
    with ann.ws(bid) as ws:  # ann watches: the owner can give her control
        ws.receive_json()
        out = t.op(bid, 0, {"type": "control", "to": ann.id})["op"]
        assert out == {"type": "control", "to": ann.id, "controllers": [{"id": ann.id, "name": "ann"}]}
    assert play(ann, bid, 1, 0, "B", "E5")["version"] == 2
    assert ann.op(bid, 2, {"type": "control", "to": None}, 403)["error"]["code"] == "not-in-control"
    assert bob.op(bid, 2, {"type": "select", "node": 0}, 403)["error"]["code"] == "not-in-control"
    t.op(bid, 2, {"type": "control", "to": None})  # taken back
    assert ann.op(bid, 3, {"type": "select", "node": 0}, 403)["error"]["code"] == "not-in-control"
    assert ann.req("DELETE", f"/api/boards/{bid}", 403)["error"]["code"] == "not-in-control"


def test_a_question_gathers_hidden_answers_and_reveals_the_counts(people: dict[str, As]) -> None:
    t, ann, bob = people["teacher"], people["ann"], people["bob"]
    bid = new_board(t)["id"]
    assert ann.req("POST", f"/api/boards/{bid}/answer", 409, json={"point": "E5"})["error"]["reason"] == "no-question"
    assert t.op(bid, 0, {"type": "question", "node": 0})["op"] == {"type": "question", "node": 0}
    assert ann.req("POST", f"/api/boards/{bid}/answer", json={"point": "e5"}) == {"point": "E5"}
    bob.req("POST", f"/api/boards/{bid}/answer", json={"point": "C3"})
    bob.req("POST", f"/api/boards/{bid}/answer", json={"point": "E5"})  # the last one counts
    assert ann.req("POST", f"/api/boards/{bid}/answer", 422, json={"point": "Z9"})["error"]["field"] == "point"
    seen = bob.req("GET", f"/api/boards/{bid}")
    assert seen["question"] == {"node": 0} and seen["you"]["answer"] == "E5"
    assert t.op(bid, 1, {"type": "answers"})["op"] == {"type": "answers", "counts": {"E5": 2}}
    assert t.req("GET", f"/api/boards/{bid}")["question"] is None


def test_the_chat_is_a_versioned_op_and_cleaned(people: dict[str, As]) -> None:
    t, ann, nobody = people["teacher"], people["ann"], people["nobody"]
    bid = new_board(t)["id"]
    assert ann.req("POST", f"/api/boards/{bid}/chat", json={"text": " hello\u200b "}) == {"version": 1}
    nobody.req("POST", f"/api/boards/{bid}/chat", 401, json={"text": "hi"})
    assert ann.req("POST", f"/api/boards/{bid}/chat", 422, json={"text": "\u200b"})["error"]["field"] == "text"
    assert t.req("GET", f"/api/boards/{bid}")["chat"] == [{"name": "ann", "text": "hello"}]


SGF = "(;GM[1]FF[4]SZ[9]KM[7]PB[Ann]PW[Bob]EV[Club cup]C[start];B[ee]TR[dd]LB[cc:A](;W[ce]C[main])(;W[ec]))"


def test_a_board_from_sgf_keeps_the_tree_marks_and_comments_and_saves_them_back(people: dict[str, As]) -> None:
    t = people["teacher"]
    b = new_board(t, title="", sgf=SGF)
    assert b["title"] == "Ann - Bob" and b["info"]["EV"] == "Club cup"
    nodes = b["tree"]["nodes"]
    assert [n.get("move", {}).get("vertex") for n in nodes] == [None, "E5", "C5", "E7"]
    assert nodes[0]["comment"] == "start" and nodes[1]["children"] == [2, 3]
    assert {m["kind"] for m in nodes[1]["marks"]} == {"triangle", "letter"}
    t.op(b["id"], 0, {"type": "comment", "node": 3, "text": "the other line"})
    text = t.req("GET", f"/api/boards/{b['id']}/sgf").text
    record, back = read_tree(text)
    assert record.info["EV"] == "Club cup" and len(back) == 4
    assert back[3].comment == "the other line" and back[1].marks == [(30, "triangle", None), (20, "label", "A")]
    # The saved record opens back as a board that is the same tree.
    again = new_board(t, sgf=text)
    assert again["tree"]["nodes"] == t.req("GET", f"/api/boards/{b['id']}")["tree"]["nodes"]


@pytest.mark.parametrize(("sgf", "status", "reason"), [
    ("not a record", 422, None),
    ("(;GM[1]SZ[9];B[ee](;W[dd])(;W[ee]))", 422, "illegal-move"),
])
def test_a_record_that_cannot_be_read_is_a_422(people: dict[str, As], sgf: str, status: int,
                                               reason: str | None) -> None:
    err = new_board(people["teacher"], status, sgf=sgf)["error"]
    assert err["field"] == "sgf" and (reason is None or err["reason"] == reason)


def test_limits_boards_per_player_sgf_size_tree_size_and_ops_a_second(people: dict[str, As],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    t = people["teacher"]
    big = "(;GM[1]SZ[9]C[" + "x" * (service.MAX_SGF + 10) + "])"
    assert new_board(t, 413, sgf=big)["error"]["code"] == "too-large"
    monkeypatch.setattr(service, "BOARDS_PER_PLAYER", 2)
    bid = new_board(t)["id"]
    new_board(t)
    assert new_board(t, 409)["error"]["code"] == "too-many-boards"
    t.req("DELETE", f"/api/boards/{bid}", 204)
    t.req("GET", f"/api/boards/{bid}", 404)
    bid = new_board(t)["id"]
    monkeypatch.setattr("keima.server.boards.model.MAX_NODES", 3)
    play(t, bid, 0, 0, "B", "E5")
    play(t, bid, 1, 1, "W", "C3")
    err = play(t, bid, 2, 2, "B", "D4", 413)["error"]
    assert err["code"] == "too-large" and err["reason"] == "tree-full"
    monkeypatch.setattr(service, "OPS_PER_SECOND", 3)  # three ops counted already this second
    assert t.op(bid, 2, {"type": "select", "node": 0}, 429)["error"]["code"] == "too-many-requests"


def test_review_together_opens_a_finished_game_with_both_players_in_control(people: dict[str, As]) -> None:
    t, ann, bob = people["teacher"], people["ann"], people["bob"]
    g = ann.req("POST", "/api/games", 201, json={"size": 9, "opponent": "invite", "color": "B"})
    gid = g["game"]["id"]
    joined = bob.req("POST", f"/api/games/{gid}/join", json={"code": g["invite"]["code"]})
    t.c.cookies.clear()
    assert t.req("POST", "/api/boards", 409, json={"game": gid})["error"]["code"] == "game-in-progress"
    act(t.c, gid, g["seat"]["token"], {"type": "play", "move": "E5"})
    act(t.c, gid, joined["seat"]["token"], {"type": "resign"})
    b = t.req("POST", "/api/boards", 201, json={"game": gid})
    assert b["tree"]["nodes"][1]["move"] == {"color": "B", "vertex": "E5"} and b["cursor"] == 1
    assert b["title"] == "ann - bob" and b["info"]["RE"] == "B+R"
    assert {p["name"] for p in b["controllers"]} == {"ann", "bob"}
    assert bob.op(b["id"], 0, {"type": "select", "node": 0})["version"] == 1
    t.req("POST", "/api/boards", 404, json={"game": "nope"})


def test_boards_are_stored_and_read_back_after_a_restart(sqlite_url: str) -> None:
    from fastapi.testclient import TestClient

    from keima.server import create_app

    with TestClient(create_app(sqlite_url)) as c:
        t = As(c, "teacher")
        bid = new_board(t)["id"]
        play(t, bid, 0, 0, "B", "E5")
        t.op(bid, 1, {"type": "mark", "node": 1, "point": "D4", "kind": "circle"})
        before = t.req("GET", f"/api/boards/{bid}")
    with TestClient(create_app(sqlite_url)) as c:
        after = As(c, None).req("GET", f"/api/boards/{bid}")
    assert after["tree"] == before["tree"] and after["version"] == 2 and after["cursor"] == 1


def test_a_page_of_another_site_never_writes(people: dict[str, As]) -> None:
    t = people["teacher"]
    bid = new_board(t)["id"]
    evil = {**t.headers, "Origin": "https://evil.example"}
    r = t.c.post(f"/api/boards/{bid}/ops", headers=evil, json={"version": 0, "op": {"type": "select", "node": 0}})
    assert r.status_code == 403 and r.json()["error"]["code"] == "cross-origin"
    r = t.c.post("/api/boards", headers=evil, json={"size": 9})
    assert r.status_code == 403
    with t.c.websocket_connect(f"/api/boards/{bid}/ws", headers=evil) as ws:  # it watches, as nobody
        assert ws.receive_json()["board"]["you"]["control"] is False
        ws.send_json({"type": "op", "id": "x", "version": 0, "op": {"type": "select", "node": 0}})
        assert ws.receive_json()["error"]["code"] == "not-logged-in"


def test_a_node_deleted_takes_its_lines_out_of_the_tree_the_record_and_a_restart(sqlite_url: str) -> None:
    from fastapi.testclient import TestClient

    from keima.server import create_app

    with TestClient(create_app(sqlite_url)) as c:
        t = As(c, "teacher")
        bid = new_board(t)["id"]
        play(t, bid, 0, 0, "B", "E5")  # 1
        play(t, bid, 1, 1, "W", "C3")  # 2
        play(t, bid, 2, 2, "B", "G7")  # 3, the cursor
        play(t, bid, 3, 1, "W", "G3")  # 4, another line from 1
        t.op(bid, 4, {"type": "select", "node": 3})
        out = t.op(bid, 5, {"type": "delete", "node": 2})["op"]
        assert out == {"type": "delete", "node": 2, "cursor": 1}  # the cursor was below: it goes up
        assert t.op(bid, 6, {"type": "select", "node": 3}, 422)["error"]["field"] == "op.node"
        assert t.op(bid, 6, {"type": "delete", "node": 0}, 422)["error"]["field"] == "op.node"
        nodes = t.req("GET", f"/api/boards/{bid}")["tree"]["nodes"]
        assert nodes[1]["children"] == [4] and nodes[2]["deleted"] and nodes[3]["deleted"]
        _, back = read_tree(t.req("GET", f"/api/boards/{bid}/sgf").text)
        assert [n.move for n in back] == [None, ("B", 40), ("W", 60)]  # E5, then G3 (C3 and G7 gone)
        # The same move again below 1 is a new node (the deleted one stays out).
        assert play(t, bid, 6, 1, "W", "C3")["op"]["id"] == 5
        before = t.req("GET", f"/api/boards/{bid}")
    with TestClient(create_app(sqlite_url)) as c:
        after = As(c, None).req("GET", f"/api/boards/{bid}")
    assert after["tree"] == before["tree"]
