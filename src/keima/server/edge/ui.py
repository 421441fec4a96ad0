"""The browser UI's pages and files (the built ``src/keima/web/dist``): every page path answers ``index.html``,
other paths the files of the build, nothing outside it."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response

from keima.server.errors import Refused, quote

DIST = Path(__file__).resolve().parents[2] / "web" / "dist"


def router(web_root: Path) -> APIRouter:
    """The routes of the UI built in ``web_root`` (register last: its catch-all takes every other path)."""
    router = APIRouter()

    @router.get("/", include_in_schema=False)
    async def index() -> Response:
        return _index(web_root)

    @router.get("/position", include_in_schema=False)
    async def position_page() -> Response:
        return _index(web_root)

    @router.get("/review", include_in_schema=False)
    @router.get("/learn", include_in_schema=False)
    @router.get("/moves", include_in_schema=False)
    @router.get("/moderation", include_in_schema=False)  # moderation (issue 47)
    async def review_learn_pages() -> Response:
        return _index(web_root)

    @router.get("/g/{game_id}", include_in_schema=False)
    @router.get("/d/{board_id}", include_in_schema=False)  # a demo board (issue 45)
    async def game_page(game_id: str = "", board_id: str = "") -> Response:
        return _index(web_root)

    @router.get("/p/{name}", include_in_schema=False)
    async def player_page(name: str) -> Response:
        return _index(web_root)

    @router.get("/t", include_in_schema=False)
    @router.get("/t/{tournament_id}", include_in_schema=False)
    async def tournament_pages(tournament_id: str = "") -> Response:
        return _index(web_root)

    # Clubs (issue 46): the list and a club's page.
    @router.get("/c", include_in_schema=False)
    @router.get("/c/{slug}", include_in_schema=False)
    async def club_pages(slug: str = "") -> Response:
        return _index(web_root)

    @router.get("/{path:path}", include_in_schema=False)
    async def asset(path: str) -> Response:
        if path.startswith("api/"):
            raise Refused("not-found", f"no API endpoint {quote('/' + path)}")
        if "\x00" in path:
            raise Refused("bad-request", "a path may not contain a NUL character")
        root = web_root.resolve()
        try:
            target = (root / path).resolve()
            found = target.is_relative_to(root) and target.is_file()
        except (OSError, ValueError):  # a name the file system refuses (too long, ...) names no file of ours
            found = False
        if not found:
            raise Refused("not-found", f"no file {quote('/' + path)}")
        return FileResponse(target)

    return router


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


