"""The move list of a long game: numbered moves in two columns (Black, White), nothing cut off sideways, as tall as
the screen allows, and scrolled to the newest move as moves arrive."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LETTERS = "ABCDEFGHJKLMNOPQRST"


def long_game_moves() -> list[str]:
    """70 moves on 19x19 with no capture: Black along rows 4 and 8, White along rows 16 and 12."""
    moves = []
    for black_row, white_row in ((4, 16), (8, 12)):
        for x in range(19):
            moves += [f"{LETTERS[x]}{black_row}", f"{LETTERS[x]}{white_row}"]
    return moves[:70]


def geometry(page: Any) -> dict[str, Any]:
    """Sizes of the move list and where its last entry lies."""
    result: dict[str, Any] = page.evaluate(
        """() => {
            const list = document.querySelector('[data-testid=move-list]');
            const box = list.getBoundingClientRect();
            const last = list.lastElementChild.getBoundingClientRect();
            const entries = [...list.querySelectorAll('li')].map((li) => li.getBoundingClientRect());
            return {
                clientWidth: list.clientWidth, scrollWidth: list.scrollWidth, height: box.height,
                lastVisible: last.top >= box.top - 1 && last.bottom <= box.bottom + 1
                    && last.left >= box.left - 1 && last.right <= box.right + 1,
                cut: entries.filter((r) => r.right > box.right + 1 || r.left < box.left - 1).length,
            };
        }"""
    )
    return result


def test_long_move_list_follows_the_game(new_page: Any, ui: Any, shot: Any) -> None:
    page = new_page(width=1280, height=1000)
    gid = ui.create_game(page, size=19, opponent="local")
    moves = long_game_moves()
    for vertex in moves[:40]:
        ui.play_api(page, gid, {"type": "play", "move": vertex})
    expect(page.locator('[data-testid="move-list"] li')).to_have_count(40)
    g = geometry(page)
    assert g["scrollWidth"] <= g["clientWidth"], f"the list scrolls sideways: {g}"
    assert g["cut"] == 0, f"entries cut off at the side: {g}"
    assert g["height"] > 224, f"the list is still a small fixed box: {g}"
    assert g["lastVisible"], f"the newest move is scrolled out of sight: {g}"
    # Entries carry their number: move 40 is White's, at the end of the list.
    expect(page.locator('[data-testid="move-list"] li').last).to_have_text(f"40 White {moves[39]}")
    shot(page, "forty-moves")

    # More moves arrive while the list is scrolled to the end: it keeps following the newest one.
    for vertex in moves[40:]:
        ui.play_api(page, gid, {"type": "play", "move": vertex})
    expect(page.locator('[data-testid="move-list"] li')).to_have_count(70)
    page.wait_for_function(
        """() => { const l = document.querySelector('[data-testid=move-list]');
                   const b = l.getBoundingClientRect(), r = l.lastElementChild.getBoundingClientRect();
                   return r.bottom <= b.bottom + 1 && r.top >= b.top - 1; }"""
    )
    g = geometry(page)
    assert g["scrollWidth"] <= g["clientWidth"] and g["cut"] == 0, g
    shot(page, "seventy-moves")

    # Reviewing an early move scrolls it into view; going back to the game returns to the newest.
    page.get_by_test_id("review-prev").click()
    expect(page.get_by_test_id("reviewing")).to_have_text("Reviewing move 69 of 70")
    page.get_by_test_id("review-start").click()
    page.get_by_test_id("review-next").click()
    expect(page.get_by_test_id("reviewing")).to_have_text("Reviewing move 1 of 70")
    page.wait_for_function(
        """() => { const l = document.querySelector('[data-testid=move-list]');
                   const b = l.getBoundingClientRect(), r = l.querySelector('[aria-current=step]').getBoundingClientRect();
                   return r.bottom <= b.bottom + 1 && r.top >= b.top - 1; }"""
    )
    page.get_by_test_id("review-live").click()
    page.wait_for_function(
        """() => { const l = document.querySelector('[data-testid=move-list]');
                   const b = l.getBoundingClientRect(), r = l.lastElementChild.getBoundingClientRect();
                   return r.bottom <= b.bottom + 1 && r.top >= b.top - 1; }"""
    )


def test_move_list_on_a_phone_is_not_cut(new_page: Any, ui: Any, shot: Any) -> None:
    page = new_page(width=390, height=844, touch=True)
    gid = ui.create_game(page, size=19, opponent="local")
    for vertex in long_game_moves()[:30]:
        ui.play_api(page, gid, {"type": "play", "move": vertex})
    expect(page.locator('[data-testid="move-list"] li')).to_have_count(30)
    g = geometry(page)
    assert g["scrollWidth"] <= g["clientWidth"] and g["cut"] == 0, g
    assert g["lastVisible"], g
    overflow = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px on a phone"
    shot(page, "phone-moves")
