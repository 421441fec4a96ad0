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
    expect(error).to_contain_text("These settings do not go together")
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
    expect(page.get_by_test_id("turn")).to_have_text("Black places the handicap stones (9 left)")
    for i, vertex in enumerate(("A1", "C3", "E5"), start=1):
        ui.point(page, vertex).click()
        ui.wait_stone(page, vertex, "black")
        expect(page.get_by_test_id("turn")).to_have_text(f"Black places the handicap stones ({9 - i} left)")


def test_clock_runs_down_and_time_loss_is_shown(new_page: Any, ui: Any, server: Any, shot: Any) -> None:
    page = new_page()
    page.goto("/")
    page.locator('input[name="opponent"][value="local"]').check()
    page.locator('select[name="clock"]').select_option("absolute")
    page.locator('input[name="main"]').fill("0.1")  # six seconds each
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/g/[^/?]+$"))
    gid = page.url.rsplit("/g/", 1)[1]
    expect(page.get_by_test_id("clock-W")).to_have_text("0:06")
    ui.point(page, "E5").click()
    ui.wait_stone(page, "E5", "black")
    # White's clock counts down on the page, and the server decides the loss on time.
    expect(page.get_by_test_id("clock-W")).to_have_text(re.compile(r"^0:0[0-5]$"))
    result = page.get_by_test_id("result")
    expect(result).to_have_attribute("data-result", "B+T", timeout=20_000)
    expect(result).to_contain_text("Black wins on time")
    expect(page.get_by_test_id("clock-W")).to_have_text("0:00")
    assert server.game(gid)["result"] == "B+T"
    shot(page, "time-loss")


def test_unknown_game_is_said_plainly(new_page: Any) -> None:
    page = new_page()
    page.goto("/g/no-such-game-here")
    error = page.get_by_test_id("error")
    expect(error).to_have_attribute("data-code", "no-such-game")
    expect(error).to_have_text("This game does not exist")
    page.get_by_role("link", name="Home").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()


def test_a_late_answer_of_the_server_keeps_the_opponent_chosen(new_page: Any, server: Any) -> None:
    """The form fills its defaults from /api/info; an answer that came after the click on "both sides on this
    screen" put the opponent back to the computer, and the game meant for one screen started against keima (CI: in
    test_the_quick_count_table_says_which_rows_make_the_total, F1 came out black after the bot's answer to E1)."""
    page = new_page()
    held: list[Any] = []
    page.route("**/api/info", lambda route: held.append(route))
    page.goto("/")
    page.locator("form.new-game").wait_for()
    local = page.locator('input[name="opponent"][value="local"]')
    local.check()
    page.locator('input[name="komi"]').fill("7.5")
    for _ in range(100):  # the page asked for the server's info; its answer is held until now
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page never asked for /api/info"
    with page.expect_response(re.compile(r"/api/info$")):
        for route in held:
            route.continue_()
    start = page.get_by_role("button", name="Start the game")
    expect(start).to_be_enabled()  # the answer's handler has run
    expect(local).to_be_checked()
    expect(page.locator('input[name="komi"]')).to_have_value("7.5")
    start.click()
    page.wait_for_url(re.compile(r"/g/[^/?]+$"))
    game = server.game(page.url.rsplit("/g/", 1)[1])
    assert game["mode"] == "local", game["players"]
    assert game["komi"] == 7.5
