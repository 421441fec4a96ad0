"""Sending the queued emails (``keima.server.notifications.notify`` queues them) through SMTP, with retries, never in the way
of a move.

The SMTP server is given as a URL (``keima serve --smtp URL`` or ``KEIMA_SMTP_URL``, so that a password stays out
of the command line): ``smtp://user:password@host:587?from=keima@example.org`` (STARTTLS when the server offers
it), ``smtps://...`` (TLS from the start, port 465 by default), ``smtp://host:25`` without a login. Without one,
nothing is sent: the bell alone tells the players (said once at start).

Every process sends: each poll claims the due messages with one conditional update each (another process's claim
lapses after ``CLAIM_S``), sends them with smtplib in a thread, and marks them sent. A process killed between the
sending and the marking sends that message again: delivery is at least once, and the receiving side drops a
duplicate by its ``Message-ID``, which is the queue's key (the event, the player).
"""

from __future__ import annotations

import asyncio
import json
import logging
import smtplib
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from keima.server import timesource
from keima.server.housekeeping import Background, Warnings
from keima.server.notifications import notify
from keima.server.notifications.letters import Letter, read_game
from keima.server.storage import emails, player_settings

log = logging.getLogger("keima.server")

CLAIM_S = 120.0
MAX_TRIES = 12


@dataclass(frozen=True)
class Smtp:
    """Where and how to send: ``host``, ``port``, ``tls`` (from the start), ``user``/``password`` (None: no
    login), ``sender`` (the From address)."""

    host: str
    port: int
    tls: bool = False
    user: str | None = None
    password: str | None = None
    sender: str = "keima@localhost"

    @classmethod
    def parse(cls, url: str) -> Smtp:
        """Read an SMTP URL (see the module docstring); raises ``ValueError`` for one that is not."""
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError(f"not an SMTP URL (smtp://[user:password@]host[:port][?from=address]): {url[:40]!r}")
        tls = parts.scheme == "smtps"
        sender = parse_qs(parts.query).get("from", [f"keima@{parts.hostname}"])[0]
        return cls(parts.hostname, parts.port or (465 if tls else 25), tls,
                   unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None, sender)

    def send(self, msg: EmailMessage) -> None:
        """Send ``msg``; raises ``OSError``/``smtplib.SMTPException`` when it could not. Blocking."""
        if self.tls:
            with smtplib.SMTP_SSL(self.host, self.port, context=ssl.create_default_context(), timeout=30) as s:
                self._deliver(s, msg)
            return
        with smtplib.SMTP(self.host, self.port, timeout=30) as s:
            s.ehlo()
            if s.has_extn("starttls"):
                s.starttls(context=ssl.create_default_context())
                s.ehlo()
            self._deliver(s, msg)

    def _deliver(self, s: smtplib.SMTP, msg: EmailMessage) -> None:
        if self.user:
            s.login(self.user, self.password or "")
        s.send_message(msg)


class Mailer:
    """Sends the queue (see the module docstring). ``smtp`` None: nothing is sent (the queue stays).
    ``public_url``: the server's address as the players reach it, for the links; ``sign(purpose, text)``: the
    server's signature, for the unsubscribe links."""

    def __init__(self, engine: Engine, smtp: Smtp | None, public_url: str, sign: Callable[[str, str], str], *,
                 poll_s: float = 5.0) -> None:
        self.engine = engine
        self.smtp = smtp
        self.public_url = public_url.rstrip("/")
        self.sign = sign
        self.poll_s = poll_s
        self.sent = 0
        self.last_failure: str | None = None
        self.last_failure_at: datetime | None = None
        self._warnings = Warnings(60.0, log)
        self._loop = Background(self._run)

    def start(self) -> None:
        """Start sending (from the event loop); says once when no SMTP server is set."""
        if self.smtp is None:
            log.warning("keima: no SMTP server (--smtp / KEIMA_SMTP_URL): notifications go to the bell only")
            return
        log.info("keima: emails through %s:%d", self.smtp.host, self.smtp.port)
        self._loop.start()

    async def close(self) -> None:
        """Stop sending."""
        await self._loop.close()

    def unsubscribe_url(self, player_id: str) -> str:
        """The link that stops every email to ``player_id``."""
        return f"{self.public_url}/api/unsubscribe?p={quote(player_id)}&t={self.sign('unsubscribe', player_id)}"

    def message(self, message_id: str, payload: dict[str, Any]) -> EmailMessage:
        """The email of a queued ``payload``, in its player's language, with its unsubscribe link and headers and
        the pictures of its games (``keima.server.notifications.letters``). Blocking: it reads the games."""
        def game(game_id: str, player_id: str) -> Any:
            return None if self.engine is None else read_game(self.engine, game_id, player_id)

        letter = Letter(self.public_url, self.smtp.sender if self.smtp else "keima@localhost", self.unsubscribe_url,
                        self.verify_url, game)
        return letter.message(message_id, payload)

    def verify_url(self, player_id: str, address: str) -> str:
        """The link that confirms ``address`` as ``player_id``'s."""
        sig = self.sign("verify", f"{player_id}|{address}")
        return f"{self.public_url}/api/verify?p={quote(player_id)}&e={quote(address)}&t={sig}"

    async def run_once(self) -> int:
        """Queue the digests whose hour has come and send every due message this process can claim; returns how
        many were sent."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, notify.queue_digests, self.engine)
        if self.smtp is None:
            return 0
        due = await loop.run_in_executor(None, _claim_due, self.engine, 50)
        sent = 0
        for message_id, payload, tries in due:
            try:
                msg = await loop.run_in_executor(None, self.message, message_id, payload)
            except sa.exc.DBAPIError as exc:  # the database, not the message: tried again later
                await self._retry(message_id, tries, f"database: {type(exc).__name__}")
                continue
            except Exception as exc:
                # A message that cannot be built never will be: it fails alone, with its reason, and the others
                # of the batch go on (it once aborted every batch it was claimed with).
                await self._fail(message_id, f"cannot be built: {type(exc).__name__}: {exc}")
                continue
            try:
                await loop.run_in_executor(None, self.smtp.send, msg)
            except smtplib.SMTPRecipientsRefused as exc:
                codes = [code for code, _text in exc.recipients.values()]
                if codes and all(code >= 500 for code in codes):
                    # The address bounces: no retry; the player is told on their page (``GET /api/me``).
                    await self._fail(message_id, f"the address bounced ({codes[0]})", payload)
                else:
                    await self._retry(message_id, tries, f"recipient refused for now ({codes})")
                continue
            except smtplib.SMTPDataError as exc:
                if exc.smtp_code >= 500:
                    await self._fail(message_id, f"the message was refused ({exc.smtp_code})")
                else:
                    await self._retry(message_id, tries, f"message refused for now ({exc.smtp_code})")
                continue
            except (OSError, smtplib.SMTPException) as exc:
                await self._retry(message_id, tries, f"SMTP server: {type(exc).__name__}")
                continue
            await loop.run_in_executor(None, _sent, self.engine, message_id)
            sent += 1
        self.sent += sent
        return sent

    async def _retry(self, message_id: str, tries: int, reason: str) -> None:
        self.last_failure, self.last_failure_at = reason, timesource.now_utc()
        self._warnings.warn("retry", f"emails: {reason}: tried again later")
        await asyncio.get_running_loop().run_in_executor(None, _retry, self.engine, message_id, tries + 1)

    async def _fail(self, message_id: str, reason: str, bounced: dict[str, Any] | None = None) -> None:
        self.last_failure, self.last_failure_at = reason, timesource.now_utc()
        self._warnings.warn("fail", f"emails: {reason}: not sent, not tried again")
        await asyncio.get_running_loop().run_in_executor(None, _fail, self.engine, message_id, reason[:300], bounced)

    def status(self) -> dict[str, Any]:
        """This process's figures: emails sent, the last failure and when (None: none since the start)."""
        at = self.last_failure_at
        return {"sent": self.sent, "smtp": self.smtp is not None, "last_failure": self.last_failure,
                "last_failure_at": None if at is None else at.isoformat()}

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is away: the next poll tries again
                log.warning("mailer: %s", type(exc).__name__)
            await asyncio.sleep(self.poll_s)


def _claim_due(engine: Engine, limit: int) -> list[tuple[str, dict[str, Any], int]]:
    now = timesource.now_utc()
    e = emails.c
    out = []
    with engine.connect() as conn:
        rows = conn.execute(sa.select(e.message_id, e.message, e.due_at, e.tries)
                            .where(e.sent_at.is_(None), e.due_at <= now, e.tries < MAX_TRIES)
                            .order_by(e.due_at).limit(limit)).all()
    for r in rows:
        with engine.begin() as conn:
            claimed = conn.execute(emails.update().where(e.message_id == r.message_id, e.due_at == r.due_at,
                                                         e.sent_at.is_(None))
                                   .values(due_at=now + timedelta(seconds=CLAIM_S))).rowcount
        if claimed:
            out.append((r.message_id, json.loads(r.message), r.tries))
    return out


def _retry(engine: Engine, message_id: str, tries: int) -> None:
    # 30 s, 1 min, 2 min ... at most an hour between tries.
    wait = min(3600.0, 30.0 * 2 ** (tries - 1))
    with engine.begin() as conn:
        conn.execute(emails.update().where(emails.c.message_id == message_id)
                     .values(tries=tries, due_at=timesource.now_utc() + timedelta(seconds=wait)))


def _fail(engine: Engine, message_id: str, reason: str, bounced: dict[str, Any] | None) -> None:
    # Failed for good: never claimed again (``tries`` at the most), with its reason. A bounce marks the player's
    # address, and fails what else is queued to it.
    now = timesource.now_utc()
    e = emails.c
    with engine.begin() as conn:
        conn.execute(emails.update().where(e.message_id == message_id).values(tries=MAX_TRIES, error=reason))
        if bounced is not None:
            conn.execute(player_settings.update().where(player_settings.c.player_id == bounced["player"],
                                                        player_settings.c.email == bounced["to"])
                         .values(email_bounced_at=now))
            conn.execute(emails.update().where(e.player_id == bounced["player"], e.sent_at.is_(None),
                                               e.tries < MAX_TRIES)
                         .values(tries=MAX_TRIES, error="the address bounced"))


def queue_figures(engine: Engine) -> dict[str, int]:
    """How many emails wait to be sent, how many failed for good, how many players' addresses bounce. Blocking."""
    e = emails.c
    with engine.connect() as conn:
        waiting = conn.execute(sa.select(sa.func.count()).where(e.sent_at.is_(None), e.tries < MAX_TRIES)).scalar()
        failed = conn.execute(sa.select(sa.func.count()).where(e.sent_at.is_(None), e.tries >= MAX_TRIES)).scalar()
        bouncing = conn.execute(sa.select(sa.func.count()).select_from(player_settings)
                                .where(player_settings.c.email_bounced_at.is_not(None))).scalar()
    return {"waiting": int(waiting or 0), "failed": int(failed or 0), "bouncing": int(bouncing or 0)}


def _sent(engine: Engine, message_id: str) -> None:
    with engine.begin() as conn:
        conn.execute(emails.update().where(emails.c.message_id == message_id).values(sent_at=timesource.now_utc()))
