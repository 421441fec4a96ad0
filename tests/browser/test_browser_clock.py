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
    assert spec == {"type": "byoyomi", "main": 0.0, "period": 30.0, "periods": 5,
                    "weekend_pause": False, "vacation": True}
    expect(page.get_by_test_id("clock-W")).to_have_text("5 × 0:30")
    expect(page.get_by_test_id("clock-B")).to_have_text(re.compile(r"^5 × 0:(2\d|30)$"))
    ui.point(page, "E5").click()
    ui.wait_stone(page, "E5", "black")
    # A move within the period keeps all the periods and starts the next one afresh.
    expect(page.get_by_test_id("clock-B")).to_have_text("5 × 0:30")
    expect(page.get_by_test_id("clock-W")).to_have_class(re.compile("running"))
    shot(page, "no-main-time")


def start_local_absolute(page: Any, minutes: str) -> str:
    """Start a game of both sides on this screen with an absolute clock; returns the game id."""
    page.goto("/")
    page.locator('input[name="opponent"][value="local"]').check()
    page.locator('select[name="clock"]').select_option("absolute")
    page.locator('input[name="main"]').fill(minutes)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/g/[^/?]+$"), timeout=5_000)
    return str(page.url.rsplit("/g/", 1)[1])


def seconds_shown(text: str) -> int:
    """"9:38" as 578 seconds."""
    m, s = text.split(":")
    return int(m) * 60 + int(s)


# A browser whose clock is one hour fast: the page must count from the server's time, not from this one.
ONE_HOUR_FAST = """
(() => {
  const shift = 3600 * 1000;
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  class ShiftedDate extends RealDate {
    constructor(...args) { if (args.length) super(...args); else super(realNow() + shift); }
    static now() { return realNow() + shift; }
  }
  window.Date = ShiftedDate;
})();
"""


def test_page_opened_mid_move_with_a_wrong_clock_shows_the_players_time(
    new_page: Any, ui: Any, server: Any, shot: Any
) -> None:
    players = new_page()
    gid = start_local_absolute(players, "5")
    ui.point(players, "E5").click()
    ui.wait_stone(players, "E5", "black")
    # White's clock runs; a spectator opens the game some seconds into White's think, with a clock 1 hour fast.
    players.wait_for_timeout(2500)
    spectator = new_page()
    spectator.add_init_script(ONE_HOUR_FAST)
    spectator.goto(f"/g/{gid}")
    expect(spectator.get_by_test_id("you")).to_have_text("You are watching this game.")
    assert spectator.evaluate("Date.now() - performance.timeOrigin") > 3_000_000  # the shift holds
    expect(spectator.get_by_test_id("clock-W")).to_have_class(re.compile("running"))
    assert "at" in server.game(gid)["clock"]  # the reading says when it was made
    for _ in range(3):
        a = seconds_shown(players.get_by_test_id("clock-W").inner_text())
        b = seconds_shown(spectator.get_by_test_id("clock-W").inner_text())
        # Read one after the other: at most one tick of the display apart.
        assert abs(a - b) <= 1, (a, b)
        assert 290 <= a <= 298, a
        players.wait_for_timeout(700)
    assert seconds_shown(spectator.get_by_test_id("clock-B").inner_text()) >= 295
    shot(spectator, "spectator-one-hour-fast")


def test_my_games_show_the_clocks_ticking_in_the_game_page_format(
    new_page: Any, ui: Any, server: Any, shot: Any
) -> None:
    page = new_page()
    gid = start_local_absolute(page, "5")
    ui.point(page, "E5").click()
    ui.wait_stone(page, "E5", "black")
    page.goto("/")
    row = page.locator(f'[data-testid="lobby-mine"] li[data-game="{gid}"]')
    clock_w = row.get_by_test_id("lobby-clock-W")
    expect(clock_w).to_have_text(re.compile(r"^(5:00|4:5\d)$"))
    first = seconds_shown(clock_w.inner_text())
    # White's clock runs: the lobby counts it down without a new message; Black's stands still.
    expect(clock_w).not_to_have_text(clock_w.inner_text(), timeout=4_000)
    assert seconds_shown(clock_w.inner_text()) < first
    expect(row.get_by_test_id("lobby-clock-B")).to_have_text(re.compile(r"^(5:00|4:5\d)$"))
    shot(page, "my-games-clocks")
