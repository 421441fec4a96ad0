"""Clubs in the rest of keima: a tournament whose registration is for a club's members only, and challenges
offered to a club's members only (the lobby's "my clubs"), an automatch wait for a club's members only."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from keima.ratings.ranks import rating_of_rank
from keima.server.automatch.pairs import Entry, may_pair, pairs

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


@pytest.mark.parametrize(("a", "b", "paired"), [
    (None, None, True),
    ("grenoble", "grenoble", True),
    ("grenoble", None, False),     # a club's wait is not paired with the public queue
    (None, "grenoble", False),
    ("grenoble", "lyon", False),
])
def test_an_automatch_wait_for_a_club_pairs_within_the_club(a: str | None, b: str | None, paired: bool) -> None:
    one = Entry(player_id="p1", name="p1", registered=True, rating=rating_of_rank("5k"), sizes=(9,), speed="live",
                rules="french", handicap=False, since=0.0, club=a)
    two = Entry(player_id="p2", name="p2", registered=True, rating=rating_of_rank("5k"), sizes=(9,), speed="live",
                rules="french", handicap=False, since=0.0, club=b)
    assert may_pair(one, two, 0.0) is paired
    assert (pairs([one, two], 0.0) != []) is paired


def test_an_automatch_game_with_the_clubs_members_only(fast_client: TestClient) -> None:
    admin, (m0,), _ = club_with(fast_client, 1)
    outsider = Browser(fast_client)
    registered(outsider, "outsider")
    body = {"sizes": [9], "speed": "live", "club": SLUG}
    r = outsider.req("POST", "/api/automatch", 403, json=body)
    assert code_of(r) == "not-member" and r.json()["error"]["field"] == "club"
    assert outsider.req("POST", "/api/automatch", 404, json=body | {"club": "nowhere"}).json()["error"]["field"] \
        == "club"
    outsider.req("POST", "/api/automatch", 200, json={"sizes": [9], "speed": "live"})  # the public queue
    assert m0.req("POST", "/api/automatch", 200, json=body).json()["game"] is None  # not paired with the outsider
    gid = admin.req("POST", "/api/automatch", 200, json=body).json()["game"]
    assert gid
    names = {p["name"] for p in m0.req("GET", f"/api/games/{gid}", 200).json()["players"].values()}
    assert names == {"boss", "member0"}
