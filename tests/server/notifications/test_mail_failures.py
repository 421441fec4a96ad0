"""Emails that fail, as an audit found them (issue 49): a message that cannot be built no longer stops the queue, a
chat message's line break no longer breaks a subject, an address that bounces (550) is marked and never tried again,
an SMTP server out of reach is said once a minute, not once a message, the operator sees the queue
(``GET /api/stats/email``), and a stranger's address gets a bounded number of confirmation links."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from keima.server import create_app, timesource
from keima.server.notifications import notify
from keima.server.storage import emails

from ..accounts.test_players import Browser, registered
from .test_notifications import Inbox, free_port, send_mail, serving


class Refusing(Inbox):
    """An SMTP server that refuses every address starting with ``bounce`` (550) and keeps the rest."""

    async def handle_RCPT(self, _server: Any, _session: Any, envelope: Any, address: str, _options: Any) -> str:
        if address.startswith("bounce"):
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"


@pytest.fixture
def server() -> Iterator[Refusing]:
    with serving(Refusing(free_port())) as box:
        yield box


@contextlib.contextmanager
def app_client(sqlite_url: str, port: int) -> Iterator[TestClient]:
    """The application with its mailer's own loop stopped: the test runs the mailer (``send_mail``), so that the
    loop never claims a message the test queued."""
    app = create_app(sqlite_url, smtp_url=f"smtp://127.0.0.1:{port}?from=keima@keima.test",
                     public_url="http://keima.test")
    with TestClient(app) as c:
        c.portal.call(c.app.state.mailer.close)  # type: ignore[union-attr,attr-defined]
        yield c


def queue(c: TestClient, key: str, player: str, payload: dict[str, Any]) -> None:
    engine = c.app.state.hub.store.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        notify.queue_email(conn, key, player, payload, timesource.now_utc())


def rows(c: TestClient) -> dict[str, Any]:
    engine = c.app.state.hub.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return {r.message_id: r for r in conn.execute(sa.select(emails))}


def chat_item(text: str) -> dict[str, Any]:
    return {"kind": "chat", "game": "g1", "data": {"opponent": "bob", "text": text}}


def test_a_message_that_cannot_be_built_fails_alone_and_a_line_break_never_reaches_a_subject(
        server: Refusing, sqlite_url: str) -> None:
    with app_client(sqlite_url, server.port) as c:
        queue(c, "a.broken", "p1", {"lang": "en", "player": "p1", "items": []})  # no address: it cannot be built
        queue(c, "b.chat", "p2", {"to": "bob@example.org", "lang": "en", "player": "p2",
                                  "items": [chat_item("first line\nSubject: forged\u2028third")]})
        queue(c, "c.turn", "p3", {"to": "carol@example.org", "lang": "en", "player": "p3",
                                  "items": [{"kind": "your-turn", "game": "g2", "data": {"opponent": "dan"}}]})
        assert send_mail(c) == 2
        sent = {m["To"]: m for m in server.messages}
        assert set(sent) == {"bob@example.org", "carol@example.org"}
        subject = sent["bob@example.org"]["Subject"]
        assert "\n" not in subject and "\r" not in subject and "Subject:" not in str(sent["bob@example.org"].keys())
        r = rows(c)
        assert r["a.broken"].sent_at is None and r["a.broken"].error.startswith("cannot be built")
        assert send_mail(c) == 0  # the failed one is never tried again
        stats = c.get("/api/stats/email").json()
        assert (stats["waiting"], stats["failed"]) == (0, 1) and stats["last_failure"].startswith("cannot be built")


def test_an_address_that_bounces_is_marked_and_never_tried_again(server: Refusing, sqlite_url: str) -> None:
    with app_client(sqlite_url, server.port) as c:
        b = Browser(c)
        me = registered(b, "alice")
        b.req("PATCH", "/api/me", 200, json={"email": "bounce@example.org"})
        queue(c, "turn.1", me["id"], {"to": "bounce@example.org", "lang": "en", "player": me["id"],
                                      "items": [{"kind": "your-turn", "game": "g", "data": {"opponent": "x"}}]})
        assert send_mail(c) == 0
        r = rows(c)
        assert all(x.error == "the address bounced" or x.error.startswith("the address bounced") for x in r.values())
        assert all(x.tries == 12 for x in r.values())
        assert b.req("GET", "/api/me", 200).json()["email_bounced"] is True
        assert c.get("/api/stats/email").json()["bouncing"] == 1
        # A new address is no longer known to bounce.
        b.req("PATCH", "/api/me", 200, json={"email": "alice@example.org"})
        assert b.req("GET", "/api/me", 200).json()["email_bounced"] is False
        assert send_mail(c) == 1 and server.messages[-1]["To"] == "alice@example.org"


def test_an_smtp_server_out_of_reach_is_said_once_a_minute(sqlite_url: str, caplog: pytest.LogCaptureFixture) -> None:
    with app_client(sqlite_url, free_port()) as c, caplog.at_level(logging.WARNING, logger="keima.server"):
        for i in range(5):
            queue(c, f"m{i}", f"p{i}", {"to": f"p{i}@example.org", "lang": "en", "player": f"p{i}",
                                        "items": [chat_item("hello")]})
        assert send_mail(c) == 0
        said = [rec.getMessage() for rec in caplog.records if "emails:" in rec.getMessage()]
        assert len(said) == 1 and "SMTP server" in said[0], said
        assert all(x.tries == 1 and x.error is None for x in rows(c).values())  # tried again later
        assert c.get("/api/stats/email").json()["waiting"] == 5


def test_a_strangers_address_gets_a_bounded_number_of_confirmation_links(server: Refusing,
                                                                         sqlite_url: str) -> None:
    with app_client(sqlite_url, server.port) as c:
        for i in range(3):
            b = Browser(c)
            registered(b, f"sender{i}")
            b.req("PATCH", "/api/me", 200, json={"email": "victim@example.org"})
        late = Browser(c)
        registered(late, "sender3")
        r = late.req("PATCH", "/api/me", 429, json={"email": "Victim@example.org"})
        assert r.json()["error"]["code"] == "too-many-requests" and r.json()["error"]["field"] == "email"
        assert late.req("GET", "/api/me", 200).json()["email"] is None  # nothing was changed
        # One account asking for links to many addresses is bounded too.
        one = Browser(c)
        registered(one, "collector")
        for i in range(3):
            one.req("PATCH", "/api/me", 200, json={"email": f"a{i}@example.org"})
        assert one.req("PATCH", "/api/me", 429, json={"email": "a3@example.org"}).json()["error"]["code"] \
            == "too-many-requests"
        assert send_mail(c) == 6


def test_notification_ids_out_of_range_are_refused(fast_client: TestClient) -> None:
    b = Browser(fast_client)
    registered(b, "alice")
    for ids in ([-1, 2], [2**70], [0]):
        r = b.req("POST", "/api/me/notifications/read", 422, json={"ids": ids})
        assert r.json()["error"]["code"] == "invalid-request"
    assert b.req("POST", "/api/me/notifications/read", 200, json={"ids": [1, 2**63 - 1]}).json() == {"read": 0}
