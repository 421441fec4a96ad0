"""The bell as a player reads it: one line per game and kind (the newest), read by itself once answered (a move,
the end of the game, the game's page opened), each naming its game (opponent, board, the reader's colour)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from ..accounts.test_players import Browser, registered
from .test_notifications import corr_game, deliver, play


@pytest.fixture
def pair(client: TestClient) -> tuple[Browser, Browser]:
    alice, bob = Browser(client), Browser(client)
    registered(alice, "alice")
    registered(bob, "bob")
    return alice, bob


def lines(b: Browser, unread: bool | None = None) -> list[tuple[str, str | None, bool]]:
    q = "" if unread is None else f"?unread={str(unread).lower()}"
    return [(n["kind"], n["game"], n["read"]) for n in b.req("GET", f"/api/me/notifications{q}", 200).json()
            ["notifications"]]


def test_two_games_against_the_same_opponent_are_told_apart(client: TestClient, pair: tuple[Browser, Browser]) -> None:
    alice, bob = pair
    first, second = corr_game(alice, bob), corr_game(bob, alice)  # alice Black in the first, White in the second
    play(alice, first, "E5")
    play(bob, second, "E5")
    deliver(client)
    got = {n["game"]: n for n in alice.req("GET", "/api/me/notifications?unread=true", 200).json()["notifications"]
           if n["kind"] == "your-turn"}
    assert list(got) == [second]
    assert (got[second]["opponent"], got[second]["size"], got[second]["color"]) == ("bob", 9, "W")
    # The game as it is now: its moves, and her time left while her clock runs (simple clock: 2 days a move).
    assert got[second]["moves"] == 1 and abs(got[second]["left"] - 2 * 86400) < 60
    [bobs] = [n for n in bob.req("GET", "/api/me/notifications", 200).json()["notifications"] if n["game"] == first]
    assert (bobs["opponent"], bobs["color"]) == ("alice", "W") and abs(bobs["left"] - 2 * 86400) < 60
    [accepted] = [n for n in bob.req("GET", "/api/me/notifications", 200).json()["notifications"] if n["game"] == second]
    assert accepted["kind"] == "challenge-accepted" and accepted["left"] is None  # not his clock that runs there


def test_opening_the_game_reads_its_lines_and_no_other(client: TestClient, pair: tuple[Browser, Browser]) -> None:
    alice, bob = pair
    first, second = corr_game(alice, bob), corr_game(alice, bob)
    play(alice, first, "E5")
    play(alice, second, "E5")
    bob.req("POST", f"/api/games/{first}/actions", 200, json={"type": "chat", "text": "hi", "to": "players"})
    deliver(client)
    assert sorted(lines(alice, unread=True)) == sorted([("challenge-accepted", first, False),
                                                        ("challenge-accepted", second, False),
                                                        ("chat", first, False)])
    assert alice.req("POST", "/api/me/notifications/read", 200, json={"game": first}).json() == {"read": 2}
    assert lines(alice, unread=True) == [("challenge-accepted", second, False)]
    assert bob.req("POST", "/api/me/notifications/read", 200, json={"game": second}).json() == {"read": 1}
    assert [g for _k, g, _r in lines(bob, unread=True)] == [first]


@pytest.mark.parametrize("body", [{}, {"all": True, "game": "abc"}, {"ids": [1], "all": True},
                                  {"game": "<script>"}, {"game": "x" * 33}])
def test_a_read_request_says_what_it_reads(client: TestClient, pair: tuple[Browser, Browser],
                                           body: dict[str, object]) -> None:
    alice, _bob = pair
    error = alice.req("POST", "/api/me/notifications/read", 422, json=body).json()["error"]
    assert error["code"] == "invalid-request" and error["field"] == ("game" if "game" in body and len(body) == 1
                                                                      else "ids")


def test_the_end_of_a_game_reads_its_turns(client: TestClient, pair: tuple[Browser, Browser]) -> None:
    alice, bob = pair
    gid = corr_game(alice, bob)
    play(alice, gid, "E5")
    deliver(client)
    assert ("your-turn", gid, False) in lines(bob)
    bob.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "resign"})
    deliver(client)
    mine = lines(bob)
    assert ("your-turn", gid, True) in mine and ("game-finished", gid, False) in mine
    assert [k for k, _g, _r in lines(bob, unread=True)] == ["game-finished"]


def test_chat_messages_are_one_line_counted(client: TestClient, pair: tuple[Browser, Browser]) -> None:
    alice, bob = pair
    gid = corr_game(alice, bob)
    for text in ("one", "two"):
        bob.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": text, "to": "players"})
    deliver(client)
    [chat] = [n for n in alice.req("GET", "/api/me/notifications", 200).json()["notifications"] if n["kind"] == "chat"]
    assert chat["count"] == 2 and chat["text"] == "bob wrote: one \u00b7 two"
    alice.req("POST", "/api/me/notifications/read", 200, json={"ids": [chat["id"]]})
    bob.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": "three", "to": "players"})
    deliver(client)
    [chat] = [n for n in alice.req("GET", "/api/me/notifications", 200).json()["notifications"] if n["kind"] == "chat"]
    assert (chat["count"], chat["text"], chat["read"]) == (1, "bob wrote: three", False)  # the read ones stay read
