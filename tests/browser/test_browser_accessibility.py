"""The pages pass axe-core's accessibility checks (WCAG 2 A and AA rules), in both languages and every phase."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"


def violations(page: Any) -> list[str]:
    """axe-core's WCAG A/AA violations on the page, one line each (rule, impact, first offending element).

    axe comes in through an init script (see the test), not a <script> tag added to the page: the server's
    Content-Security-Policy refuses inline scripts, as it should."""
    assert page.evaluate("() => typeof window.axe !== 'undefined'"), "axe-core was not loaded in the page"
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, {runOnly: ['wcag2a', 'wcag2aa']})).violations.map(v => ({
              id: v.id, impact: v.impact, target: v.nodes[0].target.join(' '), n: v.nodes.length}))"""
    )
    return [f"{v['id']} ({v['impact']}, {v['n']}x, e.g. {v['target']})" for v in found]


def test_pages_pass_axe(new_page: Any, ui: Any, shot: Any) -> None:
    assert AXE.exists(), "axe-core is a dev dependency of web/: run `npm ci` there"
    page = new_page()
    page.add_init_script(path=str(AXE))  # in every document the page opens, before its own scripts
    page.goto("/")
    page.locator("form.new-game").wait_for()
    assert violations(page) == [], "new-game form"

    ui.create_game(page, size=9, opponent="local")
    for vertex in ("E5", "E6", "D6", "F6"):
        ui.point(page, vertex).click()
    ui.wait_stone(page, "F6", "white")
    assert violations(page) == [], "game in play"

    ui.point(page, "E5").click()  # occupied: the refusal is on the page too
    expect(page.get_by_test_id("refusal")).to_be_visible()
    page.get_by_role("button", name="Pass", exact=True).click()
    page.get_by_role("button", name="Pass", exact=True).click()
    expect(page.locator(".game")).to_have_attribute("data-phase", "scoring")
    assert violations(page) == [], "dead-stone phase"

    page.get_by_role("button", name=re.compile(r"Accept this marking \(Black\)")).click()
    page.get_by_role("button", name=re.compile(r"Accept this marking \(White\)")).click()
    expect(page.locator(".game")).to_have_attribute("data-phase", "finished")
    page.get_by_test_id("language").select_option("fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert violations(page) == [], "final count, in French"
    shot(page, "final-fr")
