"""The API's refusals: ``ApiError`` (one HTTP status, one body shape, docs/web-api.md *Errors*) and the helpers
that build one from a referee error or quote a client's input inside a message.
"""

from __future__ import annotations

from keima.rules.game import GameError, IllegalMove
from keima.server.schemas import ErrorBody, ErrorDetail

# How much of a client's own text an error message repeats: enough to recognise it, never a whole body.
QUOTE_LIMIT = 60


class ApiError(Exception):
    """A refused request: HTTP ``status``, machine ``code``, English ``message``, rule ``reason``, bad ``field``."""

    def __init__(self, status: int, code: str, message: str, *, reason: str | None = None,
                 field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.reason = reason
        self.field = field

    def detail(self) -> ErrorDetail:
        """Return the ``error`` object of the body."""
        return ErrorDetail(code=self.code, message=self.message, reason=self.reason, field=self.field)

    def body(self) -> ErrorBody:
        """Return the whole error body ``{"error": {...}}``."""
        return ErrorBody(error=self.detail())

    def json(self) -> str:
        """Return the error body as JSON text."""
        return self.body().model_dump_json()


def game_error(exc: GameError) -> ApiError:
    """Translate a referee error into the API's 409 error (``illegal-move`` for a refused move, ``wrong-phase``
    for anything else); the referee's sentence is the message."""
    if isinstance(exc, IllegalMove):
        return ApiError(409, "illegal-move", str(exc), reason=exc.reason)
    return ApiError(409, "wrong-phase", str(exc), reason=exc.reason)


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Return ``text`` fit to appear inside an error message: control and non-ASCII characters escaped (Python
    ``repr`` style, quotes included) and cut to about ``limit`` characters with an ellipsis, so that a client's
    input can neither forge the message's layout nor make it large."""
    cut = text[:limit]
    shown = ascii(cut)
    return shown + "..." if len(text) > limit else shown
