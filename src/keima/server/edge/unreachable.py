"""The database out of reach, answered once for every endpoint: 503 ``storage-error``, one warning line.

When the database does not answer (PostgreSQL stopped, restarting or unreachable; a SQLite file locked too long),
SQLAlchemy raises ``OperationalError`` or ``InterfaceError`` (or a ``DBAPIError`` that invalidated its
connection, or a pool ``TimeoutError`` when every connection waits) from wherever the request touched the
database: a chat message, a new game, the lobby, a login, a new guest, the opening of a socket. ``install(app)``
maps all of them to the documented answer (docs/web-api.md, *Errors*): HTTP 503 with the ``storage-error`` body,
and for a WebSocket a close with code 1013 ("try again later"). The log gets one warning line per refused request
(no traceback: the cause is outside the server). Nothing else is needed to recover: the engine's pool checks each
connection before use (``pool_pre_ping``) and opens new ones once the database answers again.

Errors that are faults of the server (a constraint broken, a bad query) are not mapped: they stay 500
``internal-error``, with their traceback.
"""

from __future__ import annotations

import contextlib
import logging

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import Response
from sqlalchemy import exc as sa_exc

from keima.server.errors import Refused

log = logging.getLogger("keima.server.storage")

#: The WebSocket close code for "the server cannot serve this now; try again later" (RFC 6455, IANA registry).
WS_TRY_AGAIN_LATER = 1013


def storage_unreachable(exc: BaseException) -> bool:
    """True when ``exc`` says the database could not be reached or did not answer (as opposed to a query the
    database refused)."""
    if isinstance(exc, (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError,
                        sa_exc.DisconnectionError)):
        return True
    return isinstance(exc, sa_exc.DBAPIError) and bool(exc.connection_invalidated)


def storage_error() -> Refused:
    """The 503 ``storage-error`` refusal of a request that needed the database while it was out of reach."""
    return Refused("storage-error", "the database does not answer: nothing changed; try again shortly")


def _summary(exc: BaseException) -> str:
    # The driver's first line says what failed ("connection refused", "server closed the connection"); the rest
    # (SQL text, parameters, a link to SQLAlchemy's docs) is noise in a warning and may be long.
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:200] if text else ''}"


def install(app: FastAPI) -> None:
    """Answer every request that failed because the database is out of reach with 503 ``storage-error`` (a
    WebSocket: closed with code 1013), logging one warning line; other database errors are left to the
    application's handlers."""

    async def handle(conn: Request | WebSocket, exc: Exception) -> Response | None:
        what = f"{conn.scope.get('method', 'WEBSOCKET')} {conn.url.path}"
        if not storage_unreachable(exc):
            # Not an outage: the application's last-resort handler answers (500, with the traceback logged).
            raise exc
        log.warning("database unreachable: %s answered 503 storage-error (%s)", what, _summary(exc))
        if isinstance(conn, WebSocket):
            with contextlib.suppress(RuntimeError):  # closed already, or the handshake never got that far
                await conn.close(code=WS_TRY_AGAIN_LATER)
            return None
        err = storage_error()
        return Response(err.json(), status_code=err.status, media_type="application/json")

    for cls in (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError, sa_exc.DisconnectionError,
                sa_exc.DBAPIError):
        app.add_exception_handler(cls, handle)  # type: ignore[arg-type]
