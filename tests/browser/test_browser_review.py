"""The review page (/review) and the rules lessons (/learn), in Chromium."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .test_browser_accessibility import AXE, violations

pytestmark = pytest.mark.browser

# Main line B E5, W C7, B G3; a variation W G7, B C3 after Black's first move, with its own comment.
VARIATION_SGF = (
    "(;GM[1]FF[4]SZ[9]KM[7.5]RU[French]PB[Alice]PW[Bob]RE[B+R]C[Start]"
    ";B[ee]C[Tengen]"
    "(;W[cc]C[Main line];B[gg])"
    "(;W[gc]C[A variation: White takes the other side];B[cg]))"
)


def review_point(page: Any, vertex: str) -> Any:
    return page.locator(f'[data-testid="review"] .board-column [data-vertex="{vertex}"]')


def test_review_an_uploaded_sgf_with_a_variation(new_page: Any, server: Any, shot: Any, tmp_path: Path) -> None:
    page = new_page()
    page.add_init_script(path=str(AXE))  # for the accessibility check
    page.goto("/review")
    record = tmp_path / "variation.sgf"
    record.write_text(VARIATION_SGF, encoding="utf-8")
    page.get_by_test_id("sgf-file").set_input_files(str(record))
    expect(page.get_by_test_id("comment")).to_have_text("Start")
    expect(page.get_by_text("Alice (Black) – Bob (White)")).to_be_visible()

    page.get_by_test_id("review-next").click()
    expect(page.get_by_test_id("comment")).to_have_text("Tengen")
    expect(review_point(page, "E5")).to_have_attribute("aria-label", re.compile("black stone"))
    # Two continuations: the main line's C7 and the variation's G7.
    expect(page.get_by_test_id("variation-1")).to_have_text("B. White G7")
    page.get_by_test_id("variation-1").click()
    expect(page.get_by_test_id("comment")).to_have_text("A variation: White takes the other side")
    expect(page.get_by_test_id("review-position")).to_contain_text("In a variation")
    expect(review_point(page, "G7")).to_have_attribute("aria-label", re.compile("white stone"))
    expect(review_point(page, "C7")).to_have_attribute("aria-label", re.compile("empty"))
    # The keyboard walks on in the variation: the next move is the variation's C3, not the main line's G3.
    page.get_by_test_id("review").press("ArrowRight")
    expect(review_point(page, "C3")).to_have_attribute("aria-label", re.compile("black stone"))
    expect(review_point(page, "G3")).to_have_attribute("aria-label", re.compile("empty"))

    # The estimate at this node: Black's side of the board is shaded as Black's.
    page.get_by_test_id("estimate").check()
    expect(review_point(page, "A1")).to_have_attribute("aria-label", re.compile("black territory"), timeout=60_000)
    shot(page, "variation-estimate")
    assert violations(page) == [], "review with the estimate"

    # Up the variation (arrow key) back to the sibling on the main line, then to its end: the count is offered.
    page.get_by_test_id("estimate").uncheck()
    page.get_by_test_id("review").press("ArrowLeft")
    page.get_by_test_id("review").press("ArrowUp")
    expect(page.get_by_test_id("comment")).to_have_text("Main line")
    page.get_by_test_id("review-end").click()
    page.get_by_test_id("review-count").click()
    expect(page.get_by_test_id("count-steps")).to_be_visible(timeout=60_000)  # the stepper of the count
    download = page.get_by_test_id("review-download")
    expect(download).to_have_attribute("download", "review.sgf")
    shot(page, "main-line-end")


def test_a_bad_record_is_explained(new_page: Any) -> None:
    page = new_page()
    page.goto("/review")
    page.get_by_test_id("sgf-text").fill("(;SZ[9];B[ee](;W[cc])(;W[ee]))")
    page.get_by_test_id("open-pasted").click()
    expect(page.get_by_test_id("error")).to_have_text(
        "This record holds a move the rules refuse, in one of its variations."
    )


def test_a_finished_game_links_to_its_review(new_page: Any, ui: Any, server: Any) -> None:
    page = new_page()
    gid = ui.create_game(page, size=9, opponent="local", level=None)
    ui.point(page, "E5").click()
    ui.wait_stone(page, "E5", "black")
    page.get_by_role("button", name="Resign").click()
    expect(page.get_by_text("Resign this game?")).to_be_visible()
    page.get_by_role("button", name="Resign").click()
    expect(page.locator(".game")).to_have_attribute("data-phase", "finished")
    expect(page.get_by_test_id("review-game")).to_be_visible()
    page.get_by_test_id("review-game").click()
    expect(page).to_have_url(re.compile(rf"/review\?game={gid}$"))
    page.get_by_test_id("review-end").click()
    expect(review_point(page, "E5")).to_have_attribute("aria-label", re.compile("black stone"))
