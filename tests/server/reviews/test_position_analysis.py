"""``POST /api/analysis/position``: the bot's analysis of any node (a variation, a move tried), for the side to move
there, each candidate with the points it loses; a wrong move named by its field; never a game being played."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import act, new_game

from keima.server import create_app
from keima.server.reviews import bot_review_routes


@pytest.fixture
def quick(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("KEIMA_REVIEW_SECONDS", "0.05")
    with TestClient(create_app(sqlite_url)) as c:
        # The first search of a process loads the compiled search inside its 50 ms: a warm-up.
        assert c.post("/api/analysis/position", json={"size": 9}).status_code == 200
        yield c


def moves(*vertices: str) -> list[dict[str, str]]:
    return [{"color": "BW"[i % 2], "vertex": v} for i, v in enumerate(vertices)]


def test_the_candidates_are_those_of_the_side_to_move_at_the_node(quick: TestClient) -> None:
    # A variation's node after three moves: White to move (the record's start had Black to move).
    r = quick.post("/api/analysis/position", json={"size": 9, "komi": 7, "moves": moves("E5", "C3", "G7")})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["to_move"] == "W" and data["playouts"] > 0
    assert 0 <= data["winrate"] <= 1 and isinstance(data["score"], float | int)
    assert data["best"] and data["best"][0]["loss"] == 0
    taken = {"E5", "C3", "G7"}
    for cand in data["best"]:
        assert set(cand) == {"move", "winrate", "score", "loss", "visits", "pv"}
        assert cand["move"] not in taken and cand["pv"][0] == cand["move"]
        assert cand["loss"] is None or cand["loss"] >= 0
    black = quick.post("/api/analysis/position", json={"size": 9, "moves": moves("E5", "C3")}).json()
    assert black["to_move"] == "B"


def test_bad_positions_name_their_field(quick: TestClient) -> None:
    r = quick.post("/api/analysis/position", json={"size": 9, "moves": moves("E5", "E5")})
    assert r.status_code == 422 and r.json()["error"]["field"] == "moves.1", r.text
    r = quick.post("/api/analysis/position", json={"size": 9, "black": ["Z9"]})
    assert r.status_code == 422 and r.json()["error"]["field"] == "black.0"
    assert quick.post("/api/analysis/position", json={"size": 30}).status_code == 422


def test_a_game_in_progress_is_not_analysed(quick: TestClient) -> None:
    g = new_game(quick, size=9, opponent="local")
    gid, tok = g["game"]["id"], g["seat"]["token"]
    played = (40, 30, 50, 20, 60, 10, 70, 11, 71, 12, 72)
    for p in played:
        act(quick, gid, tok, {"type": "play", "move": p})
    vertices = ["ABCDEFGHJ"[p % 9] + str(9 - p // 9) for p in played]
    r = quick.post("/api/analysis/position", json={"size": 9, "komi": 7, "moves": moves(*vertices)})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game-in-progress", r.text
    act(quick, gid, tok, {"type": "resign"})
    assert quick.post("/api/analysis/position", json={"size": 9, "moves": moves(*vertices)}).status_code == 200


def test_too_many_waiting_are_refused(quick: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_review_routes, "POSITIONS_QUEUED", 0)
    r = quick.post("/api/analysis/position", json={"size": 9})
    assert r.status_code == 429 and r.json()["error"]["code"] == "review-queue-full"
