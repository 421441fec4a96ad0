"""The ASGI application: the JSON + WebSocket API of docs/web-api.md and the built browser UI.

``create_app(db_url)`` returns a FastAPI application; on start-up it opens the database, brings the schema to
the newest migration and starts the writer thread; on shut-down it stops them. Everything that changes a game
goes through ``Hub``.
"""

from __future__ import annotations

import asyncio
import base64
import gc
import hashlib
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, Response
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from keima import ai
from keima.rules.coords import MAX_SIZE, MIN_SIZE
from keima.server import api_players, storage_errors
from keima.server.api_players import (
    caller_player,
    caller_token,
    chat_player,
    check_chat_flood,
    needs_player,
    players_of,
    set_session_cookie,
)
from keima.server.chat import game_sgf
from keima.server.errors import ApiError, quote
from keima.server.hub import Hub, new_game_id
from keima.server.limits import Limits
from keima.server.origin import cross_origin as _cross_origin
from keima.server.origin import same_origin as _same_origin
from keima.server.positions import router as positions_router
from keima.server.pubsub import LocalPubSub, PubSub
from keima.server.review import REVIEW_MAX_BODY
from keima.server.review import router as review_router
from keima.server.schemas import (
    WS_ADAPTER,
    ActionBody,
    Created,
    ErrorBody,
    GameEnvelope,
    GameState,
    GcOut,
    InfoOut,
    InviteOut,
    JoinGame,
    NewGame,
    SeatOut,
    SizesOut,
    StatsOut,
    WsAck,
    WsError,
    WsErrorDetail,
    WsNotice,
    WsPong,
)
from keima.server.session import GameSession, token_hash
from keima.server.store import Store, default_url, make_engine, migrate
from keima.server.view import colors_out, created_json, envelope_json, with_you, ws_state_json
from keima.version import package_version

log = logging.getLogger("keima.server")

MAX_BODY = 16 * 1024
COOKIE_PREFIX = "keima_seat_"  # the seat token header and cookies are read by api_players.caller_token
DIST = Path(__file__).resolve().parent.parent / "web" / "dist"
PONG = WsPong(type="pong").model_dump_json()

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
                err = ApiError(413, "too-large", f"the request body is over {limit} bytes")
                await _error_response(err)(scope, receive, send)
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


def _printable(text: str) -> str:
    """``text`` as valid UTF-8 text (a lone surrogate from a JSON escape such as ``\\ud800`` becomes ``?``)."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _validation_error(exc: ValidationError | RequestValidationError) -> ApiError:
    errors = exc.errors()
    first = errors[0] if errors else {}
    # A path part can be the client's own key (an unknown field): shown cut short and as valid text.
    loc = [_printable(str(p)[:40]) for p in first.get("loc", ()) if p not in ("body",)]
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
    msg = _printable(msg[:300])
    if etype in ("json_invalid", "model_attributes_type", "union_tag_invalid", "union_tag_not_found", "dict_type"):
        return ApiError(400, "bad-request", f"{path + ': ' if path else ''}{msg}", field=path)
    return ApiError(422, "invalid-request", f"{path + ': ' if path else ''}{msg}", field=path)


def _thash(token: str | None) -> str | None:
    return None if token is None else token_hash(token)


def _json(text: str, status: int = 200) -> Response:
    return Response(text, status_code=status, media_type="application/json")


def _error_response(err: ApiError) -> Response:
    return _json(err.json(), err.status)


def _set_seat_cookie(resp: Response, game_id: str, token: str, secure: bool) -> None:
    resp.set_cookie(COOKIE_PREFIX + game_id, token, max_age=365 * 86400, path="/", httponly=True, samesite="lax",
                    secure=secure)


def create_app(db_url: str | None = None, *, pubsub: PubSub | None = None, dist: Path | None = None,
               cache_size: int = 2000, redis_url: str | None = None,
               engines: dict[str, str] | None = None) -> FastAPI:
    """Return the keima web application for the database at ``db_url`` (default: SQLite in the user's data
    folder). The database is opened and migrated when the application starts (ASGI lifespan). At most about
    ``cache_size`` idle games stay in memory. ``redis_url``: cluster mode (docs/deploy.md): live updates through
    Redis, bot moves and estimates on the workers' queue, games checked against the database before each
    change. ``engines``: GTP engines offered as opponents, name -> command line (their commands are run as child
    processes, one per game, in the web process)."""
    url = db_url or default_url()
    web_root = dist or DIST

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(url)
        migrate(engine)
        store = Store(engine)
        store.start()
        cluster_parts: list[Any] = []
        if redis_url:
            from keima.server.jobs import JobQueue
            from keima.server.redis_pubsub import RedisPubSub

            rps = RedisPubSub(redis_url)
            queue = JobQueue(redis_url)
            await queue.start()
            await rps.start()
            cluster_parts = [rps, queue]
            hub = Hub(store, rps, cache_size=cache_size, shared=True, jobs=queue, engines=engines)
            rps.on_remote = hub.on_remote
            rps.rebuildable = hub.rebuildable
            rps.on_subscribed = lambda channel: hub.spawn(hub.refresh(channel))
            hub.start_sweep()
        else:
            hub = Hub(store, pubsub or LocalPubSub(), cache_size=cache_size, engines=engines)
        app.state.hub = hub
        # Cluster mode: login and chat limits counted in Redis, once across the processes.
        limits = Limits(redis_url)
        cluster_parts.append(limits)
        await api_players.setup(app, hub, limits)
        gc.callbacks.append(hub.gc_pauses.observe)
        try:
            yield
        finally:
            gc.callbacks.remove(hub.gc_pauses.observe)
            await hub.close()
            for part in cluster_parts:
                await part.close()
            store.stop()
            engine.dispose()

    app = FastAPI(
        title="keima",
        version=package_version(),
        description="Go under the French rules: the JSON + WebSocket API of the keima server (docs/web-api.md).",
        lifespan=lifespan,
    )
    app.include_router(api_players.router)
    app.add_middleware(BodyLimit, larger={"/api/review": REVIEW_MAX_BODY})
    app.add_middleware(SecurityHeaders, csp=content_security_policy(web_root))

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> Response:
        return _error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> Response:
        return _error_response(_validation_error(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> Response:
        codes = {404: "not-found", 405: "method-not-allowed"}
        return _error_response(ApiError(exc.status_code, codes.get(exc.status_code, "bad-request"), str(exc.detail)))

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> Response:
        # Never expected (the fuzz test sends every malformed request it knows): still the JSON error body.
        log.exception("unexpected error: %s", type(exc).__name__)
        return _error_response(ApiError(500, "internal-error", "the server failed on this request"))

    storage_errors.install(app)  # the database out of reach: 503 storage-error everywhere, one warning line
    app.include_router(positions_router)  # before the catch-all asset route below
    app.include_router(review_router)
    # ----------------------------------------------------------------------------------------------- API
    @app.get("/api/info")
    async def info() -> InfoOut:
        """What the new-game form needs: rulesets, bot levels, GTP engines, sizes, clock types."""
        from keima.rules.ruleset import DEFAULT_RULESET, PRESETS
        from keima.server.clock import CLOCK_TYPES

        return InfoOut(
            version=package_version(),
            rulesets={name: r.as_dict() for name, r in PRESETS.items()},
            default_ruleset=DEFAULT_RULESET,
            bot_levels=list(ai.LEVELS),
            engines=list(engines or {}),
            sizes=SizesOut(min=MIN_SIZE, max=MAX_SIZE, common=[9, 13, 19]),
            clock_types=list(CLOCK_TYPES),
        )

    @app.get("/api/stats")
    async def stats(request: Request) -> StatsOut:
        """Server-side figures: games in memory, and the time from an action's arrival at its game to its
        stored change (the server's share of a move's round trip), over the last 100,000 actions."""
        hub = hub_of(request)
        ms = sorted(t * 1000 for t in hub.timings)

        def pct(q: float) -> float | None:
            return round(ms[min(len(ms) - 1, int(q * len(ms)))], 3) if ms else None

        return StatsOut(games_in_memory=len(hub.sessions), actions=len(ms), p50_ms=pct(0.5), p99_ms=pct(0.99),
                        max_ms=round(ms[-1], 3) if ms else None, gc=GcOut(**hub.gc_pauses.summary()))

    def _created(request: Request, s: GameSession, token: str, invite: str | None, status: int,
                 session_cookie: str | None = None) -> Response:
        seats = s.seats.held_by(_thash(token))
        inv = None if invite is None else InviteOut(code=invite, url=f"/g/{s.id}?invite={invite}")
        body = created_json(s.state_json(time.monotonic(), seats), SeatOut(colors=colors_out(seats), token=token), inv)
        resp = _json(body, status)
        # Secure over HTTPS (behind a TLS proxy uvicorn takes the scheme from X-Forwarded-Proto).
        _set_seat_cookie(resp, s.id, token, request.url.scheme == "https")
        if session_cookie is not None:
            set_session_cookie(resp, session_cookie, request.url.scheme == "https")
        return resp

    errors: dict[int | str, dict[str, Any]] = {
        code: {"model": ErrorBody} for code in (400, 403, 404, 409, 413, 422, 503)
    }

    @app.post("/api/games", status_code=201, responses={201: {"model": Created}, **errors})
    async def create_game(request: Request, body: NewGame | None = None) -> Response:
        """Create a game; the caller gets its seat (cookie and body) and, for an invitation, the link. A caller
        logged in as a player holds the seat as that player (on every device); an open challenge
        (``"opponent": "open"``) makes a guest player for a caller without one."""
        _same_origin(request)
        data = (body or NewGame()).model_dump()
        player, cookie = await caller_player(request, make=needs_player(request, data["opponent"] == "open"))
        gid = new_game_id()
        token = None if player is None else players_of(request).seat_token(player.id, gid)
        s, token, invite = await hub_of(request).create(data, game_id=gid, token=token,
                                                        person=None if player is None else player.person())
        if player is not None:
            await players_of(request).seat(s.id, sorted(s.people), player.id)
        return _created(request, s, token, invite, 201, cookie)

    @app.get("/api/games/{game_id}", responses={200: {"model": GameState}, **errors})
    async def get_game(game_id: str, request: Request) -> Response:
        """The game's state (``you``: the seats the caller holds)."""
        hub = hub_of(request)
        s = await hub.get(game_id, fresh=True)
        seats = s.seats.held_by(_thash(await caller_token(request, game_id)))
        async with s.lock:
            return _json(s.state_json(time.monotonic(), seats))

    @app.post("/api/games/{game_id}/join", responses={200: {"model": Created}, **errors})
    async def join_game(game_id: str, body: JoinGame, request: Request) -> Response:
        """Take the invited seat (once) with the invitation code, or with no code the free seat of an open
        challenge (403 for one's own challenge, 409 when someone took it first)."""
        _same_origin(request)
        token = await caller_token(request, game_id)
        player, cookie = await caller_player(request, make=needs_player(request, body.code is None))
        seat = None if player is None else players_of(request).seat_token(player.id, game_id)
        s, new = await hub_of(request).join(game_id, body.code, _thash(token), token=seat,
                                            person=None if player is None else player.person())
        if new is None:
            assert token is not None
            return _created(request, s, token, None, 200, cookie)
        if player is not None and s.invite_color is not None:
            await players_of(request).seat(s.id, [s.invite_color], player.id)
        return _created(request, s, new, None, 200, cookie)

    @app.post("/api/games/{game_id}/actions", responses={200: {"model": GameEnvelope}, **errors})
    async def act(game_id: str, request: Request, action: ActionBody) -> Response:
        """Apply one action for the caller's seat (a chat message: for the caller's seat or player); answers
        the state once the change is stored."""
        _same_origin(request)
        token = await caller_token(request, game_id)
        th = _thash(token)
        data = action.root.model_dump()
        cookie = None
        if data["type"] == "chat":
            player, cookie = await chat_player(request, game_id, data)
            s = await request.app.state.chat.post(game_id, data, th, player)
        else:
            s = await hub_of(request).act(game_id, data, th)
        resp = _json(envelope_json(s.state_json(time.monotonic(), s.seats.held_by(th))))
        if cookie is not None:
            set_session_cookie(resp, cookie, request.url.scheme == "https")
        return resp

    @app.get("/api/games/{game_id}/sgf", responses={200: {"content": {"application/x-go-sgf": {}}}, **errors})
    async def sgf(game_id: str, request: Request) -> Response:
        """The game record as an SGF file: players, ranks, date, clock, server and the chat as comments."""
        s = await hub_of(request).get(game_id, fresh=True)
        async with s.lock:
            text = game_sgf(s)
        return Response(
            text,
            media_type="application/x-go-sgf",
            headers={"Content-Disposition": f'attachment; filename="keima-{s.id}.sgf"'},
        )

    @app.websocket("/api/games/{game_id}/ws")
    async def ws(websocket: WebSocket, game_id: str) -> None:
        await _serve_socket(hub_of(websocket), websocket, game_id)

    # ----------------------------------------------------------------------------------------------- the UI
    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return _index(web_root)

    @app.get("/position", include_in_schema=False)
    async def position_page() -> Response:
        return _index(web_root)

    @app.get("/review", include_in_schema=False)
    @app.get("/learn", include_in_schema=False)
    async def review_learn_pages() -> Response:
        return _index(web_root)

    @app.get("/g/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> Response:
        return _index(web_root)

    @app.get("/{path:path}", include_in_schema=False)
    async def asset(path: str) -> Response:
        if path.startswith("api/"):
            raise ApiError(404, "not-found", f"no API endpoint {quote('/' + path)}")
        if "\x00" in path:
            raise ApiError(400, "bad-request", "a path may not contain a NUL character")
        root = web_root.resolve()
        try:
            target = (root / path).resolve()
            found = target.is_relative_to(root) and target.is_file()
        except (OSError, ValueError):  # a name the file system refuses (too long, ...) names no file of ours
            found = False
        if not found:
            raise ApiError(404, "not-found", f"no file {quote('/' + path)}")
        return FileResponse(target)

    return app


def _index(root: Path) -> Response:
    page = root / "index.html"
    if page.is_file():
        return FileResponse(page, headers={"Cache-Control": "no-cache"})
    return HTMLResponse(
        "<!doctype html><meta charset=utf-8><title>keima</title><h1>keima server</h1>"
        "<p>The browser UI is not built (no <code>src/keima/web/dist/index.html</code>): run "
        "<code>npm ci && npm run build</code> in <code>web/</code>.</p>"
        '<p>API: <a href="/docs">/docs</a>, <a href="/openapi.json">/openapi.json</a>.</p>'
    )


async def _serve_socket(hub: Hub, websocket: WebSocket, game_id: str) -> None:
    """One WebSocket: the current state at once, every later state, and actions with ack/error replies."""
    try:
        s = await hub.get(game_id, fresh=True)
    except ApiError:
        await websocket.close(code=4404)
        return
    await websocket.accept()
    # A page of another site may watch, never act: its socket is a spectator's whatever cookie came with it.
    th = None if _cross_origin(websocket.headers) else _thash(await caller_token(websocket, game_id))
    player = None if _cross_origin(websocket.headers) else await players_of(websocket).current(websocket.cookies)
    # -1, not 0: a new game's state has version 0 and is sent at once too (docs/web-api.md).
    last = -1
    sub = hub.pubsub.subscribe(game_id)

    async def send_state(version: int, text: str) -> None:
        # ``text`` is the spectators' JSON of the state at ``version``; a seated viewer is sent the newest
        # state with its own ``you`` instead (cached per change and viewer). Never an older state than sent.
        nonlocal last
        current = hub.sessions.get(game_id, s)
        seats = current.seats.held_by(th)
        if seats and current.version < version:
            # A newer state from another process (cluster mode) than this process's copy: the same text with
            # this viewer's seats.
            text = with_you(text, seats)
        elif seats:
            version, text = current.version, current.state_json(time.monotonic(), seats)
        if version <= last:
            return
        last = version
        await websocket.send_text(ws_state_json(text))

    async def pump() -> None:
        try:
            async for version, text in sub:
                await send_state(version, text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the socket closed; the reader's end cleans up

    async def watch_workers() -> None:
        # Cluster mode: a bot game whose bot (or estimate) waits while no worker runs says so.
        sent: str | None = None
        try:
            while True:
                current = hub.sessions.get(game_id, s)
                waiting = hub.bot_task(current) is not None or hub.needs_estimate(current)
                want = "no-bot-worker" if waiting and await hub.jobs.workers() == 0 else None
                if want != sent:
                    await websocket.send_text(WsNotice(type="notice", notice=want).model_dump_json())  # type: ignore[arg-type]
                    sent = want
                await asyncio.sleep(1.0)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass

    try:
        await send_state(s.version, s.state_json(time.monotonic()))
    except (WebSocketDisconnect, RuntimeError, OSError):
        # The client left during the handshake (an overloaded server, a closed tab): uvicorn then refuses any
        # send with a RuntimeError. Nothing to serve.
        sub.close()
        return
    sender = asyncio.get_running_loop().create_task(pump())
    watcher = None
    if hub.jobs is not None and s.bot_color is not None:
        watcher = asyncio.get_running_loop().create_task(watch_workers())
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            raw = frame.get("text")
            msg_id: Any = None
            try:
                if raw is None:
                    raise ApiError(400, "bad-request", "send JSON text frames, not binary ones")
                if len(raw) > MAX_BODY:
                    raise ApiError(413, "too-large", f"the message is over {MAX_BODY} bytes")
                try:
                    data = json.loads(raw)
                except (ValueError, RecursionError):  # RecursionError: nesting deeper than the parser goes
                    raise ApiError(400, "bad-request", "the message is not valid JSON") from None
                if isinstance(data, dict) and isinstance(data.get("id"), str):
                    msg_id = _printable(data["id"][:64])
                try:
                    msg = WS_ADAPTER.validate_python(data)
                except ValidationError as exc:
                    raise _validation_error(exc) from None
                if msg.type == "ping":
                    await websocket.send_text(PONG)
                    continue
                action = msg.action.model_dump()
                if action["type"] == "chat":
                    await check_chat_flood(websocket, game_id)
                    s2 = await websocket.app.state.chat.post(game_id, action, th, player)
                else:
                    s2 = await hub.act(game_id, action, th)
                await send_state(s2.version, s2.state_json(time.monotonic()))
                await websocket.send_text(WsAck(type="ack", id=msg_id).model_dump_json())
            except ApiError as exc:
                detail = WsErrorDetail(**exc.detail().model_dump(), status=exc.status)
                await websocket.send_text(WsError(type="error", id=msg_id, error=detail).model_dump_json())
    except WebSocketDisconnect:
        pass
    finally:
        sub.close()
        sender.cancel()
        if watcher is not None:
            watcher.cancel()
