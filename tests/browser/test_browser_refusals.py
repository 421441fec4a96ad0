"""Refused moves explained in words with their rule (ko, occupied), and a page reload in the middle of a game."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

import keima

pytestmark = pytest.mark.browser

# Black D5 E6 E4, White F6 F4 G5 around two empty points; Black tenukis, White takes E5, Black captures at F5.
KO_SETUP = ["D5", "F6", "E6", "F4", "E4", "G5", "J9", "E5", "F5"]

REASON_WORDS = {
    "ko": "retakes the ko at once",
    "superko": "would repeat an earlier position of the board",
}


def test_ko_refusal_and_occupied_point_then_reload(new_page: Any, ui: Any, server: Any, shot: Any) -> None:
    page = new_page()
    gid = ui.create_game(page, size=9, opponent="local", rules="french", clock="byoyomi")
    expect(page.get_by_test_id("you")).to_have_text("You play both sides")
    # Byo-yomi with the form's defaults: 10 minutes each, then 5 periods of 30 s; Black's clock running first.
    expect(page.get_by_test_id("clock-W")).to_have_text("10:00 + 5 × 0:30")
    expect(page.get_by_test_id("clock-B")).to_have_class(re.compile("running"))
    expect(page.get_by_test_id("clock-B")).to_have_text(re.compile(r"^9:5\d \+ 5 × 0:30$"), timeout=5_000)
    # The stone about to be played is previewed under the pointer, in the colour to move.
    ui.point(page, "D5").hover()
    expect(ui.point(page, "D5")).to_have_class(re.compile(r"shudan-ghost_1\b"))
    for i, vertex in enumerate(KO_SETUP):
        color = "black" if i % 2 == 0 else "white"
        ui.point(page, vertex).click()
        ui.wait_stone(page, vertex, color)
    ui.wait_stone(page, "E5", "empty")  # captured by F5
    expect(page.get_by_test_id("clock-W")).to_have_class(re.compile("running"))
    expect(page.get_by_test_id("clock-B")).not_to_have_class(re.compile("running"))
    expect(page.get_by_test_id("captures-B")).to_have_text("1")
    expect(page.get_by_test_id("announcer")).to_contain_text("Black F5, captures 1 stone")

    # White retakes at once: the referee refuses, the UI says why, and nothing changes.
    ui.point(page, "E5").click()
    refusal = page.get_by_test_id("refusal")
    expect(refusal).to_be_visible()
    reference = keima.Game(size=9, rules="french")
    for vertex in KO_SETUP:
        reference.play(vertex)
    expected_reason = reference.legality("E5")
    assert expected_reason in REASON_WORDS
    expect(refusal).to_have_attribute("data-reason", expected_reason)
    expect(refusal).to_contain_text("E5")
    expect(refusal).to_contain_text(REASON_WORDS[expected_reason])
    ui.wait_stone(page, "E5", "empty")
    assert ui.moves_shown(page) == len(KO_SETUP)
    shot(page, "ko-refused")

    # An occupied point is refused with its own sentence.
    ui.point(page, "D5").click()
    expect(refusal).to_have_attribute("data-reason", "occupied")
    expect(refusal).to_contain_text("D5 is already occupied")

    # White plays elsewhere, Black answers, and now White may take the ko back.
    for vertex, color in (("B2", "white"), ("H2", "black"), ("E5", "white")):
        ui.point(page, vertex).click()
        ui.wait_stone(page, vertex, color)
    ui.wait_stone(page, "F5", "empty")
    expect(refusal).to_have_count(0)

    # A reload in the middle of the game shows the same position and lets play go on.
    before = server.game(gid)
    page.reload()
    ui.point(page, "A1").wait_for()
    for p, c in enumerate(before["board"]):
        vertex = f"{'ABCDEFGHJ'[p % 9]}{9 - p // 9}"
        expect(ui.point(page, vertex)).to_have_attribute(
            "aria-label", re.compile({0: "empty", 1: "black stone", 2: "white stone"}[c])
        )
    assert ui.moves_shown(page) == len(before["moves"])
    expect(page.get_by_test_id("you")).to_have_text("You play both sides")
    expect(page.get_by_test_id("turn")).to_have_text("Black to play")
    ui.point(page, "C3").click()
    ui.wait_stone(page, "C3", "black")
    assert server.game(gid)["moves"][-1]["vertex"] == "C3"

    # On a shared screen an undo takes back the last move at once (the other side is the same person).
    page.get_by_role("button", name="Ask to undo").click()
    ui.wait_stone(page, "C3", "empty")
    expect(page.get_by_test_id("undo-ask")).to_have_count(0)
    expect(page.get_by_test_id("announcer")).to_have_text("The last move was taken back.")
    expect(page.get_by_test_id("turn")).to_have_text("Black to play")
    assert len(server.game(gid)["moves"]) == len(before["moves"])

    # Review: every earlier position, captures included, is the one the referee had after that move.
    moves = server.game(gid)["moves"]
    reference = keima.Game(size=9, rules="french")
    for n, move in enumerate(moves[:-1], start=1):
        reference.play(move["vertex"])
        page.locator('[data-testid="move-list"] li').nth(n - 1).get_by_role("button").click()
        expect(page.get_by_test_id("reviewing")).to_have_text(f"Reviewing move {n} of {len(moves)}")
        assert board_shown(page) == list(reference.board.colors), f"position after move {n}"
    page.get_by_test_id("review-live").click()
    assert board_shown(page) == server.game(gid)["board"]
    shot(page, "after-reload")


def board_shown(page: Any) -> list[int]:
    """The board as the page's point labels tell it (0 empty, 1 black, 2 white), point by point."""
    labels: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=board] .shudan-vertex')]
                 .sort((a, b) => (a.dataset.y - b.dataset.y) || (a.dataset.x - b.dataset.x))
                 .map((el) => el.getAttribute('aria-label'))"""
    )
    return [1 if "black stone" in s else 2 if "white stone" in s else 0 for s in labels]
