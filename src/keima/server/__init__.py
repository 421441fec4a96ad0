"""keima's web server: the ASGI application (``create_app``), its storage, live updates, seats and clocks.

See docs/web-api.md for the API and docs/server.md for running it.
"""

from __future__ import annotations

from keima.server.app import create_app

__all__ = ["create_app"]
