"""A tournament's players after they registered (issue 42): edited (a new name follows their games and account),
linked to an account, removed before round 1 or withdrawn from the remaining rounds in one action; ranks read
strictly; a sign-up with its first name, club, licence and country. Each refused as docs/web-api.md says: 401
anonymous, 403 a player, 409 what a started round forbids, 422 a bad rank naming the field."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from ..accounts.test_players import Browser, registered
from .test_tournaments import code, new_tournament


def player_of(t: dict[str, Any], key: str) -> dict[str, Any]:
    return next(p for p in t["players"] if p["key"] == key)


def setup(client: TestClient) -> tuple[Browser, Browser, str]:
    """A director, an account signed up (``pia``), three players typed in; a 4-round tournament."""
    d, pia = Browser(client), Browser(client)
    registered(d, "director")
    registered(pia, "pia")
    tid = new_tournament(d, size=9)["id"]
    pia.req("POST", f"/api/tournaments/{tid}/signup", 201,
            json={"first_name": "Pia", "club": "69Ly", "country": "fr", "ffg_licence": "0712345"})
    for name, rank in [("Dmitri", "2k"), ("Martin", "5k"), ("Ito", "1d")]:
        d.req("POST", f"/api/tournaments/{tid}/players", 201, json={"name": name, "rank": rank})
    return d, pia, tid


def test_a_sign_up_gives_first_name_club_licence_and_country(fast_client: TestClient) -> None:
    d, pia, tid = setup(fast_client)
    t = d.req("GET", f"/api/tournaments/{tid}", 200).json()
    p = player_of(t, "PIAPIA")
    assert (p["name"], p["first_name"], p["club"], p["country"], p["ffg_licence"], p["account"]) == \
        ("pia", "Pia", "69Ly", "FR", "0712345", "pia")
    other = Browser(fast_client)
    registered(other, "zoe")
    r = other.req("POST", f"/api/tournaments/{tid}/signup", 422, json={"country": "FRA"})
    assert r.json()["error"]["field"] == "country"


def test_ranks_are_read_strictly(fast_client: TestClient) -> None:
    d, _, tid = setup(fast_client)
    url = f"/api/tournaments/{tid}/players"
    for bad in ("40k", "0k", "10d", "10p", "12", "3 kyu", "k"):
        error = d.req("POST", url, 422, json={"name": "Bad", "rank": bad}).json()["error"]
        assert (error["code"], error["field"]) == ("invalid-request", "rank"), bad
        error = d.req("PATCH", f"{url}/ITO", 422, json={"rank": bad}).json()["error"]
        assert error["field"] == "rank", bad
    for good, shown in (("30k", "30K"), ("9D", "9D"), ("1p", "7D")):
        t = d.req("POST", url, 201, json={"name": f"Good{good}", "rank": good}).json()
        assert player_of(t, f"GOOD{good.upper()}")["rank"] == shown
    # The same name twice says so without a stray space.
    error = d.req("POST", url, 409, json={"name": "Dmitri", "rank": "1k"}).json()["error"]
    assert error["message"] == "Dmitri is already registered"


def test_a_director_edits_a_player_and_the_games_follow(fast_client: TestClient) -> None:
    d, pia, tid = setup(fast_client)
    url = f"/api/tournaments/{tid}"
    nobody = Browser(fast_client)
    assert code(nobody.req("PATCH", f"{url}/players/ITO", 401, json={"rank": "2d"})) == "not-logged-in"
    assert code(pia.req("PATCH", f"{url}/players/ITO", 403, json={"rank": "2d"})) == "not-director"
    assert code(d.req("PATCH", f"{url}/players/NOBODY", 404, json={"rank": "2d"})) == "not-found"
    # Before any round: the rank changes.
    t = d.req("PATCH", f"{url}/players/ITO", 200, json={"rank": "2d", "club": "75Pa", "country": "jp"}).json()
    assert (player_of(t, "ITO")["rank"], player_of(t, "ITO")["club"], player_of(t, "ITO")["country"]) == \
        ("2D", "75Pa", "JP")
    d.req("POST", f"{url}/rounds/1/pairing", 200, json={})
    # A new name after pairing: the key changes, and the games, the account and the standings follow.
    t = d.req("PATCH", f"{url}/players/PIAPIA", 200, json={"name": "Lindqvist"}).json()
    p = player_of(t, "LINDQVISTPIA")
    assert p["account"] == "pia" and not any(x["key"] == "PIAPIA" for x in t["players"])
    keys = {k for g in t["round_list"][0]["games"] for k in (g["white"], g["black"])} | {t["round_list"][0]["bye"]}
    assert "LINDQVISTPIA" in keys and "PIAPIA" not in keys
    assert pia.req("GET", f"{url}/me", 200).json()["player"] == "LINDQVISTPIA"
    assert code(d.req("PATCH", f"{url}/players/ITO", 409, json={"name": "Martin"})) == "already-registered"
    # The rank still changes while round 1 has not started; once it has, 409 names the field.
    d.req("PATCH", f"{url}/players/ITO", 200, json={"rank": "1d"})
    t = d.req("POST", f"{url}/rounds/1/start", 200, json={}).json()
    paired = {k for g in t["round_list"][0]["games"] for k in (g["white"], g["black"])}
    key = next(k for k in ("ITO", "MARTIN", "DMITRI") if k in paired)
    error = d.req("PATCH", f"{url}/players/{key}", 409, json={"rank": "9k"}).json()["error"]
    assert (error["code"], error["field"], error["reason"]) == ("wrong-phase", "rank", "started")
    # The rest still changes; the same rank is no change.
    current = player_of(t, key)["rank"].lower()
    t = d.req("PATCH", f"{url}/players/{key}", 200, json={"first_name": "Ken", "rank": current}).json()
    assert player_of(t, f"{key}KEN")["first_name"] == "Ken"
    log = d.req("GET", f"{url}/log", 200).json()["entries"]
    assert [e["action"] for e in log if e["action"] == "player"] == ["player"] * 4


def test_a_director_links_a_player_to_an_account(fast_client: TestClient) -> None:
    d, pia, tid = setup(fast_client)
    url = f"/api/tournaments/{tid}"
    martin = Browser(fast_client)
    registered(martin, "martin")
    assert code(d.req("PATCH", f"{url}/players/MARTIN", 404, json={"account": "nobody"})) == "not-found"
    assert code(d.req("PATCH", f"{url}/players/MARTIN", 409, json={"account": "pia"})) == "already-registered"
    t = d.req("PATCH", f"{url}/players/MARTIN", 200, json={"account": "martin"}).json()
    assert (player_of(t, "MARTIN")["account"], player_of(t, "MARTIN")["proposed_account"]) == (None, "martin")
    t = martin.req("POST", f"{url}/players/MARTIN/confirm", 200).json()
    assert t["you"]["player"] == "MARTIN" and player_of(t, "MARTIN")["account"] == "martin"
    # Unlinked: the account no longer plays for the player.
    t = d.req("PATCH", f"{url}/players/MARTIN", 200, json={"account": None}).json()
    assert (player_of(t, "MARTIN")["account"], player_of(t, "MARTIN")["proposed_account"]) == (None, None)
    assert martin.req("GET", f"{url}/me", 200).json()["player"] is None
    actions = [e["action"] for e in d.req("GET", f"{url}/log", 200).json()["entries"]]
    assert actions[-3:] == ["account-proposed", "account-confirmed", "account-unlinked"]


def test_remove_before_round_one_and_withdraw_after(fast_client: TestClient) -> None:
    d, pia, tid = setup(fast_client)
    url = f"/api/tournaments/{tid}"
    nobody = Browser(fast_client)
    assert code(nobody.req("POST", f"{url}/players/ITO/withdraw", 401)) == "not-logged-in"
    assert code(pia.req("POST", f"{url}/players/ITO/withdraw", 403)) == "not-director"
    assert code(pia.req("DELETE", f"{url}/players/ITO", 403)) == "not-director"
    # Never paired: removed.
    t = d.req("DELETE", f"{url}/players/ITO", 200).json()
    assert [p["key"] for p in t["players"]] == ["PIAPIA", "DMITRI", "MARTIN"]
    d.req("POST", f"{url}/players", 201, json={"name": "Ito", "rank": "1d"})
    d.req("POST", f"{url}/rounds/1/pairing", 200, json={})
    d.req("POST", f"{url}/rounds/1/start", 200, json={})
    # Paired once: withdrawn from rounds 2-4 in one action, the game of round 1 kept.
    t = d.req("POST", f"{url}/players/MARTIN/withdraw", 200).json()
    assert player_of(t, "MARTIN")["absent"] == [2, 3, 4]
    assert any("MARTIN" in (g["white"], g["black"]) for g in t["round_list"][0]["games"])
    error = d.req("POST", f"{url}/players/MARTIN/withdraw", 409).json()["error"]
    assert (error["code"], error["reason"]) == ("wrong-phase", "withdrawn")
    # DELETE of a player paired once withdraws them too.
    t = d.req("DELETE", f"{url}/players/ITO", 200).json()
    assert player_of(t, "ITO")["absent"] == [2, 3, 4]
    t = d.req("POST", f"{url}/rounds/2/pairing", 200, json={}).json()
    paired = {k for g in t["round_list"][1]["games"] for k in (g["white"], g["black"])} | {t["round_list"][1]["bye"]}
    assert paired == {"PIAPIA", "DMITRI", None}
    log = [e for e in d.req("GET", f"{url}/log", 200).json()["entries"] if e["action"].startswith("withdraw")]
    assert [(e["action"], e["detail"]) for e in log] == [
        ("withdraw", {"player": "ITO"}), ("withdraw-remaining", {"player": "MARTIN", "rounds": [2, 3, 4]}),
        ("withdraw-remaining", {"player": "ITO", "rounds": [2, 3, 4]})]
