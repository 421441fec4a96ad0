"""Every rules lesson of the web UI (web/src/lessons.json) is played through ``POST /api/positions/play``:
each move the learner must find is legal, each refusal the learner must see is the referee's, with that reason.

So a lesson cannot teach what the referee does not do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

LESSONS: list[dict[str, Any]] = json.loads(
    (Path(__file__).resolve().parents[3] / "web" / "src" / "lessons.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson["id"] for lesson in LESSONS])
def test_lesson_follows_the_referee(fast_client: TestClient, lesson: dict[str, Any]) -> None:
    base = {k: lesson[k] for k in ("size", "black", "white", "to_move")}
    moves: list[dict[str, str]] = []
    for text in ("title", "intro", "source"):
        assert lesson[text]["en"] and lesson[text]["fr"]
    for step in lesson["steps"]:
        assert step["prompt"]["en"] and step["prompt"]["fr"] and step["done"]["en"] and step["done"]["fr"]
        for vertex in step["goal"]:
            r = fast_client.post("/api/positions/play", json={
                **base, "moves": moves, "attempt": {"color": step["color"], "vertex": vertex}})
            assert r.status_code == 200, r.text
            verdict = r.json()
            if step["expect"] == "refused":
                assert not verdict["legal"] and verdict["reason"] == step["reason"], (lesson["id"], verdict)
            else:
                assert verdict["legal"], (lesson["id"], vertex, verdict)
        if step["expect"] == "play":
            moves.append({"color": step["color"], "vertex": step["goal"][0]})
            if "reply" in step:
                moves.append(step["reply"])
    # The lesson's last position is reachable: the replies were legal too.
    r = fast_client.post("/api/positions/play", json={**base, "moves": moves, "attempt": {"color": "B", "vertex": "pass"}})
    assert r.status_code in (200, 422), r.text
    if r.status_code == 422:  # only once play has stopped (two passes): the moves themselves were accepted
        assert r.json()["error"]["field"] == "attempt"


def test_the_quick_count_lesson_counts_as_the_area_count(fast_client: TestClient) -> None:
    # A 7x7 board: Black's wall on column D (7 stones, 21 points A-C), White's on E (7 stones, 14 points F-G);
    # one pass each. Area: Black 28, White 21 + 7.5; the quick count must reach the same result (FFG rules,
    # « Méthode de décompte rapide »).
    (lesson,) = [lesson for lesson in LESSONS if lesson["id"] == "quick-count"]
    assert lesson["count"] and lesson["count_prompt"]["en"] and lesson["count_prompt"]["fr"]
    size = lesson["size"]
    board = [0] * (size * size)
    for color, stones in ((1, lesson["black"]), (2, lesson["white"])):
        for v in stones:
            board[(size - int(v[1:])) * size + "ABCDEFG".index(v[0])] = color
    r = fast_client.post("/api/positions/count", json={"size": size, "board": board, **lesson["count"]})
    assert r.status_code == 200, r.text
    score = r.json()["score"]
    assert score["methods"]["area"]["result"] == "W+0.5"
    assert score["methods"]["quick-count"]["result"] == "W+0.5"
    assert score["steps"]["quick-count"]


def test_the_triple_ko_refusal_names_the_starting_position(fast_client: TestClient) -> None:
    # Issue 23 item 19: the board White would recreate is the lesson's set-up position, which counts as made by
    # the opponent of the player to move first (docs/rules.md), not by one of White's stones.
    (lesson,) = [lesson for lesson in LESSONS if lesson["id"] == "superko"]
    assert lesson["to_move"] == "B"
    base = {k: lesson[k] for k in ("size", "black", "white", "to_move")}
    moves: list[dict[str, str]] = []
    for step in lesson["steps"][:-1]:
        moves.append({"color": step["color"], "vertex": step["goal"][0]})
        if step.get("reply"):
            moves.append(step["reply"])
    last = lesson["steps"][-1]
    r = fast_client.post("/api/positions/play", json={
        **base, "moves": moves, "attempt": {"color": last["color"], "vertex": last["goal"][0]}})
    verdict = r.json()
    assert (verdict["legal"], verdict["reason"]) == (False, "superko")
    assert "starting position, which counts as White's own" in verdict["message"], verdict["message"]
    assert "one of his own stones" not in verdict["message"]
