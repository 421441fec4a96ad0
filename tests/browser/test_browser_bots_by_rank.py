"""A bot of my rank (issue 48): the new-game form preselects the ranked level nearest to the player's rank and
says so; another level can be chosen and the nearest one taken back in a click; a game against it is played.
English on a desktop, French on a 390 px phone; a player with no rank is offered nothing of the kind."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from playwright.sync_api import expect

from .test_browser_accessibility import AXE, violations
from .test_browser_player_page import post

pytestmark = pytest.mark.browser


def player_with_rank(page: Any, rank: str | None) -> str:
    name = f"Rk{secrets.token_hex(3)}"
    post(page, "/api/players", {"name": name, "password": "correct horse"})
    if rank is not None:
        answer = page.request.patch("/api/me", data={"rank": rank})
        assert answer.ok, answer.text()
    return name


def test_the_form_offers_a_bot_of_my_rank(new_page: Any, ui: Any, shot: Any) -> None:
    page = new_page()
    page.add_init_script(path=str(AXE))
    player_with_rank(page, "16k")
    page.goto("/")
    level = page.locator('select[name="bot_level"]')
    expect(level).to_have_value("15k")
    hint = page.get_by_test_id("bot-for-me")
    expect(hint).to_have_text("A bot of your rank: the level nearest to yours (15k).")
    expect(level.locator('option[value="15k"]')).to_have_text("like a 15k")
    assert violations(page) == [], "the new-game form with a bot of my rank"
    shot(page, "form-en")

    # Another level: the hint offers the nearest one back, in a click.
    level.select_option("beginner")
    expect(hint).to_contain_text("The level nearest to your rank: like a 15k.")
    hint.get_by_role("button", name="Choose it").click()
    expect(level).to_have_value("15k")

    # The game: keima (15k) answers the first move.
    page.locator('input[name="size"][value="9"]').check()
    page.locator('select[name="color"]').select_option("B")
    page.locator('form.new-game button[type="submit"]').click()
    page.wait_for_url(re.compile(r"/g/[^/?]+$"))
    ui.point(page, "E5").click()
    ui.wait_stone(page, "E5", "black")
    expect(page.get_by_text("keima (15k)").first).to_be_visible()
    expect(page.locator('[data-testid="move-list"] li')).to_have_count(2, timeout=30_000)
    shot(page, "game-en")


def test_in_french_on_a_phone(new_page: Any, shot: Any) -> None:
    page = new_page(locale="fr-FR", width=390, height=844, touch=True)
    page.add_init_script(path=str(AXE))
    player_with_rank(page, "24k")
    page.goto("/")
    expect(page.locator('select[name="bot_level"]')).to_have_value("25k")
    hint = page.get_by_test_id("bot-for-me")
    expect(hint).to_have_text("Un ordinateur de votre niveau\u00a0: le plus proche du vôtre (25k).")
    expect(page.locator('select[name="bot_level"] option[value="25k"]')).to_have_text("comme un 25k")
    box = hint.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert violations(page) == [], "the new-game form, French, phone"
    shot(page, "form-fr-phone")


def test_no_rank_no_offer(new_page: Any) -> None:
    page = new_page()
    player_with_rank(page, None)
    page.goto("/")
    expect(page.locator('select[name="bot_level"]')).to_have_value("beginner")
    expect(page.get_by_test_id("bot-for-me")).to_have_count(0)


@pytest.mark.parametrize(("locale", "width"), [("en-US", 1280), ("fr-FR", 390)])
def test_automatch_offers_a_bot_of_my_rank_without_waiting(new_page: Any, server: Any, shot: Any, locale: str,
                                                           width: int) -> None:
    page = new_page(locale=locale, width=width, height=844)
    player_with_rank(page, "11k")
    page.goto("/")
    panel = page.get_by_test_id("automatch")
    page.get_by_test_id("automatch-size-19").uncheck()  # 9x9 only: the game's size is the first one chosen
    page.get_by_test_id("automatch-speed-blitz").check()
    button = panel.get_by_test_id("automatch-bot")
    words = {"en-US": "No wait: play a bot of my rank (like a 12k)",
             "fr-FR": "Sans attendre\u00a0: un ordinateur de mon niveau (comme un 12k)"}[locale]
    expect(button).to_have_text(words)
    shot(page, f"automatch-{locale}")
    button.click()
    page.wait_for_url(re.compile(r"/g/[^/?]+$"))
    gid = page.url.rsplit("/g/", 1)[1]
    state = server.game(gid)
    assert state["size"] == 9 and state["rated"] is True
    spec = state["clock"]["spec"]
    assert (spec["type"], spec["main"], spec["period"]) == ("byoyomi", 300, 10)  # the blitz speed's clock
    names = {state["players"][c]["name"] for c in ("B", "W")}
    assert "keima (12k)" in names
