"""Muting a chat sender (issue 30 item 8): a player's own list, kept by the server per account, applied to the
chat history of every state it sends them and to each new message, live; the others still read everything."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from ..accounts.test_players import Browser, _game_with_spectator


def chat_of(b: Browser, gid: str) -> list[tuple[str, str]]:
    return [(m["from"], m["text"]) for m in b.req("GET", f"/api/games/{gid}", 200).json()["chat"]]


def post(b: Browser, gid: str, text: str, to: str = "players") -> dict[str, Any]:
    data: dict[str, Any] = b.req("POST", f"/api/games/{gid}/actions", 200,
                                 json={"type": "chat", "text": text, "to": to}).json()
    return data


def next_chat_event(sock: Any) -> dict[str, Any]:
    while True:
        msg = sock.receive_json()
        if msg["type"] == "delta" and msg["event"]["type"] == "chatted":
            event: dict[str, Any] = msg["event"]
            return event


def test_a_player_mutes_a_spectator_in_the_history_and_live(fast_client: TestClient) -> None:
    a, b, c = Browser(fast_client), Browser(fast_client), Browser(fast_client)
    gid = _game_with_spectator((a, b, c))
    spam = c.me()["name"]
    post(a, gid, "have fun")
    post(c, gid, "buy cheap gold", "spectators")
    messages = b.req("GET", f"/api/games/{gid}", 200).json()["chat"]
    sender = messages[1]["sender"]
    assert sender and sender != messages[0]["sender"] and not sender.startswith(c.me()["id"])
    # The same sender has the same handle in every game (and it is not the player's id).
    assert b.req("GET", "/api/me/mutes", 200).json() == {"mutes": []}
    b.req("PUT", f"/api/me/mutes/{sender}", 204, json={"name": spam})
    assert b.req("GET", "/api/me/mutes", 200).json() == {"mutes": [{"sender": sender, "name": spam}]}
    # History: B no longer reads C; A and C still read everything.
    assert chat_of(b, gid) == [("jules", "have fun")]
    assert chat_of(a, gid) == [("jules", "have fun"), (spam, "buy cheap gold")]
    # Live: B's socket gets the event without the message; A's with it.
    with b.ws(f"/api/games/{gid}/ws") as bs, a.ws(f"/api/games/{gid}/ws") as as_:
        first = bs.receive_json()
        assert [m["text"] for m in first["game"]["chat"]] == ["have fun"]
        as_.receive_json()
        post(c, gid, "more spam", "spectators")
        assert next_chat_event(bs) == {"type": "chatted"}
        assert next_chat_event(as_)["message"]["text"] == "more spam"
        post(a, gid, "still there?")
        assert next_chat_event(bs)["message"]["text"] == "still there?"
    # Unmuted: everything again.
    b.req("DELETE", f"/api/me/mutes/{sender}", 204)
    assert chat_of(b, gid)[-2:] == [(spam, "more spam"), ("jules", "still there?")]


def test_mutes_are_refused_without_a_player_for_oneself_and_for_a_bad_handle(fast_client: TestClient) -> None:
    a, b, c = Browser(fast_client), Browser(fast_client), Browser(fast_client)
    gid = _game_with_spectator((a, b, c))
    post(b, gid, "hello")
    own = b.req("GET", f"/api/games/{gid}", 200).json()["chat"][0]["sender"]
    assert b.req("PUT", f"/api/me/mutes/{own}", 422, json={"name": "me"}).json()["error"]["field"] == "sender"
    assert b.req("PUT", "/api/me/mutes/not-a-handle", 422, json={"name": "x"}).json()["error"]["field"] == "sender"
    nobody = Browser(fast_client)
    assert nobody.req("GET", "/api/me/mutes", 401).json()["error"]["code"] == "not-logged-in"
    nobody.req("PUT", f"/api/me/mutes/{own}", 401, json={"name": "x"})
    # Another site's page cannot change a player's list.
    a.req("PUT", f"/api/me/mutes/{own}", 403, json={"name": "x"}, headers={"Origin": "http://elsewhere.example"})
