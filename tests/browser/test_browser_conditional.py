"""Conditional moves built by clicking on the board, as OGS builds them (issue 43, item 8): the opponent's expected
move, the answer, the next expected move...; Back and a click on another move make a branch. The tree is saved,
read back after a reload, and each bad line is refused beside it with the referee's reason, in English and in
French, on a phone and on a desktop."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.browser.test_browser_correspondence import waiting_for_d4

pytestmark = pytest.mark.browser

WORDS = {
    "en-US": {"if": "if", "occupied": "D4: D4 is already occupied", "two": "Line 2: C3 is given two different answers",
              "saved": "Saved."},
    "fr-FR": {"if": "si", "occupied": "D4\u00a0: D4 est déjà occupée", "two": "Ligne 2\u00a0: C3 reçoit deux réponses",
              "saved": "Enregistrés."},
}


STONE = {"black": "black stone|pierre noire", "white": "white stone|pierre blanche", "empty": "empty|libre"}


def stone(ui: Any, page: Any, vertex: str, color: str) -> None:
    """Wait until ``vertex`` shows ``color`` ("black", "white", "empty"), read in either language."""
    expect(ui.point(page, vertex)).to_have_attribute("aria-label", re.compile(STONE[color]))


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_a_tree_built_by_clicking_is_saved_and_read_back(new_page: Any, ui: Any, server: Any, shot: Any,
                                                         locale: str, width: int) -> None:
    words = WORDS[locale]
    phone = width < 600
    a = new_page(locale=locale, width=width, height=844 if phone else 860, touch=phone)
    gid, b = waiting_for_d4(a, new_page, ui)  # Black played D4: White is to move, Black plans
    a.goto(f"/g/{gid}")
    panel = a.get_by_test_id("conditional")
    panel.get_by_test_id("cond-plan").click()
    hint = a.get_by_test_id("cond-board-hint")

    ui.point(a, "D4").click()  # a stone is there: refused by the referee's reason, nothing added
    expect(panel.get_by_test_id("cond-refusal")).to_contain_text(words["occupied"])
    for vertex in ("C3", "G7", "E5", "F6"):  # theirs, mine, theirs, mine
        ui.point(a, vertex).click()
    stone(ui, a, "C3", "white")  # the planned position is on the board
    stone(ui, a, "F6", "black")
    expect(panel.get_by_test_id("cond-refusal")).to_have_count(0)
    panel.get_by_test_id("cond-back").click()
    panel.get_by_test_id("cond-back").click()  # back to after G7: another move of theirs is a branch
    stone(ui, a, "E5", "empty")
    ui.point(a, "D6").click()
    expect(hint).to_contain_text("D6")  # now the answer to D6
    ui.point(a, "E6").click()
    panel.get_by_test_id("cond-root").click()  # back to the position now: a second first move
    stone(ui, a, "C3", "empty")
    ui.point(a, "G3").click()
    ui.point(a, "C7").click()
    tree = panel.get_by_test_id("conditional-tree")
    expect(tree.locator(".cond-node.selected")).to_have_text(f"{words['if']} G3 → C7")
    shot(a, f"conditional-planned-{locale}-{width}")

    panel.get_by_test_id("conditional-save").click()
    expect(panel.get_by_test_id("cond-saved")).to_have_text(words["saved"])
    a.reload()
    nodes = a.get_by_test_id("conditional-tree").get_by_test_id("cond-node")
    expect(nodes).to_have_count(4)
    lines = [nodes.nth(i).get_attribute("data-line") for i in range(4)]
    assert lines == ["C3 G7", "C3 G7 E5 F6", "C3 G7 D6 E6", "G3 C7"], lines
    expect(a.get_by_test_id("conditional-tree").locator("li li .cond-node").first).to_contain_text(words["if"])
    stored = a.request.get(f"/api/games/{gid}/conditional").json()["tree"]
    assert [n["if"] for n in stored] == ["C3", "G3"] and len(stored[0]["then"]) == 2

    # The typed lines: two answers to one move refused beside their line, in the reader's words.
    panel = a.get_by_test_id("conditional")
    panel.locator("summary").click()
    panel.get_by_test_id("conditional-text").fill("C3 G7\nC3 H7")
    panel.get_by_test_id("conditional-save-text").click()
    expect(panel.get_by_test_id("conditional-error")).to_contain_text(words["two"])
    shot(a, f"conditional-refused-{locale}-{width}")
    overflow = a.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"

    ui.play_api(b, gid, {"type": "play", "move": "C3"})  # followed: G7 is played for Black at once
    stone(ui, a, "G7", "black")
    assert [m["vertex"] for m in server.game(gid)["moves"]] == ["D4", "C3", "G7"]
    expect(a.get_by_test_id("conditional-tree").get_by_test_id("cond-node")).to_have_count(2)
