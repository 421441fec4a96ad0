"""The HTTP edge: what every request meets before and after the routes. The body limit and the security headers
(middlewares), and the one mapping of refusals and malformed requests to HTTP answers (``install``): a
``Refused`` answers with its code's status (``keima.server.errors.STATUS``) and the JSON error body."""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from keima.server.errors import Refused, quote

log = logging.getLogger("keima.server")

MAX_BODY = 16 * 1024

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: refuse request bodies over ``limit`` bytes with 413 before the application reads them."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY, larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.larger = larger or {}  # path -> its own limit (a record to review may be up to the SGF reader's)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope["path"], self.limit)
        chunks: list[bytes] = []
        total = 0
        more = True
        while more:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return
            body = msg.get("body", b"")
            total += len(body)
            if total > limit:
                err = Refused("too-large", f"the request body is over {limit} bytes")
                await error_response(err)(scope, receive, send)
                return
            chunks.append(body)
            more = msg.get("more_body", False)
        data = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": data, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def content_security_policy(web_root: Path) -> str:
    """Return the Content-Security-Policy of every answer but the API explorer's.

    Scripts, styles, images, fonts and connections (the WebSocket included: ``'self'`` covers ``ws:``/``wss:`` to
    the same host) only from this server; no plugin, no ``<base>``, forms only to this server, and no page of
    another site may frame these (``frame-ancestors 'none'``, the clickjacking guard). No inline script or style
    runs, except an inline script of the built ``index.html`` itself, allowed by its SHA-256 (read once here): an
    injected script never matches it.
    """
    hashes = ""
    page = web_root / "index.html"
    if page.is_file():
        html = page.read_text(encoding="utf-8", errors="replace")
        for body in _INLINE_SCRIPT.findall(html):
            digest = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()
            hashes += f" 'sha256-{digest}'"
    return (
        f"default-src 'self'; script-src 'self'{hashes}; style-src 'self'; img-src 'self' data:; "
        "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    )


# An inline script: a <script> element without a src attribute, and its text.
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc\s*=)[^>]*>(.*?)</script\s*>", re.IGNORECASE | re.DOTALL)
# The API explorer (/docs, /redoc) is FastAPI's page: its inline script and CDN files need a looser policy.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


class SecurityHeaders:
    """ASGI middleware: ``X-Content-Type-Options: nosniff`` and the Content-Security-Policy on every HTTP
    answer (the API explorer gets ``DOCS_CSP``), so that no answer is sniffed into HTML or framed elsewhere."""

    def __init__(self, app: ASGIApp, csp: str) -> None:
        self.app = app
        self.csp = csp.encode("latin-1")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        csp = DOCS_CSP.encode("latin-1") if path in ("/docs", "/redoc", "/docs/oauth2-redirect") else self.csp

        async def send_with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                headers = [(k, v) for k, v in msg.get("headers", []) if k.lower() not in _OURS]
                headers += [(b"x-content-type-options", b"nosniff"), (b"content-security-policy", csp)]
                msg["headers"] = headers
            await send(msg)

        await self.app(scope, receive, send_with_headers)


_OURS = (b"x-content-type-options", b"content-security-policy")


def printable(text: str) -> str:
    """``text`` as valid UTF-8 text (a lone surrogate from a JSON escape such as ``\\ud800`` becomes ``?``)."""
    return text.encode("utf-8", "replace").decode("utf-8")


def read_frame(raw: str | None) -> tuple[Any, str | None]:
    """A socket's text frame as JSON, and its request ``id`` (printable, 64 characters at most; None without one).
    Raises ``Refused`` ``bad-request`` for a binary frame or text that is not JSON, ``too-large`` past
    ``MAX_BODY`` bytes (the game and board sockets read their messages this way)."""
    if raw is None:
        raise Refused("bad-request", "send JSON text frames, not binary ones")
    if len(raw) > MAX_BODY:
        raise Refused("too-large", f"the message is over {MAX_BODY} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: nesting deeper than the parser goes
        raise Refused("bad-request", "the message is not valid JSON") from None
    msg_id = data.get("id") if isinstance(data, dict) else None
    return data, printable(msg_id[:64]) if isinstance(msg_id, str) else None


def validation_error(exc: ValidationError | RequestValidationError) -> Refused:
    errors = exc.errors()
    first = errors[0] if errors else {}
    # A path part can be the client's own key (an unknown field): shown cut short and as valid text.
    loc = [printable(str(p)[:40]) for p in first.get("loc", ()) if p not in ("body",)]
    # The discriminator's branch name (e.g. "play") is noise in a field path.
    kinds = {"play", "pass", "resign", "place_handicap", "undo_request", "undo_answer", "toggle_dead", "accept", "chat",
             "resume", "none", "absolute", "byoyomi", "canadian", "fischer", "action", "ping", "int", "str"}
    path = ".".join(p for p in loc if p not in kinds and not p.startswith(("constrained-", "function-"))) or None
    etype = first.get("type", "")
    msg = str(first.get("msg", "invalid request"))
    ctx = first.get("ctx") or {}
    if etype == "union_tag_invalid" and "tag" in ctx:
        # pydantic's sentence repeats the client's tag whole and unescaped.
        msg = f"unknown type {quote(str(ctx['tag']))}; expected one of {ctx.get('expected_tags', '')}"
    msg = printable(msg[:300])
    if etype in ("json_invalid", "model_attributes_type", "union_tag_invalid", "union_tag_not_found", "dict_type"):
        return Refused("bad-request", f"{path + ': ' if path else ''}{msg}", field=path)
    # A text over its limit says so by reason, so that a page can say it in its reader's language.
    reason = "too-long" if etype == "string_too_long" else None
    return Refused("invalid-request", f"{path + ': ' if path else ''}{msg}", field=path, reason=reason)


def json_response(text: str, status: int = 200) -> Response:
    """A JSON answer with the JSON text ``text``."""
    return Response(text, status_code=status, media_type="application/json")


def error_response(err: Refused) -> Response:
    """The answer to a refusal: its code's HTTP status and the JSON error body."""
    return json_response(err.json(), err.status)


def install(app: FastAPI) -> None:
    """Answer every refusal, malformed request and unexpected error of ``app`` with the JSON error body."""

    @app.exception_handler(Refused)
    async def _refused(_request: Request, exc: Refused) -> Response:
        return error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> Response:
        return error_response(validation_error(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> Response:
        codes = {404: "not-found", 405: "method-not-allowed", 413: "too-large"}
        err = Refused(codes.get(exc.status_code, "bad-request"), str(exc.detail))
        return json_response(err.json(), exc.status_code)

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> Response:
        # Never expected (the fuzz test sends every malformed request it knows): still the JSON error body.
        log.exception("unexpected error: %s", type(exc).__name__)
        return error_response(Refused("internal-error", "the server failed on this request"))
