"""The rules lessons (/learn), in Chromium: a lesson completed, a refusal explained."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .test_browser_accessibility import AXE, violations

pytestmark = pytest.mark.browser


def lesson_point(page: Any, vertex: str) -> Any:
    return page.locator(f'[data-testid="lesson"] [data-vertex="{vertex}"]')


def test_ko_lesson_completed_with_the_referee_s_refusal(new_page: Any, shot: Any) -> None:
    page = new_page()
    page.add_init_script(path=str(AXE))  # for the accessibility checks
    page.goto("/learn?lesson=ko")
    expect(page.get_by_test_id("lesson")).to_have_attribute("data-lesson", "ko")
    # Step 1: a move the step does not ask for is legal but not accepted as the answer.
    lesson_point(page, "E5").click()
    expect(page.get_by_test_id("lesson-wrong")).to_contain_text("E5 is legal")
    lesson_point(page, "C4").click()
    expect(page.get_by_test_id("lesson-feedback")).to_have_text("Captured.")
    expect(lesson_point(page, "B4")).to_have_attribute("aria-label", "B4, empty")
    # Step 2: White retakes at once: the referee refuses, and the page says why.
    lesson_point(page, "B4").click()
    refusal = page.get_by_test_id("lesson-refusal")
    expect(refusal).to_have_attribute("data-reason", "ko")
    expect(refusal).to_contain_text("the ko rule forbids recreating the previous position")
    shot(page, "ko-refused")
    assert violations(page) == [], "lesson with a refusal"
    lesson_point(page, "E1").click()
    expect(lesson_point(page, "E2")).to_have_attribute("aria-label", "E2, black stone, last move")
    lesson_point(page, "B4").click()
    expect(page.get_by_test_id("lesson-complete")).to_be_visible()
    expect(page.get_by_test_id("lesson-ko")).to_contain_text("✓")
    shot(page, "ko-complete")


def test_superko_lesson_in_french(new_page: Any, shot: Any) -> None:
    page = new_page(locale="fr-FR")
    page.goto("/learn?lesson=superko")
    expect(page.get_by_test_id("lesson-prompt")).to_contain_text("prenez le ko en C8")
    for vertex in ("C8", "H8", "B4"):
        lesson_point(page, vertex).click()
        # Black's stone stays on each point taken (White answers elsewhere).
        expect(lesson_point(page, vertex)).to_have_attribute("aria-label", re.compile("pierre noire"))
    lesson_point(page, "G8").click()
    refusal = page.get_by_test_id("lesson-refusal")
    expect(refusal).to_have_attribute("data-reason", "superko")
    expect(refusal).to_contain_text("superko")
    expect(page.get_by_test_id("lesson-complete")).to_be_visible()
    shot(page, "superko-refused")



def test_quick_count_lesson_steps_through_the_count(new_page: Any, shot: Any) -> None:
    page = new_page()
    page.goto("/learn?lesson=quick-count")
    page.get_by_test_id("lesson-count").click()
    expect(page.get_by_test_id("count-steps")).to_have_attribute("data-method", "quick-count")
    expect(page.get_by_test_id("lesson-complete")).to_be_visible()
    page.get_by_test_id("step-next").click()
    shot(page, "quick-count")
