"""Review: a move tried from any node becomes a variation of the record (kept in its SGF), and a record that cannot
be read says what is wrong with it by ``reason`` and ``line``, so that a page says it in its reader's language
(issue 23 items 17, 18)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from keima.record import load_record

from .test_review import VARIATION_SGF, point


def post(c: TestClient, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    r = c.post("/api/review", json=body)
    assert r.status_code == status, r.text
    data: dict[str, Any] = r.json()
    return data


def test_a_move_tried_after_any_node_is_a_new_variation_kept_in_the_sgf(fast_client: TestClient) -> None:
    c = fast_client
    tree = post(c, {"sgf": VARIATION_SGF})
    main = tree["main_line"]  # root, B E5, W C7, B G3
    after = post(c, {"sgf": VARIATION_SGF, "add": {"at": main[1], "color": "W", "vertex": "D4"}})
    new = after["nodes"][after["added"]]
    assert (new["parent"], new["color"], new["move"], new["number"]) == (main[1], "W", "D4", 2)
    assert new["board"][point("D4")] == "2" and new["board"][point("E5")] == "1"
    # The lines already there keep their order: the new one comes last, the main line is the same moves.
    assert after["nodes"][main[1]]["children"][-1] == after["added"]
    assert [after["nodes"][i]["move"] for i in after["main_line"]] == [None, "E5", "C7", "G3"]
    # The SGF offered for download holds the variation, and reviews again to the same tree.
    record = load_record(after["sgf"].encode())
    assert len(list(record.tree.get_root()[0])) == 3
    again = post(c, {"sgf": after["sgf"]})
    assert [n["move"] for n in again["nodes"]] == [n["move"] for n in after["nodes"]]
    # Trying a move that is already there goes to it, and changes nothing.
    same = post(c, {"sgf": after["sgf"], "add": {"at": main[1], "color": "W", "vertex": "D4"}})
    assert same["added"] == after["added"] and same["sgf"] == after["sgf"]
    # A variation of the variation, and a pass.
    deeper = post(c, {"sgf": after["sgf"], "add": {"at": after["added"], "color": "B", "vertex": "pass"}})
    assert deeper["nodes"][deeper["added"]]["move"] == "pass"


def test_an_illegal_move_tried_is_refused_with_its_reason(fast_client: TestClient) -> None:
    c = fast_client
    tree = post(c, {"sgf": VARIATION_SGF})
    body = post(c, {"sgf": VARIATION_SGF, "add": {"at": tree["main_line"][2], "color": "B", "vertex": "E5"}}, 422)
    assert (body["error"]["field"], body["error"]["reason"]) == ("sgf", "illegal-move")
    body = post(c, {"sgf": VARIATION_SGF, "add": {"at": 99, "color": "B", "vertex": "A1"}}, 422)
    assert body["error"]["field"] == "add.at"


@pytest.mark.parametrize(
    ("sgf", "reason", "line"),
    [
        ("(;GM[1]FF[4]SZ[9]\n;B[ee]\n;W[gc]\n;B[cc]", "cut-short", 4),
        ("(;GM[1]FF[4]SZ[9]\n;B[ee]\n;W[gc", "cut-short", 3),
        ("hello, this is not a record", "not-sgf", 1),
        ("(;GM[2]SZ[9];B[ee])", "not-go", 1),
        ("(;GM[1]SZ[40];B[ee])", "board-size", 1),
        ("(;GM[1]SZ[9]\n;B[ee]\n;W[ee])", "illegal-move", 3),
        ("(;GM[1]SZ[9];B[ee]X)", "malformed", 1),
    ],
)
def test_a_record_that_cannot_be_read_says_what_and_where(
    fast_client: TestClient, sgf: str, reason: str, line: int
) -> None:
    error = post(fast_client, {"sgf": sgf}, 422)["error"]
    assert (error["code"], error["field"], error["reason"], error["line"]) == ("invalid-request", "sgf", reason, line)


def test_a_record_over_the_limit_is_refused_as_too_long(fast_client: TestClient) -> None:
    error = post(fast_client, {"sgf": "(;GM[1]" + "C[x]" * 300_000 + ")"}, 422)["error"]
    assert (error["field"], error["reason"]) == ("sgf", "too-long")
