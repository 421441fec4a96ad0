"""Automatch through the API: entering, pairing, the game made with both seats bound, the lobby socket's
"matched" notice, cancelling, a closed page ending the wait, and the refusals."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from keima.server import create_app

from ..accounts.test_players import Browser, registered
from ..helpers import wait_for


class FakeClock:
    """The matchmaker's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(client: TestClient) -> FakeClock:
    fake = FakeClock()
    client.app.state.matchmaker.clock = fake  # type: ignore[attr-defined]
    return fake


def ask(b: Browser, status: int = 200, **body: Any) -> dict[str, Any]:
    body = {"sizes": [9], "speed": "blitz"} | body
    data: dict[str, Any] = b.req("POST", "/api/automatch", status, json=body).json()
    return data


def stand(answer: dict[str, Any]) -> dict[str, Any]:
    """Where an answer says the caller stands (waiting, the game, since when)."""
    return {k: answer[k] for k in ("waiting", "game", "waited_s")}


def test_two_registered_players_get_one_rated_game(client: TestClient, clock: FakeClock) -> None:
    alice, bob = Browser(client), Browser(client)
    registered(alice, "alice")
    registered(bob, "bobby")
    alice.req("PATCH", "/api/me", 200, json={"rank": "10k"})
    bob.req("PATCH", "/api/me", 200, json={"rank": "10k"})
    with alice.ws("/api/lobby/ws") as wa, bob.ws("/api/lobby/ws") as wb:
        assert wa.receive_json()["type"] == "lobby" and wb.receive_json()["type"] == "lobby"
        assert stand(ask(alice, sizes=[19, 9])) == {"waiting": True, "game": None, "waited_s": 0.0}
        assert stand(alice.req("GET", "/api/automatch", 200).json()) == {"waiting": True, "game": None, "waited_s": 0.0}
        clock.now += 1
        got = ask(bob, sizes=[9, 13])
        assert got["waiting"] is False and got["game"]
        gid = got["game"]
        for sock in (wa, wb):
            while (msg := sock.receive_json())["type"] != "matched":
                pass
            assert msg == {"type": "matched", "game": gid}
    state = alice.req("GET", f"/api/games/{gid}", 200).json()
    # Equal ranks: the one who asked first takes Black; the size both asked for; an even game, rated.
    assert state["size"] == 9 and state["handicap"] == 0 and state["komi"] == 7.5
    assert state["players"]["B"]["name"] == "alice" and state["players"]["W"]["name"] == "bobby"
    assert state["you"] == ["B"] and bob.req("GET", f"/api/games/{gid}", 200).json()["you"] == ["W"]
    assert state["rated"] is True and state["rating_change"] is None
    # Blitz: 5 min + 5 x 10 s, no weekend pause (a live game), the players' vacations honoured as in any game.
    assert state["clock"]["spec"] == {"type": "byoyomi", "main": 300.0, "period": 10.0, "periods": 5,
                                      "weekend_pause": False, "vacation": True}
    assert state["invite_open"] is False
    mine = bob.req("GET", "/api/me/games", 200).json()["games"]
    assert [g["id"] for g in mine] == [gid] and mine[0]["rated"] is True
    # Both were told by their sockets: a page opened later is not sent to the game again.
    wait_for(lambda: stand(bob.req("GET", "/api/automatch", 200).json()) == {"waiting": False, "game": None,
                                                                              "waited_s": None}, 5)
    with alice.ws("/api/lobby/ws") as again:
        assert again.receive_json()["type"] == "lobby"
    assert stand(alice.req("GET", "/api/automatch", 200).json()) == {"waiting": False, "game": None, "waited_s": None}


def test_the_window_widens_with_waiting(client: TestClient, clock: FakeClock) -> None:
    strong, weak = Browser(client), Browser(client)
    registered(strong, "strong")
    registered(weak, "weakling")
    strong.req("PATCH", "/api/me", 200, json={"rank": "2k"})
    weak.req("PATCH", "/api/me", 200, json={"rank": "6k"})
    assert ask(strong, handicap=True)["waiting"] is True
    assert ask(weak, handicap=True)["waiting"] is True  # 4 ranks apart: not yet
    mm = client.app.state.matchmaker  # type: ignore[attr-defined]
    clock.now += 29.9
    assert client.portal.call(mm.sweep) == []  # type: ignore[union-attr]
    clock.now += 0.1  # both have waited 30 s: windows of 4 ranks
    made = client.portal.call(mm.sweep)  # type: ignore[union-attr]
    assert len(made) == 1
    # Nobody had a page open: the first page to open within the minute is told, once.
    with strong.ws("/api/lobby/ws") as sock:
        assert sock.receive_json()["type"] == "lobby"
        assert sock.receive_json() == {"type": "matched", "game": made[0]}
    wait_for(lambda: stand(strong.req("GET", "/api/automatch", 200).json()) == {"waiting": False, "game": None,
                                                                                 "waited_s": None}, 5)
    clock.now += 61  # a match nobody was told of is forgotten after a minute
    assert stand(weak.req("GET", "/api/automatch", 200).json()) == {"waiting": False, "game": None, "waited_s": None}
    state = weak.req("GET", f"/api/games/{made[0]}", 200).json()
    # The weaker takes Black, with the handicap that 4 ranks stand for on 9x9 under the French rules.
    assert state["players"]["B"]["name"] == "weakling" and state["handicap"] == 1 and state["komi"] == 0.5


def test_cancel_and_a_closed_page_end_the_wait(client: TestClient, clock: FakeClock) -> None:
    a, b, c = Browser(client), Browser(client), Browser(client)
    for who, name in ((a, "anna"), (b, "berta"), (c, "carla")):
        registered(who, name)
    ask(a)
    a.req("DELETE", "/api/automatch", 204)
    assert a.req("DELETE", "/api/automatch", 404).json()["error"]["code"] == "not-waiting"
    with b.ws("/api/lobby/ws") as wb:
        wb.receive_json()
        ask(b)
        with b.ws("/api/lobby/ws") as wb2:
            wb2.receive_json()
        assert b.req("GET", "/api/automatch", 200).json()["waiting"] is True  # one page still open
    wait_for(lambda: b.req("GET", "/api/automatch", 200).json()["waiting"] is False, 5)
    ask(a)
    a.req("DELETE", "/api/me", 204)  # a deleted account leaves the queue
    assert ask(c)["waiting"] is True  # nobody else is waiting


def test_a_reloaded_page_keeps_its_place_in_the_queue(client: TestClient, clock: FakeClock) -> None:
    mm = client.app.state.matchmaker  # type: ignore[attr-defined]
    mm.grace_s = 0.5
    b = Browser(client)
    registered(b, "berta")
    with b.ws("/api/lobby/ws") as ws:
        ws.receive_json()
        ask(b)
    # The page reloads: its socket closed, the new one opens at once.
    with b.ws("/api/lobby/ws") as ws:
        ws.receive_json()
        time.sleep(1.5)  # three times the grace
        assert b.req("GET", "/api/automatch", 200).json()["waiting"] is True
    wait_for(lambda: b.req("GET", "/api/automatch", 200).json()["waiting"] is False, 5)  # closed for good


@pytest.mark.parametrize(("body", "field", "says"), [
    ({"speed": "bullet"}, "speed", "blitz"),
    ({"sizes": [11]}, "sizes", "11x11"),
    ({"rules": "nosuchrules"}, "rules", "nosuchrules"),
])
def test_refusals(client: TestClient, body: dict[str, Any], field: str, says: str) -> None:
    b = Browser(client)
    registered(b, "refused")
    err = ask(b, 422, **body)["error"]
    assert err["code"] == "invalid-request" and err["field"] == field and says in err["message"]
    assert b.req("POST", "/api/automatch", 422, json={"sizes": [], "speed": "live"}).json()["error"]
    ask(b)
    assert ask(b, 409)["error"]["code"] == "already-waiting"


def test_a_guest_plays_unrated(client: TestClient, clock: FakeClock) -> None:
    guest, member = Browser(client), Browser(client)
    registered(member, "member")
    assert ask(guest)["waiting"] is True  # a guest is made for a caller without a player
    assert guest.req("GET", "/api/me", 200).json()["guest"] is True
    gid = ask(member)["game"]
    state = member.req("GET", f"/api/games/{gid}", 200).json()
    assert state["rated"] is False and sorted(state["players"][c]["name"] == "member" for c in "BW") == [False, True]


def test_openapi_has_the_automatch(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url)) as c:
        paths = c.get("/openapi.json").json()["paths"]
    assert {"post", "get", "delete"} <= set(paths["/api/automatch"])


def test_correspondence_automatch_makes_a_game_of_days(client: TestClient) -> None:
    alice, bob = Browser(client), Browser(client)
    registered(alice, "corra")
    registered(bob, "corrb")
    assert ask(alice, speed="correspondence")["waiting"] is True
    made = ask(bob, speed="correspondence")
    assert made["waiting"] is False
    state = alice.req("GET", f"/api/games/{made['game']}", 200).json()
    spec = state["clock"]["spec"]
    assert spec["type"] == "fischer" and spec["main"] == 3 * 86400 and spec["increment"] == 86400
    assert spec["max"] == 7 * 86400 and spec["weekend_pause"] is True
    # A live speed and the correspondence speed never meet.
    assert ask(alice, speed="live")["waiting"] is True
    assert ask(Browser(client), speed="correspondence")["waiting"] is True


def test_the_wait_is_counted_from_the_request_by_the_servers_clock(client: TestClient, clock: FakeClock) -> None:
    # A reloaded lobby page asks where it stands: it shows the wait since the request, not from its own load.
    b = Browser(client)
    registered(b, "carla")
    wait = {"waiting": True, "game": None, "speed": "blitz", "sizes": [9], "page_needed": True}
    assert ask(b) == {**wait, "waited_s": 0.0}
    clock.now += 83.4
    assert b.req("GET", "/api/automatch", 200).json() == {**wait, "waited_s": 83.4}
    b.req("DELETE", "/api/automatch", 204)
    assert b.req("GET", "/api/automatch", 200).json() == {"waiting": False, "game": None, "waited_s": None,
                                                          "speed": None, "sizes": None, "page_needed": None}


def test_a_correspondence_wait_needs_no_page_and_lasts_a_day(client: TestClient, clock: FakeClock) -> None:
    mm = client.app.state.matchmaker  # type: ignore[attr-defined]
    mm.grace_s = mm.recheck_s = 0.2
    alice, bob, carol = Browser(client), Browser(client), Browser(client)
    for who, name in ((alice, "corra"), (bob, "corrb"), (carol, "corrc")):
        registered(who, name)
    with alice.ws("/api/lobby/ws") as ws:
        ws.receive_json()
        assert ask(alice, speed="correspondence", sizes=[13])["page_needed"] is False
    time.sleep(1.5)  # her last page closed long ago: a live wait would have ended
    assert alice.req("GET", "/api/automatch", 200).json()["waiting"] is True
    made = ask(bob, speed="correspondence", sizes=[13])
    assert made["waiting"] is False
    client.portal.call(client.app.state.hub.outbox.deliver)  # type: ignore[attr-defined]
    [told] = [n for n in alice.req("GET", "/api/me/notifications", 200).json()["notifications"]
              if n["kind"] == "automatch"]
    assert told["game"] == made["game"] and told["opponent"] == "corrb" and not told["read"]
    # A wait ends after a day without a match.
    assert ask(carol, speed="correspondence")["waiting"] is True
    clock.now += 86400 - 60
    client.portal.call(mm.sweep)  # type: ignore[attr-defined]
    assert carol.req("GET", "/api/automatch", 200).json()["waiting"] is True
    clock.now += 120
    client.portal.call(mm.sweep)  # type: ignore[attr-defined]
    assert carol.req("GET", "/api/automatch", 200).json()["waiting"] is False
