"""Notifications: the bell's list, and emails received by a real SMTP server (aiosmtpd): one per turn while the
player is away and none while a page of theirs is visible, the day's digest, the warning before a timeout, the
player's language, and unsubscribing (the ``List-Unsubscribe`` link)."""

from __future__ import annotations

import contextlib
import email
import email.policy
import re
import socket
from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import EmailMessage, Message
from typing import Any, TypeVar
from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient

from keima.server import create_app
from keima.server.notifications import notify
from keima.server.notifications.mailer import Smtp
from keima.server.storage.tables import notifications

from ..accounts.test_players import Browser, registered
from ..helpers import deliver_racing, wait_for
from ..moved_time import MovedTime, moved_time

H = 3600.0
D = 86400.0


class Inbox:
    """aiosmtpd's handler: keeps every message received, parsed (``messages``) and as its bytes (``raw``)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.messages: list[Message] = []
        self.raw: list[bytes] = []

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        self.raw.append(bytes(envelope.content))
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        return [m for m in self.messages if m["To"] == address]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


H_ = TypeVar("H_", bound=Inbox)


@contextlib.contextmanager
def serving(handler: H_) -> Iterator[H_]:
    """A real SMTP server (aiosmtpd) on ``handler.port`` for the block, ``handler`` receiving."""
    ctl = Controller(handler, hostname="127.0.0.1", port=handler.port)
    ctl.start()
    try:
        yield handler
    finally:
        ctl.stop()


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    with serving(Inbox(free_port())) as box:
        yield box


@pytest.fixture
def moved() -> Iterator[MovedTime]:
    with moved_time(datetime(2026, 12, 2, 9, 0, tzinfo=UTC).timestamp()) as t:  # a Wednesday morning
        yield t


@pytest.fixture
def client(inbox: Inbox, moved: MovedTime, sqlite_url: str) -> Iterator[TestClient]:
    app = create_app(sqlite_url, smtp_url=f"smtp://127.0.0.1:{inbox.port}?from=keima@keima.test",
                     public_url="http://keima.test")
    with TestClient(app) as c:
        yield c


def send_mail(c: TestClient) -> int:
    """Run the mailer once now (queue the digests due, send what is due)."""
    n: int = c.portal.call(c.app.state.mailer.run_once)  # type: ignore[union-attr,attr-defined]
    return n


def deliver(c: TestClient) -> None:
    c.portal.call(c.app.state.hub.outbox.deliver)  # type: ignore[union-attr,attr-defined]


def body(m: Message) -> str:
    """The text/plain part of ``m`` (the whole message when it is one part)."""
    assert isinstance(m, EmailMessage)
    part = m.get_body(preferencelist=("plain",))
    assert part is not None
    text: str = part.get_content()
    return text


def verified(c: TestClient, b: Browser, inbox: Inbox, address: str, lang: str) -> None:
    b.req("PATCH", "/api/me", 200, json={"email": address, "lang": lang})
    send_mail(c)
    [msg] = inbox.to(address)
    link = re.search(r"http://keima\.test(/api/verify\S+)", body(msg))
    assert link is not None
    b.req("GET", link.group(1), 200)
    assert b.req("GET", "/api/me", 200).json()["email_verified"] is True
    inbox.messages.remove(msg)


def corr_game(a: Browser, b: Browser, clock: dict[str, Any] | None = None) -> str:
    clock = clock or {"type": "simple", "per_move": 2 * D, "weekend_pause": False}
    g = a.req("POST", "/api/games", 201, json={"opponent": "open", "size": 9, "color": "B", "clock": clock}).json()
    gid: str = g["game"]["id"]
    b.req("POST", f"/api/games/{gid}/join", 200, json={})
    return gid


def play(b: Browser, gid: str, move: str) -> None:
    b.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "play", "move": move})


@pytest.fixture
def players(client: TestClient, inbox: Inbox) -> tuple[Browser, Browser]:
    alice, bob = Browser(client), Browser(client, "fr-FR,fr;q=0.9")
    registered(alice, "alice")
    registered(bob, "bob")
    verified(client, alice, inbox, "alice@example.org", "en")
    verified(client, bob, inbox, "bob@example.org", "fr")
    return alice, bob


def test_one_email_per_turn_while_away_and_none_while_here(client: TestClient, inbox: Inbox, moved: MovedTime,
                                                            players: tuple[Browser, Browser]) -> None:
    alice, bob = players
    gid = corr_game(alice, bob)
    deliver(client)
    send_mail(client)
    [accepted] = inbox.to("alice@example.org")  # her challenge was taken, and she is away
    assert accepted["Subject"] == "bob accepted your game: you play Black"
    play(alice, gid, "E5")
    deliver(client)
    send_mail(client)
    [turn] = inbox.to("bob@example.org")
    # What happened to bob, and the time he has left (two days a move: a few seconds have passed).
    assert re.fullmatch("À vous de jouer contre alice\u00a0: il reste (2 j|1 j 23 h)", turn["Subject"])
    assert turn["Content-Language"] == "fr"
    assert f"http://keima.test/g/{gid}" in body(turn)
    bob.req("POST", "/api/me/seen", 204)  # bob's page is open: his next turn sends nothing
    play(bob, gid, "C3")
    play(alice, gid, "G7")
    deliver(client)
    send_mail(client)
    assert len(inbox.to("bob@example.org")) == 1 and len(inbox.to("alice@example.org")) == 2
    moved.move(6 * 60)  # bob's page has not been seen for 6 minutes: he is away again
    play(bob, gid, "C7")
    play(alice, gid, "G3")
    deliver(client)
    assert send_mail(client) == 2 and send_mail(client) == 0  # sent once, never again
    assert len(inbox.to("bob@example.org")) == 2
    ids = [m["Message-ID"] for m in inbox.messages]
    assert len(ids) == len(set(ids))
    # The bell has one line for the game's turns, the newest (bob's moves read the earlier ones).
    everything = bob.req("GET", "/api/me/notifications", 200).json()["notifications"]
    assert [(n["kind"], n["read"]) for n in everything if n["game"] == gid] == [("your-turn", False)]
    [line] = bob.req("GET", "/api/me/notifications?unread=true", 200).json()["notifications"]
    assert line["text"] == "À vous de jouer contre alice" and line["game"] == gid
    assert (line["opponent"], line["size"], line["color"], line["count"]) == ("alice", 9, "W", 1)
    assert bob.req("POST", "/api/me/notifications/read", 200, json={"ids": [line["id"]]}).json() == {"read": 1}
    assert bob.req("GET", "/api/me/notifications?unread=true", 200).json()["notifications"] == []


def test_the_pass_that_starts_the_count_says_nobodys_turn(client: TestClient, players: tuple[Browser, Browser]) -> None:
    alice, bob = players
    gid = corr_game(alice, bob)
    play(alice, gid, "D4")
    bob.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "pass"})
    alice.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "pass"})  # two passes: the count starts
    assert alice.req("GET", f"/api/games/{gid}", 200).json()["phase"] == "scoring"
    deliver(client)
    bell = {name: [n["kind"] for n in b.req("GET", "/api/me/notifications", 200).json()["notifications"]]
            for name, b in (("alice", alice), ("bob", bob))}
    # Bob's turn after D4, Alice's after his pass; none after the pass that started the count.
    assert bell["bob"].count("your-turn") == 1 and bell["alice"].count("your-turn") == 1, bell


def test_a_move_answered_by_a_conditional_move_says_nobody_your_turn_but_the_mover(
        client: TestClient, inbox: Inbox, players: tuple[Browser, Browser]) -> None:
    alice, bob = players
    gid = corr_game(alice, bob)
    play(alice, gid, "D4")
    version = alice.req("GET", f"/api/games/{gid}", 200).json()["version"]
    alice.req("PUT", f"/api/games/{gid}/conditional", 200,
              json={"version": version, "tree": [{"if": "C3", "play": "G7", "then": []}]})
    play(bob, gid, "C3")  # answered at once by alice's G7: bob's turn again
    assert [m["vertex"] for m in alice.req("GET", f"/api/games/{gid}", 200).json()["moves"]] == ["D4", "C3", "G7"]
    deliver(client)
    send_mail(client)
    bell = {name: [n["kind"] for n in b.req("GET", "/api/me/notifications", 200).json()["notifications"]]
            for name, b in (("alice", alice), ("bob", bob))}
    # Bob: his turn after D4 and after G7 (one line for the game, unread); Alice: never (her challenge taken, then no
    # turn of hers). Bob was told twice: two emails.
    assert bell["alice"].count("your-turn") == 0 and bell["bob"] == ["your-turn"], bell
    assert len(inbox.to("bob@example.org")) == 2
    assert [m["Subject"] for m in inbox.to("alice@example.org")] == ["bob accepted your game: you play Black"]


def test_chat_messages_wait_for_the_days_digest(client: TestClient, inbox: Inbox, moved: MovedTime,
                                                players: tuple[Browser, Browser]) -> None:
    alice, bob = players
    alice.req("PATCH", "/api/me", 200, json={"notify": {"challenge-accepted": "off"}})
    gid = corr_game(alice, bob)
    for text in ("hello", "good game"):
        bob.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": text, "to": "players"})
    deliver(client)
    send_mail(client)
    assert inbox.to("alice@example.org") == []  # 09:00 UTC: the digest waits for 18:00
    moved.move(9 * H + 60)
    send_mail(client)
    [digest] = inbox.to("alice@example.org")
    assert digest["Subject"] == "Your day on keima: 2 messages"
    text = body(digest)
    # One line for the game's chat, its messages in order.
    assert "bob wrote: hello \u00b7 good game" in text
    moved.move(H)
    send_mail(client)
    assert len(inbox.to("alice@example.org")) == 1  # one digest a day
    # A message after the day's digest waits for the next day's (it was marked mailed and never sent).
    bob.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": "one more", "to": "players"})
    deliver(client)
    send_mail(client)
    assert len(inbox.to("alice@example.org")) == 1
    moved.move(23 * H)
    send_mail(client)
    first, second = inbox.to("alice@example.org")
    # The unread messages in one line, the new one last.
    assert "bob wrote: hello \u00b7 good game \u00b7 one more" in body(second) and "one more" not in body(first)


def test_a_warning_comes_a_day_before_a_timeout(client: TestClient, inbox: Inbox, moved: MovedTime,
                                                players: tuple[Browser, Browser]) -> None:
    alice, bob = players
    alice.req("PATCH", "/api/me", 200, json={"notify": {"challenge-accepted": "off", "your-turn": "off"}})
    gid = corr_game(alice, bob, {"type": "simple", "per_move": 3 * D, "weekend_pause": False})
    moved.move(2 * D - H)  # a day and an hour left
    send_mail(client)
    assert inbox.to("alice@example.org") == []
    moved.move(2 * H)
    wait_for(lambda: send_mail(client) > 0, timeout=20)  # the scheduler's warn job ran
    [warning] = inbox.to("alice@example.org")
    assert re.fullmatch(r"Your clock against bob is running low: 2[23] h( \d+ min)? left", warning["Subject"])
    assert gid in body(warning)


def test_unsubscribing_stops_every_email_but_not_the_bell(client: TestClient, inbox: Inbox,
                                                           players: tuple[Browser, Browser]) -> None:
    alice, bob = players
    gid = corr_game(alice, bob)
    play(alice, gid, "E5")
    deliver(client)
    send_mail(client)
    [turn] = inbox.to("bob@example.org")
    header = turn["List-Unsubscribe"].strip("<>")
    assert turn["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click" and header in body(turn)
    url = urlsplit(header)
    page = client.get(f"{url.path}?{url.query}")
    assert page.status_code == 200 and "<form method=post" in page.text  # opening the link changes nothing
    assert client.post(f"{url.path}?{url.query}").status_code == 200  # the one-click POST
    assert client.post(f"{url.path}?{url.query}x").status_code == 400  # a forged link
    assert set(bob.req("GET", "/api/me", 200).json()["notify"].values()) == {"off"}
    play(bob, gid, "C3")
    play(alice, gid, "G7")
    deliver(client)
    send_mail(client)
    assert len(inbox.to("bob@example.org")) == 1
    # The bell still rings: the game's newest "your turn", unread.
    bell = bob.req("GET", "/api/me/notifications?unread=true", 200).json()["notifications"]
    assert [(n["kind"], n["game"]) for n in bell] == [("your-turn", gid)]


def test_without_smtp_nothing_is_sent_and_the_bell_still_rings(sqlite_url: str, caplog: pytest.LogCaptureFixture) -> None:
    with TestClient(create_app(sqlite_url)) as c:
        alice, bob = Browser(c), Browser(c)
        registered(alice, "alice")
        registered(bob, "bob")
        gid = corr_game(alice, bob)
        play(alice, gid, "E5")
        deliver(c)
        assert send_mail(c) == 0
        assert [n["kind"] for n in bob.req("GET", "/api/me/notifications", 200).json()["notifications"]] == \
            ["your-turn"]
    assert "no SMTP server" in caplog.text


@pytest.mark.parametrize(("url", "parsed"), [
    ("smtp://mail.example.org", ("mail.example.org", 25, False, None, None, "keima@mail.example.org")),
    ("smtp://u%40x:p%3Aw@mail.example.org:587?from=go@example.org",
     ("mail.example.org", 587, False, "u@x", "p:w", "go@example.org")),
    ("smtps://mail.example.org", ("mail.example.org", 465, True, None, None, "keima@mail.example.org")),
])
def test_an_smtp_url_says_where_and_how(url: str, parsed: tuple[Any, ...]) -> None:
    s = Smtp.parse(url)
    assert (s.host, s.port, s.tls, s.user, s.password, s.sender) == parsed


@pytest.mark.parametrize("url", ["http://mail.example.org", "smtp://", "mail.example.org:25"])
def test_a_url_that_is_not_smtp_is_refused(url: str) -> None:
    with pytest.raises(ValueError, match="not an SMTP URL"):
        Smtp.parse(url)


def test_racing_deliveries_notify_each_event_once(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KEIMA_OUTBOX_PAUSE", "600")  # the server's own delivery waits: the threads below race
    with TestClient(create_app(sqlite_url)) as c:
        alice, bob = Browser(c), Browser(c)
        registered(alice, "alice")
        registered(bob, "bob")
        gid = corr_game(alice, bob)
        for who, move in [(alice, "E5"), (bob, "C3"), (alice, "G7"), (bob, "C7")]:
            play(who, gid, move)
        for text in ("one", "two", "three"):
            bob.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "chat", "text": text, "to": "players"})
        engine = c.app.state.hub.store.engine  # type: ignore[attr-defined]
        deliver_racing(engine, notify.SUBSCRIBER, limit=2)
        with engine.connect() as conn:
            rows = conn.execute(sa.select(notifications).order_by(notifications.c.id)).all()
    # The seat taken (alice's challenge), one line for each player's turns (the newest: alice's after C7, unread;
    # bob's after G7, read by his C7), and the chat counted once a message: an event applied twice would count 4 or
    # more.
    assert [(r.kind, r.read) for r in rows] == [("challenge-accepted", False), ("your-turn", True),
                                                 ("your-turn", False), ("chat", False)]
    assert rows[-1].data["count"] == 3 and rows[-1].data["text"] == "one \u00b7 two \u00b7 three"


# A day before a correspondence game's marking stands by default, each player who has not accepted it is told (bell
# and email), once for each deadline; the game page's state carries the deadline (``scoring_deadline``).
def to_count(alice: Browser, bob: Browser, gid: str) -> None:
    play(alice, gid, "D4")
    bob.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "pass"})
    alice.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "pass"})


def reminders(b: Browser) -> list[dict]:  # type: ignore[type-arg]
    return [n for n in b.req("GET", "/api/me/notifications", 200).json()["notifications"]  # type: ignore[no-any-return]
            if n["kind"] == "count-deadline"]


def test_the_player_who_has_not_accepted_is_reminded_a_day_before(
        client: TestClient, inbox: Inbox, moved: MovedTime, players: tuple[Browser, Browser]) -> None:
    alice, bob = players
    for b in players:
        b.req("PATCH", "/api/me", 200, json={"notify": {"your-turn": "off", "challenge-accepted": "off"}})
    gid = corr_game(alice, bob)
    to_count(alice, bob, gid)
    state = alice.req("GET", f"/api/games/{gid}", 200).json()
    assert state["phase"] == "scoring" and abs(state["scoring_deadline"] - (moved.time() + 3 * D)) < 30
    alice.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "accept"})  # alice accepts; bob does not
    deadline = alice.req("GET", f"/api/games/{gid}", 200).json()["scoring_deadline"]
    moved.move(2 * D - H)  # a day and an hour before
    deliver(client)
    send_mail(client)
    assert reminders(bob) == [] and inbox.messages == []
    moved.move(2 * H)
    wait_for(lambda: send_mail(client) > 0, timeout=20)  # the scheduler's remind job ran, the email went
    [mail] = inbox.messages
    assert mail["To"] == "bob@example.org" and gid in body(mail)
    # alice has accepted: bob is told that his answer is the one awaited.
    assert re.fullmatch(r"alice a accepté le marquage de votre décompte\u00a0: il sera retenu dans 2[23] h( \d+ min)? "
                        r"sans réponse de votre part", mail["Subject"]), mail["Subject"]
    [line] = reminders(bob)
    assert line["game"] == gid and not line["read"]
    assert reminders(alice) == []  # she accepted
    moved.move(2 * H)
    send_mail(client)
    assert len(inbox.messages) == 1 and len(reminders(bob)) == 1  # once for this deadline
    bob.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "accept"})
    deliver(client)
    assert alice.req("GET", f"/api/games/{gid}", 200).json()["phase"] == "finished"
    assert [n["read"] for n in reminders(bob)] == [True]  # the end of the game answered it
    assert deadline > moved.time()
