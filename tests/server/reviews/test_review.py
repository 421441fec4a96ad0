"""``POST /api/review``, ``GET /api/games/{id}/review``, ``POST /api/review/estimate`` and
``POST /api/positions/play``.

The refusals are the referee's (docs/rules.md): suicide forbidden (FFG « Capture »), the ko and the repetition
rule (FFG « Répétition »).
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from ..helpers import act, new_game

# A 9x9 record with two lines after Black's first move, each with its comment:
#   main line:  B E5, W C7, B G3
#   variation:  B E5, W G7, B C3
VARIATION_SGF = (
    "(;GM[1]FF[4]SZ[9]KM[7.5]RU[French]PB[Alice]PW[Bob]C[Start]"
    ";B[ee]C[Tengen]"
    "(;W[cc]C[Main line];B[gg])"
    "(;W[gc]C[A variation: White takes the other side];B[cg]))"
)


def review(c: TestClient, sgf: str, status: int = 200) -> dict[str, Any]:
    r = c.post("/api/review", json={"sgf": sgf})
    assert r.status_code == status, r.text
    data: dict[str, Any] = r.json()
    return data


def point(vertex: str, size: int = 9) -> int:
    """Index of a GTP vertex in a board string (row by row from the top-left corner)."""
    col = "ABCDEFGHJKLMNOPQRST".index(vertex[0])
    return (size - int(vertex[1:])) * size + col


def test_tree_with_a_variation_and_comments(fast_client: TestClient) -> None:
    data = review(fast_client, VARIATION_SGF)
    nodes = data["nodes"]
    assert data["info"]["PB"] == "Alice" and data["info"]["PW"] == "Bob"
    assert (data["size"], data["komi"], data["rules"]) == (9, 7.5, "french")
    assert data["main_line"] == [0, 1, 2, 3]
    assert [(n["color"], n["move"], n["number"]) for n in nodes] == [
        (None, None, 0), ("B", "E5", 1), ("W", "C7", 2), ("B", "G3", 3), ("W", "G7", 2), ("B", "C3", 3)
    ]
    assert nodes[0]["comment"] == "Start"
    assert nodes[1]["children"] == [2, 4]  # the main line first, then the variation
    assert nodes[4]["parent"] == 1 and nodes[4]["comment"] == "A variation: White takes the other side"
    assert nodes[5]["parent"] == 4 and nodes[5]["children"] == []
    # The variation's boards are the variation's, not the main line's.
    last = nodes[5]["board"]
    assert last[point("E5")] == "1" and last[point("G7")] == "2" and last[point("C3")] == "1"
    assert last[point("C7")] == "0" and last[point("G3")] == "0"
    assert data["sgf"] == VARIATION_SGF
    assert data["end"]["board"][point("G3")] == 1 and data["end"]["last_mover"] == "B"


def test_captures_in_a_variation_are_the_referee_s(fast_client: TestClient) -> None:
    # Main line: nothing. Variation: Black surrounds the white stone at A9 (SGF "aa") and takes it.
    sgf = "(;SZ[5](;B[cc])(;W[aa];B[ba];W[ee];B[ab]))"
    data = review(fast_client, sgf)
    nodes = data["nodes"]
    end = nodes[-1]
    assert end["move"] == "A4" and end["board"][0] == "0"  # A5 (top-left) emptied by the capture
    assert end["prisoners"] == {"B": 1, "W": 0}


def test_illegal_move_in_a_variation_is_a_422_naming_it(fast_client: TestClient) -> None:
    body = review(fast_client, "(;SZ[9];B[ee](;W[cc])(;W[ee]))", status=422)
    assert "move 2 (White E5) of a variation is illegal" in body["error"]["message"]
    assert "occupied" in body["error"]["message"]


def test_bad_sgf_is_a_422_naming_line_and_move(fast_client: TestClient) -> None:
    body = review(fast_client, "(;SZ[9]\n;B[ee]\n;W[ee])", status=422)
    message = body["error"]["message"]
    assert ":3:" in message and "move 2 (White E5) is illegal" in message
    body = review(fast_client, "(;SZ[9];B[ee]", status=422)
    assert body["error"]["field"] == "sgf"


def test_review_of_a_server_game(fast_client: TestClient) -> None:
    created = new_game(fast_client, size=9, opponent="local")
    gid, token = created["game"]["id"], created["seat"]["token"]
    act(fast_client, gid, token, {"type": "play", "move": "C3"})
    act(fast_client, gid, token, {"type": "play", "move": "G7"})
    r = fast_client.get(f"/api/games/{gid}/review")
    assert r.status_code == 200, r.text
    data = r.json()
    assert [data["nodes"][i]["move"] for i in data["main_line"]][-2:] == ["C3", "G7"]
    assert fast_client.get("/api/games/nosuchgame/review").status_code == 404


def test_estimate_at_a_node(fast_client: TestClient) -> None:
    # Black's wall on column C, White's on column G: the left belongs to Black, the right to White.
    black = [f"C{r}" for r in range(1, 10)]
    white = [f"G{r}" for r in range(1, 10)]
    r = fast_client.post("/api/review/estimate", json={
        "size": 9, "black": black, "white": white, "moves": [{"color": "B", "vertex": "E5"}], "playouts": 64})
    assert r.status_code == 200, r.text
    own = r.json()["ownership"]
    assert len(own) == 81
    assert own[point("A5")] > 0.9 and own[point("J5")] < -0.9
    r = fast_client.post("/api/review/estimate", json={"size": 9, "playouts": 100000})
    assert r.status_code == 422


def play(c: TestClient, status: int = 200, **body: Any) -> dict[str, Any]:
    r = c.post("/api/positions/play", json=body)
    assert r.status_code == status, r.text
    data: dict[str, Any] = r.json()
    return data


def test_play_verdicts(fast_client: TestClient) -> None:
    c = fast_client
    # . X O . .      A ko: Black C4 takes B4, and White may not take back at once.
    # X O . O .
    # . X O . .
    ko = {"size": 5, "black": ["B5", "A4", "B3"], "white": ["C5", "B4", "D4", "C3"]}
    taken = play(c, **ko, attempt={"color": "B", "vertex": "C4"})
    assert taken["legal"] and taken["captured"] == ["B4"] and taken["prisoners"]["B"] == 1
    refused = play(c, **ko, moves=[{"color": "B", "vertex": "C4"}], attempt={"color": "W", "vertex": "B4"})
    assert not refused["legal"] and refused["reason"] == "ko" and "B4" in refused["message"]
    # After an exchange elsewhere the ko may be taken back.
    later = play(c, **ko, moves=[{"color": "B", "vertex": "C4"}, {"color": "W", "vertex": "E1"},
                                 {"color": "B", "vertex": "E2"}], attempt={"color": "W", "vertex": "B4"})
    assert later["legal"] and later["captured"] == ["C4"]
    # O . .    Black A5 would have no liberty and capture nothing: suicide, forbidden by the French rules.
    # O . .    (A5 is the corner; White holds B5 and A4.)
    suicide = play(c, size=5, white=["B5", "A4"], attempt={"color": "B", "vertex": "A5"})
    assert not suicide["legal"] and suicide["reason"] == "suicide"
    occupied = play(c, size=5, white=["B5"], attempt={"color": "B", "vertex": "B5"})
    assert occupied["reason"] == "occupied"
    # Bad input is named.
    body = play(c, status=422, size=5, black=["Z9"], attempt={"color": "B", "vertex": "A1"})
    assert body["error"]["field"] == "black.0"
    body = play(c, status=422, size=5, moves=[{"color": "B", "vertex": "A1"}, {"color": "W", "vertex": "A1"}],
                attempt={"color": "B", "vertex": "A2"})
    assert body["error"]["field"] == "moves.1"


def test_review_and_learn_pages_are_the_ui(fast_client: TestClient) -> None:
    for path in ("/review", "/learn"):
        r = fast_client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html"), path


def test_a_record_may_be_as_large_as_the_sgf_reader_allows(fast_client: TestClient) -> None:
    from keima.record import DEFAULT_MAX_BYTES

    # A commented record over the API's usual 16 KiB body limit is still reviewed ...
    long = "(;SZ[9]C[" + "a long comment " * 3000 + "];B[ee])"
    assert len(long) > 40_000
    data = review(fast_client, long)
    assert data["nodes"][1]["move"] == "E5"
    # ... up to the reader's limit, past which the reader says so; other endpoints keep 16 KiB.
    too_long = "(;SZ[9]C[" + "x" * DEFAULT_MAX_BYTES + "])"
    body = review(fast_client, too_long, status=422)
    assert body["error"]["field"] == "sgf"
    r = fast_client.post("/api/positions/play", json={"size": 5, "black": ["A1"] * 5000,
                                                      "attempt": {"color": "B", "vertex": "B2"}})
    assert r.status_code == 413


def test_a_tree_too_large_to_review_is_refused(fast_client: TestClient) -> None:
    # 5,000 one-move variations from the root: readable SGF, but more nodes than a review answers.
    body = review(fast_client, "(;SZ[9]" + "(;B[ee])" * 5000 + ")", status=422)
    assert "more than 4000 nodes" in body["error"]["message"]
