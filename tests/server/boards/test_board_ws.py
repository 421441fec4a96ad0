"""The demo board's socket (issue 45): the whole board first, a delta for every op in order, ops written on the
socket checked against the caller each time, answers seen by those in control only, resync."""

from __future__ import annotations

from typing import Any

from .conftest import As


def board(t: As) -> str:
    bid: str = t.req("POST", "/api/boards", 201, json={"title": "Lesson", "size": 9})["id"]
    return bid


def until(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` (others skipped)."""
    for _ in range(50):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def test_watchers_get_the_state_then_every_op_as_a_delta(people: dict[str, As]) -> None:
    t, ann, nobody = people["teacher"], people["ann"], people["nobody"]
    bid = board(t)
    with ann.ws(bid) as a, nobody.ws(bid) as n:
        first = a.receive_json()
        assert first["type"] == "state" and first["protocol"] == 1 and first["board"]["version"] == 0
        assert first["board"]["you"]["control"] is False
        n.receive_json()
        ops = [
            {"type": "node", "parent": 0, "move": {"color": "B", "vertex": "E5"}},
            {"type": "node", "parent": 1, "setup": {"white": ["D4"]}},
            {"type": "delete", "node": 2},
            {"type": "select", "node": 1},
            {"type": "mark", "node": 1, "point": "C3", "kind": "square"},
            {"type": "comment", "node": 1, "text": "look"},
            {"type": "control", "to": ann.id},
            {"type": "control", "to": None},
            {"type": "question", "node": 1},
            {"type": "answers"},
        ]
        for v, op in enumerate(ops):
            sent = t.op(bid, v, op)["op"]
            for ws in (a, n):
                d = ws.receive_json()
                assert d == {"type": "delta", "from": v, "to": v + 1, "op": sent}
        # The chat is a delta too.
        ann.req("POST", f"/api/boards/{bid}/chat", json={"text": "hi"})
        assert n.receive_json()["op"] == {"type": "chat", "name": "ann", "text": "hi"}


def test_ops_on_the_socket_are_acked_after_their_delta_and_checked_each_time(people: dict[str, As]) -> None:
    t, ann = people["teacher"], people["ann"]
    bid = board(t)
    with t.ws(bid) as tw, ann.ws(bid) as aw:
        tw.receive_json()
        aw.receive_json()
        tw.send_json({"type": "op", "id": "m1", "version": 0,
                      "op": {"type": "node", "parent": 0, "move": {"color": "B", "vertex": "E5"}}})
        assert until(tw, "delta")["to"] == 1
        assert tw.receive_json() == {"type": "ack", "id": "m1", "version": 1}
        assert aw.receive_json()["to"] == 1
        # Ann is not in control: refused, every time.
        aw.send_json({"type": "op", "id": "a1", "version": 1, "op": {"type": "select", "node": 0}})
        err = aw.receive_json()
        assert err["type"] == "error" and err["id"] == "a1" and err["error"]["status"] == 403
        # Given control, she writes; taken back, she cannot any more (on the same socket).
        t.op(bid, 1, {"type": "control", "to": ann.id})
        assert until(aw, "delta")["op"]["type"] == "control"
        aw.send_json({"type": "op", "id": "a2", "version": 2, "op": {"type": "select", "node": 0}})
        assert until(aw, "ack") == {"type": "ack", "id": "a2", "version": 3}
        t.op(bid, 3, {"type": "control", "to": None})
        aw.send_json({"type": "op", "id": "a3", "version": 4, "op": {"type": "select", "node": 1}})
        assert until(aw, "error")["error"]["code"] == "not-in-control"
        # A stale version: the error carries the current one.
        tw.send_json({"type": "op", "id": "s", "version": 0, "op": {"type": "select", "node": 0}})
        err = until(tw, "error")
        assert err["error"]["code"] == "stale-version" and err["version"] == 4


def test_answers_go_to_those_in_control_only(people: dict[str, As]) -> None:
    t, ann, bob = people["teacher"], people["ann"], people["bob"]
    bid = board(t)
    with t.ws(bid) as tw, ann.ws(bid) as aw, bob.ws(bid) as bw:
        for ws in (tw, aw, bw):
            ws.receive_json()
        t.op(bid, 0, {"type": "question", "node": 0})
        assert until(aw, "delta")["op"] == {"type": "question", "node": 0}
        until(tw, "answers")  # the empty heat map as the question opens
        aw.send_json({"type": "answer", "id": "q", "point": "E5"})
        assert until(aw, "ack") == {"type": "ack", "id": "q", "point": "E5"}
        seen = until(tw, "answers")
        assert seen == {"type": "answers", "question": 0, "counts": {"E5": 1}, "names": {"E5": ["ann"]}}
        bw.send_json({"type": "answer", "id": "q", "point": "C3"})
        until(bw, "ack")
        assert until(tw, "answers")["counts"] == {"E5": 1, "C3": 1}
        t.op(bid, 1, {"type": "answers"})
        # Bob saw no one's answer: his next message is the reveal's delta.
        until(tw, "delta")
        assert bw.receive_json()["op"] == {"type": "answers", "counts": {"E5": 1, "C3": 1}}


def test_a_socket_without_a_player_watches_and_resyncs_but_never_writes(people: dict[str, As]) -> None:
    t, nobody = people["teacher"], people["nobody"]
    bid = board(t)
    with nobody.ws(bid) as n:
        n.receive_json()
        n.send_json({"type": "op", "id": "x", "version": 0, "op": {"type": "select", "node": 0}})
        assert n.receive_json()["error"]["code"] == "not-logged-in"
        n.send_json({"type": "chat", "text": "hi"})
        assert n.receive_json()["error"]["status"] == 401
        t.op(bid, 0, {"type": "node", "parent": 0, "move": {"color": "B", "vertex": "E5"}})
        n.receive_json()
        n.send_json({"type": "resync"})
        again = n.receive_json()
        assert again["type"] == "state" and again["board"]["version"] == 1
        n.send_json({"type": "ping"})
        assert n.receive_json() == {"type": "pong"}
        n.send_text("not json")
        assert n.receive_json()["error"]["code"] == "bad-request"


def test_the_lobby_lists_live_public_boards_only(people: dict[str, As]) -> None:
    t, ann = people["teacher"], people["ann"]
    public = board(t)
    hidden = t.req("POST", "/api/boards", 201, json={"title": "Private", "size": 9, "visibility": "link"})["id"]
    assert ann.req("GET", "/api/boards") == {"boards": []}  # nobody watching
    with ann.ws(public) as a, ann.ws(hidden) as h:
        a.receive_json()
        h.receive_json()
        listed = ann.req("GET", "/api/boards")["boards"]
        assert [b["id"] for b in listed] == [public] and listed[0]["watchers"] == 1


def test_the_owner_is_told_who_watches(people: dict[str, As]) -> None:
    t, ann, nobody = people["teacher"], people["ann"], people["nobody"]
    bid = board(t)
    with t.ws(bid) as tw:
        tw.receive_json()
        assert until(tw, "people")["people"] == [{"id": t.id, "name": "teacher"}]
        with ann.ws(bid) as aw, nobody.ws(bid) as nw:
            aw.receive_json()
            nw.receive_json()
            names = lambda: {p["name"] for p in until(tw, "people")["people"]}  # noqa: E731
            while (seen := names()) == {"teacher"}:
                pass
            assert seen == {"teacher", "ann"}  # a socket without a player is nobody to name
        while (seen := names()) != {"teacher"}:
            assert seen == {"teacher", "ann"}


def test_an_unknown_board_closes_the_socket(people: dict[str, As]) -> None:
    import pytest
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), people["ann"].ws("nope") as ws:
        ws.receive_json()


def test_a_board_nobody_watches_leaves_memory_and_comes_back_from_the_database(
        people: dict[str, As], monkeypatch: Any) -> None:
    from keima.server.boards import service

    from ..helpers import wait_for

    monkeypatch.setattr(service, "IDLE_KEEP", 0.05)
    t = people["teacher"]
    bid = board(t)
    t.op(bid, 0, {"type": "node", "parent": 0, "move": {"color": "B", "vertex": "E5"}})
    live = t.c.app.state.boards.live  # type: ignore[attr-defined]
    with t.ws(bid) as ws:
        ws.receive_json()
    wait_for(lambda: bid not in live, timeout=10)
    back = t.req("GET", f"/api/boards/{bid}")
    assert back["version"] == 1 and back["tree"]["nodes"][1]["move"] == {"color": "B", "vertex": "E5"}


def test_a_watcher_proposes_a_line_and_the_presenter_adds_it(people: dict[str, As]) -> None:
    t, ann, bob = people["teacher"], people["ann"], people["bob"]
    bid = board(t)
    t.op(bid, 0, {"type": "node", "parent": 0, "move": {"color": "B", "vertex": "E5"}})
    with t.ws(bid) as tw, bob.ws(bid) as bw:
        tw.receive_json()
        bw.receive_json()
        line = [{"color": "W", "vertex": "c3"}, {"color": "B", "vertex": "E5"}]  # E5 is taken below node 1
        err = ann.req("POST", f"/api/boards/{bid}/proposals", 409, json={"parent": 1, "moves": line})["error"]
        assert err["code"] == "illegal-move" and err["field"] == "moves.1"
        bad = ann.req("POST", f"/api/boards/{bid}/proposals", 422, json={"parent": 1, "moves": [{"color": "X"}]})
        assert bad["error"]["field"] == "moves.0"
        line[1]["vertex"] = "G7"
        pid = ann.req("POST", f"/api/boards/{bid}/proposals", json={"parent": 1, "moves": line})["proposal"]
        seen = until(tw, "proposal")
        assert seen["id"] == pid and seen["name"] == "ann" and seen["moves"][0] == {"color": "W", "vertex": "C3"}
        assert bob.op(bid, 1, {"type": "variation", "proposal": pid}, 403)["error"]["code"] == "not-in-control"
        out = t.op(bid, 1, {"type": "variation", "proposal": pid})["op"]
        assert [n["move"]["vertex"] for n in out["nodes"]] == ["C3", "G7"] and out["nodes"][0]["parent"] == 1
        assert until(bw, "delta")["op"] == out
        assert t.req("GET", f"/api/boards/{bid}")["cursor"] == out["nodes"][1]["id"]
        assert t.op(bid, 2, {"type": "variation", "proposal": pid}, 422)["error"]["field"] == "op.proposal"
        assert ann.req("GET", f"/api/boards/{bid}")["proposals"] == []  # only those in control see them
