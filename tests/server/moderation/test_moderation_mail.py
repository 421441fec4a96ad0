"""The player is told of a moderator's action by email too (issue 47 item 3), in their language, whatever their
email choices."""

from __future__ import annotations

from email.header import decode_header, make_header
from pathlib import Path

from fastapi.testclient import TestClient

from keima.cli import main

from ..accounts.test_players import Browser, registered
from ..notifications.test_notifications import Inbox, body, client, inbox, moved, send_mail, verified

__all__ = ["client", "inbox", "moved"]  # the fixtures, used by name


def test_a_warning_goes_by_email_in_the_players_language(client: TestClient, inbox: Inbox, tmp_path: Path) -> None:
    mod, bob = Browser(client), Browser(client)
    registered(mod, "marie")
    registered(bob, "bobby")
    verified(client, bob, inbox, "bob@example.test", "fr")
    url = str(client.app.state.hub.store.engine.url)  # type: ignore[attr-defined]
    assert main(["admin", "moderator", "add", "marie", "--db", url]) == 0
    mod.req("POST", "/api/moderation/actions", 200, json={"action": "warn", "name": "bobby",
                                                            "reason": "surveillez votre langage"})
    send_mail(client)
    [msg] = inbox.to("bob@example.test")
    subject = str(make_header(decode_header(msg["Subject"])))
    assert subject == "Un modérateur vous a averti\u00a0: surveillez votre langage"
    assert "surveillez votre langage" in body(msg)
