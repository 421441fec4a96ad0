"""The hostile review of moderation (issue 47): routes around a sanction or a limit that the first tests missed."""

from __future__ import annotations

from typing import Any

import pytest

from keima.server.moderation import MAX_REPORTS_PER_HOUR

from ..accounts.test_players import Browser, open_challenge, registered
from ..helpers import wait_for
from ..moved_time import MovedTime
from ..ratings.test_ratings import rated_game
from .test_moderation import _rating, act


def _seat_only(b: Browser, gid: str) -> Browser:
    # The same browser without its session: it keeps only the game's seat cookie (logged out, or an API client
    # that kept the token the game gave it).
    other = Browser(b.c)
    other.jar = {k: v for k, v in b.jar.items() if k.endswith(gid)}
    assert other.jar
    return other


def test_a_muted_player_cannot_chat_through_the_seat_alone(people: Any) -> None:
    mod, a, b = people
    gid = open_challenge(a)["game"]["id"]
    b.req("POST", f"/api/games/{gid}/join", 200, json={})
    act(mod, action="mute", name="bobby", reason="insults", hours=24)
    seat = _seat_only(b, gid)
    refused = seat.req("POST", f"/api/games/{gid}/actions", 403, json={"type": "chat", "text": "still here"})
    assert refused.json()["error"]["code"] == "muted"
    assert a.req("GET", f"/api/games/{gid}", 200).json()["chat"] == []


def test_a_report_number_too_large_is_a_422(people: Any) -> None:
    mod, _a, _b = people
    refused = act(mod, 422, action="warn", name="bobby", reason="x", report=10**30)
    assert refused["error"]["field"] == "report"


def test_a_guest_neither_reports_nor_blocks(people: Any) -> None:
    # Guests cost nothing to make: each new one would be a new report of the same player (docs: registered players).
    _mod, _a, _b = people
    guest = Browser(_a.c)
    guest.me()
    refused = guest.req("POST", "/api/reports", 409, json={"kind": "player", "name": "bobby", "reason": "spam"})
    assert refused.json()["error"]["code"] == "not-registered"
    assert guest.req("PUT", "/api/me/blocks/bobby", 409).json()["error"]["code"] == "not-registered"


def test_reports_are_limited_per_hour(people: Any, fixed_day: MovedTime) -> None:
    _mod, a, b = people
    games = [open_challenge(b)["game"]["id"] for _ in range(MAX_REPORTS_PER_HOUR + 1)]
    for gid in games[:-1]:
        a.req("POST", "/api/reports", 201, json={"kind": "game", "game": gid, "reason": "spam"})
    last = {"kind": "game", "game": games[-1], "reason": "spam"}
    refused = a.req("POST", "/api/reports", 429, json=last).json()["error"]
    assert refused["code"] == "too-many-requests" and "reports" in refused["message"]
    fixed_day.move(3600)
    a.req("POST", "/api/reports", 201, json=last)


def test_an_annulled_game_shows_no_rating_and_the_later_games_are_rated_again(people: Any) -> None:
    mod, a, b = people
    first = rated_game(a, b)  # alice wins both, from the same start: one game alone moves her as much
    wait_for(lambda: a.req("GET", f"/api/games/{first}", 200).json()["rating_change"] is not None)
    one_game = a.req("GET", f"/api/games/{first}", 200).json()["rating_change"]
    after_one = _rating(a, "alice")
    second = rated_game(a, b)
    wait_for(lambda: a.req("GET", f"/api/games/{second}", 200).json()["rating_change"] is not None)
    assert a.req("GET", f"/api/games/{second}", 200).json()["rating_change"] != one_game
    act(mod, action="annul", game=first, reason="bobby lost on purpose")
    assert _rating(a, "alice") == pytest.approx(after_one)  # as if the first game had never counted
    wait_for(lambda: a.req("GET", f"/api/games/{second}", 200).json()["rating_change"] == one_game)
    annulled = a.req("GET", f"/api/games/{first}", 200).json()
    assert (annulled["rated"], annulled["rating_change"]) == (False, None)
    mine = {g["id"]: g for g in a.req("GET", "/api/me/games?status=finished", 200).json()["games"]}
    assert (mine[first]["rated"], mine[first]["rating_change"]) == (False, None)


def test_a_player_suspended_while_waiting_is_not_paired_by_automatch(people: Any) -> None:
    mod, a, b = people
    body = {"sizes": [9], "speed": "correspondence"}  # a wait of days, with no page needed
    assert b.req("POST", "/api/automatch", 200, json=body).json()["waiting"] is True
    act(mod, action="suspend", name="bobby", reason="abuse", hours=24)
    assert a.req("POST", "/api/automatch", 200, json=body).json()["waiting"] is True
    assert a.c.portal.call(a.c.app.state.matchmaker.sweep) == []  # type: ignore[attr-defined]
    act(mod, action="lift", name="bobby", reason="served")
    assert len(a.c.portal.call(a.c.app.state.matchmaker.sweep)) == 1  # type: ignore[attr-defined]


def test_a_suspended_player_signs_up_to_no_online_tournament(people: Any) -> None:
    mod, a, b = people
    body = {"name": "Coupe de Lyon", "rounds": 4, "size": 9}
    board = a.req("POST", "/api/tournaments", 201, json=body).json()["id"]  # played over the board: not keima's
    tid = a.req("POST", "/api/tournaments", 201, json=body | {"online": True}).json()["id"]
    act(mod, action="suspend", name="bobby", reason="abuse", hours=24)
    assert b.req("POST", f"/api/tournaments/{tid}/signup", 403).json()["error"]["code"] == "suspended"
    b.req("POST", f"/api/tournaments/{board}/signup", 201)
    act(mod, action="lift", name="bobby", reason="served")
    b.req("POST", f"/api/tournaments/{tid}/signup", 201)


def test_a_refused_new_name_names_the_field_new_name(people: Any) -> None:
    mod, _a, _b = people
    bad = act(mod, 422, action="rename", name="bobby", new_name="<b>", reason="x")["error"]
    assert bad["field"] == "new_name"
    taken = act(mod, 409, action="rename", name="bobby", new_name="Alice", reason="x")["error"]
    assert (taken["code"], taken["field"]) == ("name-taken", "new_name")


def test_a_ban_ends_the_sessions_already_open(people: Any) -> None:
    mod, a, b = people
    gid = open_challenge(a)["game"]["id"]
    b.req("POST", f"/api/games/{gid}/join", 200, json={})
    act(mod, action="ban", name="bobby", reason="cheating with an engine")
    assert b.req("GET", "/api/me", 200).json()["id"] is None  # logged out: no report, block or name change
    assert b.req("POST", "/api/reports", 401, json={"kind": "player", "name": "alice", "reason": "spam"})
    a.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "play", "move": "E5"})
    b.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "play", "move": "C3"})  # the game goes on


def test_a_deleted_account_leaves_no_block_behind(people: Any) -> None:
    _mod, a, b = people
    a.req("PUT", "/api/me/blocks/bobby", 204)
    b.req("DELETE", "/api/me", 204)
    newcomer = Browser(a.c)
    registered(newcomer, "bobby")  # the name is free again: the block was not about this player
    assert a.req("GET", "/api/me/blocks", 200).json() == {"blocks": []}
    gid = open_challenge(newcomer)["game"]["id"]
    a.req("POST", f"/api/games/{gid}/join", 200, json={})


def test_reporting_ones_own_chat_message_names_the_field_sender(people: Any) -> None:
    _mod, a, b = people
    gid = open_challenge(a)["game"]["id"]
    b.req("POST", f"/api/games/{gid}/join", 200, json={})
    a.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": "hello"})
    message = a.req("GET", f"/api/games/{gid}", 200).json()["chat"][0]
    chat = {"kind": "chat", "game": gid, "sender": message["sender"], "at": message["at"], "reason": "spam"}
    assert a.req("POST", "/api/reports", 422, json=chat).json()["error"]["field"] == "sender"
