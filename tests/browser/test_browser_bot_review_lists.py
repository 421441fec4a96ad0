"""The bot's review as a teacher reads it, in Chromium at 390 px (a phone) and 1280 px, in English and French: a tap
on the graph changes a board that stays in view, each player's accuracy and classed moves, the points each candidate
loses, and the bot's analysis of a move tried in a variation, for the side to move there (never the start's)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .test_browser_bot_review import BLUNDER_SGF, ask_the_bot, point

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "bot-review-lists"
WORDS = {
    "en-US": {"accuracy": r"Black: accuracy \d", "for_white": "for White", "blunder": "blunder",
              "analyse": "Analyse this position", "variation": "In a variation", "move5": "Move 5"},
    "fr-FR": {"accuracy": "Noir\u00a0: précision \\d", "for_white": "pour Blanc", "blunder": "gaffe",
              "analyse": "Analyser cette position", "variation": "Dans une variante", "move5": "Coup 5"},
}


def visible_share(page: Any, selector: str) -> float:
    """The share of the element's height inside the viewport."""
    share: float = page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
           const seen = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0); return Math.max(0, seen) / r.height; }""",
        selector)
    return share


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_graph_lists_and_a_variation_analysed(new_page: Any, shot: Any, tmp_path: Path, width: int,
                                              locale: str) -> None:
    words = WORDS[locale]
    phone = width < 600
    page = new_page(locale=locale, width=width, height=844 if phone else 860, touch=phone)
    record = tmp_path / "blunder.sgf"
    record.write_text(BLUNDER_SGF, encoding="utf-8")
    page.goto("/review")
    page.get_by_test_id("sgf-file").set_input_files(str(record))
    expect(page.get_by_test_id("review")).to_be_visible()
    ask_the_bot(page)
    board = '[data-testid="review"] .board-column [data-testid="board"]'
    # The graph: on a phone right under the board, in the board's column; a tap on it changes the board in view.
    chart = page.get_by_test_id("line-chart").first
    in_column = page.locator('[data-testid="review"] .board-column [data-testid="line-chart"]')
    expect(in_column).to_have_count(2 if phone else 0)
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    chart.click(position={"x": box["width"] - 16, "y": box["height"] / 2})
    expect(page.get_by_test_id("review-position")).to_contain_text(words["move5"])
    assert visible_share(page, board) >= 0.6, "the board a tap on the graph changes is out of sight"
    SHOTS.mkdir(parents=True, exist_ok=True)
    tag = f"{'phone' if phone else 'desktop'}-{locale[:2]}"
    page.screenshot(path=str(SHOTS / f"graph-tap-{tag}.png"))
    # Each player's accuracy and classed moves: Black's A1 threw four stones away, a blunder.
    expect(page.get_by_test_id("bot-player-B")).to_contain_text(re.compile(words["accuracy"]))
    blunder = page.get_by_test_id("bot-player-B").get_by_test_id("bot-classed").first
    expect(blunder).to_contain_text(words["blunder"])
    blunder.click()
    # Each candidate after the first says the points it loses against it.
    expect(page.get_by_test_id("bot-candidate").first).to_be_visible()
    others = page.get_by_test_id("bot-candidate").count() - 1
    expect(page.get_by_test_id("bot-candidate-loss")).to_have_count(others)
    if others:
        expect(page.get_by_test_id("bot-candidate-loss").first).to_contain_text(re.compile(r"\(−\d"))
    page.get_by_test_id("bot-players").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"lists-{tag}.png"))
    # A move tried after White's F4 (Black B1): a variation where White is to move; the review has no candidates
    # there (none of the start position's either), and the bot analyses the node on request.
    if page.get_by_test_id("review-start").is_enabled():
        page.get_by_test_id("review-start").click()
    page.get_by_test_id("review-next").click()
    page.get_by_test_id("review-next").click()
    point(page, "B1").click()
    expect(page.get_by_test_id("review-position")).to_contain_text(words["variation"])
    expect(page.get_by_test_id("bot-candidates")).to_have_count(0)
    analyse = page.get_by_test_id("bot-analyse")
    expect(analyse).to_have_text(words["analyse"])
    analyse.click()
    expect(page.get_by_test_id("bot-candidates")).to_contain_text(words["for_white"], timeout=30_000)
    expect(page.get_by_test_id("bot-position-eval")).to_be_visible()
    expect(page.locator('[data-testid="review"] .shudan-vertex .shudan-marker')).not_to_have_count(0)
    page.get_by_test_id("bot-position").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"variation-{tag}.png"))
    width_now = page.evaluate("document.documentElement.scrollWidth")
    assert width_now <= width, f"the page scrolls sideways: {width_now} px"
    shot(page, tag)
