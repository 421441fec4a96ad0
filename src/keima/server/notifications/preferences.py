"""A player's email address, language and notification choices, as ``PATCH /api/me`` changes them: a new address is
queued a link to confirm it (``keima.server.notifications.mailer`` sends it), and receives nothing until it is opened;
``POST /api/me/email/verify`` sends the link again (``resend_verification``), within the same daily limits."""

from __future__ import annotations

import asyncio
import hashlib
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from fastapi import Request
from sqlalchemy.engine import Connection

from keima.server import timesource
from keima.server.accounts import upsert
from keima.server.errors import Refused
from keima.server.notifications import notify
from keima.server.storage import emails, player_settings

#: Confirmation links sent in 24 hours, at most: to one address (whoever asks), and for one account.
VERIFY_PER_ADDRESS = 3
VERIFY_PER_PLAYER = 3


async def _run(fn: Any, *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


def settings_row(engine: Any, player_id: str) -> Any:
    """The player's settings row (None: the defaults). Blocking."""
    with engine.connect() as conn:
        return conn.execute(sa.select(player_settings).where(player_settings.c.player_id == player_id)).first()


def lang_of(request: Request, row: Any) -> str:
    """The player's language: the one they chose, else their browser's first (French or English)."""
    if row is not None and row.lang:
        return str(row.lang)
    accept = request.headers.get("accept-language", "")
    return "fr" if accept[:2].lower() == "fr" else "en"



async def update_settings(request: Request, player_id: str, fields: dict[str, Any]) -> None:
    """``PATCH /api/me``'s ``email``, ``lang`` and ``notify``: a new address is unverified until its link is
    opened (the link is sent to it at once)."""
    values: dict[str, Any] = {}
    engine = request.app.state.hub.store.engine
    row = await _run(settings_row, engine, player_id)
    if "lang" in fields:
        values["lang"] = fields["lang"]
    if "notify" in fields:
        values["notify"] = notify.prefs_of({**((row.notify if row is not None else None) or {}), **fields["notify"]})
    new_email = None
    if "email" in fields:
        address = fields["email"] or None
        if address != (row.email if row is not None else None):
            # A new address: unverified, and no longer known to bounce.
            values["email"], values["email_verified"], values["email_bounced_at"] = address, False, None
            new_email = address
    if not values:
        return
    change = upsert(player_id, **values)
    if not new_email:
        await request.app.state.hub.store.write(change)
        return
    lang = values.get("lang") or lang_of(request, row)
    payload = {"to": new_email, "lang": lang, "player": player_id, "verify": True, "items": []}
    key = verification_key(player_id, new_email)

    def op(conn: Connection) -> None:
        # Checked and queued in the transaction of the change: nothing is changed when the link is refused.
        now = timesource.now_utc()
        check_verifications(conn, player_id, new_email, now)
        change(conn)
        notify.queue_email(conn, key, player_id, payload, now)

    await request.app.state.hub.store.write(op)


async def resend_verification(request: Request, player_id: str) -> None:
    """Queue a new confirmation link for ``player_id``'s address, in their language. Raises ``Refused`` 409
    ``no-email`` (no address), ``email-verified`` (confirmed already), ``email-bounced`` (mail to it bounces: a
    link would too), 429 ``too-many-requests`` past the day's links to the address or asked by the account
    (``check_verifications``: the links sent when it was given count)."""
    row = await _run(settings_row, request.app.state.hub.store.engine, player_id)
    address = None if row is None else row.email
    if not address:
        raise Refused("no-email", "there is no address to confirm: give one first", field="email")
    if row.email_verified:
        raise Refused("email-verified", "this address is confirmed already", field="email")
    if row.email_bounced_at is not None:
        raise Refused("email-bounced", "mail to this address bounces: give another one", field="email")
    payload = {"to": address, "lang": lang_of(request, row), "player": player_id, "verify": True, "items": []}
    key = verification_key(player_id, address)

    def op(conn: Connection) -> None:
        now = timesource.now_utc()
        check_verifications(conn, player_id, address, now)
        # A key of its own (the first link's is taken), under the first's prefix: it counts as a link to the
        # address and asked by the account.
        sent = conn.execute(sa.select(sa.func.count()).where(
            sa.or_(emails.c.message_id == key, emails.c.message_id.like(f"{key}.%")))).scalar() or 0
        notify.queue_email(conn, f"{key}.{sent}", player_id, payload, now)

    await request.app.state.hub.store.write(op)


def _address_hash(address: str) -> str:
    return hashlib.sha256(address.strip().lower().encode()).hexdigest()[:16]


def verification_key(player_id: str, address: str) -> str:
    """The queue's key of the link sent to ``address`` for ``player_id``: the address's hash first, so that the
    links sent to one address are counted whoever asked for them."""
    return f"verify.{_address_hash(address)}." + hashlib.sha256(f"{player_id}|{address}".encode()).hexdigest()[:16]


def check_verifications(conn: Connection, player_id: str, address: str, now: datetime) -> None:
    """Raise ``Refused`` ``too-many-requests`` (429) when ``address`` was sent ``VERIFY_PER_ADDRESS`` links in the
    last 24 hours, or ``player_id`` asked for ``VERIFY_PER_PLAYER``: accounts made for the purpose could otherwise
    send a stranger's address a link each."""
    e = emails.c
    since = now - timedelta(days=1)
    recent = sa.and_(e.created_at > since, e.message_id.like("verify.%"))
    to_address = conn.execute(sa.select(sa.func.count()).where(
        recent, e.message_id.like(f"verify.{_address_hash(address)}.%"))).scalar() or 0
    if to_address >= VERIFY_PER_ADDRESS:
        raise Refused("too-many-requests", "this address was sent as many confirmation links as a day allows: "
                      "try again tomorrow", field="email")
    by_player = conn.execute(sa.select(sa.func.count()).where(recent, e.player_id == player_id)).scalar() or 0
    if by_player >= VERIFY_PER_PLAYER:
        raise Refused("too-many-requests", "you asked for as many confirmation links as a day allows: try again "
                      "tomorrow", field="email")
