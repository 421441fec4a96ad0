"""Accounts against abuse (issue 30, items 1-3 and 5; issue 23, item 6): no player is stored by reading
``GET /api/me``; guests and registrations are limited per address; password guesses count with the login
attempts; the session id changes at registration and at a password change; names that look like another
player's, a bot's or the server's own are refused."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from keima.server import create_app
from keima.server.accounts.service import GUEST_LIMIT, LOGIN_LIMIT, REGISTER_LIMIT, SESSION_COOKIE

from .test_players import Browser, open_challenge, registered


def count_players(url: str) -> int:
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        n = int(conn.execute(sa.text("SELECT count(*) FROM players")).scalar_one())
    engine.dispose()
    return n


# -- guests are made by actions only, and limited per address -------------------------------------------------
def test_get_me_without_a_session_stores_nothing(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url)) as c:
        a = Browser(c)
        for _ in range(5):
            r = a.req("GET", "/api/me", 200)
            assert r.json() == {"id": None, "name": None, "rank": None, "rank_text": None, "guest": True,
                                "time_zone": None, "vacation": None, "email": None, "email_verified": False,
                                "email_bounced": False, "lang": None, "notify": None,
                                "provisional": False, "rank_earned": False}
            assert "set-cookie" not in r.headers
        assert count_players(sqlite_url) == 0
        # The first action that needs a player makes the guest: an open challenge here.
        g = open_challenge(a)
        me = a.req("GET", "/api/me", 200).json()
        assert me["id"] is not None and me["guest"] and me["name"].startswith("Guest-")
        assert g["game"]["players"]["B"]["name"] == me["name"]
        assert count_players(sqlite_url) == 1


PAGE = {"Origin": "http://testserver"}  # what a browser sends with a POST from this server's page


@pytest.mark.parametrize("action", ["create-bot", "create-invite", "join-invite", "chat", "register", "rename"])
def test_each_action_that_needs_a_player_makes_the_guest(fast_client: TestClient, action: str) -> None:
    a, host = Browser(fast_client), Browser(fast_client)
    if action == "create-bot":
        a.req("POST", "/api/games", 201, json={"size": 9, "opponent": "bot"}, headers=dict(PAGE))
    elif action == "create-invite":
        a.req("POST", "/api/games", 201, json={"size": 9, "opponent": "invite"}, headers=dict(PAGE))
    elif action == "join-invite":
        g = host.req("POST", "/api/games", 201, json={"size": 9, "opponent": "invite"}).json()
        a.req("POST", f"/api/games/{g['game']['id']}/join", 200, json={"code": g["invite"]["code"]},
              headers=dict(PAGE))
    elif action == "chat":
        gid = open_challenge(host)["game"]["id"]
        a.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": "hello", "to": "spectators"})
        chat = host.req("GET", f"/api/games/{gid}", 200).json()["chat"]
        assert chat[-1]["from"].startswith("Guest-")
    elif action == "register":
        a.req("POST", "/api/players", 201, json={"name": "hana", "password": "a long one"})
    else:
        a.req("PATCH", "/api/me", 200, json={"rank": "5k"})
    assert a.req("GET", "/api/me", 200).json()["id"] is not None


def test_an_api_client_without_a_player_plays_by_its_seat_token_and_makes_no_row(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url)) as c:
        for _ in range(3):
            g = c.post("/api/games", json={"size": 9, "opponent": "invite"}).json()
            c.cookies.clear()
            r = c.post(f"/api/games/{g['game']['id']}/join", json={"code": g["invite"]["code"]})
            assert r.status_code == 200 and r.json()["seat"]["token"]
            c.cookies.clear()
        assert count_players(sqlite_url) == 0


def test_new_guests_are_limited_per_address(fast_client: TestClient) -> None:
    for i in range(GUEST_LIMIT):
        Browser(fast_client).req("PATCH", "/api/me", 200, json={"rank": f"{i % 30 + 1}k"})
    err = Browser(fast_client).req("PATCH", "/api/me", 429, json={}).json()["error"]
    assert err["code"] == "too-many-requests" and "try again in" in err["message"]
    # Creating a game needs a player too: refused the same way, and nothing is created.
    assert Browser(fast_client).req("POST", "/api/games", 429, json={"opponent": "open"}).status_code == 429
    assert fast_client.get("/api/games?status=open").json()["games"] == []


def test_registrations_are_limited_per_address(fast_client: TestClient) -> None:
    for i in range(REGISTER_LIMIT):
        Browser(fast_client).req("POST", "/api/players", 201, json={"name": f"reg{i}x", "password": "pw-pw-pw"})
    err = Browser(fast_client).req("POST", "/api/players", 429,
                                   json={"name": "onemore", "password": "pw-pw-pw"}).json()["error"]
    assert err["code"] == "too-many-requests"


# -- password change and the session id ---------------------------------------------------------------------------
def test_password_change_attempts_count_with_the_login_attempts(fast_client: TestClient) -> None:
    a = Browser(fast_client)
    registered(a, "ivan", "right-pass")
    for _ in range(LOGIN_LIMIT):
        a.req("POST", "/api/me/password", 401, json={"old": "wrong-pass", "new": "new-pass"})
    # The right one is refused too, until the minute has passed.
    a.req("POST", "/api/me/password", 429, json={"old": "right-pass", "new": "new-pass"})
    # And these guesses used up the name's login attempts.
    b = Browser(fast_client)
    b.req("POST", "/api/session", 429, json={"name": "ivan", "password": "right-pass"})


def test_registration_changes_the_session_id(fast_client: TestClient) -> None:
    victim = Browser(fast_client)
    victim.me()
    known = victim.jar[SESSION_COOKIE]  # a cookie someone else set in the victim's browser, or read
    r = victim.req("POST", "/api/players", 201, json={"name": "julia", "password": "secret-pass"})
    assert victim.jar[SESSION_COOKIE] != known
    assert "httponly" in r.headers["set-cookie"].lower()
    attacker = Browser(fast_client)
    attacker.jar = {SESSION_COOKIE: known}
    assert attacker.req("GET", "/api/me", 200).json()["id"] is None  # the old id holds nobody any more
    assert victim.req("GET", "/api/me", 200).json()["name"] == "julia"


def test_a_password_change_changes_the_session_id_and_ends_the_other_sessions(fast_client: TestClient) -> None:
    a, other = Browser(fast_client), Browser(fast_client)
    registered(a, "kenji", "first-pass")
    other.req("POST", "/api/session", 200, json={"name": "kenji", "password": "first-pass"})
    before = a.jar[SESSION_COOKIE]
    a.req("POST", "/api/me/password", 204, json={"old": "first-pass", "new": "second-pass"})
    assert a.jar[SESSION_COOKIE] != before
    assert a.req("GET", "/api/me", 200).json()["name"] == "kenji"
    assert other.req("GET", "/api/me", 200).json()["id"] is None
    stale = Browser(fast_client)
    stale.jar = {SESSION_COOKIE: before}
    assert stale.req("GET", "/api/me", 200).json()["id"] is None


# -- names that impersonate -----------------------------------------------------------------------------------------
LOOKALIKES = [
    ("alice", "\u0430lice"),  # Cyrillic a
    ("alice", "\uff21\uff2c\uff29\uff23\uff25"),  # fullwidth ALICE
    ("bob", "b\u03bfb"),  # Greek omicron
    ("alice", "\U0001d41a\U0001d425\U0001d422\U0001d41c\U0001d41e"),  # mathematical bold
    ("alice", "AIice"),  # capital I for l
    ("marie", "rnarie"),  # rn for m
]


@pytest.mark.parametrize(("first", "second"), LOOKALIKES)
def test_a_name_that_looks_like_another_players_is_refused(fast_client: TestClient, first: str,
                                                         second: str) -> None:
    a, b, c = Browser(fast_client), Browser(fast_client), Browser(fast_client)
    registered(a, first)
    err = b.req("POST", "/api/players", 409, json={"name": second, "password": "pw-pw-pw"}).json()["error"]
    assert err["code"] == "name-taken" and err["field"] == "name" and first in err["message"]
    err = c.req("PATCH", "/api/me", 409, json={"name": second}).json()["error"]
    assert err["code"] == "name-taken"
    # The player may still change the case of their own name.
    a.req("PATCH", "/api/me", 200, json={"name": first.upper()})


BAD_NAMES: list[tuple[str, str]] = [
    ("\u3164\u3164\u3164", "letters, digits"),  # Hangul fillers: shown blank
    ("a\u200bb\u200bc", "letters, digits"),  # zero-width spaces
    ("___", "at least one letter or digit"),
    ("Guest-4821", "Guest"),
    ("guest_77", "Guest"),
    ("Gu\u0435st-1", "Guest"),  # Cyrillic e
    ("Invit\u00e9-4821", "Invit"),
    ("Invite-12", "Invit"),
    ("deleted-482113", "Deleted"),
    ("keima", "computer player"),
    ("KEIMA", "computer player"),
    ("ke\u0456ma", "computer player"),  # Cyrillic i
    ("keima-strong", "computer player"),
    ("gnugo", "computer player"),
]


@pytest.mark.parametrize(("name", "said"), BAD_NAMES)
def test_invisible_reserved_and_bot_names_are_refused(fast_client: TestClient, name: str, said: str) -> None:
    a, b = Browser(fast_client), Browser(fast_client)
    err = a.req("POST", "/api/players", 422, json={"name": name, "password": "pw-pw-pw"}).json()["error"]
    assert err["field"] == "name" and said in err["message"], err
    err = b.req("PATCH", "/api/me", 422, json={"name": name}).json()["error"]
    assert err["field"] == "name" and said in err["message"], err


def test_a_guest_may_send_its_own_generated_name_back_with_a_rank(fast_client: TestClient) -> None:
    a = Browser(fast_client)
    name = a.me()["name"]
    assert a.req("PATCH", "/api/me", 200, json={"name": name, "rank": "9k"}).json()["rank"] == "9k"


def test_an_engines_name_is_reserved_too(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, engines={"Leelaz": "leelaz --gtp"})) as c:
        err = Browser(c).req("PATCH", "/api/me", 422, json={"name": "LEELAZ"}).json()["error"]
        assert "computer player" in err["message"]


def test_ordinary_names_are_still_accepted(fast_client: TestClient) -> None:
    names: list[Any] = ["Zoé_17", "Ōtake", "李昌镐", "Александр", "keimafan", "guesswork", "bobby"]
    for name in names:
        b = Browser(fast_client)
        assert b.req("PATCH", "/api/me", 200, json={"name": name}).json()["name"] == name
