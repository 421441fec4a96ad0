"""A walk through keima's newer features in Chromium as a new user, for a person to look at (not part of CI).

Beside ``walk.py``: it starts ``keima serve`` on a free port with a throw-away SQLite file (or uses ``--base URL``),
then, in English and French, on a desktop (1280x860) and a phone (390x844, touch), with two registered players in
two browser contexts: automatch in the lobby, the rated game it makes and its rating change, chat, the bell, the
bot's review of the finished game (on its page and on /review, with a variation tried), the player's page and its
rating chart, a correspondence game with the player on vacation (the clocks must stand still), and a tournament
(a director, a player signing up, a round paired, started and its result entered). Each step saves a screenshot of
the viewport under ``test-artifacts/walk-new/`` and prints its path, with anything the walk found by itself.

    python scripts/walk/walk_new.py [--base http://127.0.0.1:8000] [--only fr-phone]
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parent))
import walk  # noqa: E402
from walk import LOCALES, ROOT, SCREENS  # noqa: E402

OUT = ROOT / "test-artifacts" / "walk-new"
expect.set_options(timeout=20_000)
PASSWORD = "correct horse"


def start_server() -> tuple[str, subprocess.Popen[bytes]]:
    """``keima serve`` on a free port with a fresh database and quick bot reviews; returns its URL and process."""
    env = dict(os.environ, KEIMA_GUEST_LIMIT="100000", KEIMA_REGISTER_LIMIT="100000",
               KEIMA_REVIEW_SECONDS="3", KEIMA_REVIEW_PLAYOUTS="100")
    return walk.start_server(OUT, env, gnugo=False)


class Walk:
    """One language on one screen, with a second person on the other kind of screen."""

    def __init__(self, browser: Any, base: str, lang: str, screen: str) -> None:
        self.browser, self.base, self.lang, self.screen = browser, base, lang, screen
        self.other_screen = "desktop" if screen == "phone" else "phone"
        self.found: list[str] = []
        self.n = 0
        self.fr = lang == "fr"

    def page(self, screen: str | None = None) -> Any:
        s = SCREENS[screen or self.screen]
        ctx = self.browser.new_context(
            locale=LOCALES[self.lang], base_url=self.base, viewport={"width": s["width"], "height": s["height"]},
            has_touch=s["touch"], is_mobile=s["touch"])
        ctx.set_default_timeout(20_000)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: self.found.append(f"page error: {exc}"))
        page.on("response", lambda r: self.found.append(f"HTTP {r.status} {r.request.method} {r.url}")
                if r.status >= 400 else None)
        return page

    def shot(self, page: Any, name: str, full: bool = False) -> None:
        self.n += 1
        screen = "desktop" if page.viewport_size["width"] > 600 else "phone"
        path = OUT / f"{self.lang}-{self.screen}-{self.n:02d}-{name}{'' if screen == self.screen else '-' + screen}.png"
        page.screenshot(path=str(path), full_page=full)
        wide = page.evaluate("() => document.scrollingElement.scrollWidth") - page.viewport_size["width"]
        if wide > 0:
            self.found.append(f"{path.name}: the page scrolls sideways by {wide} px")
        print(path, flush=True)

    def point(self, page: Any, vertex: str) -> Any:
        return page.locator(f'[data-testid="board"] [data-vertex="{vertex}"]')

    def tap_or_click(self, page: Any, loc: Any) -> None:
        if page.viewport_size["width"] < 600:
            loc.tap()
        else:
            loc.click()

    def play(self, page: Any, vertex: str) -> None:
        if page.viewport_size["width"] < 600:
            self.point(page, vertex).tap()
            self.point(page, vertex).tap()
        else:
            self.point(page, vertex).click()

    def register(self, page: Any, name: str) -> None:
        page.goto("/")
        r = page.request.post("/api/players", data={"name": name, "password": PASSWORD})
        if r.status != 201:
            self.found.append(f"register {name}: {r.status} {r.text()}")
        page.reload()
        page.locator("form.new-game").wait_for()

    def ask(self, page: Any) -> None:
        page.goto("/")
        panel = page.get_by_test_id("automatch")
        panel.wait_for()
        page.get_by_test_id("automatch-size-19").uncheck()
        page.get_by_test_id("automatch-size-9").check()
        page.get_by_test_id("automatch-speed-blitz").check()
        page.get_by_test_id("automatch-start").click()

    def run(self) -> None:
        tag = secrets.token_hex(2)
        me_name, other_name = f"{self.lang}{self.screen[0]}me{tag}", f"{self.lang}{self.screen[0]}op{tag}"
        me, other = self.page(), self.page(self.other_screen)
        self.register(me, me_name)
        self.register(other, other_name)

        # Automatch: the panel, waiting, then matched.
        me.get_by_test_id("automatch").scroll_into_view_if_needed()
        self.shot(me, "lobby-automatch")
        self.ask(me)
        expect(me.get_by_test_id("automatch-waiting")).to_be_visible()
        me.wait_for_timeout(2500)
        self.shot(me, "automatch-waiting")
        self.ask(other)
        for p in (me, other):
            p.wait_for_url(re.compile(r"/g/[^/?]+$"))
        gid = me.url.rsplit("/g/", 1)[1]
        self.point(me, "A1").wait_for()
        self.shot(me, "matched")
        state = me.request.get(f"/api/games/{gid}").json()
        black_is_me = state["players"]["B"]["name"] == me_name if isinstance(state.get("players"), dict) else None
        if black_is_me is None:
            black_is_me = "Black" in (me.get_by_test_id("you").text_content() or "") or "Noir" in (
                me.get_by_test_id("you").text_content() or "")
        b, w = (me, other) if black_is_me else (other, me)
        for vb, vw in (("C3", "G7"), ("C7", "G3")):
            self.play(b, vb)
            expect(self.point(w, vb)).to_have_attribute("aria-label", re.compile("black|noire"))
            self.play(w, vw)
            expect(self.point(b, vw)).to_have_attribute("aria-label", re.compile("white|blanche"))
        # Three more moves each (five stones a side: less is an abandoned start, not rated).
        for vb, vw in (("D4", "F4"), ("D5", "F5"), ("D6", "F6")):
            b.request.post(f"/api/games/{gid}/actions", data={"type": "play", "move": vb})
            w.request.post(f"/api/games/{gid}/actions", data={"type": "play", "move": vw})
        expect(self.point(me, "F6")).to_have_attribute("aria-label", re.compile("white|blanche"))
        box = other.get_by_test_id("chat-input")
        box.fill("Hello!" if not self.fr else "Bonjour !")
        box.press("Enter")
        expect(me.get_by_test_id("chat-players").locator("li")).to_have_count(1)
        self.shot(me, "rated-game-chat")
        self.shot(me, "rated-game-full", full=True)
        other.request.post(f"/api/games/{gid}/actions", data={"type": "resign"})
        try:
            expect(me.get_by_test_id("rating-change-B")).to_be_visible(timeout=20_000)
        except AssertionError:
            self.found.append("no rating change on the finished rated game's page after 20 s")
        self.shot(me, "rated-finished")
        self.shot(me, "rated-finished-full", full=True)

        # The bell.
        bell = me.get_by_test_id("bell")
        if bell.count():
            self.tap_or_click(me, bell)
            me.wait_for_timeout(800)
            self.shot(me, "bell-open")
            self.tap_or_click(me, bell)
        else:
            self.found.append("no bell in the header after a finished game")

        # The bot's review on the finished game's page.
        start = me.get_by_test_id("bot-start")
        if start.count():
            start.scroll_into_view_if_needed()
            self.shot(me, "finished-bot-review-offer")
            start.click()
            try:
                expect(me.get_by_test_id("bot-progress")).to_have_count(0, timeout=90_000)
            except AssertionError:
                self.found.append("the bot's review did not end in 90 s")
            me.wait_for_timeout(500)
            chart = me.get_by_test_id("line-chart").first
            if chart.count():
                chart.scroll_into_view_if_needed()
            self.shot(me, "finished-bot-review")
            self.shot(me, "finished-bot-review-full", full=True)
        else:
            self.found.append("no bot review offer on the finished game's page")

        # The review page with a variation.
        me.goto(f"/review?game={gid}")
        expect(me.get_by_test_id("review")).to_be_visible()
        me.wait_for_timeout(1500)
        self.shot(me, "review")
        self.play(me, "E5")
        me.wait_for_timeout(800)
        self.shot(me, "review-variation")
        self.shot(me, "review-variation-full", full=True)

        # The player's page and the rating chart.
        me.goto(f"/p/{me_name}")
        me.get_by_test_id("player-page").wait_for()
        me.wait_for_timeout(1000)
        self.shot(me, "player-page")
        chart = me.get_by_test_id("line-chart")
        if chart.count():
            chart.first.scroll_into_view_if_needed()
            box_ = chart.first.bounding_box()
            if box_:
                me.mouse.click(box_["x"] + box_["width"] - 30, box_["y"] + box_["height"] / 2)
                me.wait_for_timeout(500)
            self.shot(me, "player-chart-picked")
        self.shot(me, "player-page-full", full=True)
        other.goto(f"/p/{me_name}")
        other.get_by_test_id("player-page").wait_for()
        other.wait_for_timeout(800)
        self.shot(other, "player-page-seen-by-other")
        me.goto("/")
        me.locator("form.new-game").wait_for()
        me.wait_for_timeout(800)
        self.shot(me, "lobby-after-rated", full=True)

        # Correspondence: vacation on, an invitation with 2 days a move, the clocks still.
        me.get_by_test_id("open-away").click()
        me.wait_for_timeout(500)
        self.shot(me, "away-settings")
        me.get_by_test_id("vacation").click()
        me.wait_for_timeout(500)
        self.shot(me, "away-vacation-on")
        me.locator('input[name="size"][value="9"]').check()
        me.get_by_test_id("clock-preset").select_option("simple-2d")
        me.locator('input[name="opponent"][value="invite"]').check()
        self.shot(me, "corr-form", full=True)
        me.locator('form.new-game button[type="submit"]').click()
        me.wait_for_url(re.compile(r"/g/[^/?]+$"))
        link = me.get_by_test_id("invite").locator("input").input_value()
        other.goto(link)
        expect(other.get_by_test_id("you")).to_be_visible()
        me.wait_for_timeout(1000)
        before = {c: me.get_by_test_id(f"clock-{c}").text_content() for c in "BW"}
        self.shot(me, "corr-game-paused")
        self.shot(other, "corr-game-paused-seen-by-other")
        me.wait_for_timeout(3000)
        after = {c: me.get_by_test_id(f"clock-{c}").text_content() for c in "BW"}
        if before != after:
            self.found.append(f"a paused clock changed: {before} -> {after}")
        me.request.delete("/api/me/vacation")
        other.wait_for_timeout(2000)
        self.shot(other, "corr-after-vacation-other-no-reload")
        me.reload()
        self.point(me, "A1").wait_for()
        self.shot(me, "corr-after-vacation")

        # A tournament: me directs, other signs up, a third player is typed in; round 1 paired and started.
        me.goto("/t")
        me.get_by_test_id("t-name").wait_for()
        self.shot(me, "tournaments")
        me.get_by_test_id("t-name").fill(("Tournoi " if self.fr else "Cup ") + tag)
        me.get_by_test_id("t-create").click()
        expect(me.get_by_test_id("t-title")).to_be_visible()
        tid = me.url.rstrip("/").rsplit("/", 1)[1]
        self.shot(me, "tournament-new")
        other.goto(f"/t/{tid}")
        expect(other.get_by_test_id("t-title")).to_be_visible()
        self.shot(other, "tournament-seen-by-player")
        if other.get_by_test_id("t-signup").count():
            other.get_by_test_id("t-signup").click()
            other.wait_for_timeout(1000)
            self.shot(other, "tournament-signed-up")
        else:
            self.found.append("no sign-up button for a registered player")
        for name, rank in [("Ito", "1d"), ("Martin", "5k"), ("Novak", "3k")]:
            me.get_by_test_id("p-name").fill(name)
            me.get_by_test_id("p-rank").fill(rank)
            me.get_by_test_id("p-add").click()
            expect(me.get_by_test_id("players")).to_contain_text(name)
        self.shot(me, "tournament-players")
        me.get_by_test_id("t-pair").click()
        expect(me.get_by_test_id("pairings").locator("tbody tr")).to_have_count(2)
        self.shot(me, "tournament-paired")
        self.shot(me, "tournament-paired-full", full=True)
        other.wait_for_timeout(1000)
        self.shot(other, "tournament-paired-player")
        if me.get_by_test_id("t-start").count():
            me.get_by_test_id("t-start").click()
            me.wait_for_timeout(1500)
            self.shot(me, "tournament-started")
        other.wait_for_timeout(1500)
        self.shot(other, "tournament-started-player")
        self.shot(other, "tournament-started-player-full", full=True)
        for i in (1, 2):
            sel = me.get_by_test_id(f"result-{i}")
            if sel.count() and sel.is_enabled():
                sel.select_option("white" if i == 1 else "black")
        me.wait_for_timeout(1500)
        self.shot(me, "tournament-results", full=True)
        other.wait_for_timeout(1000)
        self.shot(other, "tournament-results-player", full=True)
        for ctx in self.browser.contexts:
            ctx.close()


def main() -> None:
    walk.run_walks(Walk, __doc__ or "", OUT, start_server)


if __name__ == "__main__":
    main()
