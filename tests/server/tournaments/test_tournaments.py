"""Tournaments on the server: the API of docs/web-api.md (*Tournaments*) and its refusals, on SQLite and PostgreSQL.

A tournament is made by a registered player, who directs it; players are typed in, read from a line of the FFG or
EGD list, or sign themselves up; rounds are paired by the engine, changed before they start, and their results
entered by a director or by the players at the table; every change is in the log with who made it.
"""

from __future__ import annotations

import random
import threading
from typing import Any

from fastapi.testclient import TestClient

from keima.tournament import opengotha_xml
from keima.tournament.model import Result
from keima.tournament.pairing import pair_round

from ..accounts.test_players import Browser, registered


def ffg(names: str, rating: int, licence: str, club: str) -> str:
    """An FFG list line (fixed columns: see tests/tournament/test_rating_lists.py)."""
    return f"{names:<38}{rating:>5} L {licence} {club} FR"


def egd(pin: str, names: str, grade: str, gor: int) -> str:
    """An EGD list line."""
    return f" {pin}  {names:<37} {'DE':<3} {'Berl':<4}   {grade:<3}        {gor:>4}"


def new_tournament(b: Browser, status: int = 201, **body: Any) -> Any:
    return b.req("POST", "/api/tournaments", status, json={"name": "Coupe de Lyon", "rounds": 4} | body).json()


def code(r: Any) -> str:
    return str(r.json()["error"]["code"])


def setup_six(client: TestClient) -> tuple[Browser, Browser, Browser, Browser, dict[str, Any]]:
    """A director, a co-director-to-be, two players with accounts (one signs up, one typed by the director) and
    four more players typed, from the FFG list and the EGD list: six players."""
    d, co, p1, p2 = Browser(client), Browser(client), Browser(client), Browser(client)
    registered(d, "director")
    registered(co, "codirector")
    registered(p1, "pia")
    p1.req("PATCH", "/api/me", 200, json={"rank": "3k"})
    registered(p2, "paul")
    t = new_tournament(d)
    tid = t["id"]
    p1.req("POST", f"/api/tournaments/{tid}/signup", 201)
    proposed = d.req("POST", f"/api/tournaments/{tid}/players", 201,
                     json={"name": "Paulsen", "first_name": "Paul", "rank": "2k", "account": "paul"}).json()
    # The director proposes the account; it plays for the player once it confirms.
    line = next(p for p in proposed["players"] if p["name"] == "Paulsen")
    assert (line["account"], line["proposed_account"]) == (None, "paul")
    p2.req("POST", f"/api/tournaments/{tid}/players/{line['key']}/confirm", 200)
    d.req("POST", f"/api/tournaments/{tid}/players", 201, json={"name": "Martin", "first_name": "Lea", "rank": "5k"})
    d.req("POST", f"/api/tournaments/{tid}/players", 201, json={"ffg_line": ffg("DUPONT Jean", -156, "0700348", "69Ly")})
    d.req("POST", f"/api/tournaments/{tid}/players", 201, json={"egd_line": egd("12345678", "Novak Petra", "3k", 1802)})
    t = d.req("POST", f"/api/tournaments/{tid}/players", 201, json={"name": "Ito", "rank": "1d"}).json()
    return d, co, p1, p2, t


def test_create_register_and_the_refusals(client: TestClient) -> None:
    nobody, guest, other = Browser(client), Browser(client), Browser(client)
    assert code(nobody.req("POST", "/api/tournaments", 401, json={"name": "x"})) == "not-logged-in"
    guest.me()
    assert code(guest.req("POST", "/api/tournaments", 403, json={"name": "x"})) == "not-director"
    d, co, p1, p2, t = setup_six(client)
    tid = t["id"]
    assert t["you"] == {"role": "director", "player": None, "proposed": None}
    assert [(p["name"], p["first_name"], p["rank"], p["account"]) for p in t["players"]] == [
        ("pia", "", "3K", "pia"), ("Paulsen", "Paul", "2K", "paul"), ("Martin", "Lea", "5K", None),
        ("DUPONT", "Jean", "2K", None), ("Novak", "Petra", "3K", None), ("Ito", "", "1D", None)]
    # The FFG line's rating is put on the EGD's scale.
    assert next(p for p in t["players"] if p["name"] == "DUPONT")["rating"] == -156 + 2050
    # Refusals: no session, not a director, no such tournament, a bad body, twice the same player.
    assert code(nobody.req("POST", f"/api/tournaments/{tid}/players", 401, json={"name": "A", "rank": "1k"})) \
        == "not-logged-in"
    registered(other, "mallory")
    for method, path, body in [("POST", "players", {"name": "A", "rank": "1k"}), ("PATCH", "", {"rated": True}),
                               ("POST", "rounds/1/pairing", {}), ("POST", "directors", {"name": "mallory"}),
                               ("PUT", "players/ITO/absent", {"round": 2})]:
        url = f"/api/tournaments/{tid}/{path}".rstrip("/")
        assert code(other.req(method, url, 403, json=body)) == "not-director", path
    assert code(d.req("GET", "/api/tournaments/nope", 404)) == "not-found"
    assert code(d.req("POST", "/api/tournaments/nope/players", 404, json={"name": "A", "rank": "1k"})) == "not-found"
    assert d.req("POST", f"/api/tournaments/{tid}/players", 422, json={"name": "A"}).status_code == 422
    assert code(d.req("POST", f"/api/tournaments/{tid}/players", 422, json={"name": "A", "rank": "12q"})) \
        == "invalid-request"
    assert code(d.req("POST", f"/api/tournaments/{tid}/players", 409, json={"name": "Ito", "rank": "2d"})) \
        == "already-registered"
    assert code(p1.req("POST", f"/api/tournaments/{tid}/signup", 409)) == "already-registered"
    assert code(d.req("POST", f"/api/tournaments/{tid}/directors", 404, json={"name": "nobody"})) == "not-found"
    # Co-directors change the tournament; registration closed refuses a sign-up.
    d.req("POST", f"/api/tournaments/{tid}/directors", 200, json={"name": "codirector"})
    assert code(d.req("POST", f"/api/tournaments/{tid}/directors", 409, json={"name": "codirector"})) \
        == "already-director"
    t = co.req("PATCH", f"/api/tournaments/{tid}", 200, json={"registration_open": False}).json()
    assert t["you"]["role"] == "co-director" and t["settings"]["registration_open"] is False
    assert code(other.req("POST", f"/api/tournaments/{tid}/signup", 409)) == "registration-closed"
    # Only the director removes a co-director, and the director stays.
    assert code(co.req("DELETE", f"/api/tournaments/{tid}/directors/director", 403)) == "not-director"
    assert code(d.req("DELETE", f"/api/tournaments/{tid}/directors/director", 409)) == "wrong-phase"
    d.req("DELETE", f"/api/tournaments/{tid}/directors/codirector", 200)
    assert code(co.req("PATCH", f"/api/tournaments/{tid}", 403, json={"rated": True})) == "not-director"
    assert [x["name"] for x in client.get("/api/tournaments").json()["tournaments"]] == ["Coupe de Lyon"]


def test_rounds_results_standings_files_and_log(client: TestClient) -> None:
    d, co, p1, p2, t = setup_six(client)
    tid = t["id"]
    base = f"/api/tournaments/{tid}"
    assert code(d.req("POST", f"{base}/rounds/9/pairing", 404, json={})) == "not-found"
    assert code(d.req("POST", f"{base}/rounds/1/start", 409, json={})) == "wrong-phase"  # not paired
    t = d.req("POST", f"{base}/rounds/1/pairing", 200, json={}).json()
    # A round paired but not played changes no score: the standings stay those before it.
    assert d.req("GET", f"{base}/standings", 200).json()["after_round"] == 0
    r1 = t["round_list"][0]
    # The engine's pairing of the stored tournament, table by table.
    stored = opengotha_xml.read(d.req("GET", f"{base}/export/xml", 200).content)
    expected = pair_round(stored.__class__(**{**stored.__dict__, "games": (), "byes": {}}), 1)
    assert [(g["table"], g["white"], g["black"]) for g in r1["games"]] == \
        [(g.table, g.white, g.black) for g in expected.games]
    assert len(r1["games"]) == 3 and r1["bye"] is None
    assert code(d.req("POST", f"{base}/rounds/1/pairing", 409, json={})) == "wrong-phase"
    d.req("POST", f"{base}/rounds/1/pairing", 200, json={"again": True, "seed": 7})
    # A swap: two players of different tables trade places.
    t = d.req("GET", base, 200).json()
    g1, g2 = t["round_list"][0]["games"][:2]
    t = d.req("POST", f"{base}/rounds/1/swap", 200, json={"a": g1["white"], "b": g2["white"]}).json()
    pairs = {frozenset((g["white"], g["black"])) for g in t["round_list"][0]["games"]}
    assert frozenset((g2["white"], g1["black"])) in pairs and frozenset((g1["white"], g2["black"])) in pairs
    # Absence: not for a round that pairs the player; for round 2 it is.
    assert code(d.req("PUT", f"{base}/players/ITO/absent", 409, json={"round": 1})) == "wrong-phase"
    t = d.req("PUT", f"{base}/players/ITO/absent", 200, json={"round": 2}).json()
    assert next(p for p in t["players"] if p["key"] == "ITO")["absent"] == [2]
    # Results: the players at the table enter theirs once; others are refused; a director fixes.
    t = d.req("POST", f"{base}/rounds/1/start", 200, json={}).json()
    assert t["round_list"][0]["started"]
    assert code(d.req("POST", f"{base}/rounds/1/pairing", 409, json={"again": True})) == "round-started"
    assert code(d.req("POST", f"{base}/rounds/1/swap", 409, json={"a": g1["white"], "b": g2["white"]})) \
        == "round-started"
    games = t["round_list"][0]["games"]
    pia = next(g for g in games if "PIA" in (g["white"], g["black"]))
    others = [g for g in games if g is not pia]
    assert code(p2.req("PUT", f"{base}/rounds/1/tables/{pia['table']}/result", 403, json={"result": "white"})) \
        == "not-director" or "PAULSENPAUL" in (pia["white"], pia["black"])
    pia_white = pia["white"] == "PIA"
    p1.req("PUT", f"{base}/rounds/1/tables/{pia['table']}/result", 200,
           json={"result": "white" if pia_white else "black"})
    assert code(p1.req("PUT", f"{base}/rounds/1/tables/{pia['table']}/result", 409, json={"result": "draw"})) \
        == "wrong-phase"
    d.req("PUT", f"{base}/rounds/1/tables/{others[0]['table']}/result", 200, json={"result": "both_lose"})
    d.req("PUT", f"{base}/rounds/1/tables/{others[1]['table']}/result", 200,
          json={"result": "black", "by_forfeit": True})
    t = d.req("PUT", f"{base}/rounds/1/tables/{others[0]['table']}/result", 200, json={"result": "white"}).json()
    assert code(d.req("PUT", f"{base}/rounds/1/tables/99/result", 404, json={"result": "white"})) == "not-found"
    results = {g["table"]: (g["result"], g["by_forfeit"]) for g in t["round_list"][0]["games"]}
    assert results == {pia["table"]: ("white" if pia_white else "black", False), others[0]["table"]: ("white", False),
                       others[1]["table"]: ("black", True)}
    # Standings: the three winners ahead of the three losers on the main score.
    st = d.req("GET", f"{base}/standings", 200).json()
    assert st["after_round"] == 1 and st["criteria"] == ["MMS", "SOSM", "SOSOSM"]
    winners = {"PIA", others[0]["white"], others[1]["black"]}
    top = {line["key"] for line in st["lines"][:3]}
    for line in st["lines"]:
        stored_player = stored.player(line["key"])
        start = max(min(stored_player.rank, stored.general.mm_bar), stored.general.mm_floor) + 30
        assert line["values"]["MMS"] == str(start + (1 if line["key"] in winners else 0))
    assert top <= {x["key"] for x in st["lines"]}
    # The caller's own view.
    mine = p1.req("GET", f"{base}/me", 200).json()
    assert mine["player"] == "PIA" and mine["rounds"][0]["table"] == pia["table"]
    assert mine["rounds"][0]["opponent"]["key"] == (pia["black"] if pia_white else pia["white"])
    assert d.req("GET", f"{base}/me", 200).json() == {"player": None, "rounds": []}
    # The files.
    xml = opengotha_xml.read(d.req("GET", f"{base}/export/xml", 200).content)
    assert {(g.table, g.result) for g in xml.games} == {
        (pia["table"], Result.WHITE_WINS if pia_white else Result.BLACK_WINS),
        (others[0]["table"], Result.WHITE_WINS), (others[1]["table"], Result.BLACK_WINS)}
    tou = d.req("GET", f"{base}/export/tou", 200)
    assert tou.headers["content-disposition"].endswith('.tou"') and "Novak".upper() in tou.content.decode("latin-1").upper()
    h9 = d.req("GET", f"{base}/export/h9", 200).text
    assert "Novak Petra" in h9 and "DE Berl" in h9
    assert d.req("GET", f"{base}/export/pdf", 422).status_code == 422
    # Importing the OpenGotha file makes the same tournament, directed by the importer.
    imported = p2.req("POST", "/api/tournaments/import", 201, content=opengotha_xml.write(xml),
                      headers={"Content-Type": "application/xml"}).json()
    assert imported["you"]["role"] == "director"
    assert [p["key"] for p in imported["players"]] == [p["key"] for p in t["players"]]
    assert imported["round_list"][0]["games"] == [g | {"game": None} for g in t["round_list"][0]["games"]]
    assert imported["round_list"][0]["present"] == []
    assert imported["round_list"][0]["started"]
    assert code(p2.req("POST", "/api/tournaments/import", 422, content=b"<nope/>")) == "invalid-request"
    # The log: every change, by whom.
    log = d.req("GET", f"{base}/log", 200).json()["entries"]
    assert [e["action"] for e in log] == ["create", "register", "register", "account-proposed", "account-confirmed",
                                          "register", "register", "register", "register", "pair", "pair", "swap",
                                          "absent", "start", "result", "result", "result", "fix"]
    assert [e["by"] for e in log][:5] == ["director", "pia", "director", "director", "paul"]
    assert log[-1]["detail"] == {"round": 1, "table": others[0]["table"], "result": "white", "by_forfeit": False,
                                 "was": "both_lose"}
    assert [e["detail"]["how"] for e in log if e["action"] == "register"] == \
        ["account", "typed", "typed", "ffg", "egd", "typed"]


def test_the_api_is_in_openapi(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for p in ("/api/tournaments", "/api/tournaments/import", "/api/tournaments/{tid}/rounds/{rn}/pairing",
              "/api/tournaments/{tid}/rounds/{rn}/tables/{table}/result", "/api/tournaments/{tid}/standings",
              "/api/tournaments/{tid}/export/{fmt}", "/api/tournaments/{tid}/log", "/api/tournaments/{tid}/me"):
        assert p in paths, p


def test_the_tournament_socket_tells_each_change(fast_client: TestClient) -> None:
    d = Browser(fast_client)
    registered(d, "director")
    t = new_tournament(d)
    with d.ws(f"/api/tournaments/{t['id']}/ws") as ws:
        assert ws.receive_json() == {"type": "tournament", "version": t["version"]}
        after = d.req("POST", f"/api/tournaments/{t['id']}/players", 201, json={"name": "Ito", "rank": "1d"}).json()
        assert after["version"] == t["version"] + 1
        assert ws.receive_json() == {"type": "tournament", "version": after["version"]}
    with d.ws("/api/tournaments/nope/ws") as ws:
        assert ws.receive_json() == {"type": "gone"}


def test_a_club_tournament_of_thirty_players_and_five_rounds(fast_client: TestClient) -> None:
    """The issue's measure: 30 players (ten from the FFG list), 5 rounds paired and their results entered from
    the tables, standings, and the FFG and EGD files."""
    d = Browser(fast_client)
    registered(d, "clubdirector")
    tid = new_tournament(d, rounds=5)["id"]
    base = f"/api/tournaments/{tid}"
    rng = random.Random(26)
    for i in range(30):
        rank = f"{rng.randint(1, 20)}k" if i % 3 else f"{rng.randint(1, 4)}d"
        if i < 10:
            body: dict[str, Any] = {"ffg_line": ffg(f"CLUB{i:02d} Membre", rng.randint(-2500, 500), f"07{i:05d}",
                                                    "69Ly")}
        else:
            body = {"name": f"Joueur{i:02d}", "first_name": "Test", "rank": rank, "club": "38GJ", "country": "FR"}
        d.req("POST", f"{base}/players", 201, json=body)
    d.req("PUT", f"{base}/players/JOUEUR12TEST/absent", 200, json={"round": 3})
    met: set[frozenset[str]] = set()
    for rn in range(1, 6):
        t = d.req("POST", f"{base}/rounds/{rn}/pairing", 200, json={}).json()
        r = t["round_list"][rn - 1]
        paired = [k for g in r["games"] for k in (g["white"], g["black"])] + ([r["bye"]] if r["bye"] else [])
        expected = 29 if rn == 3 else 30
        assert len(paired) == len(set(paired)) == expected
        assert (rn == 3) == (r["bye"] is not None)
        for g in r["games"]:
            pair = frozenset((g["white"], g["black"]))
            assert pair not in met
            met.add(pair)
            result = rng.choice(["black", "white", "white", "black", "draw"])
            d.req("PUT", f"{base}/rounds/{rn}/tables/{g['table']}/result", 200, json={"result": result})
    st = d.req("GET", f"{base}/standings", 200).json()
    assert st["after_round"] == 5 and len(st["lines"]) == 30
    places = [x["place"] for x in st["lines"]]
    assert places == sorted(places) and places[0] == 1
    tou = d.req("GET", f"{base}/export/tou", 200).content.decode("iso-8859-15")
    h9 = d.req("GET", f"{base}/export/h9", 200).content.decode("iso-8859-15")
    # One line per player in each file, in the order of the standings.
    assert sum(1 for line in tou.splitlines() if line and not line.startswith(";")) == 30
    assert sum(1 for line in h9.splitlines() if line and not line.startswith(";")) == 30
    assert "CLUB00" in tou and "Joueur10" in h9
    first = st["lines"][0]
    assert first["name"] in next(line for line in tou.splitlines() if line and not line.startswith(";"))
    # The whole tournament read back from its OpenGotha file (larger than an ordinary request may be).
    xml = d.req("GET", f"{base}/export/xml", 200).content
    assert len(xml) > 16 * 1024
    again = d.req("POST", "/api/tournaments/import", 201, content=xml, headers={"Content-Type": "application/xml"})
    assert d.req("GET", f"/api/tournaments/{again.json()['id']}/standings", 200).json()["lines"] == st["lines"]


def test_changes_at_once_take_turns(db_url: str) -> None:
    """Eight directors' changes of one tournament at once, on threads: each is stored, none lost, each once in
    the log (the row is locked first, on SQLite and PostgreSQL)."""
    from keima.server.storage.store import make_engine, migrate, now_utc
    from keima.server.tournaments import changes as ops
    from keima.server.tournaments import store as st
    from keima.tournament.model import Player, Tournament

    engine = make_engine(db_url)
    migrate(engine)
    try:
        st.create(engine, "t1", Tournament(), ops.new_settings(), "d1", "director", "create", {}, now_utc())
        errors: list[BaseException] = []

        def add(i: int) -> None:
            try:
                st.change(engine, "t1", ops.register(Player(f"P{i}", "", -10), None, "typed"), "d1", "director",
                          now_utc())
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        threads = [threading.Thread(target=add, args=(i,)) for i in range(8)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert errors == []
        s = st.read(engine, "t1")
        assert s is not None and s.version == 9
        assert sorted(p.name for p in s.tournament.players) == [f"P{i}" for i in range(8)]
        assert [e["action"] for e in st.log_of(engine, "t1")] == ["create"] + ["register"] * 8
    finally:
        engine.dispose()


def test_a_change_computed_on_a_replaced_state_is_computed_again(db_url: str) -> None:
    """A change is computed before the lock: when another change is stored meanwhile, it is computed again on the
    new state, never stored on the old one."""
    from keima.server.storage.store import make_engine, migrate, now_utc
    from keima.server.tournaments import changes as ops
    from keima.server.tournaments import store as st
    from keima.tournament.model import Player, Tournament

    engine = make_engine(db_url)
    migrate(engine)
    try:
        st.create(engine, "t2", Tournament(), ops.new_settings(), "d1", "director", "create", {}, now_utc())
        seen: list[int] = []
        register = ops.register(Player("SLOW", "", -10), None, "typed")

        def slow(s: st.Stored) -> st.Outcome:
            seen.append(len(s.tournament.players))
            if len(seen) == 1:  # another director registers a player while this change is computed
                st.change(engine, "t2", ops.register(Player("FAST", "", -5), None, "typed"), "d2", "other",
                          now_utc())
            return register(s)

        st.change(engine, "t2", slow, "d1", "director", now_utc())
        s = st.read(engine, "t2")
        assert seen == [0, 1]
        assert s is not None and [p.name for p in s.tournament.players] == ["FAST", "SLOW"] and s.version == 3
    finally:
        engine.dispose()


def test_an_account_signs_up_at_the_rank_keima_shows_for_it(fast_client: TestClient) -> None:
    """The rank a player's page shows: their rating's once rated, their declared rank before, 20k for nobody
    known (the walk found a rated account signed up at 20k while its page said 6k?)."""
    from keima.ratings import ranks
    from keima.server.storage.tables import ratings

    d, rated, declared, unknown = (Browser(fast_client) for _ in range(4))
    registered(d, "directrice")
    rated_id = registered(rated, "rated")["id"]
    registered(declared, "declared")
    declared.req("PATCH", "/api/me", 200, json={"rank": "3k"})
    registered(unknown, "unknown")
    engine = fast_client.app.state.hub.store.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        conn.execute(ratings.insert().values(player_id=rated_id, rating=1890.0, deviation=120.0, volatility=0.06,
                                             games=12))
    tid = new_tournament(d)["id"]
    for b in (rated, declared, unknown):
        b.req("POST", f"/api/tournaments/{tid}/signup", 201)
    shown = {p["name"]: p["rank"] for p in d.req("GET", f"/api/tournaments/{tid}", 200).json()["players"]}
    assert ranks.rank_label(1890.0) == "1k"
    assert (shown["rated"], shown["declared"], shown["unknown"]) == ("1K", "3K", "20K"), shown
