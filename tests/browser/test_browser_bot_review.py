"""The bot's review in Chromium: the win-rate and score graphs, the largest mistake marked with what it lost, the
bot's best moves on the board at the move shown, picking a move on the graph; in English and French, on a desktop
and a phone, on the review page and on a finished game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .test_browser_accessibility import AXE, violations

pytestmark = pytest.mark.browser

# Black to move on 7x7 in a capturing race: the five white stones of the 5th line and the four black stones below
# them share their last liberty, F4. Black plays A1 instead (a blunder: White takes four stones at F4), then the game
# goes on. (7x7: the search finds the capture at a few hundred playouts; docs/bot.md, *Limits*, says why on 9x9 it
# may not.)
BLUNDER_SGF = (
    "(;GM[1]FF[4]SZ[7]KM[0.5]PB[Alice]PW[Bob]"
    "AB[bb][cb][db][eb][fb][ac][gc][bd][cd][dd][ed]AW[bc][cc][dc][ec][fc][ad][be][ce][de][ee]PL[B]"
    ";B[ag];W[fd];B[cg];W[ff];B[fe])"
)


def open_record(page: Any, tmp_path: Path) -> None:
    record = tmp_path / "blunder.sgf"
    record.write_text(BLUNDER_SGF, encoding="utf-8")
    page.goto("/review")
    page.get_by_test_id("sgf-file").set_input_files(str(record))
    expect(page.get_by_test_id("review")).to_be_visible()


def ask_the_bot(page: Any) -> None:
    page.get_by_test_id("bot-start").click()
    # Six positions at 600 playouts each (the compiled search may first load from numba's cache).
    expect(page.get_by_test_id("line-chart")).to_have_count(2, timeout=60_000)
    expect(page.get_by_test_id("bot-progress")).to_have_count(0, timeout=60_000)


def point(page: Any, vertex: str) -> Any:
    return page.locator(f'[data-testid="review"] .board-column [data-vertex="{vertex}"]')


def test_the_review_graph_marks_the_blunder_and_shows_the_best_moves(new_page: Any, shot: Any,
                                                                       tmp_path: Path) -> None:
    page = new_page()
    page.add_init_script(path=str(AXE))  # for the accessibility check
    open_record(page, tmp_path)
    ask_the_bot(page)
    mistake = page.get_by_test_id("bot-mistake").first
    expect(mistake).to_have_text(re.compile(r"^Move 1 \(A1\): −\d\d"))
    expect(page.get_by_test_id("chart-marker").first).to_be_attached()
    # The mistake leads to the position where it was played: the bot's first choice is the capture, F4, labelled
    # on the board with its win rate; the move played is not among them and has a triangle.
    mistake.click()
    expect(page.get_by_test_id("review-position")).to_contain_text("Start of the game")
    first = page.get_by_test_id("bot-candidate").first
    expect(first).to_have_text(re.compile(r"^F4 \d+ %, \d+ playouts"))
    expect(point(page, "F4")).to_have_attribute("aria-label", re.compile(r"bot's choice A, \d+ %"))
    expect(page.get_by_test_id("bot-played-elsewhere")).to_contain_text(re.compile(r"Played: A1 \(triangle\), \d+"))
    expect(point(page, "A1")).to_have_attribute("aria-label", re.compile("the move played"))
    expect(page.locator('[data-testid="review"] .shudan-vertex .shudan-marker')).not_to_have_count(0)
    shot(page, "desktop-en")
    assert violations(page) == [], "the review with the bot's graphs and candidates"
    # A click on the graph's right end jumps to the last move; the cursor follows.
    chart = page.get_by_test_id("line-chart").first
    box = chart.bounding_box()
    chart.click(position={"x": box["width"] - 16, "y": box["height"] / 2})
    expect(page.get_by_test_id("review-position")).to_contain_text("Move 5")
    expect(page.get_by_test_id("bot-now")).to_contain_text("After move 5: Black wins")
    # The keyboard steps on the graph too.
    chart.press("Home")
    expect(page.get_by_test_id("review-position")).to_contain_text("Start of the game")


def test_the_stored_review_in_french_and_on_a_phone(new_page: Any, shot: Any, tmp_path: Path) -> None:
    # Another person opens the same record: the review is already there, shared.
    page = new_page(locale="fr-FR", width=390, height=844, touch=True)
    open_record(page, tmp_path)
    expect(page.get_by_role("heading", name="Analyse par le bot")).to_be_visible()
    ask_the_bot(page)
    expect(page.get_by_text("Plus grosses erreurs (points perdus)\u00a0:")).to_be_visible()
    expect(page.get_by_test_id("bot-mistake").first).to_have_text(re.compile(r"^Coup 1 \(A1\)\u00a0: −\d\d"))
    page.get_by_test_id("bot-mistake").first.click()
    expect(page.get_by_test_id("bot-candidate").first).to_contain_text("simulations")
    # The graph fits the phone's width.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone: {width} px"
    shot(page, "phone-fr")
    desktop = new_page(locale="fr-FR")
    open_record(desktop, tmp_path)
    ask_the_bot(desktop)
    shot(desktop, "desktop-fr")
    phone = new_page(width=390, height=844, touch=True)
    open_record(phone, tmp_path)
    ask_the_bot(phone)
    shot(phone, "phone-en")


def test_a_finished_game_shows_its_review_and_a_live_one_none(new_page: Any, ui: Any, shot: Any) -> None:
    page = new_page()
    gid = ui.create_game(page, opponent="local")
    expect(page.get_by_test_id("bot-review")).to_have_count(0)  # never during play
    for vertex in ("E5", "C3", "G7"):
        ui.play_api(page, gid, {"type": "play", "move": vertex})
    ui.play_api(page, gid, {"type": "resign"})
    expect(page.get_by_test_id("bot-review")).to_be_visible()
    page.get_by_test_id("bot-start").click()
    expect(page.get_by_test_id("line-chart")).to_have_count(2, timeout=60_000)
    expect(page.get_by_test_id("bot-progress")).to_have_count(0, timeout=60_000)
    # Picking the start on the graph shows the empty board with the bot's candidates for Black's first move.
    page.get_by_test_id("line-chart").first.press("Home")
    expect(page.get_by_test_id("reviewing")).to_contain_text("move 0 of 3")
    expect(page.get_by_test_id("bot-candidates")).to_contain_text("for Black")
    shot(page, "finished-game")
