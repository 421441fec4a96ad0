"""Blocks (issue 47 item 1): a player blocks another; either way round no challenge, invitation or automatch
between them (the automatch's rule held by the database, across processes), their chat hidden from each other,
no notification of the other's doing; listed and lifted in the account's settings."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient

from keima.server import create_app
from keima.server.automatch import store as store_automatch
from keima.server.storage import blocks, make_engine, migrate

from ..accounts.test_players import Browser, open_challenge, registered


def three(c: TestClient) -> tuple[Browser, Browser, Browser]:
    a, b, x = Browser(c), Browser(c), Browser(c)
    registered(a, "alice")
    registered(b, "bobby")
    registered(x, "carol")
    return a, b, x


def test_a_block_is_listed_and_lifted_and_refused_for_oneself_or_nobody(fast_client: TestClient) -> None:
    a, _b, _x = three(fast_client)
    assert a.req("GET", "/api/me/blocks", 200).json() == {"blocks": []}
    a.req("PUT", "/api/me/blocks/Bobby", 204)
    a.req("PUT", "/api/me/blocks/bobby", 204)  # again: nothing changes
    listed = a.req("GET", "/api/me/blocks", 200).json()["blocks"]
    assert [b["name"] for b in listed] == ["bobby"] and listed[0]["at"].startswith("2026-12-02T10:00")
    assert a.req("PUT", "/api/me/blocks/alice", 422).json()["error"]["field"] == "name"
    assert a.req("PUT", "/api/me/blocks/nobody", 404).json()["error"]["field"] == "name"
    a.req("DELETE", "/api/me/blocks/bobby", 204)
    assert a.req("GET", "/api/me/blocks", 200).json() == {"blocks": []}
    assert Browser(fast_client).req("GET", "/api/me/blocks", 401).json()["error"]["code"] == "not-logged-in"


def test_no_challenge_nor_invitation_either_way(fast_client: TestClient) -> None:
    a, b, x = three(fast_client)
    a.req("PUT", "/api/me/blocks/bobby", 204)
    # The blocked player cannot take the blocker's challenge, nor the blocker the blocked one's.
    gid = open_challenge(a)["game"]["id"]
    assert b.req("POST", f"/api/games/{gid}/join", 403, json={}).json()["error"]["code"] == "blocked"
    gid2 = open_challenge(b)["game"]["id"]
    assert a.req("POST", f"/api/games/{gid2}/join", 403, json={}).json()["error"]["code"] == "blocked"
    # An invitation's link does not open the way either.
    inv = a.req("POST", "/api/games", 201, json={"opponent": "invite", "size": 9, "color": "B"}).json()
    code = inv["invite"]["code"]
    b.req("POST", f"/api/games/{inv['game']['id']}/join", 403, json={"code": code})
    # Anyone else plays.
    x.req("POST", f"/api/games/{gid}/join", 200, json={})


def _game(a: Browser, b: Browser) -> str:
    gid: str = open_challenge(a)["game"]["id"]
    b.req("POST", f"/api/games/{gid}/join", 200, json={})
    return gid


def chat_of(b: Browser, gid: str) -> list[str]:
    return [m["text"] for m in b.req("GET", f"/api/games/{gid}", 200).json()["chat"]]


def test_chat_is_hidden_both_ways_and_no_notification_comes(fast_client: TestClient) -> None:
    a, b, x = three(fast_client)
    gid = _game(a, b)  # a game made before the block goes on
    b.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": "before"})
    x.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": "watching", "to": "spectators"})
    a.req("PUT", "/api/me/blocks/bobby", 204)
    b.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": "you are bad"})
    a.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": "bye"})
    assert chat_of(a, gid) == ["watching", "bye"]
    assert chat_of(b, gid) == ["before", "watching", "you are bad"]
    assert chat_of(x, gid) == ["before", "watching", "you are bad", "bye"]
    # Live: the blocker's socket gets the event without the message.
    with a.ws(f"/api/games/{gid}/ws") as sock:
        sock.receive_json()
        b.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": "still there"})
        while True:
            msg = sock.receive_json()
            if msg["type"] == "delta" and msg["event"]["type"] == "chatted":
                assert msg["event"] == {"type": "chatted"}
                break


def _kinds(b: Browser) -> list[str]:
    return [n["kind"] for n in b.req("GET", "/api/me/notifications", 200).json()["notifications"]]


def test_no_notification_of_the_other_players_doing(fast_client: TestClient) -> None:
    a, b, x = three(fast_client)
    clocks = {"clock": {"type": "fischer", "main": 86400 * 3, "increment": 86400, "max": 86400 * 7}}
    blocked_game = _game_with(a, b, clocks)
    other_game = _game_with(a, x, clocks)
    a.req("PUT", "/api/me/blocks/bobby", 204)
    b.req("POST", f"/api/games/{blocked_game}/actions", 200, json={"type": "chat", "text": "hey"})
    x.req("POST", f"/api/games/{other_game}/actions", 200, json={"type": "chat", "text": "hey"})
    from ..helpers import wait_for

    wait_for(lambda: "chat" in _kinds(a))
    chats = [n for n in a.req("GET", "/api/me/notifications", 200).json()["notifications"] if n["kind"] == "chat"]
    assert [n["game"] for n in chats] == [other_game]


def _game_with(a: Browser, b: Browser, body: dict[str, Any]) -> str:
    gid: str = open_challenge(a, **body)["game"]["id"]
    b.req("POST", f"/api/games/{gid}/join", 200, json={})
    return gid


def ask(b: Browser, **body: Any) -> dict[str, Any]:
    data: dict[str, Any] = b.req("POST", "/api/automatch", 200, json={"sizes": [9], "speed": "blitz"} | body).json()
    return data


def test_automatch_never_pairs_blocked_players_across_two_processes(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url)) as one, TestClient(create_app(sqlite_url)) as two:
        a, b = Browser(one), Browser(two)
        registered(a, "alice")
        registered(b, "bobby")
        x = Browser(two)
        registered(x, "carol")
        a.req("PUT", "/api/me/blocks/bobby", 204)  # in process one
        assert ask(a)["waiting"] is True
        assert ask(b)["waiting"] is True  # process two reads the block from the database
        for c in (one, two):
            assert c.portal.call(c.app.state.matchmaker.sweep) == []  # type: ignore[attr-defined]
        got = ask(x)  # someone else pairs at once, with one of them
        assert got["waiting"] is False and got["game"]


def test_a_claim_made_after_a_block_is_refused_in_its_transaction(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    migrate(engine)
    from keima.server.automatch.pairs import Entry

    for pid in ("p1", "p2"):
        with engine.begin() as conn:
            store_automatch.add(Entry(pid, pid, True, 1500.0, (9,), "blitz", "french", False, 0.0))(conn)
    with engine.begin() as conn:
        conn.execute(blocks.insert().values(player_id="p2", blocked_id="p1",
                                            at=sa.func.current_timestamp()))
    try:
        with engine.begin() as conn:
            store_automatch.claim(("p1", "p2"), "g1", 1.0)(conn)
        raise AssertionError("claimed")
    except store_automatch.Taken:
        pass
    assert len(store_automatch.waiting(engine)) == 2
    engine.dispose()
