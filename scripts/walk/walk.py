"""A walk through keima in Chromium as a new user, for a person to look at (not part of CI).

It starts ``keima serve`` on a free port with a throw-away SQLite file (or uses ``--base URL``), then, in English and
French, on a desktop (1280x860) and a phone (390x844, touch): the lobby, a new game against the bot and a few moves,
a refused move, a game between two people in two browser contexts with chat, the marking phase and the count, a
marking against the bot, the review of the finished game, a lesson, a login error and an open challenge. Each step
saves a screenshot of what the reader sees (the viewport) under ``test-artifacts/walk/`` and prints its path, with
anything the walk itself found wrong (an uncaught error in the page, a sideways scroll).

    python scripts/walk/walk.py [--base http://127.0.0.1:8000] [--only en-phone]
"""

from __future__ import annotations

import argparse
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test-artifacts" / "walk"
CHROMIUM = "/usr/bin/chromium"
SCREENS = {"desktop": {"width": 1280, "height": 860, "touch": False}, "phone": {"width": 390, "height": 844, "touch": True}}
LOCALES = {"en": "en-US", "fr": "fr-FR"}
expect.set_options(timeout=20_000)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server() -> tuple[str, subprocess.Popen[bytes]]:
    """``keima serve`` on a free port with a fresh database; returns its base URL and process."""
    port = free_port()
    db = Path(tempfile.mkdtemp()) / "walk.sqlite"
    cmd = [sys.executable, "-m", "keima", "serve", "--no-open", "--port", str(port), "--db", f"sqlite:///{db}"]
    if Path("/usr/games/gnugo").exists():
        cmd += ["--engine", "GNU Go=/usr/games/gnugo --mode gtp --level 1"]
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / "server.log", "wb") as log:  # the child keeps its own copy of the file
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(base + "/api/info", timeout=1)
            return base, proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("keima serve did not answer")


class Walk:
    """One language on one screen: its browser contexts, its screenshots and what it noticed."""

    def __init__(self, browser: Any, base: str, lang: str, screen: str) -> None:
        self.browser, self.base, self.lang, self.screen = browser, base, lang, screen
        self.found: list[str] = []
        self.n = 0

    def page(self, screen: str | None = None) -> Any:
        s = SCREENS[screen or self.screen]
        ctx = self.browser.new_context(
            locale=LOCALES[self.lang], base_url=self.base, viewport={"width": s["width"], "height": s["height"]},
            has_touch=s["touch"], is_mobile=s["touch"])
        page = ctx.new_page()
        page.on("pageerror", lambda exc: self.found.append(f"page error: {exc}"))
        return page

    def shot(self, page: Any, name: str, full: bool = False) -> None:
        self.n += 1
        path = OUT / f"{self.lang}-{self.screen}-{self.n:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=full)
        # Against the screen's width: a phone's browser widens its viewport to the page, so innerWidth grows too.
        wide = page.evaluate("() => document.scrollingElement.scrollWidth") - page.viewport_size["width"]
        if wide > 0:
            self.found.append(f"{path.name}: the page scrolls sideways by {wide} px")
        print(path)

    def point(self, page: Any, vertex: str) -> Any:
        return page.locator(f'[data-testid="board"] [data-vertex="{vertex}"]')

    def play(self, page: Any, vertex: str) -> None:
        """Play at vertex as the reader would: a tap to select then a tap to play on a phone, a click on a desktop."""
        if self.screen == "phone":
            self.point(page, vertex).tap()
            self.point(page, vertex).tap()
        else:
            self.point(page, vertex).click()

    def new_game(self, page: Any, opponent: str, clock: str = "none") -> str:
        page.goto("/")
        page.locator("form.new-game").wait_for()
        page.locator('input[name="size"][value="9"]').check()
        page.locator('select[name="clock"]').select_option(clock)
        page.locator(f'input[name="opponent"][value="{opponent}"]').check()
        if opponent == "bot":
            page.locator('select[name="bot_level"]').select_option("beginner")
        page.locator('form.new-game button[type="submit"]').click()
        page.wait_for_url(re.compile(r"/g/[^/?]+$"))
        self.point(page, "A1").wait_for()
        return str(page.url.rsplit("/g/", 1)[1])

    def run(self) -> None:
        lobby = self.page()
        lobby.goto("/")
        lobby.locator("form.new-game").wait_for()
        self.shot(lobby, "lobby")
        lobby.locator('select[name="clock"]').select_option("byoyomi")
        self.shot(lobby, "lobby-form-byoyomi", full=True)

        # Against the bot: a few moves, the first tap's stone on a phone, a refused move.
        me = self.page()
        self.new_game(me, "bot")
        self.shot(me, "bot-game")
        for v in ("E5", "C3", "G7"):
            if self.screen == "phone":
                self.point(me, v).tap()
                if v == "E5":
                    self.shot(me, "first-tap")
                self.point(me, v).tap()
            else:
                self.point(me, v).click()
            expect(me.get_by_test_id("turn")).to_contain_text(re.compile("Your turn|À vous"), timeout=60_000)
        self.shot(me, "after-moves")
        self.point(me, "E5").click() if self.screen == "desktop" else self.point(me, "E5").tap()
        expect(me.get_by_test_id("refusal")).to_be_visible()
        self.shot(me, "refused-move")
        # The marking phase against the bot: both pass, a chain clicked, then the marking submitted.
        me.get_by_role("button", name=re.compile("^(Pass|Passer)$")).click()
        try:
            expect(me.get_by_test_id("scoring")).to_be_visible(timeout=30_000)
            self.shot(me, "bot-marking")
            stone = me.locator('[data-testid="board"] [aria-label*="white stone"], [data-testid="board"] '
                               '[aria-label*="pierre blanche"]').first
            stone.click()
            self.shot(me, "bot-marking-changed")
            me.get_by_test_id("submit-marking").click()
            me.wait_for_timeout(3000)
            self.shot(me, "bot-marking-submitted")
        except AssertionError:
            self.shot(me, "bot-did-not-pass")

        # Two people: Alice invites Bob; chat; moves; both pass; the marking; the count.
        alice = self.page("desktop")
        self.new_game(alice, "invite", clock="byoyomi")
        link = alice.get_by_test_id("invite").locator("input").input_value()
        bob = self.page()
        bob.goto(link)
        expect(bob.get_by_test_id("you")).to_be_visible()
        for v_a, v_b in (("C3", "G7"), ("C7", "G3")):
            self.point(alice, v_a).click()
            expect(self.point(bob, v_a)).to_have_attribute("aria-label", re.compile("black|noire"))
            self.play(bob, v_b)
            expect(self.point(alice, v_b)).to_have_attribute("aria-label", re.compile("white|blanche"))
        box = bob.get_by_test_id("chat-input")
        box.fill("Hello, good game!" if self.lang == "en" else "Bonjour, bonne partie !")
        box.press("Enter")
        expect(alice.get_by_test_id("chat-players").locator("li")).to_have_count(1)
        self.shot(bob, "two-players-bob")
        self.shot(alice, "two-players-alice")
        lobby.goto("/")
        self.shot(lobby, "lobby-with-games")
        alice.get_by_role("button", name=re.compile("^(Pass|Passer)$")).click()
        bob.get_by_role("button", name=re.compile("^(Pass|Passer)$")).click()
        expect(bob.get_by_test_id("scoring")).to_be_visible()
        self.shot(bob, "marking")
        for page in (alice, bob):
            page.get_by_role("button", name=re.compile("^(Accept this marking|Accepter ce marquage)$")).click()
        expect(bob.get_by_test_id("result")).to_be_visible()
        self.shot(bob, "counted")
        self.shot(bob, "counted-full", full=True)
        bob.get_by_test_id("review-game").click()
        bob.wait_for_url(re.compile("/review"))
        bob.wait_for_timeout(1500)
        self.shot(bob, "review")
        lobby.goto("/")
        lobby.wait_for_timeout(1000)
        self.shot(lobby, "lobby-finished", full=True)

        # A lesson.
        learn = self.page()
        learn.goto("/learn")
        learn.wait_for_timeout(1500)
        self.shot(learn, "learn")

        # A login error, and an open challenge seen by someone else.
        guest = self.page()
        guest.goto("/")
        guest.get_by_test_id("open-login").click()
        form = guest.get_by_test_id("form-login")
        form.locator('input[name="name"]').fill("nobody")
        form.locator('input[name="password"]').fill("wrong-pass")
        form.get_by_test_id("account-submit").click()
        expect(guest.get_by_test_id("account-error")).to_be_visible()
        self.shot(guest, "login-error")
        guest.get_by_test_id("open-register").click()
        form = guest.get_by_test_id("form-register")
        form.locator('input[name="name"]').fill("walker")
        form.locator('input[name="password"]').fill("abc")
        form.get_by_test_id("account-submit").click()
        self.shot(guest, "register-error")
        host = self.page()
        self.new_game(host, "open", clock="byoyomi")
        guest.goto("/")
        guest.wait_for_timeout(1500)
        self.shot(guest, "open-challenge")
        for ctx in self.browser.contexts:
            ctx.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="a running server's URL (default: start one)")
    parser.add_argument("--only", help="one walk, as <lang>-<screen> (en-desktop, fr-phone, ...)")
    args = parser.parse_args()
    proc = None
    base = args.base
    if base is None:
        base, proc = start_server()
    OUT.mkdir(parents=True, exist_ok=True)
    found: list[str] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for lang in LOCALES:
                for screen in SCREENS:
                    if args.only and args.only != f"{lang}-{screen}":
                        continue
                    walk = Walk(browser, base, lang, screen)
                    try:
                        walk.run()
                    except Exception as exc:  # a walk that stops is reported and the next one goes on
                        walk.found.append(f"stopped: {exc}")
                    found += [f"{lang}-{screen}: {f}" for f in walk.found]
            browser.close()
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
    print("\n".join(found) if found else "the walk noticed nothing by itself: look at the screenshots")


if __name__ == "__main__":
    main()
