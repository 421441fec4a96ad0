"""A director's hand on a round's pairing (``keima.server.tournaments.hand``) and the warnings before it starts
(``keima.tournament.checks``): hand-built tournaments, one line of a table each, then the endpoints and their
refusals (401 anonymous, 403 a player, 409 a started round, 422 a bad player)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from keima.server import timesource
from keima.server.errors import Refused
from keima.server.tournaments import changes as ops
from keima.server.tournaments import hand
from keima.server.tournaments.store import Change, Stored
from keima.tournament.checks import round_warnings
from keima.tournament.model import Game, GeneralParameters, HandicapParameters, Player, Result, Tournament

from ..accounts.test_players import Browser, registered

W = Result.WHITE_WINS
U = Result.UNKNOWN


def tournament(ranks: list[int], games: tuple[Game, ...] = (), **kw: Any) -> Stored:
    """Players P00, P01, ... of ``ranks`` and the ``games`` played."""
    players = tuple(Player(f"P{i:02d}", "", r) for i, r in enumerate(ranks))
    t = Tournament(general=GeneralParameters(number_of_rounds=4), players=players, games=games, **kw)
    return Stored("t", t, ops.new_settings(), 1, timesource.now_utc())


def run(s: Stored, *changes: Change) -> Stored:
    for change in changes:
        out = change(s)
        out.tournament.check()
        s = Stored(s.id, out.tournament, out.settings, s.version + 1, s.created_at)
    return s


def tables(s: Stored, rn: int) -> set[frozenset[str]]:
    return {frozenset((g.white, g.black)) for g in s.tournament.games_of_round(rn)}


def pair_of(a: int, b: int) -> frozenset[str]:
    return frozenset((f"P{a:02d}", f"P{b:02d}"))


# -- hand changes --------------------------------------------------------------------------------------------
HAND = [
    # (what, ranks, changes, the round's tables, its bye, hand tables, hand bye)
    ("bye chosen, then the rest paired", [0, -1, -2, -3, -4],
     [hand.choose_bye(1, "P00"), hand.pair(1, None, False)], None, "P00", [], "P00"),
    ("two paired by hand, then the rest", [0, -1, -2, -3],
     [hand.match(1, "P00", "P03"), hand.pair(1, None, False)], {pair_of(0, 3), pair_of(1, 2)}, None, [1], None),
    ("paired by hand after the engine: the opponents meet", [0, -1, -2, -3],
     [hand.pair(1, None, False), hand.match(1, "P00", "P02")], {pair_of(0, 2), pair_of(1, 3)}, None, [1, 2], None),
    ("bye moved after the engine", [0, -1, -2, -3, -30],
     [hand.pair(1, None, False), hand.choose_bye(1, "P00")], None, "P00", None, "P00"),
    ("paired with the bye's player: the opponent takes the bye", [0, -1, -2, -3, -30],
     [hand.pair(1, None, False), hand.match(1, "P04", "P00")], {pair_of(0, 4), pair_of(2, 3)}, "P01", [1], "P01"),
    ("pair again drops the hand changes", [0, -1, -2, -3],
     [hand.match(1, "P00", "P03"), hand.pair(1, None, False), hand.pair(1, None, True)],
     {pair_of(0, 1), pair_of(2, 3)}, None, [], None),
    ("pair again keeping them", [0, -1, -2, -3],
     [hand.match(1, "P00", "P03"), hand.pair(1, None, False), hand.pair(1, None, True, keep=True)],
     {pair_of(0, 3), pair_of(1, 2)}, None, [1], None),
]


@pytest.mark.parametrize("what, ranks, changes, expected, bye, hand_tables, hand_bye", HAND, ids=[h[0] for h in HAND])
def test_hand_changes(what: str, ranks: list[int], changes: list[Change], expected: set[frozenset[str]] | None,
                      bye: str | None, hand_tables: list[int] | None, hand_bye: str | None) -> None:
    s = run(tournament(ranks), *changes)
    t = s.tournament
    seated = sorted([k for g in t.games_of_round(1) for k in (g.white, g.black)] + ([t.byes[1]] if 1 in t.byes
                                                                                      else []))
    assert seated == sorted(p.key for p in t.players)  # every player once
    if expected is not None:
        assert tables(s, 1) == expected
    if bye is not None:
        assert t.byes.get(1) == bye
    if hand_tables is not None:
        assert hand.hand_tables(s.settings, 1) == hand_tables
    assert hand.hand_bye(s.settings, 1) == hand_bye


REFUSED = [
    ("bye with an even number", [0, -1, -2, -3], [], hand.choose_bye(1, "P00"), "wrong-phase"),
    ("bye to an absent player", [0, -1, -2], ["absent"], hand.choose_bye(1, "P02"), "invalid-request"),
    ("a player with himself", [0, -1], [], hand.match(1, "P00", "P00"), "invalid-request"),
    ("an unknown player", [0, -1], [], hand.match(1, "P00", "NOBODY"), "not-found"),
    ("two at one table already", [0, -1], ["pair"], hand.match(1, "P00", "P01"), "wrong-phase"),
    ("a started round", [0, -1], ["pair", "start"], hand.match(1, "P00", "P01"), "round-started"),
    ("a bye in a started round", [0, -1, -2], ["pair", "start"], hand.choose_bye(1, "P00"), "round-started"),
]


@pytest.mark.parametrize("what, ranks, before, change, code", REFUSED, ids=[r[0] for r in REFUSED])
def test_hand_refusals(what: str, ranks: list[int], before: list[str], change: Change, code: str) -> None:
    s = tournament(ranks)
    steps = {"absent": ops.set_absent("P02", 1, True), "pair": hand.pair(1, None, False),
             "start": ops.start(1, timesource.now_utc())}
    s = run(s, *(steps[b] for b in before))
    with pytest.raises(Refused) as exc:
        change(s)
    assert exc.value.code == code


# -- warnings ------------------------------------------------------------------------------------------------
def g(rn: int, table: int, white: int, black: int, handicap: int = 0, result: Result = W) -> Game:
    return Game(rn, table, f"P{white:02d}", f"P{black:02d}", handicap, result)


WARNINGS = [
    ("none", [0, -1, -2, -3], (g(1, 1, 0, 1), g(1, 2, 2, 3), g(2, 1, 1, 2, result=U), g(2, 2, 3, 0, result=U)),
     2, []),
    ("rematch", [0, -1, -2, -3], (g(1, 1, 0, 1), g(1, 2, 2, 3), g(2, 1, 1, 0, result=U), g(2, 2, 3, 2, result=U)),
     2, [("rematch", 1, ("P01", "P00"), 1), ("rematch", 2, ("P03", "P02"), 1)]),
    ("colour imbalance over 1", [0, -1, -2, -3],
     (g(1, 1, 0, 1), g(1, 2, 2, 3), g(2, 1, 0, 2), g(2, 2, 1, 3), g(3, 1, 0, 3, result=U), g(3, 2, 2, 1, result=U)),
     3, [("colour", None, ("P00",), 3), ("colour", None, ("P03",), -3)]),
    ("missing results of the round before", [0, -1, -2, -3],
     (g(1, 1, 0, 1), g(1, 2, 2, 3, result=U)), 2, [("missing-result", 2, ("P02", "P03"), 0)]),
    ("handicap over the ceiling", [5, -25], (g(1, 1, 0, 1, handicap=9, result=U),), 1,
     [("handicap", 1, ("P00", "P01"), 19)]),
]


@pytest.mark.parametrize("what, ranks, games, rn, expected", WARNINGS, ids=[w[0] for w in WARNINGS])
def test_round_warnings(what: str, ranks: list[int], games: tuple[Game, ...], rn: int,
                        expected: list[tuple[str, int | None, tuple[str, ...], int]]) -> None:
    t = tournament(ranks, games).tournament
    if what.startswith("handicap"):
        # On MMS: 6D counts as the "no handicap above" rank 1D, 25K as the floor 20K: 20 ranks apart, less the
        # correction: 19 stones called for, over the ceiling of 9.
        t = replace(t, handicap=HandicapParameters(ceiling=9))
    found = [(w.kind, w.table, w.players, w.value) for w in round_warnings(t, rn)]
    assert found == expected


# -- the endpoints -------------------------------------------------------------------------------------------
def test_bye_match_and_warnings_through_the_api(fast_client: TestClient) -> None:
    d, player, nobody = Browser(fast_client), Browser(fast_client), Browser(fast_client)
    registered(d, "director")
    registered(player, "pia")
    player.req("PATCH", "/api/me", 200, json={"rank": "2k"})
    tid = d.req("POST", "/api/tournaments", 201, json={"name": "Coupe", "rounds": 3, "location": "Lyon",
                                                       "begin_date": "2026-12-05"}).json()["id"]
    player.req("POST", f"/api/tournaments/{tid}/signup", 201)
    for name, rank in (("Alpha", "3d"), ("Bravo", "1d"), ("Charlie", "1k"), ("Delta", "5k")):
        t = d.req("POST", f"/api/tournaments/{tid}/players", 201, json={"name": name, "rank": rank}).json()
    keys = {p["name"]: p["key"] for p in t["players"]}
    base = f"/api/tournaments/{tid}/rounds/1"
    body = {"player": keys["Alpha"]}
    assert nobody.req("PUT", f"{base}/bye", 401, json=body).json()["error"]["code"] == "not-logged-in"
    assert player.req("PUT", f"{base}/bye", 403, json=body).json()["error"]["code"] == "not-director"
    assert d.req("PUT", f"{base}/bye", 422, json={"player": ""}).status_code == 422
    t = d.req("PUT", f"{base}/bye", 200, json=body).json()
    assert t["round_list"][0]["bye"] == keys["Alpha"] and t["round_list"][0]["hand_bye"] == keys["Alpha"]
    pair = {"a": keys["Bravo"], "b": keys["Delta"]}
    assert player.req("POST", f"{base}/match", 403, json=pair).json()["error"]["code"] == "not-director"
    t = d.req("POST", f"{base}/match", 200, json=pair).json()
    assert [(g["table"], {g["white"], g["black"]}) for g in t["round_list"][0]["games"]] == [
        (1, {keys["Bravo"], keys["Delta"]})]
    t = d.req("POST", f"{base}/pairing", 200, json={}).json()
    r1 = t["round_list"][0]
    assert len(r1["games"]) == 2 and r1["bye"] == keys["Alpha"] and r1["hand_tables"] == [1]
    assert r1["warnings"] == []
    # Results of round 1 missing: round 2 warns, naming the players.
    r2 = t["round_list"][1]
    assert {w["kind"] for w in r2["warnings"]} == {"missing-result"}
    assert {tuple(sorted(w["players"])) for w in r2["warnings"]} == {
        tuple(sorted((g["white"], g["black"]))) for g in r1["games"]}
    # A swap that makes a rematch in round 2 warns before the start; once started, no warning is shown.
    for g in r1["games"]:
        d.req("PUT", f"{base}/tables/{g['table']}/result", 200, json={"result": "white"})
    t = d.req("POST", f"/api/tournaments/{tid}/rounds/2/pairing", 200, json={}).json()
    assert t["round_list"][1]["warnings"] == []
    first = r1["games"][0]
    t = d.req("POST", f"/api/tournaments/{tid}/rounds/2/match", 200,
              json={"a": first["white"], "b": first["black"]}).json()
    assert ("rematch", sorted((first["white"], first["black"]))) in [
        (w["kind"], sorted(w["players"])) for w in t["round_list"][1]["warnings"]]
    t = d.req("POST", f"/api/tournaments/{tid}/rounds/2/start", 200, json={}).json()
    assert t["round_list"][1]["warnings"] == []
    assert d.req("POST", f"/api/tournaments/{tid}/rounds/2/match", 409,
                 json={"a": first["white"], "b": first["black"]}).json()["error"]["code"] == "round-started"
    # The list: dates, place, status, players.
    line = next(x for x in d.req("GET", "/api/tournaments", 200).json()["tournaments"] if x["id"] == tid)
    assert {k: line[k] for k in ("begin_date", "location", "status", "round", "rounds", "players")} == {
        "begin_date": "2026-12-05", "location": "Lyon", "status": "round", "round": 2, "rounds": 3, "players": 5}
    assert t["settings"]["begin_date"] == "2026-12-05" and t["settings"]["location"] == "Lyon"
    log = [e["action"] for e in d.req("GET", f"/api/tournaments/{tid}/log", 200).json()["entries"]]
    assert log.count("bye") == 1 and log.count("match") == 2
