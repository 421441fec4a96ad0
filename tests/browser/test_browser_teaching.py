"""The bot as a teacher, in the browser (issue 44): a finished game's page opens without an error in the console
(it used to log a 404 asking for a review nobody had asked for), and after an early pass the beginner plays on and
the page says which border is open, in English and in French."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_a_finished_game_page_has_no_console_error(new_page: Any, ui: Any, shot: Any) -> None:
    page = new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    gid = ui.create_game(page, size=9, opponent="local")
    ui.play_api(page, gid, {"type": "play", "move": "E5"})
    ui.play_api(page, gid, {"type": "resign"})
    page.reload()
    expect(page.get_by_test_id("turn")).to_contain_text("resignation")
    # The review's button is there (none asked for yet), and the page asked the server without an error.
    page.wait_for_load_state("networkidle")
    assert errors == [], errors
    shot(page, "finished")


@pytest.mark.parametrize(("locale", "words"), [
    ("en-US", "keima (beginner) plays on after the pass: the border is still open at "),
    ("fr-FR", "continue après la passe\u00a0: la frontière est encore ouverte en "),
])
def test_the_beginner_plays_on_after_an_early_pass_and_says_where(new_page: Any, ui: Any, shot: Any, locale: str,
                                                                 words: str) -> None:
    page = new_page(locale=locale)
    gid = ui.create_game(page, size=9, opponent="bot", level="beginner", color="B")
    # Black passes at once: on an empty board White wins the count by the komi, and the beginner used to pass
    # back, ending the game in one click.
    ui.play_api(page, gid, {"type": "pass"})
    note = page.get_by_test_id("bot-note")
    expect(note).to_contain_text(words.split("keima (beginner) ")[-1], timeout=180_000)
    expect(page.locator(".game")).to_have_attribute("data-phase", "play")
    shot(page, f"plays-on-{locale}")
    # The person plays on: the note has done its work and goes.
    before = ui.moves_shown(page)
    ui.point(page, "C3" if ui.stone_at(page, "C3") == "empty" else "G7").click()
    page.wait_for_function("n => document.querySelectorAll('[data-testid=move-list] li').length > n", arg=before)
    expect(note).to_have_count(0)
