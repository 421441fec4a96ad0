"""A walk through keima in Chromium as a new user, for a person to look at (not part of CI).

It starts ``keima serve`` on a free port with a throw-away SQLite file (or uses ``--base URL``), then, in English and
French, on a desktop (1280x860) and a phone (390x844, touch): the lobby, a new game against the bot and a few moves,
a refused move, a game between two people in two browser contexts with chat, the marking phase and the count, a
marking against the bot, the review of the finished game, a lesson, a login error and an open challenge; then the
second round of issue 23 and 30's faults: the "watching" count with a spectator, a muted spectator, the phone's
header, "Confirm each move" gone while marking, the quick-count table's signs, the review's keys, variation,
slider and a file cut short, the lessons' marking and count, C2 and the triple ko, the seki eyes and the position
tool's territory. Each step
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
from collections.abc import Callable
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


def start_server(out: Path = OUT, env: dict[str, str] | None = None,
                 gnugo: bool = True) -> tuple[str, subprocess.Popen[bytes]]:
    """``keima serve`` on a free port with a fresh database (``env``: its environment; ``gnugo``: offer GNU Go when
    it is installed), its log in ``out``; returns its base URL and process."""
    port = free_port()
    db = Path(tempfile.mkdtemp()) / "walk.sqlite"
    cmd = [sys.executable, "-m", "keima", "serve", "--no-open", "--port", str(port), "--db", f"sqlite:///{db}"]
    if gnugo and Path("/usr/games/gnugo").exists():
        cmd += ["--engine", "GNU Go=/usr/games/gnugo --mode gtp --level 1"]
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "server.log", "wb") as log:  # the child keeps its own copy of the file
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
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
        # A spectator: the lobby counts one watcher (never the players), and Bob mutes what she writes.
        carol = self.page("desktop")
        carol.goto(alice.url)
        carol.get_by_test_id("you").wait_for()
        carol.request.post(alice.url.replace("/g/", "/api/games/") + "/actions",
                           data={"type": "chat", "text": "cheap gold", "to": "spectators"})
        lobby.goto("/")
        game_id = alice.url.rsplit("/g/", 1)[1]
        line = lobby.locator(f'li[data-game="{game_id}"]')
        try:
            expect(line).to_contain_text(re.compile("1 watching|1 spectateur"), timeout=10_000)
        except AssertionError:
            self.found.append(f"the lobby's watching count with one spectator: {line.inner_text()!r}")
        self.shot(lobby, "lobby-one-watching")
        bob.get_by_test_id("chat-spectators").get_by_test_id("mute").first.click()
        expect(bob.get_by_test_id("muted")).to_be_visible()
        self.shot(bob, "muted-spectator")
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
        if bob.get_by_test_id("confirm-tap").count():
            self.found.append("'Confirm each move' is offered in the marking phase")
        self.shot(bob, "marking")
        bob.locator('table[data-method="quick-count"]').scroll_into_view_if_needed()
        self.shot(bob, "quick-count-table")
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
        self.second_round(learn)

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


    def header(self, page: Any, where: str) -> None:
        """On a phone the header takes two lines at most (issue 23: it took five)."""
        height = page.locator("header").bounding_box()["height"]
        if self.screen == "phone" and height >= 100:
            self.found.append(f"{where}: the phone's header is {height:.0f} px high")

    def second_round(self, page: Any) -> None:
        """The faults of the second round, each where the reader meets it."""
        self.header(page, "learn")
        # Lessons: the capture names C2; the end of a game through the marking and the count; the triple ko.
        page.goto("/learn?lesson=capture")
        expect(page.get_by_test_id("lesson-prompt")).to_contain_text("C2")
        self.shot(page, "lesson-capture")
        page.goto("/learn?lesson=end")
        page.get_by_test_id("lesson-pass").click()
        page.locator('[data-testid="lesson"] .board-column [data-vertex="E4"]').click()
        page.get_by_test_id("lesson-count").click()
        page.get_by_test_id("count-steps").wait_for()
        page.keyboard.press("End")
        self.shot(page, "lesson-end-counted", full=True)
        page.goto("/learn?lesson=superko")
        for vertex in ("C8", "H8", "B4", "G8"):
            page.locator(f'[data-testid="lesson"] .board-column [data-vertex="{vertex}"]').click()
            page.wait_for_timeout(600)
        self.shot(page, "lesson-triple-ko", full=True)
        # The position tool: the seki of the EGC example, counted; the Japanese steps mark its eyes.
        page.goto("/position")
        page.locator('textarea[name="sgf"]').fill(
            "(;GM[1]FF[4]SZ[5]RU[French]KM[7.5]AB[ba][ab][bb][ac][bc][ad][bd][cd][ae][be][ce]"
            "AW[ca][da][cb][db][eb][dc][ec][ed][de][ee])")
        page.locator("form.sgf-load button[type=submit]").click()
        page.get_by_test_id("count").click()
        steps = page.get_by_test_id("count-steps")
        steps.locator('button[data-method="japanese"]').click()
        for _ in range(3):
            if steps.get_attribute("data-kind") == "jp-seki":
                break
            page.get_by_test_id("step-next").click()
        self.shot(page, "position-seki-eyes", full=True)
        # Review: a file cut short; then a record, the keys at its end, a variation tried, the slider.
        page.goto("/review")
        page.get_by_test_id("sgf-text").fill("(;GM[1]FF[4]SZ[9]\n;B[ee]\n;W[gc]\n;B[cc]")
        page.get_by_test_id("open-pasted").click()
        page.get_by_test_id("error").wait_for()
        self.shot(page, "review-cut-short")
        page.get_by_test_id("sgf-text").fill("(;GM[1]FF[4]SZ[9]PB[?];B[ee];W[cc];B[gg])")
        page.get_by_test_id("open-pasted").click()
        page.get_by_test_id("review-end").click()
        page.keyboard.press("ArrowLeft")
        if "2" not in page.get_by_test_id("review-position").inner_text():
            self.found.append("review: the left arrow does nothing at the end of the game")
        page.locator('[data-testid="review"] .board-column [data-vertex="D4"]').click()
        page.get_by_test_id("tried").wait_for()
        self.shot(page, "review-variation")
        page.get_by_test_id("review-slider").fill("0")
        self.header(page, "review")
        self.shot(page, "review-slider-start")


def run_walks(walk_class: Any, description: str, out: Path,
              start: Callable[[], tuple[str, subprocess.Popen[bytes]]]) -> None:
    """The command line of a walk script: every language and screen (or ``--only`` one) walked by ``walk_class``
    against ``--base`` or a server ``start`` starts, screenshots in ``out``; prints what the walks noticed."""
    parser = argparse.ArgumentParser(description=description.splitlines()[0])
    parser.add_argument("--base", help="a running server's URL (default: start one)")
    parser.add_argument("--only", help="one walk, as <lang>-<screen> (en-desktop, fr-phone, ...)")
    args = parser.parse_args()
    proc = None
    base = args.base
    if base is None:
        base, proc = start()
    out.mkdir(parents=True, exist_ok=True)
    found: list[str] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for lang in LOCALES:
                for screen in SCREENS:
                    if args.only and args.only != f"{lang}-{screen}":
                        continue
                    walk = walk_class(browser, base, lang, screen)
                    try:
                        walk.run()
                    except Exception as exc:  # a walk that stops is reported and the next one goes on
                        walk.found.append(f"stopped: {exc}")
                        for ctx in browser.contexts:  # its pages would stay open beside the next walk's
                            ctx.close()
                    found += [f"{lang}-{screen}: {f}" for f in walk.found]
            browser.close()
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
    print("\n".join(found) if found else "the walk noticed nothing by itself: look at the screenshots")


def main() -> None:
    run_walks(Walk, __doc__ or "", OUT, start_server)


if __name__ == "__main__":
    main()
