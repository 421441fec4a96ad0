"""Byo-yomi on the page: the periods are shown while main time runs, the count goes on from one period to the
next between two states of the server, and a byo-yomi clock without main time is accepted."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def start_local_byoyomi(page: Any, main_minutes: str, period: str, periods: str) -> str:
    """Start a game of both sides on this screen with byo-yomi through the form; returns the game id."""
    page.goto("/")
    page.locator('input[name="opponent"][value="local"]').check()
    page.locator('select[name="clock"]').select_option("byoyomi")
    page.locator('input[name="main"]').fill(main_minutes)
    page.locator('input[name="period"]').fill(period)
    page.locator('input[name="periods"]').fill(periods)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/g/[^/?]+$"), timeout=5_000)
    return str(page.url.rsplit("/g/", 1)[1])


def test_byoyomi_periods_shown_and_counted_between_states(
    new_page: Any, ui: Any, server: Any, shot: Any
) -> None:
    page = new_page()
    # 6 s of main time, then 3 periods of 2 s: nobody moves, so the server sends no state until Black's flag.
    gid = start_local_byoyomi(page, "0.1", "2", "3")
    clock_b = page.get_by_test_id("clock-B")
    # While main time runs, the periods to come are shown beside it.
    expect(page.get_by_test_id("clock-W")).to_have_text("0:06 + 3 × 0:02")
    expect(clock_b).to_have_text(re.compile(r"^0:0[1-6] \+ 3 × 0:02$"))
    shot(page, "main-time")
    # Main time out: the periods count down, one after the other, without a new state from the server.
    expect(clock_b).to_have_text(re.compile(r"^3 × 0:0[0-2]$"), timeout=8_000)
    expect(clock_b).to_have_text(re.compile(r"^2 × 0:0[0-2]$"), timeout=4_000)
    shot(page, "second-period")
    expect(clock_b).to_have_text(re.compile(r"^1 × 0:0[0-2]$"), timeout=4_000)
    # The server decides the loss on time when the last period runs out.
    expect(page.get_by_test_id("result")).to_have_attribute("data-result", "W+T", timeout=10_000)
    expect(clock_b).to_have_text("0:00")
    expect(clock_b).to_have_class(re.compile("expired"))
    assert server.game(gid)["result"] == "W+T"


def test_byoyomi_without_main_time_is_accepted(new_page: Any, ui: Any, server: Any, shot: Any) -> None:
    page = new_page()
    gid = start_local_byoyomi(page, "0", "30", "5")
    spec = server.game(gid)["clock"]["spec"]
    assert spec == {"type": "byoyomi", "main": 0.0, "period": 30.0, "periods": 5}
    expect(page.get_by_test_id("clock-W")).to_have_text("5 × 0:30")
    expect(page.get_by_test_id("clock-B")).to_have_text(re.compile(r"^5 × 0:(2\d|30)$"))
    ui.point(page, "E5").click()
    ui.wait_stone(page, "E5", "black")
    # A move within the period keeps all the periods and starts the next one afresh.
    expect(page.get_by_test_id("clock-B")).to_have_text("5 × 0:30")
    expect(page.get_by_test_id("clock-W")).to_have_class(re.compile("running"))
    shot(page, "no-main-time")
