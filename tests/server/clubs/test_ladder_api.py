"""The ladder through the API: a challenge within reach, accepted by the defender only, played as a keima game
whose end moves the ladder (read from the game's end event), a challenge not answered in time lost by the
defender; and the FFG list's lines of the club's code proposed to accounts, confirmed by their holders."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from keima.tournament.rating_lists import RatedPlayer, ffg_line

from ..accounts.test_players import Browser, registered
from ..helpers import wait_for
from ..moved_time import MovedTime
from .helpers import club_with, code_of

BASE = "/api/clubs/club-de-go-de-grenoble"
DAY = 86400.0


def order(b: Browser) -> list[str]:
    return [r["name"] for r in b.req("GET", f"{BASE}/ladder", 200).json()["ladder"]]


def test_a_ladder_challenge_played_to_its_result(fast_client: TestClient) -> None:
    admin, (m0, m1, m2), _ = club_with(fast_client, 3, ladder={"reach": 2, "days": 7, "speed": "live", "size": 9})
    assert order(admin) == ["boss", "member0", "member1", "member2"]
    outsider = Browser(fast_client)
    registered(outsider, "outsider")
    r = outsider.req("POST", f"{BASE}/ladder/challenges", 403, json={"defender": "boss"})
    assert code_of(r) == "not-member"
    assert code_of(Browser(fast_client).req("POST", f"{BASE}/ladder/challenges", 401, json={"defender": "boss"})) \
        == "not-logged-in"
    r = m2.req("POST", f"{BASE}/ladder/challenges", 409, json={"defender": "boss"})
    assert code_of(r) == "out-of-reach" and r.json()["error"]["field"] == "defender"
    assert code_of(m0.req("POST", f"{BASE}/ladder/challenges", 409, json={"defender": "member2"})) == "out-of-reach"
    lad = m2.req("POST", f"{BASE}/ladder/challenges", 201, json={"defender": "member0"}).json()
    (c,) = lad["challenges"]
    assert (c["challenger"], c["defender"], c["status"], c["game"]) == ("member2", "member0", "open", None)
    # Each player one challenge at a time.
    assert code_of(m1.req("POST", f"{BASE}/ladder/challenges", 409, json={"defender": "member0"})) == "busy"
    # Only the defender accepts; the challenger cannot accept for them.
    assert code_of(m2.req("POST", f"{BASE}/ladder/challenges/{c['id']}/accept", 403)) == "not-your-seat"
    assert code_of(outsider.req("POST", f"{BASE}/ladder/challenges/{c['id']}/accept", 403)) == "not-your-seat"
    lad = m0.req("POST", f"{BASE}/ladder/challenges/{c['id']}/accept", 200).json()
    (c,) = lad["challenges"]
    gid = c["game"]
    assert c["status"] == "playing" and gid
    assert code_of(m0.req("POST", f"{BASE}/ladder/challenges/{c['id']}/accept", 409)) == "not-open"
    # A normal keima game: the challenger Black, the defender White, the seats theirs by their sessions.
    state = m2.req("GET", f"/api/games/{gid}", 200).json()
    assert state["you"] == ["B"] and state["players"]["W"]["name"] == "member0" and state["size"] == 9
    m2.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "play", "move": "E5"})
    m0.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "resign"})
    wait_for(lambda: order(admin) == ["boss", "member2", "member0", "member1"])
    (c,) = admin.req("GET", f"{BASE}/ladder", 200).json()["challenges"]
    assert c["status"] == "won" and c["result"] == "B+R"
    # The page shows the game among the members' results.
    assert admin.req("GET", BASE, 200).json()["recent"][0]["id"] == gid


def test_a_defender_who_wins_keeps_the_place_and_a_withdrawn_challenge_changes_nothing(fast_client: TestClient) -> None:
    admin, (m0, m1), _ = club_with(fast_client, 2, ladder={"speed": "correspondence", "size": 9})
    c = m1.req("POST", f"{BASE}/ladder/challenges", 201, json={"defender": "member0"}).json()["challenges"][0]
    assert code_of(m0.req("DELETE", f"{BASE}/ladder/challenges/{c['id']}", 403)) == "not-your-seat"
    m1.req("DELETE", f"{BASE}/ladder/challenges/{c['id']}", 200)
    c = m1.req("POST", f"{BASE}/ladder/challenges", 201, json={"defender": "boss"}).json()["challenges"][0]
    gid = admin.req("POST", f"{BASE}/ladder/challenges/{c['id']}/accept", 200).json()["challenges"][0]["game"]
    state = m1.req("GET", f"/api/games/{gid}", 200).json()
    assert state["clock"]["spec"]["type"] == "fischer"
    m1.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "resign"})

    def ended() -> bool:
        return admin.req("GET", f"{BASE}/ladder", 200).json()["challenges"][0]["status"] == "lost"

    wait_for(ended)
    assert order(admin) == ["boss", "member0", "member1"]


def test_a_challenge_not_answered_in_time_is_lost_by_the_defender(fast_client: TestClient,
                                                                  fixed_day: MovedTime) -> None:
    admin, (m0, m1), _ = club_with(fast_client, 2)
    admin.req("PATCH", BASE, 200, json={"ladder": {"days": 2}})
    c = m1.req("POST", f"{BASE}/ladder/challenges", 201, json={"defender": "member0"}).json()["challenges"][0]
    fixed_day.move(2 * DAY - 60)
    assert order(admin) == ["boss", "member0", "member1"]
    fixed_day.move(120)
    assert order(admin) == ["boss", "member1", "member0"]
    lad = admin.req("GET", f"{BASE}/ladder", 200).json()
    assert lad["challenges"][0]["status"] == "expired"
    assert code_of(m0.req("POST", f"{BASE}/ladder/challenges/{c['id']}/accept", 409)) == "not-open"


def _line(name: str, first: str, licence: str, club: str, rating: int = -500) -> str:
    return ffg_line(RatedPlayer(name=name, first_name=first, rating=rating + 2050, club=club, country="FR",
                                origin="FFG", ffg_licence=licence, ffg_licence_status="L"))


def test_ffg_list_lines_proposed_to_accounts_and_confirmed(fast_client: TestClient) -> None:
    admin, (m0,), _ = club_with(fast_client, 1)
    newcomer = Browser(fast_client)
    registered(newcomer, "marie")
    text = "\n".join(["#Echelle au 01/11/2026", _line("DUPONT", "Marie", "1234567", "38Gr"),
                      _line("MARTIN", "Paul", "2345678", "38Gr", 100), _line("DURAND", "Luc", "3456789", "69Ly"),
                      _line("SANS", "Licence", "", "38Gr")])
    assert code_of(m0.req("POST", f"{BASE}/imports", 403, json={"lines": text})) == "not-admin"
    out = admin.req("POST", f"{BASE}/imports", 200, json={"lines": text}).json()
    assert out["added"] == 2
    assert [(ln["name"], ln["licence"], ln["rank"], ln["status"]) for ln in out["lines"]] == [
        ("DUPONT Marie", "1234567", "5k", "proposed"), ("MARTIN Paul", "2345678", "2d", "proposed")]
    assert admin.req("POST", f"{BASE}/imports", 200, json={"lines": text}).json()["added"] == 0
    r = admin.req("POST", f"{BASE}/imports", 422, json={"lines": "DUPONT Marie" + " " * 26 + "  abc L 1234567 38Gr FR"})
    assert r.json()["error"]["field"] == "lines"
    assert code_of(admin.req("PUT", f"{BASE}/imports/1234567", 404, json={"account": "nobody"})) == "not-found"
    admin.req("PUT", f"{BASE}/imports/1234567", 200, json={"account": "marie"})
    admin.req("PUT", f"{BASE}/imports/2345678", 200, json={"account": "member0"})
    # Only the account holder answers; the page shows them the line.
    assert code_of(m0.req("POST", f"{BASE}/imports/1234567/answer", 404, json={"accept": True})) == "not-found"
    assert newcomer.req("GET", BASE, 200).json()["you"]["proposal"] == {"licence": "1234567", "name": "DUPONT Marie",
                                                                       "rank": "5k"}
    newcomer.req("POST", f"{BASE}/imports/1234567/answer", 200, json={"accept": True})
    m0.req("POST", f"{BASE}/imports/2345678/answer", 200, json={"accept": False})
    page: dict[str, Any] = admin.req("GET", BASE, 200).json()
    licences = {m["name"]: m["licence"] for m in page["members"]}
    assert licences == {"boss": None, "member0": None, "marie": "1234567"}
    assert [ln["status"] for ln in admin.req("GET", f"{BASE}/imports", 200).json()["lines"]] == ["confirmed", "refused"]
    # A club without a code has nothing to import.
    admin.req("PATCH", BASE, 200, json={"code": None})
    assert admin.req("POST", f"{BASE}/imports", 422, json={"lines": text}).json()["error"]["field"] == "code"


def test_a_game_that_cannot_be_made_leaves_the_challenge_open(fast_client: TestClient,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from keima.server.clubs import ladder_games
    from keima.server.errors import Refused

    async def broken(*args: Any) -> None:
        raise Refused("not-found", "a player of this challenge is gone")

    admin, (m0,), _ = club_with(fast_client, 1)
    c = m0.req("POST", f"{BASE}/ladder/challenges", 201, json={"defender": "boss"}).json()["challenges"][0]
    monkeypatch.setattr(ladder_games, "start", broken)
    admin.req("POST", f"{BASE}/ladder/challenges/{c['id']}/accept", 404)
    (c,) = admin.req("GET", f"{BASE}/ladder", 200).json()["challenges"]
    assert (c["status"], c["game"]) == ("open", None)
    monkeypatch.undo()
    assert admin.req("POST", f"{BASE}/ladder/challenges/{c['id']}/accept", 200).json()["challenges"][0]["game"]
