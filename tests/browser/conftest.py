"""Fixtures of the end-to-end browser tests.

The real server (``keima serve``) runs as a subprocess on 127.0.0.1 with a throw-away SQLite file, and Debian's
``chromium`` is driven by Playwright (never a downloaded browser). Screenshots go to ``test-artifacts/browser/``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

CHROMIUM = os.environ.get("KEIMA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
# Auto-waiting assertions wait up to 10 s: generous for a loaded 2-core CI machine, still quick to fail.
expect.set_options(timeout=10_000)

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
DIST_INDEX = ROOT / "src" / "keima" / "web" / "dist" / "index.html"


def free_port() -> int:
    """Return a TCP port that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """The ``keima serve`` subprocess and a small JSON client for checks made beside the browser."""

    def __init__(self, base: str, proc: subprocess.Popen[bytes], log: Path, db: Path | None = None) -> None:
        self.base = base
        self.proc = proc
        self.log = log
        self.db = db  # the server's SQLite file: a test may set what no page can (an address that bounced)

    def get(self, path: str) -> Any:
        """GET an API path; returns the decoded JSON body."""
        with urllib.request.urlopen(self.base + path, timeout=10) as r:
            return json.loads(r.read())

    def game(self, game_id: str) -> dict[str, Any]:
        """The spectator's view of a game's state."""
        state: dict[str, Any] = self.get(f"/api/games/{game_id}")
        return state


GNUGO = "/usr/games/gnugo"
# The servers' clocks start on a fixed day (``KEIMA_TIME_START``, keima.server.timesource), never the machine's:
# a Wednesday morning, so that no weekend pause of a correspondence clock or digest hour depends on the day the
# suite runs; a test about weekends starts a server of its own on a Saturday.
WEDNESDAY = "2026-12-02T10:00:00+00:00"
SATURDAY = "2026-12-05T10:00:00+00:00"


@contextlib.contextmanager
def running_server(tmp_path_factory: pytest.TempPathFactory, log_name: str = "server.log",
                   start: str = WEDNESDAY) -> Iterator[Server]:
    """The real server on a free port with a fresh SQLite file, its clock started at ``start``, once it answers;
    stopped on leaving."""
    assert DIST_INDEX.exists(), "the UI is not built: run `npm ci && npm run build` in web/"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    db = tmp_path_factory.mktemp("server") / "keima.sqlite"
    port = free_port()
    # One log per xdist worker: two workers' servers never write the same file.
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    log = ARTIFACTS / (log_name if not worker else log_name.replace(".log", f"-{worker}.log"))
    cmd = [
        sys.executable,
        "-m",
        "keima",
        "serve",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{db}",
        "--no-open",
    ]
    if os.access(GNUGO, os.X_OK):
        # A GTP engine at the table (test_browser_engine.py): GNU Go at its weakest level, quick to answer.
        cmd += ["--engine", f"GNU Go={GNUGO} --mode gtp --level 1"]
    # Every page of the suite comes from 127.0.0.1: as many guests as a club behind one address would make.
    env = dict(os.environ, KEIMA_GUEST_LIMIT="100000", KEIMA_REGISTER_LIMIT="100000",
               KEIMA_CHAT_ADDRESS_LIMIT="100000", KEIMA_REVIEW_ADDRESS_LIMIT="100000",
               # The bot's reviews search 600 playouts a position, whatever the load of the machine (at most 10 s):
               # test_browser_bot_review.py checks what they find.
               KEIMA_REVIEW_SECONDS="10", KEIMA_REVIEW_PLAYOUTS="600", KEIMA_TIME_START=start,
               # A live game's opponent gone for 4 s may be claimed (test_browser_moderation.py; docs/moderation.md).
               KEIMA_ABANDON_SECONDS="4")
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"keima serve exited with {proc.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(base + "/api/info", timeout=2) as r:
                if r.status == 200:
                    break
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"keima serve did not answer within 60 s:\n{log.read_text()}")
        time.sleep(0.2)
    yield Server(base, proc, log, db)
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Start the real server once for the browser suite and wait until it answers."""
    with running_server(tmp_path_factory) as running:
        yield running


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Debian chromium for the whole suite (each test opens its own contexts)."""
    if shutil.which(CHROMIUM) is None:
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium (scripts/test.sh does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture()
def new_page(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """Factory of pages, each in its own browser context (its own cookies: one person each).

    Page errors (uncaught exceptions in the UI) fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(locale: str = "en-US", width: int = 1280, height: int = 860, touch: bool = False,
             on: Server | None = None) -> Any:
        # touch: a phone's browser (touch screen, mobile viewport), as Playwright emulates it. on: another server
        # than the suite's (one started on another day).
        ctx = browser.new_context(
            locale=locale,
            viewport={"width": width, "height": height},
            base_url=(on or server).base,
            has_touch=touch,
            is_mobile=touch,
        )
        ctx.set_default_timeout(15_000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"uncaught errors in the page: {errors}"


@pytest.fixture()
def shot(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    """shot(page, name) saves a full-page screenshot under test-artifacts/browser/<test>-<name>.png."""

    def take(page: Any, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        test = re.sub(r"[^A-Za-z0-9_]+", "_", request.node.name)
        path = ARTIFACTS / f"{test}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


class UI:
    """Steps a person takes in the UI, written once for every test."""

    def __init__(self, server: Server) -> None:
        self.server = server

    def point(self, page: Any, vertex: str) -> Any:
        """The control of one board point, found by its GTP name."""
        return page.locator(f'[data-testid="board"] [data-vertex="{vertex}"]')

    def create_game(
        self,
        page: Any,
        *,
        size: int = 9,
        rules: str = "french",
        opponent: str = "bot",
        level: str | None = "beginner",
        color: str = "B",
        clock: str = "none",
        komi: str | None = None,
    ) -> str:
        """Fill the new-game form as a person would, start the game and return its id."""
        page.goto("/")
        page.locator("form.new-game").wait_for()
        page.locator(f'input[name="size"][value="{size}"]').check()
        page.locator('select[name="rules"]').select_option(rules)
        if komi is not None:
            page.locator('input[name="komi"]').fill(komi)
        page.locator('select[name="clock"]').select_option(clock)
        page.locator(f'input[name="opponent"][value="{opponent}"]').check()
        if opponent == "bot" and level is not None:
            page.locator('select[name="bot_level"]').select_option(level)
        if opponent != "local":
            page.locator('select[name="color"]').select_option(color)
        submit = page.locator('form.new-game button[type="submit"]')
        # Enabled once the server's info has come (the bot's levels): the choices made must still stand then.
        expect(submit).to_be_enabled()
        expect(page.locator(f'input[name="opponent"][value="{opponent}"]')).to_be_checked()
        submit.click()
        page.wait_for_url(re.compile(r"/g/[^/?]+$"))
        self.point(page, "A1").wait_for()
        return str(page.url.rsplit("/g/", 1)[1])

    def stone_at(self, page: Any, vertex: str) -> str:
        """Return "black", "white" or "empty", read from the point's accessible label."""
        label = self.point(page, vertex).get_attribute("aria-label") or ""
        for word in ("black", "white", "noire", "blanche"):
            if word in label:
                return {"noire": "black", "blanche": "white"}.get(word, word)
        return "empty"

    def wait_stone(self, page: Any, vertex: str, color: str, timeout: float = 15.0) -> None:
        """Wait until the point shows a stone of color ("black"/"white"/"empty")."""
        pattern = {"black": "black stone", "white": "white stone", "empty": "empty"}[color]
        expect(self.point(page, vertex)).to_have_attribute(
            "aria-label", re.compile(pattern), timeout=timeout * 1000
        )

    def play_api(self, page: Any, game_id: str, action: dict[str, Any]) -> dict[str, Any]:
        """Send an action as the page's own player would (its seat cookie), over HTTP; returns the new state."""
        answer = page.request.post(f"/api/games/{game_id}/actions", data=action)
        assert answer.ok, answer.text()
        state: dict[str, Any] = answer.json()["game"]
        return state

    def moves_shown(self, page: Any) -> int:
        """How many entries the move list shows."""
        return int(page.locator('[data-testid="move-list"] li').count())


@pytest.fixture()
def ui(server: Server) -> UI:
    """The UI steps bound to the running server."""
    return UI(server)
