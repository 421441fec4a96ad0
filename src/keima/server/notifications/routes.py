"""Endpoints of notifications (docs/web-api.md, *Notifications*): the bell's list and marking it read, a page
saying the player is here, the email address and its verification, what to be told and how, unsubscribing.

The notifications themselves are made by ``keima.server.notifications.notify``, the emails sent by ``keima.server.notifications.mailer``.
"""

from __future__ import annotations

import asyncio
import hmac
import json
from html import escape
from typing import Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import HTMLResponse
from sqlalchemy.engine import Connection

from keima.server import timesource
from keima.server.accounts import players_of, required_player, upsert
from keima.server.edge import same_origin as _same_origin
from keima.server.errors import ErrorBody, Refused
from keima.server.games import line_at
from keima.server.notifications import mail_words, notify, preferences
from keima.server.notifications.mailer import Mailer, queue_figures
from keima.server.notifications.preferences import lang_of, settings_row
from keima.server.notifications.schemas import NotificationOut, NotificationsOut, ReadIn
from keima.server.storage import player_settings

router = APIRouter()
_errors: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody} for code in (400, 401, 403, 422)}


def mailer_of(request: Request) -> Mailer:
    m: Mailer = request.app.state.mailer
    return m


async def _run(fn: Any, *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


@router.get("/api/me/notifications", responses={200: {"model": NotificationsOut}, **_errors})
async def list_notifications(request: Request, unread: bool | None = Query(default=None)) -> Response:
    """The caller's notifications, newest first (``unread=true``: only those not read yet)."""
    player = await required_player(request)
    engine = request.app.state.hub.store.engine
    rows = await _run(notify.listing, engine, player.id, unread)
    lang = lang_of(request, await _run(settings_row, engine, player.id))
    now = timesource.now()
    out = NotificationsOut(notifications=[
        NotificationOut(id=r["id"], kind=r["kind"], game=r["game"], text=mail_words.subject(r, lang), at=r["at"],
                        read=r["read"], tournament=(r["data"] or {}).get("tournament"),
                        club=(r["data"] or {}).get("club"),
                        opponent=_name((r["data"] or {}).get("opponent")),
                        size=r["size"] if isinstance(r["size"], int) else None,
                        color=r["color"] if r["color"] in ("B", "W") else None,
                        count=max(1, int((r["data"] or {}).get("count", 1))), **_game_now(r, now))
        for r in rows])
    return Response(out.model_dump_json(), media_type="application/json")


def _game_now(r: dict[str, Any], now: float) -> dict[str, Any]:
    """The game of a notification as it is now: its number of ``moves``, and the reader's time ``left`` while
    their clock runs (what tells two games against one opponent apart)."""
    line = r.get("line")
    if not isinstance(line, dict):
        return {}
    line = line_at(line, now)
    color, left = r.get("color"), line.get("time_left") or {}
    running = line.get("running") == color and line.get("phase") in ("play", "handicap")
    return {"moves": line.get("moves") if isinstance(line.get("moves"), int) else None,
            "left": float(left[color]) if running and isinstance(left.get(color), (int, float)) else None}


def _name(value: Any) -> str | None:
    return value if isinstance(value, str) else None


@router.post("/api/me/notifications/read", responses={200: {"model": dict[str, int]}, **_errors})
async def read_notifications(body: ReadIn, request: Request) -> Response:
    """Mark notifications read: ``{"ids": [...]}``, ``{"all": true}`` or ``{"game": id}`` (all of that game's: its
    page was opened); answers ``{"read": n}``."""
    _same_origin(request)
    player = await required_player(request)
    if sum((body.all, body.ids is not None, body.game is not None)) != 1:
        raise Refused("invalid-request", "give the notifications' ids, or all: true, or a game (one of the three)",
                      field="ids")
    n = await _run(notify.mark_read, request.app.state.hub.store.engine, player.id,
                   None if body.all else body.ids, body.game)
    return Response(f'{{"read":{n}}}', media_type="application/json")


@router.post("/api/me/seen", status_code=204, responses=_errors)
async def seen(request: Request) -> Response:
    """A keima page of the caller is visible now: no email for the next 5 minutes (the player is here)."""
    _same_origin(request)
    player = await required_player(request)
    await request.app.state.hub.store.write(upsert(player.id, seen_at=timesource.now_utc()))
    return Response(status_code=204)


@router.post("/api/me/email/verify", status_code=204,
             responses={409: {"model": ErrorBody}, 429: {"model": ErrorBody}, **_errors})
async def resend_verification(request: Request) -> Response:
    """Send the link that confirms the caller's address again (the first may be lost, or out of date): 204;
    409 ``no-email``, ``email-verified``, ``email-bounced``; 429 past the day's links (docs/web-api.md)."""
    _same_origin(request)
    player = await required_player(request)
    await preferences.resend_verification(request, player.id)
    return Response(status_code=204)


def _check(request: Request, purpose: str, text: str, sig: str) -> None:
    if not hmac.compare_digest(sig.encode(), players_of(request).sign(purpose, text).encode()):
        raise Refused("bad-request", "this link is not valid (or was cut short)")


def _page(title: str, body: str) -> HTMLResponse:
    return HTMLResponse(f"<!doctype html><html><head><meta charset=utf-8><meta name=viewport "
                        f"content='width=device-width'><title>{escape(title)}</title></head>"
                        f"<body><h1>{escape(title)}</h1>{body}<p><a href='/'>keima: back to the games / retour aux "
                        "parties</a></p></body></html>")


@router.get("/api/stats/email")
async def email_stats(request: Request) -> Response:
    """The email queue, for an operator: ``waiting`` (to send), ``failed`` (for good), ``bouncing`` (players whose
    address bounced), and this process's ``sent`` count, whether an SMTP server is set (``smtp``), and its
    ``last_failure`` (a reason without any address) and ``last_failure_at``."""
    figures = await _run(queue_figures, request.app.state.hub.store.engine)
    body = {**figures, **request.app.state.mailer.status()}
    return Response(json.dumps(body), media_type="application/json")


@router.get("/api/verify", response_class=HTMLResponse)
async def verify(request: Request, p: str, e: str, t: str) -> HTMLResponse:
    """The link sent to a new address: it is the player's from now on (when it still is the one they gave)."""
    _check(request, "verify", f"{p}|{e}", t)

    def op(conn: Connection) -> int:
        return int(conn.execute(player_settings.update().where(player_settings.c.player_id == p,
                                                               player_settings.c.email == e)
                                .values(email_verified=True)).rowcount)

    done = await request.app.state.hub.store.write(op)
    return _page("keima", "<p>Address confirmed. / Adresse confirmée.</p>" if done
                 else "<p>This address is no longer the account's. / Cette adresse n'est plus celle du compte.</p>")


@router.get("/api/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_page(request: Request, p: str, t: str) -> HTMLResponse:
    """The unsubscribe link opened in a browser: a button (a link opened by a mail filter changes nothing)."""
    _check(request, "unsubscribe", p, t)
    action = escape(f"/api/unsubscribe?p={p}&t={t}", quote=True)
    return _page("keima", f"<form method=post action=\"{action}\"><button>Stop keima's emails / Ne plus "
                 "recevoir les courriels de keima</button></form>")


@router.post("/api/unsubscribe", response_class=HTMLResponse)
async def unsubscribe(request: Request, p: str, t: str) -> HTMLResponse:
    """Stop every email to the player (``List-Unsubscribe-Post`` one click, or the page's button); the bell
    stays."""
    _check(request, "unsubscribe", p, t)
    await request.app.state.hub.store.write(upsert(p, notify={k: "off" for k in notify.KINDS}))
    return _page("keima", "<p>No more emails. / Plus de courriels.</p>")
