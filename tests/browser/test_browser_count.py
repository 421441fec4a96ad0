"""The count step by step after a game, and the referee's position tool, in Chromium."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .test_browser_accessibility import AXE, violations

pytestmark = pytest.mark.browser

COLS = "ABCDEFGHJ"


def steps_point(page: Any, vertex: str) -> Any:
    return page.locator(f'[data-testid="count-steps"] [data-vertex="{vertex}"]')


def setup_point(page: Any, vertex: str) -> Any:
    return page.locator(f'[data-testid="position-tool"] .position-layout [data-vertex="{vertex}"]')


def test_stepper_after_a_counted_game(new_page: Any, ui: Any, server: Any, shot: Any) -> None:
    page = new_page()
    page.add_init_script(path=str(AXE))  # for the accessibility check at the end
    gid = ui.create_game(page, size=9, opponent="local", level=None, komi="7.5")
    # A wall: Black on column E, White on column F; Black owns A-D (36 points), White G-J (27).
    for row in range(1, 10):
        for col in ("E", "F"):
            ui.point(page, f"{col}{row}").click()
            ui.wait_stone(page, f"{col}{row}", "black" if col == "E" else "white")
    page.get_by_role("button", name="Pass", exact=True).click()
    expect(page.locator('[data-testid="move-list"] li')).to_have_count(19)
    page.get_by_role("button", name="Pass", exact=True).click()
    expect(page.locator(".game")).to_have_attribute("data-phase", "scoring")
    assert server.game(gid)["score"]["result"] == "B+1.5"

    page.get_by_test_id("show-steps").click()
    steps = page.get_by_test_id("count-steps")
    expect(steps).to_have_attribute("data-method", "area")  # the ruleset's own method first
    expect(steps).to_have_attribute("data-kind", "area-dead")
    expect(page.get_by_test_id("step-counter")).to_have_text("Step 1 of 4")
    page.get_by_test_id("step-next").click()
    expect(page.get_by_test_id("step-sentence")).to_have_text(
        "Each stone left on the board is one point for its colour: Black 9, White 9."
    )
    expect(page.get_by_test_id("total-B")).to_have_text("9")
    # The arrow keys walk the steps too.
    steps.focus()
    page.keyboard.press("ArrowRight")
    expect(steps).to_have_attribute("data-kind", "area-territory")
    expect(page.get_by_test_id("total-B")).to_have_text("45")
    expect(page.get_by_test_id("total-W")).to_have_text("36")
    expect(steps_point(page, "A9")).to_have_attribute("aria-label", re.compile("black territory"))
    page.keyboard.press("End")
    expect(steps).to_have_attribute("data-kind", "area-komi")
    expect(page.get_by_test_id("total-W")).to_have_text("43.5")
    expect(page.get_by_test_id("step-rule")).to_contain_text("FFG rules")
    page.keyboard.press("ArrowLeft")
    expect(steps).to_have_attribute("data-kind", "area-territory")

    # The FFG quick count: one pass stone each; Black's goes to White's territory (G9 first in reading order).
    steps.locator('button[data-method="quick-count"]').click()
    expect(steps).to_have_attribute("data-kind", "qc-prisoners")
    for _ in range(4):
        page.get_by_test_id("step-next").click()
    expect(steps).to_have_attribute("data-kind", "qc-fill")
    expect(page.get_by_test_id("step-sentence")).to_contain_text("Black puts 1 of the white stones he holds")
    expect(steps_point(page, "G9")).to_have_attribute("aria-label", re.compile("white stone"))
    expect(page.get_by_test_id("held-B")).to_have_text("0")
    shot(page, "quick-count-fill")
    page.keyboard.press("End")
    expect(steps).to_have_attribute("data-kind", "qc-komi")
    expect(page.get_by_test_id("total-B")).to_have_text("35")
    expect(page.get_by_test_id("total-W")).to_have_text("33.5")
    # The same totals as the count table's.
    table = page.locator('[data-testid="score"] table[data-method="quick-count"] tr.total td')
    expect(table.nth(0)).to_have_text("35")
    expect(table.nth(1)).to_have_text("33.5")
    shot(page, "quick-count-end")
    assert violations(page) == [], "game with the stepper open"


def test_position_tool_set_up_mark_count(new_page: Any, shot: Any) -> None:
    page = new_page()
    page.add_init_script(path=str(AXE))  # for the accessibility check at the end
    page.goto("/")
    page.get_by_test_id("position-link").click()
    page.wait_for_url(re.compile(r"/position$"))
    expect(page.get_by_test_id("position-tool")).to_be_visible()
    # Black wall on D, White wall on E, and a hopeless white stone at B5.
    for row in range(1, 10):
        setup_point(page, f"D{row}").click()
    page.locator('input[name="tool"][value="white"]').check()
    for row in range(1, 10):
        setup_point(page, f"E{row}").click()
    setup_point(page, "B5").click()
    expect(setup_point(page, "B5")).to_have_attribute("aria-label", re.compile("white stone"))

    page.get_by_test_id("estimate").click()
    expect(page.get_by_test_id("position-note")).to_have_text("Counted.")
    expect(setup_point(page, "B5")).to_have_attribute("aria-label", re.compile("dead"))
    area = page.locator('[data-testid="score"] table[data-method="area"] tr.total td')
    expect(area.nth(0)).to_have_text("36")
    expect(area.nth(1)).to_have_text("52.5")  # 9 stones + 36 points (F-J) + komi
    steps = page.get_by_test_id("count-steps")
    expect(steps).to_have_attribute("data-method", "quick-count")
    page.get_by_test_id("step-next").click()
    page.get_by_test_id("step-next").click()
    page.get_by_test_id("step-next").click()
    expect(steps).to_have_attribute("data-kind", "qc-dead")
    expect(page.get_by_test_id("held-B")).to_have_text("1")
    shot(page, "position-dead-removed")

    # Unmark the stone by hand: it is alive, so A-C is no longer Black's territory.
    page.locator('input[name="tool"][value="dead"]').check()
    setup_point(page, "B5").click()
    expect(setup_point(page, "B5")).not_to_have_attribute("aria-label", re.compile("dead"))
    page.get_by_test_id("count").click()
    expect(area.nth(0)).to_have_text("9")
    expect(area.nth(1)).to_have_text("53.5")
    # Mark it again, and count with captures and pass stones given.
    setup_point(page, "B5").click()
    page.locator('input[name="prisoners-B"]').fill("3")
    page.locator('input[name="pass-W"]').fill("1")
    page.get_by_test_id("count").click()
    terr = page.locator('[data-testid="score"] table[data-method="territory"] tr.total td')
    expect(terr.nth(0)).to_have_text("31")  # 27 + 3 captures + 1 dead stone
    expect(terr.nth(1)).to_have_text("44.5")  # 36 + 1 pass stone + 7.5
    page.keyboard.press("Tab")
    steps.locator('button[data-method="territory"]').click()
    steps.focus()
    page.keyboard.press("End")
    expect(page.get_by_test_id("total-B")).to_have_text("31")
    expect(page.get_by_test_id("total-W")).to_have_text("44.5")
    shot(page, "position-territory-end")
    assert violations(page) == [], "position tool with a count"


def test_position_tool_from_sgf_and_refusals_in_french(new_page: Any, shot: Any) -> None:
    page = new_page(locale="fr-FR")
    page.goto("/position")
    expect(page.get_by_role("heading", name="Compter une position")).to_be_visible()
    sgf = "(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[ec];B[cc];W[gg])"
    page.locator('textarea[name="sgf"]').fill(sgf)
    page.locator('input[name="sgf-move"]').fill("3")
    page.get_by_role("button", name="Charger la position").click()
    expect(page.get_by_test_id("position-note")).to_have_text("Position après le coup 3 sur 4.")
    expect(setup_point(page, "E5")).to_have_attribute("aria-label", re.compile("pierre noire"))
    expect(setup_point(page, "G3")).to_have_attribute("aria-label", re.compile("libre"))
    page.get_by_test_id("count").click()
    steps = page.get_by_test_id("count-steps")
    expect(steps).to_have_attribute("data-kind", "qc-prisoners")
    expect(page.get_by_test_id("step-sentence")).to_contain_text("Chaque joueur garde les pierres")
    page.keyboard.press("Tab")
    steps.focus()
    page.keyboard.press("End")
    expect(page.get_by_test_id("step-sentence")).to_contain_text("Blanc ajoute le komi")
    expect(page.get_by_test_id("step-rule")).to_contain_text("Règle française")
    shot(page, "french-position")
    # A record that cannot be read: the server's refusal names the field.
    page.locator('textarea[name="sgf"]').fill("(;SZ[9];B[zz")
    page.get_by_role("button", name="Charger la position").click()
    expect(page.get_by_test_id("error")).to_have_attribute("data-field", "sgf")
