"""Clubs in the rest of keima: a tournament whose registration is for a club's members only, and challenges
offered to a club's members only (the lobby's "my clubs")."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ..accounts.test_players import Browser, registered
from .helpers import club_with, code_of

SLUG = "club-de-go-de-grenoble"


def test_a_tournament_for_the_clubs_members_only(fast_client: TestClient) -> None:
    admin, (m0,), _ = club_with(fast_client, 1)
    r = m0.req("POST", "/api/tournaments", 403, json={"name": "Club cup", "club": SLUG})
    assert code_of(r) == "not-admin" and r.json()["error"]["field"] == "club"
    r = admin.req("POST", "/api/tournaments", 404, json={"name": "Club cup", "club": "nowhere"})
    assert r.json()["error"]["field"] == "club"
    t = admin.req("POST", "/api/tournaments", 201, json={"name": "Club cup", "club": SLUG}).json()
    assert t["settings"]["club"] == SLUG
    tid = t["id"]
    outsider = Browser(fast_client)
    registered(outsider, "outsider")
    assert code_of(outsider.req("POST", f"/api/tournaments/{tid}/signup", 403)) == "not-member"
    m0.req("POST", f"/api/tournaments/{tid}/signup", 201)
    # The club's page lists it.
    assert [(x["id"], x["name"]) for x in outsider.req("GET", f"/api/clubs/{SLUG}", 200).json()["tournaments"]] == [
        (tid, "Club cup")]
    # Open to all again: the outsider signs up.
    assert admin.req("PATCH", f"/api/tournaments/{tid}", 200, json={"club": None}).json()["settings"]["club"] is None
    outsider.req("POST", f"/api/tournaments/{tid}/signup", 201)
    # Only the club's admin restricts an existing tournament to it.
    other = Browser(fast_client)
    registered(other, "director2")
    t2 = other.req("POST", "/api/tournaments", 201, json={"name": "Other cup"}).json()["id"]
    assert code_of(other.req("PATCH", f"/api/tournaments/{t2}", 403, json={"club": SLUG})) == "not-admin"


def test_a_challenge_offered_to_the_club_only(fast_client: TestClient) -> None:
    admin, (m0, m1), _ = club_with(fast_client, 2)
    outsider = Browser(fast_client)
    registered(outsider, "outsider")
    assert code_of(outsider.req("POST", f"/api/clubs/{SLUG}/games", 403, json={})) == "not-member"
    offered = m0.req("POST", f"/api/clubs/{SLUG}/games", 201, json={"size": 9, "speed": "live", "color": "B"}).json()
    assert offered["by"] == "member0" and offered["mine"]
    seen = m1.req("GET", "/api/me/club-games", 200).json()["games"]
    assert [(g["id"], g["club"], g["by"], g["size"], g["speed"], g["mine"]) for g in seen] == [
        (offered["id"], SLUG, "member0", 9, "live", False)]
    assert outsider.req("GET", "/api/me/club-games", 200).json()["games"] == []
    assert code_of(Browser(fast_client).req("GET", "/api/me/club-games", 401)) == "not-logged-in"
    # Not among the public open challenges: an invitation, taken with the code only the members read.
    assert offered["id"] not in [g["id"] for g in outsider.req("GET", "/api/games?status=open", 200).json()["games"]]
    assert outsider.req("POST", f"/api/games/{offered['id']}/join", json={"code": "guess"}).status_code == 403
    m1.req("POST", f"/api/games/{offered['id']}/join", 200, json={"code": seen[0]["code"]})
    state = m1.req("GET", f"/api/games/{offered['id']}", 200).json()
    assert state["you"] == ["W"] and state["players"]["B"]["name"] == "member0"
    assert admin.req("GET", "/api/me/club-games", 200).json()["games"] == []  # taken
