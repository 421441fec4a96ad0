"""The bell rings at once: a notification stored for a player reaches their open lobby socket as
``{"type": "notifications", "unread": n}`` (after its commit, so the count includes it), and the kinds made outside
the game events: ``automatch`` (both players, once) and ``tournament-round`` (each account in the round, once per
round and action, a round paired again included)."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient

from keima.server import timesource
from keima.server.notifications import notify
from keima.server.notifications.lines import line_of
from keima.server.notifications.mailer import Mailer
from keima.server.storage.store import make_engine
from keima.server.storage.tables import notifications

from ..accounts.test_players import Browser, registered
from ..automatch.test_automatch_api import FakeClock, ask
from ..tournaments.test_tournament_online import online_tournament
from .test_notifications import corr_game, deliver, play


def next_of(sock: Any, kind: str, within: float = 10.0) -> dict[str, Any]:
    """The socket's next message of type ``kind`` (the lists' messages between are skipped); fails after
    ``within`` seconds without it (a bell that never rings fails the test, never hangs it)."""
    pool = ThreadPoolExecutor(1)
    try:
        return pool.submit(_wait_for_type, sock, kind).result(timeout=within)
    finally:
        pool.shutdown(wait=False)


def _wait_for_type(sock: Any, kind: str) -> dict[str, Any]:
    while (msg := sock.receive_json())["type"] != kind:
        pass
    assert isinstance(msg, dict)
    return msg


def kinds_in_db(url: str, kind: str) -> list[tuple[str, str | None, dict[str, Any]]]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            n = notifications.c
            rows = conn.execute(sa.select(n.player_id, n.game_id, n.data).where(n.kind == kind).order_by(n.id))
            return [(r.player_id, r.game_id, r.data) for r in rows]
    finally:
        engine.dispose()


def test_a_notification_reaches_the_open_lobby_socket_at_once(client: TestClient) -> None:
    alice, bob = Browser(client), Browser(client)
    registered(alice, "alice")
    registered(bob, "bob")
    gid = corr_game(alice, bob)
    deliver(client)  # the join's "challenge-accepted" of alice, before bob's page opens
    with bob.ws("/api/lobby/ws") as sock, alice.ws("/api/lobby/ws") as other:
        assert sock.receive_json()["type"] == "lobby" and other.receive_json()["type"] == "lobby"
        play(alice, gid, "E5")
        # Nothing polls here: the outbox's own delivery stores bob's "your-turn", and the bell rings after it.
        assert next_of(sock, "notifications") == {"type": "notifications", "unread": 1}
        play(bob, gid, "C3")
        assert next_of(other, "notifications") == {"type": "notifications", "unread": 2}  # with the join's
        # Bob's move answered his turn: his bell clears by itself, at once.
        assert until_unread(sock, 0)
        play(alice, gid, "G7")
        assert until_unread(sock, 1) and until_unread(other, 1)  # alice's G7 answered hers; the join's stays
    listed = bob.req("GET", "/api/me/notifications", 200).json()["notifications"]
    assert [(n["kind"], n["read"]) for n in listed] == [("your-turn", False)]  # one line for the game's turns


def until_unread(sock: Any, n: int, within: float = 10.0) -> bool:
    """True once the socket says the bell has ``n`` unread (two rings close together may come as one, the
    newest count); fails after ``within`` seconds."""
    pool = ThreadPoolExecutor(1)
    try:
        def wait() -> bool:
            while _wait_for_type(sock, "notifications")["unread"] != n:
                pass
            return True
        return pool.submit(wait).result(timeout=within)
    finally:
        pool.shutdown(wait=False)


def test_a_page_of_another_site_hears_no_bell(client: TestClient) -> None:
    alice, bob = Browser(client), Browser(client)
    registered(alice, "alice")
    registered(bob, "bob")
    gid = corr_game(alice, bob)
    with bob.ws("/api/lobby/ws", headers={"Origin": "http://elsewhere.example"}) as foreign, \
            bob.ws("/api/lobby/ws") as own:
        foreign.receive_json()
        own.receive_json()
        play(alice, gid, "E5")
        assert next_of(own, "notifications")["unread"] == 1
        later = alice.req("POST", "/api/games", 201, json={"opponent": "open", "size": 9}).json()["game"]["id"]
        seen = [foreign.receive_json()]
        while later not in [g["id"] for g in seen[-1].get("open") or []]:
            seen.append(foreign.receive_json())
        assert {m["type"] for m in seen} == {"lobby"} and seen[-1]["mine"] is None


def test_an_automatch_notifies_both_players_once(client: TestClient, db_url: str) -> None:
    clock = FakeClock()
    client.app.state.matchmaker.clock = clock  # type: ignore[attr-defined]
    alice, bob = Browser(client), Browser(client)
    registered(alice, "alice")
    registered(bob, "bob")
    for b in (alice, bob):
        b.req("PATCH", "/api/me", 200, json={"rank": "10k"})
    ids = {alice.me()["id"]: "alice", bob.me()["id"]: "bob"}
    with alice.ws("/api/lobby/ws") as sock:
        sock.receive_json()
        assert ask(alice)["waiting"] is True
        clock.now += 1
        gid = ask(bob)["game"]
        assert next_of(sock, "notifications") == {"type": "notifications", "unread": 1}
    for _ in range(3):  # sweeps again change nothing: the pair was claimed once
        client.portal.call(client.app.state.matchmaker.sweep)  # type: ignore[attr-defined]
    made = kinds_in_db(db_url, "automatch")
    assert sorted((p, g, d["opponent"]) for p, g, d in made) == sorted(
        (p, gid, "bob" if name == "alice" else "alice") for p, name in ids.items())
    [line] = bob.req("GET", "/api/me/notifications", 200).json()["notifications"]
    assert line["kind"] == "automatch" and line["game"] == gid and line["text"] == \
        "Automatch found your game against alice"


def test_a_round_paired_and_started_notifies_each_account_once(client: TestClient, db_url: str) -> None:
    d, players, tid = online_tournament(client, n=5)  # five: one has the bye, and is told too
    base = f"/api/tournaments/{tid}"
    p0 = players["PLAYER0"]
    with p0.ws("/api/lobby/ws") as sock:
        sock.receive_json()
        d.req("POST", f"{base}/rounds/1/pairing", 200, json={})
        assert next_of(sock, "notifications") == {"type": "notifications", "unread": 1}
        # Paired again, and unpaired and paired once more: no second "paired" for this round.
        d.req("POST", f"{base}/rounds/1/pairing", 200, json={"again": True})
        d.req("DELETE", f"{base}/rounds/1/pairing", 200)
        d.req("POST", f"{base}/rounds/1/pairing", 200, json={})
        d.req("POST", f"{base}/rounds/1/start", 200, json={})
        assert next_of(sock, "notifications") == {"type": "notifications", "unread": 2}
    # A refused start (started already) tells nobody.
    assert d.req("POST", f"{base}/rounds/1/start", 409, json={}).json()["error"]["code"] == "round-started"
    ids = {b.me()["id"] for b in players.values()}
    made = kinds_in_db(db_url, "tournament-round")
    assert len(made) == 2 * len(ids)
    for action in ("paired", "started"):
        assert sorted(p for p, _g, data in made if data["action"] == action) == sorted(ids)
    assert all(g is None and data["tournament"] == tid and data["round"] == 1 for _p, g, data in made)
    assert d.me()["id"] not in {p for p, _g, _d in made}  # the director does not play
    listed = p0.req("GET", "/api/me/notifications", 200).json()["notifications"]
    assert [n["text"] for n in listed] == ["Online cup: round 1 has started", "Online cup: round 1 is paired"]
    assert {n["tournament"] for n in listed} == {tid} and {n["game"] for n in listed} == {None}


def test_the_new_kinds_have_words_and_default_choices() -> None:
    assert {"automatch", "tournament-round"} <= set(notify.KINDS) == set(notify.DEFAULT_PREFS)
    # The account's settings offer a choice for every kind, named in both languages.
    web = Path(__file__).resolve().parents[3] / "web" / "src"
    away = (web / "components" / "Away.jsx").read_text()
    listed = re.search(r"const KINDS = \[(.*?)\];", away, re.S)
    assert listed is not None and re.findall(r'"([a-z-]+)"', listed.group(1)) == list(notify.KINDS)
    for lang in ("en", "fr"):
        words = (web / "i18n" / f"{lang}.js").read_text()
        kinds = re.search(r"notifyKinds: \{(.*?)\}", words, re.S)
        assert kinds is not None
        assert set(re.findall(r'^\s*"?([a-z-]+)"?:', kinds.group(1), re.M)) == set(notify.KINDS), lang
    item = {"kind": "tournament-round", "game": None,
            "data": {"tournament": "t", "name": "Coupe", "round": 3, "action": "started"}}
    assert line_of(item, "fr") == "Coupe\u00a0: la ronde 3 a commencé"
    assert line_of({"kind": "automatch", "game": "g", "data": {"opponent": "bob"}}, "fr") == \
        "L’appariement automatique a trouvé votre partie contre bob"


def test_a_round_email_links_the_tournament_in_the_players_language() -> None:
    mailer = Mailer(None, None, "http://keima.test/", lambda purpose, text: f"sig-{purpose}")  # type: ignore[arg-type]
    item = {"kind": "tournament-round", "game": None,
            "data": {"tournament": "cup 1", "name": "Coupe", "round": 2, "action": "paired"}}
    msg = mailer.message("m1", {"to": "a@example.org", "lang": "fr", "player": "p1", "items": [item]})
    assert msg["Subject"] == "Coupe\u00a0: la ronde 2 est appariée"
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    text = part.get_content()
    assert "  Ouvrir le tournoi\u00a0: http://keima.test/t/cup%201\n" in text  # as the game's link line is written


def test_a_round_started_for_later_says_when() -> None:
    later = (timesource.now_utc() + timedelta(days=2)).replace(hour=14, minute=0, second=0, microsecond=0)
    data = {"tournament": "t", "name": "Cup", "round": 1, "action": "started"}
    item = {"kind": "tournament-round", "game": None, "data": data | {"start_at": later.isoformat()}}
    assert line_of(item, "en") == f"Cup: round 1 starts on {later:%Y-%m-%d} 14:00 (UTC)"
    assert line_of(item, "fr") == f"Cup\u00a0: la ronde 1 commence le {later:%Y-%m-%d} 14:00 (UTC)"
    past = {"kind": "tournament-round", "game": None,
            "data": data | {"start_at": (timesource.now_utc() - timedelta(minutes=1)).isoformat()}}
    assert line_of(past, "en") == "Cup: round 1 has started"
