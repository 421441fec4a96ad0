"""The hostile review of moderation (issue 47): routes around a sanction or a limit that the first tests missed."""

from __future__ import annotations

from typing import Any

from ..accounts.test_players import Browser, open_challenge
from .test_moderation import act


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
