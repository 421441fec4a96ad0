"""``keima worker --smtp``: a worker sends the notifications' email queue, so that a cluster's web processes need
no SMTP server of their own (docs/deploy.md). A real SMTP server (aiosmtpd) receives what it sends."""

from __future__ import annotations

import email
import email.policy
import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import Message
from typing import Any

import pytest
from tests.cluster.conftest import Cluster

from keima.server.storage.store import make_engine
from keima.server.storage.tables import emails

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


class Inbox:
    """aiosmtpd's handler: keeps every message received."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 OK"


@pytest.fixture()
def inbox() -> Iterator[tuple[Inbox, int]]:
    from aiosmtpd.controller import Controller
    from tests.cluster.conftest import free_port

    box, port = Inbox(), free_port()
    ctl = Controller(box, hostname="127.0.0.1", port=port)
    ctl.start()
    try:
        yield box, port
    finally:
        ctl.stop()


def test_a_worker_with_smtp_sends_the_queued_emails(pg_url: str, redis_url: str, inbox: tuple[Inbox, int],
                                                    tmp_path_factory: pytest.TempPathFactory) -> None:
    box, port = inbox
    c = Cluster(pg_url, redis_url, tmp_path_factory.mktemp("worker-mail"))
    try:
        c.wait_web(c.start_web())  # no --smtp: the web process sends nothing
        worker = c.start_worker("--smtp", f"smtp://127.0.0.1:{port}?from=keima@keima.test",
                                "--public-url", "http://keima.test")
        c.wait_workers(1)
        assert "sending the notifications' emails" in worker.text()
        engine = make_engine(pg_url)
        message_id = f"worker-mail-{time.time_ns()}"
        payload = {"to": "ada@example.org", "lang": "fr", "player": "p-worker-mail",
                   "items": [{"kind": "your-turn", "game": "g-worker-mail", "data": {"opponent": "bob"}}]}
        with engine.begin() as conn:
            conn.execute(emails.insert().values(message_id=message_id, player_id="p-worker-mail",
                                                message=json.dumps(payload), due_at=datetime.now(UTC), tries=0))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(m["To"] == "ada@example.org" for m in box.messages):
            time.sleep(0.2)
        [sent] = [m for m in box.messages if m["To"] == "ada@example.org"]
        assert sent["Message-ID"].startswith(f"<{message_id}@")  # the queue's key: one message per key
        assert "http://keima.test/api/unsubscribe?p=p-worker-mail" in sent["List-Unsubscribe"]
        # The worker marks the message sent once the SMTP server has answered: a moment after the message arrived.
        sent_at = None
        while time.monotonic() < deadline and sent_at is None:
            with engine.connect() as conn:
                sent_at = conn.execute(emails.select().where(emails.c.message_id == message_id)).one().sent_at
            time.sleep(0.1)
        assert sent_at is not None
        engine.dispose()
    finally:
        c.stop()
