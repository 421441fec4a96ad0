"""Refusals: ``Refused`` (what was refused, as a machine code and a sentence: the domain's error, raised by the
game session, the game service and the routes alike), ``STATUS``, the one table that gives each code its HTTP status
at the edge (docs/web-api.md *Errors*), and the helpers that build a refusal from a referee error or quote a
client's input inside a message.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from keima.rules.game import GameError, IllegalMove

# How much of a client's own text an error message repeats: enough to recognise it, never a whole body.
QUOTE_LIMIT = 60


class Refused(Exception):
    """A refused request or intent: machine ``code``, English ``message``, rule ``reason``, bad ``field``, and the
    ``line`` of the client's text it is about (an SGF record's).

    No HTTP here: the edge (``keima.server.app``'s handlers, the WebSocket) answers with ``http_status(code)``."""

    def __init__(self, code: str, message: str, *, reason: str | None = None, field: str | None = None,
                 line: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        self.field = field
        self.line = line

    @property
    def status(self) -> int:
        """The HTTP status the edge answers this refusal with (``STATUS``)."""
        return http_status(self.code)

    def detail(self) -> ErrorDetail:
        """Return the ``error`` object of the body."""
        return ErrorDetail(code=self.code, message=self.message, reason=self.reason, field=self.field, line=self.line)

    def body(self) -> ErrorBody:
        """Return the whole error body ``{"error": {...}}``."""
        return ErrorBody(error=self.detail())

    def json(self) -> str:
        """Return the error body as JSON text."""
        return self.body().model_dump_json()


#: The HTTP status of each refusal code: the only place where a status is chosen.
STATUS: dict[str, int] = {
    "bad-request": 400,
    "bad-login": 401,
    "not-logged-in": 401,
    "bad-invitation": 403,
    "cross-origin": 403,
    "no-player": 403,
    "not-your-seat": 403,
    "own-challenge": 403,
    "not-creator": 403,
    "not-requester": 403,
    "not-director": 403,
    # -- moderation (issue 47) --
    "blocked": 403,
    "muted": 403,
    "suspended": 403,
    "banned": 403,
    "not-moderator": 403,
    "already-reported": 409,
    "not-abandoned": 409,
    "not-live": 409,
    "not-in-control": 403,
    "no-such-game": 404,
    "not-found": 404,
    "not-waiting": 404,
    "method-not-allowed": 405,
    "already-director": 409,
    "already-registered": 409,
    "already-waiting": 409,
    "busy": 409,
    "challenge-taken": 409,
    "email-bounced": 409,
    "email-verified": 409,
    "game-in-progress": 409,
    "game-started": 409,
    "illegal-move": 409,
    "name-taken": 409,
    "no-email": 409,
    "no-opponent": 409,
    "no-vacation-left": 409,
    "stale-version": 409,
    "not-registered": 409,
    "rank-earned": 409,
    "review-over": 409,
    "registration-closed": 409,
    "round-started": 409,
    "wrong-phase": 409,
    "too-many-boards": 409,
    "too-large": 413,
    "invalid-request": 422,
    "too-many-requests": 429,
    "review-limit": 429,
    "review-queue-full": 429,
    "corrupt-game": 500,
    "internal-error": 500,
    "storage-error": 503,
    # -- clubs (issue 46)
    "not-admin": 403,
    "not-member": 403,
    "already-member": 409,
    "club-limit": 409,
    "code-taken": 409,
    "last-admin": 409,
    "out-of-reach": 409,
    "not-open": 409,
}


def http_status(code: str) -> int:
    """The HTTP status of refusal ``code`` (400 for a code the table does not name)."""
    return STATUS.get(code, 400)


def game_error(exc: GameError) -> Refused:
    """Translate a referee error into the API's 409 error (``illegal-move`` for a refused move, ``wrong-phase``
    for anything else); the referee's sentence is the message."""
    if isinstance(exc, IllegalMove):
        return Refused("illegal-move", str(exc), reason=exc.reason)
    return Refused("wrong-phase", str(exc), reason=exc.reason)


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Return ``text`` fit to appear inside an error message: control and non-ASCII characters escaped (Python
    ``repr`` style, quotes included) and cut to about ``limit`` characters with an ellipsis, so that a client's
    input can neither forge the message's layout nor make it large."""
    cut = text[:limit]
    shown = ascii(cut)
    return shown + "..." if len(text) > limit else shown


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorDetail(_Strict):
    """``line``: the line of the client's text the refusal is about (an SGF record's fault), else null."""

    code: str
    message: str
    reason: str | None
    field: str | None
    line: int | None = None


class ErrorBody(_Strict):
    """Every error answer."""

    error: ErrorDetail
