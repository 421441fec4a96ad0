"""A bot level as a rated player in the browser: after a registered person's rated game against keima (beginner),
the bot's name on the game page links to its page (/p/keima (beginner)), in English and in French, which shows its
rank, its rating and the chart of its rating, and the person's page links back to it among their opponents."""

from __future__ import annotations

import secrets
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from .test_browser_player_page import post

pytestmark = pytest.mark.browser

BOT = "keima (beginner)"
BOT_PATH = "keima%20(beginner)"
POINTS = ["C3", "G7", "C7", "G3", "E5", "D4", "F6", "D6", "F4", "E3", "E7", "C5", "G5"]


def wait(pred: Any, what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def test_the_bot_has_a_page_with_its_rating_linked_from_the_game(new_page: Any, server: Any, shot: Any) -> None:
    page = new_page()
    name = f"Ria{secrets.token_hex(3)}"
    post(page, "/api/players", {"name": name, "password": "correct horse"})
    before = len(server.get(f"/api/players/{BOT_PATH}/ratings")["ratings"])
    g = post(page, "/api/games", {"size": 9, "opponent": "bot", "bot_level": "beginner", "color": "B",
                                  "rated": True})
    gid, seat = g["game"]["id"], {"X-Keima-Seat": g["seat"]["token"]}
    points, played = iter(POINTS), 0
    while played < 5:
        wait(lambda: server.game(gid)["to_move"] == "B", "the bot did not answer")
        answer = page.request.post(f"/api/games/{gid}/actions", data={"type": "play", "move": next(points)},
                                   headers=seat)
        assert answer.status in (200, 409), answer.text()  # 409: the bot holds that point
        played += answer.status == 200
    wait(lambda: server.game(gid)["to_move"] == "B", "the bot did not answer")
    post(page, f"/api/games/{gid}/actions", {"type": "resign"}, seat)
    wait(lambda: len(server.get(f"/api/players/{BOT_PATH}/ratings")["ratings"]) == before + 1, "the bot was not rated")
    bot = server.get(f"/api/players/{BOT_PATH}")

    # The game page names the bot with a link to its page.
    page.goto(f"/g/{gid}")
    link = page.locator("a.player-link", has_text=BOT)
    expect(link.first).to_have_attribute("href", "/p/keima%20(beginner)")
    link.first.click()
    page.get_by_test_id("player-page").wait_for()
    expect(page.locator("h2.player-title")).to_have_text(BOT)
    expect(page.get_by_test_id("player-bot")).to_be_visible()
    expect(page.get_by_test_id("player-rank")).to_contain_text(bot["rank"])
    expect(page.get_by_test_id("player-rating")).to_contain_text(str(round(bot["rating"]["rating"])))
    chart = page.locator(".player-chart svg")
    expect(chart.first).to_be_visible()
    expect(page.locator(f'[data-testid="player-games"] li[data-game="{gid}"]')).to_be_visible()
    expect(page.get_by_test_id("player-opponents")).to_contain_text(name)
    shot(page, "bot-page")

    # In French the bot's name is worded in French; its link is still to the name the server gives it.
    fr = new_page(locale="fr-FR")
    fr.goto(f"/g/{gid}")
    expect(fr.locator("a.player-link", has_text="keima (débutant)").first).to_have_attribute(
        "href", "/p/keima%20(beginner)")
    shot(fr, "game-page-fr")
    fr.goto("/p/keima%20(beginner)")
    expect(fr.locator("h2.player-title")).to_have_text("keima (débutant)")

    # The person's page: the bot among the opponents, linked to its page.
    page.goto(f"/p/{name}")
    page.get_by_test_id("player-page").wait_for()
    back = page.get_by_test_id("player-opponents").locator("a.player-link", has_text=BOT)
    expect(back).to_have_attribute("href", "/p/keima%20(beginner)")
