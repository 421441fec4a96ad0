"""A GTP engine at the table (``keima serve --engine``): GNU Go is offered in the new-game form and answers the
person's moves in the browser, keima refereeing under the French rules."""

from __future__ import annotations

import os
from typing import Any

import pytest
from playwright.sync_api import expect

GNUGO = "/usr/games/gnugo"

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason="GNU Go is missing")]


def test_gnugo_plays_in_the_browser(new_page: Any, ui: Any, server: Any) -> None:
    page = new_page()
    page.goto("/")
    option = page.locator('select[name="bot_level"] option[value="engine:GNU Go"]')
    expect(option).to_have_text("GNU Go (GTP engine)")
    gid = ui.create_game(page, size=9, rules="french", opponent="bot", level="engine:GNU Go", color="B")
    state = server.game(gid)
    assert state["players"]["W"]["level"] == "engine:GNU Go" and state["rules"]["name"] == "french"
    ui.point(page, "E5").click()
    expect(page.locator("[data-testid=move-list] li")).to_have_count(2, timeout=30_000)
    moves = server.game(gid)["moves"]
    assert [m["color"] for m in moves[:2]] == ["B", "W"] and moves[0]["vertex"] == "E5"
    expect(page.get_by_test_id("bot-note")).to_have_count(0)
