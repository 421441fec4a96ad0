"""The link that confirms an address can be asked for again (issue 43, item 7: a lost or stale one could not be),
within the day's limits of the links sent when an address is given."""

from __future__ import annotations

from email.message import EmailMessage

from ..accounts.test_players import Browser, registered
from .test_mail_failures import app_client
from .test_notifications import Inbox, free_port, send_mail, serving


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    content: str = part.get_content()
    return content


def test_the_confirmation_link_is_sent_again_within_the_days_limits(sqlite_url: str) -> None:
    with serving(Inbox(free_port())) as box, app_client(sqlite_url, box.port) as c:
        assert Browser(c).req("POST", "/api/me/email/verify", 401).json()["error"]["code"] == "not-logged-in"
        guest = Browser(c)
        guest.me()  # a guest has no address
        assert guest.req("POST", "/api/me/email/verify", 409).json()["error"]["code"] == "no-email"
        b = Browser(c)
        registered(b, "alice")
        r = b.req("POST", "/api/me/email/verify", 409).json()["error"]
        assert (r["code"], r["field"]) == ("no-email", "email")
        b.req("PATCH", "/api/me", 200, json={"email": "alice@example.org", "lang": "fr"})
        b.req("POST", "/api/me/email/verify", 204)
        b.req("POST", "/api/me/email/verify", 204)
        # The link sent when the address was given counts: three a day.
        assert b.req("POST", "/api/me/email/verify", 429).json()["error"]["code"] == "too-many-requests"
        assert send_mail(c) == 3
        links = box.to("alice@example.org")
        assert [m["Subject"] for m in links] == ["Confirmez votre adresse pour keima"] * 3
        assert len({m["Message-ID"] for m in links}) == 3
        assert isinstance(links[-1], EmailMessage)
        verified_link = text_of(links[-1]).split("http://keima.test", 1)[1].split()[0]
        b.req("GET", verified_link, 200)
        assert b.req("GET", "/api/me", 200).json()["email_verified"] is True
        assert b.req("POST", "/api/me/email/verify", 409).json()["error"]["code"] == "email-verified"
        # From another site: refused before anything.
        r = c.post("/api/me/email/verify", headers={"Origin": "http://evil.example"})
        assert r.status_code == 403
