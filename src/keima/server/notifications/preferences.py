"""A player's email address, language and notification choices, as ``PATCH /api/me`` changes them: a new address is
queued a link to confirm it (``keima.server.notifications.mailer`` sends it), and receives nothing until it is opened."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

import sqlalchemy as sa
from fastapi import Request
from sqlalchemy.engine import Connection

from keima.server import timesource
from keima.server.accounts import upsert
from keima.server.notifications import notify
from keima.server.storage import player_settings


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
            values["email"], values["email_verified"] = address, False
            new_email = address
    if values:
        await request.app.state.hub.store.write(upsert(player_id, **values))
    if new_email:
        lang = values.get("lang") or lang_of(request, row)
        payload = {"to": new_email, "lang": lang, "player": player_id, "verify": True, "items": []}
        key = "verify." + hashlib.sha256(f"{player_id}|{new_email}".encode()).hexdigest()[:24]

        def op(conn: Connection) -> None:
            notify.queue_email(conn, key, player_id, payload, timesource.now_utc())

        await request.app.state.hub.store.write(op)
