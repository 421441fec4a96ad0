"""A phone (390x844 touch screen): a first tap selects a point and shows the stone, a second tap on it plays, a tap
elsewhere moves the selection; on by default on a touch screen, and a setting turns it off. The page fits the
screen's width."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_tap_to_select_then_confirm_on_a_phone(new_page: Any, ui: Any, server: Any, shot: Any) -> None:
    page = new_page(width=390, height=844, touch=True)
    gid = ui.create_game(page, size=19, opponent="local")
    overflow = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"
    width = ui.point(page, "K10").bounding_box()["width"]
    assert width >= 17, f"a point of the 19x19 board is only {width} px wide"
    confirm = page.get_by_test_id("confirm-tap")
    expect(confirm).to_be_checked()  # on by default on a touch screen
    shot(page, "phone-start")

    # First tap: D4 is selected and shows the stone to be played; nothing is sent.
    ui.point(page, "D4").tap()
    expect(ui.point(page, "D4")).to_have_class(re.compile(r"\bshudan-selected\b"))
    expect(ui.point(page, "D4")).to_have_attribute("aria-label", re.compile("selected"))
    expect(page.get_by_test_id("tap-hint")).to_contain_text("D4")
    expect(page.get_by_test_id("tap-hint")).to_be_in_viewport()
    shot(page, "phone-selected")
    assert server.game(gid)["moves"] == []
    ui.wait_stone(page, "D4", "empty")

    # A tap elsewhere moves the selection.
    ui.point(page, "Q16").tap()
    expect(ui.point(page, "Q16")).to_have_class(re.compile(r"\bshudan-selected\b"))
    expect(ui.point(page, "D4")).not_to_have_class(re.compile(r"\bshudan-selected\b"))
    expect(page.get_by_test_id("tap-hint")).to_contain_text("Q16")
    assert server.game(gid)["moves"] == []

    # A second tap on the selected point plays there.
    ui.point(page, "Q16").tap()
    ui.wait_stone(page, "Q16", "black")
    expect(ui.point(page, "Q16")).not_to_have_class(re.compile(r"\bshudan-selected\b"))
    expect(page.get_by_test_id("tap-hint")).to_have_count(0)
    assert [m["vertex"] for m in server.game(gid)["moves"]] == ["Q16"]
    shot(page, "phone-played")

    # An occupied point is not selected: the refusal comes at the first tap.
    ui.point(page, "Q16").tap()
    expect(page.get_by_test_id("refusal")).to_have_attribute("data-reason", "occupied")
    expect(page.get_by_test_id("tap-hint")).to_have_count(0)

    # Turned off, one tap plays; the choice is remembered.
    confirm.uncheck()
    ui.point(page, "D4").tap()
    ui.wait_stone(page, "D4", "white")
    page.reload()
    ui.point(page, "A1").wait_for()
    expect(page.get_by_test_id("confirm-tap")).not_to_be_checked()
    ui.point(page, "C3").tap()
    ui.wait_stone(page, "C3", "black")


def test_desktop_click_plays_at_once_and_can_ask_confirmation(new_page: Any, ui: Any) -> None:
    page = new_page()
    ui.create_game(page, size=9, opponent="local")
    expect(page.get_by_test_id("confirm-tap")).not_to_be_checked()  # a mouse: one click plays
    ui.point(page, "E5").click()
    ui.wait_stone(page, "E5", "black")
    page.get_by_test_id("confirm-tap").check()
    ui.point(page, "C3").click()
    expect(ui.point(page, "C3")).to_have_class(re.compile(r"\bshudan-selected\b"))
    ui.wait_stone(page, "C3", "empty")
    ui.point(page, "C3").click()
    ui.wait_stone(page, "C3", "white")
    # The keyboard plays at once, whatever the setting: Enter is already a deliberate choice.
    ui.point(page, "G7").focus()
    page.keyboard.press("Enter")
    ui.wait_stone(page, "G7", "black")
