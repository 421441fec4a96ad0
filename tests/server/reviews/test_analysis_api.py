"""The bot's reviews through the API: never of a live game, one stored review per game or record shared by
everyone, cancelled only by its requester, and the limits (one active review per requester, a queue cap)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import act, new_game, wait_for

from keima.server import create_app

ORIGIN = {"Origin": "http://testserver"}  # a browser's request: the caller gets a guest player


def record(*moves: str, name: str = "Alice") -> str:
    """A 9x9 record of ``moves`` (SGF points), Black first."""
    body = "".join(f";{'BW'[i % 2]}[{m}]" for i, m in enumerate(moves))
    return f"(;GM[1]FF[4]SZ[9]KM[7]PB[{name}]{body})"


def app_client(url: str, monkeypatch: pytest.MonkeyPatch, seconds: float, queue: int = 8) -> TestClient:
    """A server whose reviews search ``seconds`` a position: the playouts set too high to end a search first."""
    monkeypatch.setenv("KEIMA_REVIEW_SECONDS", str(seconds))
    monkeypatch.setenv("KEIMA_REVIEW_PLAYOUTS", "1000000")
    monkeypatch.setenv("KEIMA_REVIEW_QUEUE", str(queue))
    return TestClient(create_app(url))


@pytest.fixture
def quick(db_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """A server whose reviews search 20 ms a position (on each storage backend)."""
    with app_client(db_url, monkeypatch, 0.02) as c:
        yield c


@pytest.fixture
def slow(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """A server whose reviews search 3 s a position and queue at most two at a time."""
    with app_client(sqlite_url, monkeypatch, 3.0, queue=2) as c:
        yield c


def review(c: TestClient, url: str) -> dict[str, Any]:
    r = c.get(url)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_a_live_game_is_refused_a_finished_one_reviewed_once(quick: TestClient) -> None:
    g = new_game(quick, size=9, opponent="local")
    gid, tok = g["game"]["id"], g["seat"]["token"]
    for p in (40, 30, 50):
        act(quick, gid, tok, {"type": "play", "move": p})
    r = quick.post(f"/api/games/{gid}/analysis")
    assert r.status_code == 409 and r.json()["error"]["code"] == "game-in-progress"
    act(quick, gid, tok, {"type": "resign"})
    r = quick.post(f"/api/games/{gid}/analysis")
    assert r.status_code == 202, r.text
    first = r.json()
    assert r.headers["location"] == first["url"] == f"/api/analysis/{first['id']}"
    # Four positions, and the refine pass's estimate: the positions around the three moves, searched again.
    assert first["status"] in ("queued", "running") and first["progress"]["total"] == 4 + 2 * 3
    # The time left before the page has seen the review's pace: a search's usual time, here the cap.
    assert first["seconds"] == first["search_seconds"] == 0.02
    # Anyone else who opens the game gets the same review, not a new one.
    r = quick.post(f"/api/games/{gid}/analysis", headers=ORIGIN)
    assert r.status_code == 200 and r.json()["id"] == first["id"]
    wait_for(lambda: review(quick, first["url"])["status"] == "done", timeout=60)
    done = review(quick, first["url"])
    assert 4 <= done["progress"]["done"] == done["progress"]["total"] <= 10
    assert sum(m["searches"] for m in done["moves"]) == done["progress"]["done"]
    assert set(done["summary"]) == {"thresholds", "B", "W"} and done["summary"]["B"]["moves"] == 2
    assert [m["n"] for m in done["moves"]] == [0, 1, 2, 3]
    assert [m["played"] for m in done["moves"]] == [None, "E5", "D6", "F4"]
    for m in done["moves"]:
        assert set(m) >= {"n", "played", "winrate", "score", "loss", "best"}
        assert 0 <= m["winrate"] <= 1
        for cand in m["best"]:
            assert set(cand) == {"move", "winrate", "score", "loss", "visits", "pv"}
    assert quick.post(f"/api/games/{gid}/analysis").json()["status"] == "done"
    assert quick.post("/api/games/nosuchgame/analysis").status_code == 404
    assert quick.get("/api/analysis/" + "0" * 32).status_code == 404


def test_an_uploaded_record_is_keyed_by_its_moves(quick: TestClient) -> None:
    r = quick.post("/api/analysis", json={"sgf": record("ee", "cc", "gg")})
    assert r.status_code == 202, r.text
    aid = r.json()["id"]
    # The same game with other players' names and a comment: the same review.
    same = record("ee", "cc", "gg", name="Someone else").replace(";B[ee]", ";B[ee]C[nice]")
    assert quick.post("/api/analysis", json={"sgf": same}).json()["id"] == aid
    wait_for(lambda: review(quick, f"/api/analysis/{aid}")["status"] == "done", timeout=60)
    # Another move: another review (the first is done, so the requester may start one).
    other = quick.post("/api/analysis", json={"sgf": record("ee", "cc", "gc")})
    assert other.status_code == 202 and other.json()["id"] != aid
    bad = quick.post("/api/analysis", json={"sgf": "(;SZ[9];B[ee];W[ee])"})
    assert bad.status_code == 422 and "illegal" in bad.json()["error"]["message"]


def test_cancellation_by_the_requester_only(slow: TestClient) -> None:
    url = slow.post("/api/analysis", json={"sgf": record("ee", "cc", "gg", "cg")}).json()["url"]
    # Another requester (a browser's guest player) may read it but not cancel it.
    assert slow.delete(url, headers=ORIGIN).json()["error"]["code"] == "not-requester"
    guest = dict(slow.cookies)
    slow.cookies.clear()
    r = slow.delete(url)
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert slow.delete(url).json()["error"]["code"] == "review-over"
    # The review stops between playouts: it never reaches the end, and stays cancelled.
    at = review(slow, url)["progress"]["done"]
    assert at < 5
    wait_for(lambda: review(slow, url)["progress"]["done"] == at and review(slow, url)["status"] == "cancelled")
    # Asked again (by anyone), a cancelled review starts again.
    slow.cookies.update(guest)
    again = slow.post("/api/analysis", json={"sgf": record("ee", "cc", "gg", "cg")})
    assert again.status_code == 202 and again.json()["url"] == url
    assert slow.delete(url).status_code == 200


def test_one_active_review_per_requester_and_a_queue_cap(slow: TestClient) -> None:
    first = slow.post("/api/analysis", json={"sgf": record("ee")})
    assert first.status_code == 202
    mine = slow.post("/api/analysis", json={"sgf": record("cc")})
    assert mine.status_code == 429 and mine.json()["error"]["code"] == "review-limit"
    # A second requester takes the second place of the queue; a third, with an account, finds it full.
    second = slow.post("/api/analysis", json={"sgf": record("cc")}, headers=ORIGIN)
    assert second.status_code == 202
    slow.cookies.clear()
    slow.patch("/api/me", json={}, headers=ORIGIN)
    assert slow.post("/api/players", json={"name": "carol", "password": "correct horse"},
                     headers=ORIGIN).status_code == 201
    full = slow.post("/api/analysis", json={"sgf": record("gg")}, headers=ORIGIN)
    assert full.status_code == 429 and full.json()["error"]["code"] == "review-queue-full"
    # Reading a review costs nothing, and finding a stored one is no new review.
    assert slow.post("/api/analysis", json={"sgf": record("ee")}, headers=ORIGIN).status_code == 200
    slow.cookies.clear()
    assert slow.delete(first.json()["url"]).status_code == 200
    assert slow.post("/api/analysis", json={"sgf": record("cc")}).status_code == 200  # shared, not started


def test_simultaneous_starts_by_one_requester_start_one_review(slow: TestClient) -> None:
    from concurrent.futures import ThreadPoolExecutor

    records = [record(m) for m in ("ee", "cc", "gg", "cg", "gc")]
    with ThreadPoolExecutor(5) as pool:
        answers = list(pool.map(lambda sgf: slow.post("/api/analysis", json={"sgf": sgf}), records))
    codes = sorted(r.status_code for r in answers)
    assert codes == [202, 429, 429, 429, 429], [r.text for r in answers]
    started = next(r for r in answers if r.status_code == 202)
    assert slow.delete(started.json()["url"]).status_code == 200


def test_a_games_stored_review_is_read_without_starting_one(quick: TestClient) -> None:
    """``GET /api/games/{id}/analysis``: status "none" before anyone asked (a 200: the page of every finished game
    asks, and a 404 would be an error in its console; asking so starts nothing), then the review anyone asked for,
    the same as the POST's, so that a page opening the game shows it at once; 404 for a game that does not
    exist."""
    g = new_game(quick, size=9, opponent="local")
    gid, tok = g["game"]["id"], g["seat"]["token"]
    for p in (40, 30):
        act(quick, gid, tok, {"type": "play", "move": p})
    act(quick, gid, tok, {"type": "resign"})
    r = quick.get(f"/api/games/{gid}/analysis")
    assert r.status_code == 200 and r.json() == {"status": "none", "game_id": gid}
    assert quick.get(f"/api/games/{gid}/analysis").json()["status"] == "none"  # reading twice started nothing
    missing = quick.get("/api/games/nosuchgame/analysis")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "no-such-game"
    started = quick.post(f"/api/games/{gid}/analysis", headers=ORIGIN)
    assert started.status_code == 202
    stored = quick.get(f"/api/games/{gid}/analysis")
    assert stored.status_code == 200 and stored.json()["id"] == started.json()["id"]
    wait_for(lambda: review(quick, f"/api/games/{gid}/analysis")["status"] == "done", timeout=60)
    assert [m["played"] for m in review(quick, f"/api/games/{gid}/analysis")["moves"]] == [None, "E5", "D6"]


def test_fresh_guests_of_one_address_share_its_reviews(slow: TestClient) -> None:
    # Each fresh guest is a new requester: seven of them filled the queue for everyone. Guests (and callers without
    # a player) of one address have KEIMA_REVIEW_ADDRESS_LIMIT reviews under way between them; an account keeps its
    # own.
    slow.app.state.reviews.group_active = 1  # type: ignore[attr-defined]
    assert slow.post("/api/analysis", json={"sgf": record("ee")}, headers=ORIGIN).status_code == 202
    slow.cookies.clear()
    again = slow.post("/api/analysis", json={"sgf": record("cc")}, headers=ORIGIN)
    assert again.status_code == 429 and again.json()["error"]["code"] == "review-limit"
    assert "your address" in again.json()["error"]["message"]
    slow.cookies.clear()
    slow.patch("/api/me", json={}, headers=ORIGIN)
    assert slow.post("/api/players", json={"name": "dora", "password": "correct horse"},
                     headers=ORIGIN).status_code == 201
    assert slow.post("/api/analysis", json={"sgf": record("cc")}, headers=ORIGIN).status_code == 202


def test_the_record_of_a_game_in_progress_is_refused_as_the_game_is(quick: TestClient) -> None:
    g = new_game(quick, size=9, opponent="local")
    gid, tok = g["game"]["id"], g["seat"]["token"]
    for p in (40, 30, 50, 20, 60, 10, 70, 11, 71, 12, 72):
        act(quick, gid, tok, {"type": "play", "move": p})
    sgf = quick.get(f"/api/games/{gid}/sgf").text
    r = quick.post("/api/analysis", json={"sgf": sgf})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game-in-progress", r.text
    # The same game with a move more, or with only its first ten moves, is still that game.
    longer = sgf.rstrip().rstrip(")") + ";W[aa])"
    assert quick.post("/api/analysis", json={"sgf": longer}).json()["error"]["code"] == "game-in-progress"
    # A game sharing fewer first moves is another game; and the game itself once finished is reviewed.
    assert quick.post("/api/analysis", json={"sgf": record("ee", "dd", "ff")}).status_code == 202
    act(quick, gid, tok, {"type": "resign"})
    quick.cookies.clear()
    assert quick.post("/api/analysis", json={"sgf": sgf}, headers=ORIGIN).status_code == 202
