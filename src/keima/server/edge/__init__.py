"""The HTTP edge: what every request meets before and after the routes (the body limit, the security headers, the
Origin check), the one mapping of refusals to HTTP answers, the database out of reach as 503, and the browser UI's
files.
"""

from __future__ import annotations

from keima.server.edge import http, ui, unreachable
from keima.server.edge.http import (
    MAX_BODY,
    BodyLimit,
    SecurityHeaders,
    content_security_policy,
    json_response,
    printable,
    read_frame,
    validation_error,
)
from keima.server.edge.origin import cross_origin, same_origin
from keima.server.edge.ui import DIST
from keima.server.edge.unreachable import WS_TRY_AGAIN_LATER, storage_unreachable

__all__ = [
    "BodyLimit", "DIST", "MAX_BODY", "SecurityHeaders", "WS_TRY_AGAIN_LATER", "content_security_policy",
    "cross_origin", "http", "json_response", "printable", "read_frame", "same_origin", "storage_unreachable",
    "ui", "unreachable", "validation_error"
]
