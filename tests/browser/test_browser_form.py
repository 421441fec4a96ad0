"""Bad settings in the new-game form are explained, and nothing typed is lost."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_bad_settings_are_explained_and_kept(new_page: Any, ui: Any, shot: Any) -> None:
    page = new_page()
    page.goto("/")
    page.locator('input[name="size"][value="custom"]').check()
    size = page.locator('input[name="customSize"]')

    # Out of range: the browser itself refuses to send the form and says which field is wrong.
    size.fill("30")
    page.get_by_role("button", name="Start the game").click()
    assert size.evaluate("el => el.validity.valid") is False
    assert "25" in size.evaluate("el => el.validationMessage")
    expect(page).to_have_url(re.compile(r"/$"))

    # In range but impossible with these settings: the server's refusal is shown in words, the form kept.
    size.fill("5")
    page.locator('select[name="handicap"]').select_option("9")
    page.locator('select[name="placement"]').select_option("fixed")
    page.locator('input[name="opponent"][value="local"]').check()
    page.get_by_role("button", name="Start the game").click()
    error = page.get_by_test_id("error")
    expect(error).to_have_attribute("data-code", "invalid-request")
    expect(error).to_contain_text("The server refused these settings")
    expect(error).to_contain_text(re.compile(r"handicap.*5x5"))
    expect(page).to_have_url(re.compile(r"/$"))
    expect(size).to_have_value("5")
    expect(page.locator('select[name="handicap"]')).to_have_value("9")
    shot(page, "refused-settings")

    # Corrected, the same form starts the game.
    page.locator('select[name="placement"]').select_option("free")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/g/[^/?]+$"))
    expect(page.get_by_test_id("board")).to_have_attribute("aria-label", "Go board, 5 by 5")
    expect(page.get_by_test_id("turn")).to_have_text("Black places 9 handicap stones")
