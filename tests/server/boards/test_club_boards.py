"""A club's demo boards (docs/teaching.md, *A club's boards*): a member opens a board its club's members alone see;
every read (the board, its SGF, its socket, the club's list) and every write is refused to anyone else with 403
``not-member``, an outsider who knows the link included."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from .conftest import As


def _club(t: As, ann: As) -> str:
    """A club of ``t`` (its admin) that ``ann`` joins by its invitation code; its slug."""
    club = t.req("POST", "/api/clubs", 201, json={"name": "Club de go de Voiron"})
    ann.req("POST", f"/api/clubs/{club['slug']}/members", 201, json={"code": club["you"]["code"]})
    return str(club["slug"])


def _code(answer: dict[str, dict[str, str]]) -> str:
    return answer["error"]["code"]


def test_a_club_board_is_for_its_members_only(people: dict[str, As]) -> None:
    t, ann, bob, nobody = people["teacher"], people["ann"], people["bob"], people["nobody"]
    slug = _club(t, ann)
    bid = t.req("POST", "/api/boards", 201, json={"title": "Leçon du jeudi", "size": 9, "visibility": "club",
                                                  "club": slug})["id"]
    # A member reads it, watches it and finds it in the club's list.
    seen = ann.req("GET", f"/api/boards/{bid}")
    assert seen["club"] == slug and seen["visibility"] == "club"
    with ann.ws(bid) as w:
        assert w.receive_json()["type"] == "state"
        assert [b["id"] for b in ann.req("GET", f"/api/boards?club={slug}")["boards"]] == [bid]
        assert t.req("GET", "/api/boards")["boards"] == []  # never in the public list
    assert ann.req("GET", f"/api/boards/{bid}/sgf").status_code == 200
    # Anyone else, the link in hand: refused, naming the club.
    for who in (bob, nobody):
        r = who.req("GET", f"/api/boards/{bid}", 403)
        assert _code(r) == "not-member" and r["error"]["field"] == "club"
        assert _code(who.req("GET", f"/api/boards/{bid}/sgf", 403)) == "not-member"
        assert _code(who.req("GET", f"/api/boards?club={slug}", 403)) == "not-member"
        with pytest.raises(WebSocketDisconnect) as closed, who.ws(bid) as w:
            w.receive_json()
        assert closed.value.code == 4403
    r = bob.req("POST", f"/api/boards/{bid}/chat", 403, json={"text": "hello"})
    assert _code(r) == "not-member"


def test_only_a_member_opens_a_club_board_and_it_names_its_club(people: dict[str, As]) -> None:
    t, ann, bob = people["teacher"], people["ann"], people["bob"]
    slug = _club(t, ann)
    r = bob.req("POST", "/api/boards", 403, json={"size": 9, "visibility": "club", "club": slug})
    assert _code(r) == "not-member"
    assert _code(t.req("POST", "/api/boards", 403, json={"size": 9, "visibility": "club", "club": "nowhere"})) == \
        "not-member"
    for body in ({"size": 9, "visibility": "club"}, {"size": 9, "visibility": "public", "club": slug}):
        r = t.req("POST", "/api/boards", 422, json=body)
        assert r["error"]["field"] == "club"
    assert ann.req("POST", "/api/boards", 201, json={"size": 9, "visibility": "club", "club": slug})["club"] == slug


def test_a_member_who_leaves_sees_the_board_no_more(people: dict[str, As]) -> None:
    t, ann = people["teacher"], people["ann"]
    slug = _club(t, ann)
    bid = t.req("POST", "/api/boards", 201, json={"size": 9, "visibility": "club", "club": slug})["id"]
    ann.req("GET", f"/api/boards/{bid}")
    ann.req("DELETE", f"/api/clubs/{slug}/members/ann", 200)  # she leaves
    assert _code(ann.req("GET", f"/api/boards/{bid}", 403)) == "not-member"
