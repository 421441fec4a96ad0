"""The tournament holes an audit found (issue 49), each closed: a player deciding an online game before it exists,
control characters and line breaks in names (stored, then every answer a 500; forged lines in the files sent to the
federations), a co-director removing another, an account tied to a player without its consent, and imports and
pairings large enough to hold a process."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from keima.server.tournaments import limits
from keima.tournament import opengotha_xml
from keima.tournament.model import GeneralParameters, Player, Tournament

from ..accounts.test_players import Browser, registered
from ..live import run_async
from .test_tournaments import code, new_tournament


def signed_up(client: TestClient, d: Browser, tid: str, n: int) -> list[Browser]:
    players = []
    for i in range(n):
        b = Browser(client)
        registered(b, f"player{i}")
        b.req("PATCH", "/api/me", 200, json={"rank": f"{i + 1}k"})
        b.req("POST", f"/api/tournaments/{tid}/signup", 201)
        players.append(b)
    return players


def my_table(d: Browser, tid: str, b: Browser) -> dict[str, Any]:
    name = b.me()["name"].upper()
    games = d.req("GET", f"/api/tournaments/{tid}", 200).json()["round_list"][0]["games"]
    return next(g for g in games if name in (g["white"], g["black"]))


@pytest.mark.parametrize("online", [True, False])
def test_a_player_enters_a_result_only_for_a_started_round_at_the_table(fast_client: TestClient, online: bool) -> None:
    d = Browser(fast_client)
    registered(d, "director")
    tid = new_tournament(d, size=9, online=online)["id"]
    p = signed_up(fast_client, d, tid, 4)
    base = f"/api/tournaments/{tid}"
    d.req("POST", f"{base}/rounds/1/pairing", 200, json={})
    g = my_table(d, tid, p[0])
    url = f"{base}/rounds/1/tables/{g['table']}/result"
    # Paired, not started: the player's own "win" is refused, online or at the table.
    assert code(p[0].req("PUT", url, 409, json={"result": "white"})) == "wrong-phase"
    d.req("POST", f"{base}/rounds/1/start", 200, json={})
    t = d.req("GET", base, 200).json()
    assert all(x["result"] == "unknown" for x in t["round_list"][0]["games"])
    if online:
        # Started: an online table's result still comes from its game (or a director), never from a player.
        assert code(p[0].req("PUT", url, 409, json={"result": "white"})) == "wrong-phase"
        d.req("PUT", url, 200, json={"result": "white"})
    else:
        p[0].req("PUT", url, 200, json={"result": "white"})
    t = d.req("GET", base, 200).json()
    assert next(x for x in t["round_list"][0]["games"] if x["table"] == g["table"])["result"] == "white"


@pytest.mark.parametrize("bad", ["EV\u0001IL", "Evil\r\n;size=19", "A\u2028B", "nul\u0000"])
def test_control_characters_and_line_breaks_in_names_are_refused(fast_client: TestClient, bad: str) -> None:
    d = Browser(fast_client)
    registered(d, "director")
    assert code(d.req("POST", "/api/tournaments", 422, json={"name": bad})) == "invalid-request"
    tid = new_tournament(d)["id"]
    base = f"/api/tournaments/{tid}"
    for body in ({"name": bad, "rank": "1k"}, {"name": "Ok", "first_name": bad, "rank": "1k"},
                 {"name": "Ok", "rank": "1k", "club": bad[:8]}, {"ffg_line": f"{bad:<38} 1500 L 0700348 69Ly FR"}):
        r = d.req("POST", f"{base}/players", 422, json=body)
        assert r.json()["error"]["code"] == "invalid-request", r.text
    assert code(d.req("PATCH", base, 422, json={"name": bad})) == "invalid-request"
    # Nothing was stored: the tournament, its standings and every file still answer.
    d.req("GET", base, 200)
    d.req("GET", f"{base}/standings", 200)
    for fmt in ("tou", "h9", "xml"):
        d.req("GET", f"{base}/export/{fmt}", 200)


def test_the_files_never_carry_a_line_break_from_a_name() -> None:
    from keima.tournament import egd_h9, ffg_tou

    g = GeneralParameters(name="Cup\r\n;size=19", short_name="c\nup", location="Lyon\u2028x", number_of_rounds=1)
    t = Tournament(general=g, players=(Player(name="EV\u0001IL", first_name="Bad\nGuy", rank=-3, rating=1800),))
    for text in (ffg_tou.text(t), egd_h9.text(t)):
        assert sum(line.startswith(";size") for line in text.splitlines()) <= 1  # the .tou's own size line
        assert "\r" not in text and "\u0001" not in text and "\u2028" not in text
    xml = opengotha_xml.write(t)
    assert opengotha_xml.read(xml.encode()).general.name == "Cup  ;size=19"


def test_an_import_with_a_line_break_in_a_name_is_refused(fast_client: TestClient) -> None:
    d = Browser(fast_client)
    registered(d, "director")
    t = Tournament(general=GeneralParameters(name="Cup", number_of_rounds=1),
                   players=(Player(name="Ok", first_name="", rank=-3, rating=1800),))
    xml = opengotha_xml.write(t).replace('name="Ok"', 'name="EV&#10;IL"')
    r = d.req("POST", "/api/tournaments/import", 422, content=xml.encode())
    assert r.json()["error"]["code"] == "invalid-request" and "line break" in r.json()["error"]["message"]


def test_only_the_director_removes_a_co_director(fast_client: TestClient) -> None:
    d, co1, co2 = Browser(fast_client), Browser(fast_client), Browser(fast_client)
    registered(d, "director")
    registered(co1, "firstco")
    registered(co2, "secondco")
    tid = new_tournament(d)["id"]
    base = f"/api/tournaments/{tid}"
    d.req("POST", f"{base}/directors", 200, json={"name": "firstco"})
    d.req("POST", f"{base}/directors", 200, json={"name": "secondco"})
    assert code(co1.req("DELETE", f"{base}/directors/secondco", 403)) == "not-director"
    d.req("DELETE", f"{base}/directors/secondco", 200)
    assert code(co2.req("PATCH", base, 403, json={"rated": True})) == "not-director"


def test_an_account_plays_for_a_player_only_once_it_confirms(fast_client: TestClient) -> None:
    d, alice, bob = Browser(fast_client), Browser(fast_client), Browser(fast_client)
    registered(d, "director")
    registered(alice, "alice")
    registered(bob, "bob")
    tid = new_tournament(d)["id"]
    base = f"/api/tournaments/{tid}"
    t = d.req("POST", f"{base}/players", 201, json={"name": "Martin", "rank": "3k", "account": "alice"}).json()
    key = t["players"][0]["key"]
    assert (t["players"][0]["account"], t["players"][0]["proposed_account"]) == (None, "alice")
    # Alice is not playing yet: her view of the tournament has no player.
    assert alice.req("GET", base, 200).json()["you"]["player"] is None
    # Nobody else confirms for her; she does.
    assert code(bob.req("POST", f"{base}/players/{key}/confirm", 404)) == "not-found"
    assert code(d.req("POST", f"{base}/players/{key}/confirm", 404)) == "not-found"
    t = alice.req("POST", f"{base}/players/{key}/confirm", 200).json()
    assert (t["players"][0]["account"], t["players"][0]["proposed_account"]) == ("alice", None)
    assert t["you"]["player"] == key
    assert code(alice.req("POST", f"{base}/players/{key}/confirm", 404)) == "not-found"


def test_imports_and_tournaments_beyond_the_player_limit_are_refused(fast_client: TestClient,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_PLAYERS", 3)
    d = Browser(fast_client)
    registered(d, "director")
    players = tuple(Player(name=f"P{i}", first_name="", rank=-3, rating=1800) for i in range(4))
    xml = opengotha_xml.write(Tournament(general=GeneralParameters(name="Big", number_of_rounds=1), players=players))
    r = d.req("POST", "/api/tournaments/import", 422, content=xml.encode())
    assert "at most 3 players" in r.json()["error"]["message"]
    tid = new_tournament(d)["id"]
    for i in range(3):
        d.req("POST", f"/api/tournaments/{tid}/players", 201, json={"name": f"P{i}", "rank": "1k"})
    assert code(d.req("POST", f"/api/tournaments/{tid}/players", 422, json={"name": "P3", "rank": "1k"})) \
        == "invalid-request"


def test_a_player_creates_a_bounded_number_of_tournaments_a_day(fast_client: TestClient,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from keima.server.tournaments import routes

    monkeypatch.setattr(routes, "CREATED_PER_DAY", 2)
    d, other = Browser(fast_client), Browser(fast_client)
    registered(d, "director")
    registered(other, "other")
    new_tournament(d)
    new_tournament(d)
    assert code(d.req("POST", "/api/tournaments", 429, json={"name": "x"})) == "too-many-requests"
    new_tournament(other)


def test_pairings_are_one_per_tournament_and_a_few_per_process() -> None:
    from keima.server.errors import Refused

    pairings = limits.Pairings(at_once=2)

    async def run() -> None:
        async with pairings.slot("a"):
            with pytest.raises(Refused) as same:
                async with pairings.slot("a"):
                    pass
            assert same.value.code == "too-many-requests"
            async with pairings.slot("b"):
                with pytest.raises(Refused):
                    async with pairings.slot("c"):
                        pass
        async with pairings.slot("c"):
            assert pairings.running == {"c"}

    run_async(run(), 10)
