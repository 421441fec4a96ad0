"""Whether a request comes from this server's own pages (the ``Origin`` check of every change), shared by
``keima.server.app`` and ``keima.server.players.routes``."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from fastapi import Request

from keima.server.errors import Refused


def cross_origin(headers: Any) -> bool:
    """True when a browser says the request comes from a page of another site (``Origin`` names another host).

    The seat cookie is ``SameSite=Lax`` already; this refuses a page elsewhere driving a player's seat through
    their browser even where a browser would send the cookie."""
    origin = str(headers.get("origin") or "")
    if not origin or origin == "null":
        return origin == "null"
    host = str(headers.get("host") or "")
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:  # not a URL at all ("http://[::1"): certainly not this server's page
        return True
    return netloc.lower() != host.lower()


def same_origin(request: Request) -> None:
    """Raise ``Refused`` 403 ``cross-origin`` for a request from a page of another site."""
    if cross_origin(request.headers):
        raise Refused("cross-origin", "requests that change a game must come from this server's own pages")
