"""A tournament's settings (issue 42): every OpenGotha parameter a director uses, at creation with defaults for the
board, and changed after by ``PATCH /api/tournaments/{tid}`` (401, 403, 409 what a paired round forbids, 422); the
files follow the settings as they are when they are downloaded."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from keima.tournament import opengotha_xml
from keima.tournament.model import System, TimeSystem

from ..accounts.test_players import Browser, registered
from .test_tournaments import code, new_tournament


def director(client: TestClient, name: str = "director") -> Browser:
    d = Browser(client)
    registered(d, name)
    return d


def typed(d: Browser, tid: str, n: int) -> Any:
    t = None
    for i in range(n):
        t = d.req("POST", f"/api/tournaments/{tid}/players", 201,
                  json={"name": f"Player{chr(65 + i)}", "rank": f"{2 * i + 1}k"}).json()
    return t


def xml_of(d: Browser, tid: str) -> Any:
    return opengotha_xml.read(d.req("GET", f"/api/tournaments/{tid}/export/xml", 200).content)


@pytest.mark.parametrize(("size", "ceiling"), [(9, 2), (13, 4), (19, 9)])
def test_a_mcmahon_handicap_ceiling_fits_the_board(fast_client: TestClient, size: int, ceiling: int) -> None:
    d = director(fast_client)
    t = new_tournament(d, size=size)
    assert t["settings"]["handicap_ceiling"] == ceiling
    # A Swiss is even games on any board.
    assert new_tournament(d, size=size, system="swiss")["settings"]["handicap_ceiling"] == 0
    if size == 9:
        # Ranks 16 apart on 9x9: two stones at most, never the 7-stone table of the 19x19 defaults.
        tid = t["id"]
        d.req("POST", f"/api/tournaments/{tid}/players", 201, json={"name": "Strong", "rank": "3d"})
        d.req("POST", f"/api/tournaments/{tid}/players", 201, json={"name": "Weak", "rank": "14k"})
        paired = d.req("POST", f"/api/tournaments/{tid}/rounds/1/pairing", 200, json={}).json()
        assert paired["round_list"][0]["games"][0]["handicap"] == 2


def test_every_setting_at_creation_reaches_the_file(fast_client: TestClient) -> None:
    d = director(fast_client)
    body = {"name": "Open de Lyon 9x9", "short_name": "Lyon9", "rounds": 4, "system": "mcmahon", "size": 9,
            "komi": 6.5, "begin_date": "2027-03-06", "end_date": "2027-03-07", "location": "Lyon", "mm_bar": "2d",
            "mm_floor": "15k", "handicap_ceiling": 1, "handicap_correction": 2, "handicap_based_on": "rank",
            "no_handicap_above": "3k", "main_time": 20, "overtime": "canadian", "canadian_stones": 10,
            "canadian_seconds": 300, "criteria": ["MMS", "SOSM", "SODOSM"], "online": True, "rated": True}
    t = new_tournament(d, **body)
    s = t["settings"]
    assert (s["short_name"], s["begin_date"], s["end_date"], s["location"]) == ("Lyon9", "2027-03-06",
                                                                                "2027-03-07", "Lyon")
    assert (s["mm_bar"], s["mm_floor"], s["handicap_ceiling"], s["handicap_correction"]) == ("2d", "15k", 1, 2)
    assert (s["handicap_based_on"], s["no_handicap_above"], s["main_time"], s["overtime"]) == \
        ("rank", "3k", 20, "canadian")
    assert (s["canadian_stones"], s["canadian_seconds"], s["criteria"], s["locked"]) == \
        (10, 300, ["MMS", "SOSM", "SODOSM"], [])
    assert (t["komi"], t["size"], t["rounds"]) == ("6.5", 9, 4)
    x = xml_of(d, t["id"])
    g, hd = x.general, x.handicap
    assert (g.short_name, g.location, g.begin_date, g.end_date, g.komi, g.internet) == \
        ("Lyon9", "Lyon", "2027-03-06", "2027-03-07", "6.5", True)
    assert (g.mm_bar, g.mm_floor, g.basic_time, g.time_system, g.canadian_moves, g.canadian_time) == \
        (1, -15, 20, TimeSystem.CANADIAN, 10, 300)
    assert (hd.ceiling, hd.correction, hd.based_on_mms, hd.no_handicap_above) == (1, 2, False, -3)
    assert x.criteria == ("MMS", "SOSM", "SODOSM") and x.system is System.MCMAHON


def test_the_files_follow_online_as_it_is_when_they_are_downloaded(fast_client: TestClient) -> None:
    d = director(fast_client)
    t = new_tournament(d, size=19, main_time=60, overtime="byoyomi", byoyomi_seconds=30)
    tid = t["id"]
    typed(d, tid, 4)
    d.req("POST", f"/api/tournaments/{tid}/rounds/1/pairing", 200, json={})
    assert d.req("GET", f"/api/tournaments/{tid}/export/h9", 200).text.startswith("; CL[A]")
    assert xml_of(d, tid).general.internet is False
    # Switched online after round 1 was paired: the EGD class is the internet's, the XML says bInternet.
    t = d.req("PATCH", f"/api/tournaments/{tid}", 200, json={"online": True}).json()
    assert t["settings"]["online"] is True
    assert d.req("GET", f"/api/tournaments/{tid}/export/h9", 200).text.startswith("; CL[D]")
    assert b'bInternet="true"' in d.req("GET", f"/api/tournaments/{tid}/export/xml", 200).content
    d.req("PATCH", f"/api/tournaments/{tid}", 200, json={"online": False, "komi": 6.5, "location": "Paris"})
    h9 = d.req("GET", f"/api/tournaments/{tid}/export/h9", 200).text
    assert h9.startswith("; CL[A]") and "; KM[6.5]" in h9 and "; PC[,Paris]" in h9
    tou = d.req("GET", f"/api/tournaments/{tid}/export/tou", 200).text
    assert ";vill=Paris" in tou and ";komi=6.5" in tou


def test_what_a_paired_round_forbids_is_refused_with_a_reason(fast_client: TestClient) -> None:
    d = director(fast_client)
    t = new_tournament(d, size=9, rounds=4)
    tid = t["id"]
    url = f"/api/tournaments/{tid}"
    typed(d, tid, 4)
    # Before any pairing everything changes; a change of system takes its criteria and handicap with it.
    t = d.req("PATCH", url, 200, json={"system": "swiss", "size": 13, "mm_bar": "1d"}).json()
    assert (t["system"], t["size"], t["settings"]["criteria"], t["settings"]["handicap_ceiling"]) == \
        ("swiss", 13, ["NBW", "SOSW", "SOSOSW"], 0)
    t = d.req("PATCH", url, 200, json={"system": "mcmahon", "size": 9}).json()
    assert (t["settings"]["criteria"], t["settings"]["handicap_ceiling"]) == (["MMS", "SOSM", "SOSOSM"], 2)
    d.req("POST", f"{url}/rounds/1/pairing", 200, json={})
    for body, field in [({"size": 19}, "size"), ({"system": "swiss"}, "system"), ({"mm_bar": "3d"}, "mm_bar"),
                        ({"mm_floor": "25k"}, "mm_floor"), ({"rounds": 0}, None)]:
        r = d.req("PATCH", url, None, json=body)
        if field is None:
            assert r.status_code == 422  # below 1: the body's own limit
            continue
        assert r.status_code == 409, body
        error = r.json()["error"]
        assert (error["code"], error["field"], error["reason"]) == ("wrong-phase", field, "paired")
        assert "no longer changes" in error["message"]
    # The same value is no change; what may change after pairing does.
    d.req("PATCH", url, 200, json={"size": 9, "system": "mcmahon", "mm_bar": "1d"})
    t = d.req("PATCH", url, 200, json={
        "name": "Coupe 9x9", "short_name": "C9", "komi": 5.5, "handicap_ceiling": 1, "rounds": 5, "main_time": 10,
        "overtime": "fischer", "fischer_seconds": 5, "criteria": ["MMS", "SOSM"], "begin_date": "2026-12-05",
        "end_date": "2026-12-06", "registration_open": False, "rated": True}).json()
    assert (t["name"], t["komi"], t["rounds"], t["settings"]["criteria"]) == ("Coupe 9x9", "5.5", 5, ["MMS", "SOSM"])
    assert t["settings"]["locked"] == ["size", "system", "mm_bar", "mm_floor"]
    assert d.req("GET", f"{url}/standings", 200).json()["criteria"] == ["MMS", "SOSM"]
    # Round 2 is paired: the tournament keeps it.
    d.req("POST", f"{url}/rounds/2/pairing", 200, json={})
    r = d.req("PATCH", url, 409, json={"rounds": 1})
    assert r.json()["error"]["field"] == "rounds"
    d.req("PATCH", url, 200, json={"rounds": 2})
    # Unpaired again, the locked settings are free.
    d.req("DELETE", f"{url}/rounds/2/pairing", 200)
    d.req("DELETE", f"{url}/rounds/1/pairing", 200)
    assert d.req("PATCH", url, 200, json={"mm_bar": "3d"}).json()["settings"]["mm_bar"] == "3d"


def test_settings_refusals(fast_client: TestClient) -> None:
    d = director(fast_client)
    t = new_tournament(d)
    url = f"/api/tournaments/{t['id']}"
    nobody, player = Browser(fast_client), director(fast_client, "pia")
    assert code(nobody.req("PATCH", url, 401, json={"komi": 6.5})) == "not-logged-in"
    player.req("POST", f"{url}/signup", 201)
    assert code(player.req("PATCH", url, 403, json={"komi": 6.5})) == "not-director"
    for body, field in [({"mm_bar": "40k"}, "mm_bar"), ({"mm_floor": "10d"}, "mm_floor"),
                        ({"no_handicap_above": "x"}, "no_handicap_above"), ({"criteria": ["MMS", "XYZ"]}, "criteria"),
                        ({"criteria": ["NBW", "SOSW"]}, "criteria"), ({"end_date": "2020-01-01"}, "end_date"),
                        ({"mm_floor": "5d"}, "mm_floor"), ({"handicap_ceiling": 12}, "handicap_ceiling"),
                        ({"overtime": "hourglass"}, "overtime"), ({"rules": "nope"}, "rules")]:
        error = d.req("PATCH", url, 422, json=body).json()["error"]
        assert error["code"] == "invalid-request" and (error["field"] or "").startswith(field), (body, error)
    assert new_tournament(d, 422, mm_bar="40k")["error"]["field"] == "mm_bar"
    # Nothing of the refused changes was stored.
    after = d.req("GET", url, 200).json()
    assert after["settings"] == t["settings"] | {"registration_open": True}
    assert after["komi"] == t["komi"]
