"""The French UI: chosen from the browser's language, switchable, remembered, and complete (labels, refusals)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_french_from_the_browser_and_switchable(new_page: Any, ui: Any, shot: Any) -> None:
    page = new_page(locale="fr-FR")
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", name="Nouvelle partie")).to_be_visible()
    expect(page.get_by_role("button", name="Commencer la partie")).to_be_visible()
    shot(page, "home-fr")

    page.locator('input[name="opponent"][value="local"]').check()
    page.get_by_role("button", name="Commencer la partie").click()
    ui.point(page, "A1").wait_for()
    expect(page.get_by_test_id("board")).to_have_attribute("aria-label", "Goban de 9 sur 9")
    expect(page.get_by_test_id("turn")).to_have_text("Noir joue")
    expect(page.get_by_test_id("settings")).to_have_text("9×9, règles françaises (FFG), komi 7,5")
    ui.point(page, "D4").click()
    expect(ui.point(page, "D4")).to_have_attribute("aria-label", "D4, pierre noire, dernier coup")
    expect(page.get_by_test_id("announcer")).to_have_text("Noir D4")
    ui.point(page, "D4").click()
    expect(page.get_by_test_id("refusal")).to_contain_text("D4 est déjà occupée")
    expect(page.get_by_role("button", name="Passer", exact=True)).to_be_visible()
    shot(page, "game-fr")

    # Switch to English: every label follows at once, the game goes on.
    page.get_by_test_id("language").select_option("en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(ui.point(page, "D4")).to_have_attribute("aria-label", "D4, black stone, last move")
    expect(page.get_by_test_id("turn")).to_have_text("White to play")
    expect(page.get_by_test_id("refusal")).to_contain_text("D4 is already occupied")
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_visible()

    # The choice is remembered over the browser's language after a reload.
    page.reload()
    ui.point(page, "A1").wait_for()
    expect(page.get_by_test_id("turn")).to_have_text("White to play")
    page.get_by_test_id("language").select_option("fr")
    expect(page.get_by_test_id("turn")).to_have_text(re.compile("^Blanc joue$"))
    shot(page, "switched-back-fr")

    # Resigning asks for a confirmation, then the result is given in words.
    page.get_by_role("button", name="Abandonner").click()
    expect(page.get_by_text("Abandonner cette partie ?")).to_be_visible()
    page.get_by_role("button", name="Abandonner").click()
    expect(page.get_by_test_id("result")).to_contain_text("Noir gagne par abandon (B+R)")
    expect(page.locator(".game")).to_have_attribute("data-phase", "finished")
    shot(page, "resigned-fr")
