"""Details a new player notices: the komi a handicap game will get, the star points of a 9x9 board, the label of
the button that keeps a game going after "Resign", a visible word when a rejected marking resumes play, and a
move clicked while the connection is down."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_komi_placeholder_follows_the_handicap(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    komi = page.locator('input[name="komi"]')
    expect(komi).to_have_attribute("placeholder", "rules: 7.5")
    page.locator('select[name="handicap"]').select_option("4")
    # French rules give 0.5 komi in a handicap game (and n-1 points of compensation).
    expect(komi).to_have_attribute("placeholder", "rules: 0.5")
    page.locator('select[name="rules"]').select_option("new-zealand")
    expect(komi).to_have_attribute("placeholder", "rules: 7")  # no handicap komi: the usual one
    page.locator('select[name="handicap"]').select_option("0")
    page.locator('select[name="rules"]').select_option("japanese")
    expect(komi).to_have_attribute("placeholder", "rules: 6.5")


def star_points(page: Any) -> list[str]:
    """GTP names of the star points drawn (and not hidden) on the board."""
    names: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=board] .shudan-hoshi')]
                 .filter((c) => getComputedStyle(c).display !== 'none').map((c) => c.dataset.star).sort()"""
    )
    return names


def test_star_points_and_resign_cancel(new_page: Any, ui: Any, shot: Any) -> None:
    page = new_page()
    ui.create_game(page, size=9, opponent="local")
    # 9x9: the four 3-3 points and tengen.
    assert star_points(page) == ["C3", "C7", "E5", "G3", "G7"]
    shot(page, "nine-stars")

    page.get_by_role("button", name="Resign").click()
    confirm = page.locator(".confirm")
    expect(confirm.get_by_role("button", name="Cancel")).to_be_visible()
    expect(confirm.get_by_role("button", name="Decline")).to_have_count(0)
    confirm.get_by_role("button", name="Cancel").click()
    expect(page.locator(".confirm")).to_have_count(0)
    expect(page.locator(".game")).to_have_attribute("data-phase", "play")

    ui.create_game(page, size=19, opponent="local")
    assert star_points(page) == ["D10", "D16", "D4", "K10", "K16", "K4", "Q10", "Q16", "Q4"]
    ui.create_game(page, size=13, opponent="local")
    assert len(star_points(page)) in (5, 9)
    assert {"D4", "D10", "K4", "K10", "G7"} <= set(star_points(page))


def test_rejected_marking_says_play_resumes(new_page: Any, ui: Any, shot: Any) -> None:
    page = new_page()
    ui.create_game(page, size=9, opponent="local")
    for vertex in ("C3", "G7"):
        ui.point(page, vertex).click()
    ui.wait_stone(page, "G7", "white")
    page.get_by_role("button", name="Pass", exact=True).click()
    page.get_by_role("button", name="Pass", exact=True).click()
    expect(page.locator(".game")).to_have_attribute("data-phase", "scoring")
    page.get_by_role("button", name="Reject and resume play").click()
    expect(page.locator(".game")).to_have_attribute("data-phase", "play")
    notice = page.get_by_test_id("notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("The marking was rejected: play resumes")
    shot(page, "resumed")
    # The next move clears it.
    ui.point(page, "E5").click()
    expect(page.get_by_test_id("notice")).to_have_count(0)


def test_click_while_reconnecting_is_not_lost_silently(new_page: Any, ui: Any, server: Any, shot: Any) -> None:
    page = new_page()
    gid = ui.create_game(page, size=9, opponent="local")
    ui.point(page, "C3").click()
    ui.wait_stone(page, "C3", "black")
    page.context.set_offline(True)
    page.evaluate("window.keimaSocket.drop()")
    expect(page.get_by_test_id("connection")).to_contain_text("reconnecting")
    ui.point(page, "E5").click()
    notice = page.get_by_test_id("notice")
    expect(notice).to_be_visible()
    expect(notice).to_have_text(re.compile(r"E5 was not sent.*reconnecting", re.IGNORECASE))
    shot(page, "not-sent")
    assert server.game(gid)["board"][4 * 9 + 4] == 0
    page.context.set_offline(False)
    expect(page.get_by_test_id("connection")).to_contain_text("connected", timeout=15_000)
    expect(page.get_by_test_id("connection")).not_to_contain_text("reconnecting")
    ui.point(page, "E5").click()
    ui.wait_stone(page, "E5", "white")
    expect(page.get_by_test_id("notice")).to_have_count(0)
