"""Reports and moderators (issue 47 items 2, 3): one report a target per reporter; moderators named from the
command line; each action (warn, mute, suspend, ban, lift, rename, annul, dismiss) does what it says, writes its
audit line and tells the player by the bell (and the reporter when it answers their report); 403 for anyone who
is not a moderator; an annulled game leaves the ratings, recomputed from the events."""

from __future__ import annotations

from typing import Any

import pytest

from keima.cli import main

from ..accounts.test_players import Browser, open_challenge
from ..helpers import wait_for
from ..ratings.test_ratings import rated_game


def act(mod: Browser, status: int = 200, **body: Any) -> dict[str, Any]:
    data: dict[str, Any] = mod.req("POST", "/api/moderation/actions", status, json=body).json()
    return data


def bell(b: Browser) -> list[str]:
    return [n["text"] for n in b.req("GET", "/api/me/notifications", 200).json()["notifications"]
            if n["kind"] == "moderation"]


def test_the_admin_command_lists_and_removes_moderators(sqlite_url: str, capsys: pytest.CaptureFixture[str],
                                                         people: Any) -> None:
    mod, a, _b = people
    assert main(["admin", "moderator", "add", "marie", "--db", sqlite_url]) == 0
    assert capsys.readouterr().out == "marie is a moderator already\n"
    assert main(["admin", "moderator", "list", "--db", sqlite_url]) == 0
    assert capsys.readouterr().out.startswith("marie\t2026-12-02 10:00")
    assert main(["admin", "moderator", "add", "nobody", "--db", sqlite_url]) == 1
    assert main(["admin", "moderator", "remove", "marie", "--db", sqlite_url]) == 0
    capsys.readouterr()
    assert mod.req("GET", "/api/moderation/reports", 403).json()["error"]["code"] == "not-moderator"
    assert main(["admin", "moderator"]) == 2


def test_reports_one_a_target_and_the_queue_for_moderators_only(people: Any) -> None:
    mod, a, b = people
    gid = open_challenge(a)["game"]["id"]
    b.req("POST", f"/api/games/{gid}/join", 200, json={})
    b.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": "you stink"})
    message = a.req("GET", f"/api/games/{gid}", 200).json()["chat"][0]
    chat = {"kind": "chat", "game": gid, "sender": message["sender"], "at": message["at"], "reason": "harassment"}
    a.req("POST", "/api/reports", 201, json=chat)
    assert a.req("POST", "/api/reports", 409, json=chat).json()["error"]["code"] == "already-reported"
    a.req("POST", "/api/reports", 201, json={"kind": "player", "name": "bobby", "reason": "name"})
    a.req("POST", "/api/reports", 201, json={"kind": "game", "game": gid, "reason": "stalling"})
    bad = a.req("POST", "/api/reports", 422, json={"kind": "player", "name": "bobby", "reason": "other"})
    assert bad.json()["error"]["field"] == "text"
    assert a.req("POST", "/api/reports", 422, json={**chat, "at": "x"}).json()["error"]["field"] == "sender"
    assert a.req("POST", "/api/reports", 422, json={"kind": "player", "name": "alice",
                                                    "reason": "spam"}).json()["error"]["field"] == "name"
    assert a.req("POST", "/api/reports", 422, json={"kind": "player", "reason": "bad"}).status_code == 422
    assert Browser(a.c).req("POST", "/api/reports", 401, json={"kind": "player", "name": "bobby",
                                                                "reason": "spam"}).status_code == 401
    for url in ("/api/moderation/reports", "/api/moderation/log"):
        assert a.req("GET", url, 403).json()["error"]["code"] == "not-moderator"
    assert act(a, 403, action="warn", name="bobby", reason="x")["error"]["code"] == "not-moderator"
    queue = mod.req("GET", "/api/moderation/reports", 200).json()["reports"]
    assert [(r["kind"], r["reporter"], r["player"], r["reason"]) for r in queue] == [
        ("chat", "alice", "bobby", "harassment"), ("player", "alice", "bobby", "name"),
        ("game", "alice", "bobby", "stalling")]
    assert queue[0]["quote"] == "bobby: you stink" and queue[0]["game"] == gid and queue[0]["reports"] == 3


def test_mute_then_suspend_with_their_audit_lines_and_bells(people: Any) -> None:
    mod, a, b = people
    gid = open_challenge(a)["game"]["id"]
    b.req("POST", f"/api/games/{gid}/join", 200, json={})
    report = a.req("POST", "/api/reports", 201, json={"kind": "player", "name": "bobby",
                                                       "reason": "harassment"}).json()["id"]
    line = act(mod, action="mute", name="bobby", reason="insults in chat", hours=24, report=report)["log"]
    assert (line["moderator"], line["player"], line["action"], line["reason"], line["report"]) == (
        "marie", "bobby", "mute", "insults in chat", report)
    assert line["until"].startswith("2026-12-03T10:00")
    refused = b.req("POST", f"/api/games/{gid}/actions", 403, json={"type": "chat", "text": "hi"}).json()["error"]
    assert refused["code"] == "muted" and "insults in chat" in refused["message"]
    assert b.req("GET", "/api/me/standing", 200).json() == {
        "muted_until": line["until"], "suspended_until": None, "banned": False, "reason": "insults in chat",
        "moderator": False}
    assert bell(b) == ["A moderator muted you in every chat until 2026-12-03 10:00 (UTC): insults in chat"]
    assert bell(a) == ["A moderator handled your report about bobby: insults in chat"]
    assert mod.req("GET", "/api/moderation/reports", 200).json()["reports"] == []
    # Suspended: no new game, no automatch, no chat; the game under way goes on.
    act(mod, action="suspend", name="bobby", reason="went on by private messages", hours=72)
    assert b.req("POST", "/api/games", 403, json={"opponent": "open", "size": 9}).json()["error"]["code"] == \
        "suspended"
    assert b.req("POST", "/api/automatch", 403, json={"sizes": [9], "speed": "blitz"}).status_code == 403
    other = open_challenge(a)["game"]["id"]
    assert b.req("POST", f"/api/games/{other}/join", 403, json={}).json()["error"]["code"] == "suspended"
    a.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "play", "move": "E5"})
    log = mod.req("GET", "/api/moderation/log?name=bobby", 200).json()["log"]
    assert [x["action"] for x in log] == ["suspend", "mute"]
    # Lifted: bobby plays and chats again.
    act(mod, action="lift", name="bobby", reason="served")
    b.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": "sorry"})
    assert b.req("GET", "/api/me/standing", 200).json()["reason"] == ""


def test_warn_ban_rename_and_dismiss(people: Any) -> None:
    mod, a, b = people
    act(mod, action="warn", name="bobby", reason="mind your words")
    assert bell(b) == ["A moderator warned you: mind your words"]
    act(mod, action="rename", name="bobby", new_name="player-7", reason="an abusive name")
    assert b.req("GET", "/api/me", 200).json()["name"] == "player-7"
    assert act(mod, 409, action="rename", name="player-7", new_name="alice", reason="x")["error"]["field"] == "new_name"
    act(mod, action="ban", name="player-7", reason="cheating with an engine")
    refused = Browser(b.c).req("POST", "/api/session", 403, json={"name": "player-7", "password": "correct horse"})
    assert refused.json()["error"]["code"] == "banned"
    report = mod.req("POST", "/api/reports", 201, json={"kind": "player", "name": "alice", "reason": "spam"}).json()
    act(mod, action="dismiss", reason="nothing wrong", report=report["id"])
    assert act(mod, 422, action="dismiss", reason="x")["error"]["field"] == "report"
    assert act(mod, 422, action="mute", name="alice", reason="x")["error"]["field"] == "hours"
    assert act(mod, 422, action="warn", reason="x")["error"]["field"] == "name"
    assert act(mod, 404, action="warn", name="nobody", reason="x")["error"]["field"] == "name"
    assert act(mod, 422, action="mute", name="alice", reason="x", hours=0)["error"]["code"] == "invalid-request"
    log = mod.req("GET", "/api/moderation/log", 200).json()["log"]
    assert [(x["action"], x["player"]) for x in log] == [("dismiss", None), ("ban", "player-7"),
                                                          ("rename", "player-7"), ("warn", "bobby")]
    assert all(x["moderator"] == "marie" for x in log)


def _rating(b: Browser, name: str) -> float:
    rating: float = b.req("GET", f"/api/players/{name}", 200).json()["rating"]["rating"]
    return rating


def test_annulling_a_game_recomputes_the_ratings_without_it(people: Any) -> None:
    mod, a, b = people
    first = rated_game(a, b)  # alice wins both
    wait_for(lambda: a.req("GET", f"/api/games/{first}", 200).json()["rating_change"] is not None)
    after_one = _rating(a, "alice")
    second = rated_game(a, b)
    wait_for(lambda: a.req("GET", f"/api/games/{second}", 200).json()["rating_change"] is not None)
    assert _rating(a, "alice") > after_one
    line = act(mod, action="annul", game=second, reason="bobby lost on purpose")["log"]
    assert (line["action"], line["game"], line["player"]) == ("annul", second, None)
    assert _rating(a, "alice") == pytest.approx(after_one)
    assert bell(a) == bell(b) == ["A moderator annulled the rating effect of a game of yours: bobby lost on purpose"]
    assert act(mod, 404, action="annul", game="nogame", reason="x")["error"]["code"] == "no-such-game"
    # Annulled once: a second annulment is refused, and neither logged nor told again.
    again = act(mod, 409, action="annul", game=second, reason="twice")["error"]
    assert (again["code"], again["field"], again["reason"]) == ("wrong-phase", "game", "annulled")
    assert [x["action"] for x in mod.req("GET", "/api/moderation/log", 200).json()["log"]].count("annul") == 1
    assert len(bell(a)) == 1


def test_signals_are_for_moderators(people: Any) -> None:
    mod, a, _b = people
    assert a.req("GET", "/api/moderation/signals", 403).json()["error"]["code"] == "not-moderator"
    assert mod.req("GET", "/api/moderation/signals", 200).json() == {"signals": []}
