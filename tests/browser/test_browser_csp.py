"""The UI runs under the server's Content-Security-Policy: no request or script of the page is refused."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

# Records every CSP violation the page reports, before any script of the page runs.
WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


def test_the_ui_loads_and_plays_under_the_csp(new_page: Any, ui: Any) -> None:
    page = new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    page.add_init_script(WATCH)
    response = page.goto("/")
    assert response is not None
    csp = response.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "'unsafe-inline'" not in csp
    assert response.headers["x-content-type-options"] == "nosniff"
    page.wait_for_load_state("load")
    assert page.evaluate("window.__cspViolations") == [], "the page itself was refused something"
    # A whole turn: the form (script and styles loaded), a game page, the live socket, a move answered.
    ui.create_game(page, size=9, opponent="bot", level="beginner")
    ui.point(page, "E5").click()
    ui.wait_stone(page, "E5", "black")
    page.reload()
    ui.point(page, "A1").wait_for()
    violations = page.evaluate("window.__cspViolations")
    refused = [text for text in console if "Content Security Policy" in text or "Refused to" in text]
    assert violations == [] and refused == [], (violations, refused)
