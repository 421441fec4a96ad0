"""The club endpoints and their permissions (docs/web-api.md, *Clubs*): creating (names checked as player names
are, the FFG code, the limit per account), reading, changing, members and admins, announcements to the bell, a
player's clubs."""

from __future__ import annotations

import sqlalchemy as sa
from fastapi.testclient import TestClient

from keima.server.storage import emails, player_settings, players
from keima.server.storage.store import make_engine

from ..accounts.test_players import Browser, registered
from .helpers import club_with, code_of

BASE = "/api/clubs/club-de-go-de-grenoble"


def test_a_registered_player_creates_a_club_and_administers_it(fast_client: TestClient) -> None:
    admin, members, club = club_with(fast_client, 1)
    assert club["slug"] == "club-de-go-de-grenoble" and club["code"] == "38Gr" and club["city"] == "Grenoble"
    assert club["you"]["role"] == "admin" and club["you"]["code"]
    assert [m["name"] for m in club["members"]] == ["boss"] and club["members"][0]["place"] == 1
    # The public page: no code, no requests; the member list by rank.
    outsider = Browser(fast_client)
    page = outsider.req("GET", BASE, 200).json()
    assert page["you"] == {"role": None, "code": None, "proposal": None}
    assert {m["name"] for m in page["members"]} == {"boss", "member0"}
    listed = outsider.req("GET", "/api/clubs", 200).json()["clubs"]
    assert listed == [{"slug": club["slug"], "name": "Club de go de Grenoble", "code": "38Gr", "city": "Grenoble",
                       "members": 2, "role": None}]
    mine = members[0].req("GET", "/api/clubs?mine=true", 200).json()["clubs"]
    assert [c["role"] for c in mine] == ["member"]
    assert outsider.req("GET", "/api/clubs?mine=true", 401).status_code == 401
    assert outsider.req("GET", "/api/clubs/nowhere", 404).status_code == 404


def test_who_may_create(fast_client: TestClient) -> None:
    anon = Browser(fast_client)
    assert code_of(anon.req("POST", "/api/clubs", 401, json={"name": "Go Club"})) == "not-logged-in"
    guest = Browser(fast_client)
    guest.me()
    assert code_of(guest.req("POST", "/api/clubs", 403, json={"name": "Go Club"})) == "no-player"
    b = Browser(fast_client)
    registered(b, "founder")
    for i in range(3):
        b.req("POST", "/api/clubs", 201, json={"name": f"Go Club {'ABC'[i]}"})
    assert code_of(b.req("POST", "/api/clubs", 409, json={"name": "Go Club D"})) == "club-limit"


def test_club_names_are_checked_as_player_names_are(fast_client: TestClient) -> None:
    b = Browser(fast_client)
    registered(b, "founder")
    b.req("POST", "/api/clubs", 201, json={"name": "Club de go de Lyon", "code": "69Ly"})
    for name, code in [("Club de go de Lуon", "name-taken"),      # a Cyrillic у
                       ("CLUB DE GO DE LYON", "name-taken"),
                       ("Club  de go", "invalid-request"),          # two spaces
                       ("Keima club", "invalid-request"),           # the server's own name
                       ("Go Admin", "invalid-request"),             # a staff word
                       ("Guest-club", "invalid-request"),           # a guest's name
                       ("Club\u200bde go", "invalid-request"),      # an invisible character
                       ("x", "invalid-request")]:
        r = b.req("POST", "/api/clubs", None, json={"name": name})
        assert code_of(r) == code, name
        assert r.json()["error"]["field"] == "name", name
    r = b.req("POST", "/api/clubs", 409, json={"name": "Autre club", "code": "69LY"})
    assert code_of(r) == "code-taken"
    r = b.req("POST", "/api/clubs", 422, json={"name": "Autre club", "code": "69 Lyon"})
    assert r.json()["error"]["field"] == "code"
    r = b.req("POST", "/api/clubs", 422, json={"name": "Autre club", "link": "javascript:alert(1)"})
    assert "link" in r.text
    # A name like another: the slug still differs from it.
    r = b.req("POST", "/api/clubs", 201, json={"name": "Club de go de Lyon 2"})
    assert r.json()["slug"] == "club-de-go-de-lyon-2"


def test_only_admins_change_the_club(fast_client: TestClient) -> None:
    admin, (m0,), club = club_with(fast_client, 1)
    anon = Browser(fast_client)
    assert code_of(anon.req("PATCH", BASE, 401, json={"city": "Lyon"})) == "not-logged-in"
    assert code_of(m0.req("PATCH", BASE, 403, json={"city": "Lyon"})) == "not-admin"
    page = admin.req("PATCH", BASE, 200, json={"city": "Grenoble (38)", "description": "Le jeudi soir",
                                               "ladder": {"reach": 2, "days": 3, "speed": "live", "size": 9},
                                               "new_invite": True}).json()
    assert page["city"] == "Grenoble (38)" and page["ladder_settings"]["speed"] == "live"
    assert page["you"]["code"] != club["you"]["code"]
    # The old link stops working.
    late = Browser(fast_client)
    registered(late, "late")
    r = late.req("POST", f"{BASE}/members", 403, json={"code": club["you"]["code"]})
    assert code_of(r) == "bad-invitation" and r.json()["error"]["field"] == "code"
    late.req("POST", f"{BASE}/members", 201, json={"code": page["you"]["code"]})


def test_requests_admins_leaving_and_removing(fast_client: TestClient) -> None:
    admin, (m0, m1), _ = club_with(fast_client, 2)
    asker = Browser(fast_client)
    registered(asker, "asker")
    page = asker.req("POST", f"{BASE}/members", 201, json={}).json()
    assert page["you"]["role"] == "requested" and "asker" not in {m["name"] for m in page["members"]}
    assert code_of(asker.req("POST", f"{BASE}/members", 403, json={"code": "wrong"})) == "bad-invitation"
    assert [r["name"] for r in admin.req("GET", BASE, 200).json()["requests"]] == ["asker"]
    assert m0.req("GET", BASE, 200).json()["requests"] == []
    assert code_of(m0.req("PUT", f"{BASE}/members/asker", 403, json={"role": "member"})) == "not-admin"
    page = admin.req("PUT", f"{BASE}/members/asker", 200, json={"role": "member"}).json()
    assert {m["name"]: m["place"] for m in page["members"]}["asker"] == 4
    assert code_of(m0.req("POST", f"{BASE}/members", 409, json={"code": page["you"]["code"]})) == "already-member"
    # Admins: name one; the last one stays.
    assert code_of(admin.req("DELETE", f"{BASE}/members/boss", 409)) == "last-admin"
    assert code_of(admin.req("PUT", f"{BASE}/members/boss", 409, json={"role": "member"})) == "last-admin"
    admin.req("PUT", f"{BASE}/members/member0", 200, json={"role": "admin"})
    assert m0.req("GET", BASE, 200).json()["you"]["role"] == "admin"
    # A member cannot remove another; a member leaves; an admin removes; the ladder closes up.
    assert code_of(m1.req("DELETE", f"{BASE}/members/asker", 403)) == "not-admin"
    m1.req("DELETE", f"{BASE}/members/member1", 200)
    page = m0.req("DELETE", f"{BASE}/members/boss", 200).json()
    assert sorted((m["place"], m["name"]) for m in page["members"]) == [(1, "member0"), (2, "asker")]
    assert code_of(m0.req("DELETE", f"{BASE}/members/nobody-here", 404)) == "not-found"


def test_an_announcement_reaches_the_members_bells(fast_client: TestClient) -> None:
    admin, (m0, m1), _ = club_with(fast_client, 2)
    assert code_of(m0.req("POST", f"{BASE}/announcements", 403, json={"text": "Hi"})) == "not-admin"
    r = admin.req("POST", f"{BASE}/announcements", 422, json={"text": ""})
    assert "text" in r.text
    page = admin.req("POST", f"{BASE}/announcements", 201, json={"text": "Tournoi jeudi <b>20h</b>"}).json()
    assert page["announcements"][0]["text"] == "Tournoi jeudi <b>20h</b>" and page["announcements"][0]["by"] == "boss"
    for b in (m0, m1):
        bell = b.req("GET", "/api/me/notifications", 200).json()["notifications"]
        assert [(n["kind"], n["club"]) for n in bell] == [("club", "club-de-go-de-grenoble")]
        assert bell[0]["text"] == "Club de go de Grenoble: Tournoi jeudi <b>20h</b>"
    assert admin.req("GET", "/api/me/notifications", 200).json()["notifications"] == []
    outsider = Browser(fast_client)
    registered(outsider, "outsider")
    assert outsider.req("GET", "/api/me/notifications", 200).json()["notifications"] == []


def test_a_player_page_lists_the_players_clubs(fast_client: TestClient) -> None:
    admin, (m0,), club = club_with(fast_client, 1)
    admin.req("POST", "/api/clubs", 201, json={"name": "Go à Voiron"})
    assert [(c["name"], c["role"]) for c in admin.req("GET", "/api/players/boss/clubs", 200).json()["clubs"]] == [
        ("Club de go de Grenoble", "admin"), ("Go à Voiron", "admin")]
    assert [c["slug"] for c in m0.req("GET", "/api/players/MEMBER0/clubs", 200).json()["clubs"]] == [club["slug"]]
    assert m0.req("GET", "/api/players/nobody/clubs", 200).json()["clubs"] == []


def test_hostile_inputs_get_a_4xx(fast_client: TestClient) -> None:
    admin, (m0,), club = club_with(fast_client, 1)
    probes: list[tuple[Browser, str, str, object]] = [
        (admin, "POST", "/api/clubs", {"name": "\u202egro.og\u202c club"}),
        (admin, "POST", "/api/clubs", {"name": "🐉" * 30}),
        (admin, "POST", "/api/clubs", {"name": 12}),
        (admin, "POST", "/api/clubs", ["not", "an", "object"]),
        (admin, "POST", "/api/clubs", {"name": "Go Club X", "ladder": {"reach": 0}}),
        (admin, "POST", "/api/clubs", {"name": "Go Club X", "city": "Line\nbreak"}),
        (admin, "GET", "/api/clubs/%00%ff", None),
        (admin, "GET", "/api/clubs/" + "x" * 5000, None),
        (admin, "PATCH", BASE, {"ladder": {"days": 31}}),
        (admin, "PATCH", BASE, {"unknown": 1}),
        (admin, "PUT", f"{BASE}/members/%E2%80%AEboss", {"role": "admin"}),
        (admin, "PUT", f"{BASE}/members/member0", {"role": "owner"}),
        (m0, "POST", f"{BASE}/ladder/challenges", {"defender": ""}),
        (m0, "POST", f"{BASE}/ladder/challenges/99999999999999999999/accept", None),
        (m0, "POST", f"{BASE}/ladder/challenges/-1/accept", None),
        (m0, "DELETE", f"{BASE}/ladder/challenges/abc", None),
        (admin, "POST", f"{BASE}/imports", {"lines": "X" * 70}),
        (admin, "PUT", f"{BASE}/imports/%2e%2e", {"account": "boss"}),
        (m0, "POST", f"{BASE}/imports/1/answer", {"accept": "maybe"}),
        (admin, "POST", f"{BASE}/announcements", {"text": "x" * 5000}),
        (m0, "POST", f"{BASE}/games", {"size": 7}),
        (admin, "POST", f"{BASE}/members", {"code": "x" * 500}),
    ]
    for who, method, url, body in probes:
        r = who.req(method, url, None, **({} if body is None else {"json": body}))
        assert 400 <= r.status_code < 500, (method, url, r.status_code, r.text)
        assert "error" in r.json(), (method, url)
    assert club["slug"] in BASE


def test_an_announcement_is_mailed_by_the_members_choice(fast_client: TestClient, sqlite_url: str) -> None:
    admin, (m0, m1), _ = club_with(fast_client, 2)
    m0.req("PATCH", "/api/me", 200, json={"notify": {"club": "now"}})
    m1.req("PATCH", "/api/me", 200, json={"notify": {"club": "off"}})
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:  # both addresses confirmed (the confirmation link is the mailer's test)
        for name in ("member0", "member1"):
            pid = conn.execute(sa.select(players.c.id).where(players.c.name == name)).scalar_one()
            conn.execute(player_settings.update().where(player_settings.c.player_id == pid)
                         .values(email=f"{name}@example.org", email_verified=True))
    admin.req("POST", f"{BASE}/announcements", 201, json={"text": "Tournoi jeudi"})
    with engine.connect() as conn:
        mailed = conn.execute(sa.select(emails.c.message, emails.c.player_id)).all()
    engine.dispose()
    assert len(mailed) == 1 and "member0@example.org" in mailed[0].message
    assert "Tournoi jeudi" in mailed[0].message


def test_a_deleted_account_leaves_its_clubs_and_its_admin_seat_passes_on(fast_client: TestClient) -> None:
    admin, (m0, m1), _ = club_with(fast_client, 2)
    m1.req("POST", f"{BASE}/ladder/challenges", 201, json={"defender": "member0"})
    admin.req("DELETE", "/api/me", 204)
    page = m0.req("GET", BASE, 200).json()
    # Off the list and the ladder (those below move up); the member first on the ladder is the admin now.
    assert sorted((m["place"], m["name"], m["role"]) for m in page["members"]) == [
        (1, "member0", "admin"), (2, "member1", "member")]
    assert m0.req("GET", f"{BASE}/ladder", 200).json()["challenges"][0]["defender"] == "member0"
    # A member's account deleted: its open challenges are withdrawn.
    m1.req("DELETE", "/api/me", 204)
    ladder = m0.req("GET", f"{BASE}/ladder", 200).json()
    assert [c["status"] for c in ladder["challenges"]] == ["withdrawn"]
    assert [m["name"] for m in m0.req("GET", BASE, 200).json()["members"]] == ["member0"]
