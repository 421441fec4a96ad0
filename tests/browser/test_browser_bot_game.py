"""A whole 9x9 game against the bot, played through the browser: keyboard and mouse moves, passes, the dead-stone
phase with the estimator's proposal, the final count of every method, territory on the board, SGF and review."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Points the human tries in turn; an occupied or refused one is skipped (the bot may have taken it).
TRIES = ["C3", "G7", "C7", "G3", "D5", "F5", "E3", "E7", "C5", "G5"]


def wait_bot_answer(page: Any, before: int, vertex: str = "", timeout_s: float = 30) -> None:
    """Wait until the human's action and the bot's answer are both in the move list (before: its length
    before the action), or play has stopped, or the human's move at vertex was refused. Counting entries,
    rather than watching whose turn it is, cannot miss a bot that answers within one frame."""
    page.wait_for_function(
        """([n, v]) => document.querySelector('.game').dataset.phase !== 'play'
            || document.querySelectorAll('[data-testid=move-list] li').length >= n + 2
            || (v && document.querySelector(`[data-testid=refusal][data-vertex="${v}"]`))""",
        arg=[before, vertex],
        timeout=timeout_s * 1000,
    )


def test_full_game_against_the_bot(new_page: Any, ui: Any, server: Any, shot: Any) -> None:
    page = new_page()
    gid = ui.create_game(page, size=9, opponent="bot", level="beginner", color="B")
    expect(page.get_by_test_id("you")).to_have_text("You play Black")
    expect(page.get_by_test_id("turn")).to_contain_text("Your turn")
    board = page.get_by_test_id("board")
    expect(board).to_have_attribute("aria-label", "Go board, 9 by 9")
    expect(ui.point(page, "A9")).to_have_attribute("aria-label", "A9, empty")
    assert page.locator('[data-testid="board"] [role="button"]').count() == 81

    # Keyboard play: the tab stop starts at the centre (E5); two arrows up and Enter play E7.
    ui.point(page, "E5").focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(ui.point(page, "E7")).to_be_focused()
    page.keyboard.press("Enter")
    ui.wait_stone(page, "E7", "black")
    # The first answer may wait for the bot's compilation on a fresh machine (the UI says it is warming up).
    wait_bot_answer(page, 0, timeout_s=180)
    assert ui.moves_shown(page) == 2
    expect(page.get_by_test_id("turn")).to_contain_text("Your turn")
    expect(page.get_by_test_id("announcer")).to_contain_text("White")  # the bot's answer, announced
    shot(page, "after-first-moves")

    # A few moves with the mouse, then pass until the bot passes too.
    for vertex in TRIES:
        if page.locator(".game").get_attribute("data-phase") != "play":
            break
        if ui.stone_at(page, vertex) != "empty":
            continue
        before = ui.moves_shown(page)
        ui.point(page, vertex).click()
        wait_bot_answer(page, before, vertex)
        refused = page.locator(f'[data-testid="refusal"][data-vertex="{vertex}"]')
        if refused.count():  # an empty point may still be suicide or a repetition: say so, try the next
            assert refused.get_attribute("data-reason") in ("suicide", "ko", "superko")
    shot(page, "middle-game")

    # Pass until the bot passes too. The bot accepts a marking equal to its own estimate; when it does not
    # (its estimate differs from the proposal), the human rejects the marking and play resumes, as a person
    # facing a disagreement would: two passes opening the resumption end the game with every stone alive.
    first_round = True
    for _round in range(4):
        pass_until_play_stops(ui, page, keyboard_first=first_round)
        phase = page.locator(".game").get_attribute("data-phase")
        if phase == "finished":
            break
        assert phase == "scoring", phase
        if first_round:
            check_dead_stone_phase(ui, page, server, gid)
            shot(page, "scoring")
            first_round = False
        # Wait for the bot's verdict before acting, so that nothing changes the game while it thinks.
        try:
            expect(page.get_by_test_id("accepted-W")).to_have_text("White accepted", timeout=20_000)
        except AssertionError:
            page.get_by_role("button", name="Reject and resume play").click()
            expect(page.locator(".game")).to_have_attribute("data-phase", "play")
            continue
        page.get_by_role("button", name="Accept this marking").click()
        expect(page.locator(".game")).to_have_attribute("data-phase", "finished", timeout=30_000)
        break
    expect(page.locator(".game")).to_have_attribute("data-phase", "finished")
    final = server.game(gid)
    result = page.get_by_test_id("result")
    expect(result).to_have_attribute("data-result", final["result"])
    assert re.fullmatch(r"[BW]\+\d+(\.5)?|0", final["result"]), final["result"]

    # Every counting method side by side, each with its totals as the server counted them.
    tables = page.get_by_test_id("score").locator("table.method")
    expect(tables).to_have_count(4)
    for name, method in final["score"]["methods"].items():
        table = page.locator(f'table.method[data-method="{name}"]')
        total = table.locator("tr.total td")
        expect(total.nth(0)).to_have_text(fmt(method["black"]))
        expect(total.nth(1)).to_have_text(fmt(method["white"]))
    expect(page.locator(f'table.method.own[data-method="{final["score"]["method"]}"]')).to_have_count(1)

    # Territory is painted on the board, point for point as the server counted it.
    painted_b = page.locator('[data-testid="board"] .shudan-vertex.shudan-paint_1').count()
    painted_w = page.locator('[data-testid="board"] .shudan-vertex.shudan-paint_-1').count()
    assert painted_b == len(final["score"]["territory"]["B"])
    assert painted_w == len(final["score"]["territory"]["W"])
    shot(page, "final-count")

    # The SGF download serves the record of this game.
    href = page.get_by_test_id("sgf").get_attribute("href")
    sgf = page.request.get(href)
    assert sgf.ok
    text = sgf.text()
    assert "SZ[9]" in text and f"RE[{final['result']}]" in text

    # Review: step back one move; the board shows the position before the last move.
    moves = final["moves"]
    last_placed = next(m for m in reversed(moves) if m["point"] is not None)
    n_last = moves.index(last_placed) + 1
    page.locator('[data-testid="move-list"] li').nth(n_last - 2).get_by_role("button").click()
    expect(page.get_by_test_id("reviewing")).to_have_text(f"Reviewing move {n_last - 1} of {len(moves)}")
    ui.wait_stone(page, last_placed["vertex"], "empty")
    shot(page, "review")
    page.get_by_test_id("review-live").click()
    expect(page.get_by_test_id("reviewing")).to_have_count(0)


def pass_until_play_stops(ui: Any, page: Any, keyboard_first: bool) -> None:
    """The human passes, turn after turn, until play stops (the bot passed too, or the game ended)."""
    for i in range(120):
        page.wait_for_function(  # after a resumption the bot may be the one to start
            """() => document.querySelector('.game').dataset.phase !== 'play'
                || document.querySelector('[data-testid=turn]').textContent.startsWith('Your turn')""",
            timeout=30_000,
        )
        if page.locator(".game").get_attribute("data-phase") != "play":
            return
        before = ui.moves_shown(page)
        if i == 0 and keyboard_first:  # the first pass from the keyboard, on the board
            ui.point(page, "A1").focus()
            page.keyboard.press("p")
        else:
            page.get_by_role("button", name="Pass", exact=True).click()
        wait_bot_answer(page, before)
    raise AssertionError("the bot did not pass in 120 turns")


def check_dead_stone_phase(ui: Any, page: Any, server: Any, gid: str) -> None:
    """The dead-stone phase starts with the estimator's proposal as the marking, shown on the board."""
    expect(page.get_by_test_id("scoring")).to_be_visible()
    expect(page.get_by_test_id("proposal")).to_contain_text("The marking is its proposal.")
    state = server.game(gid)
    assert state["proposal"] is not None and sorted(state["dead"]) == sorted(state["proposal"])
    for p in state["dead"]:
        expect(ui.point(page, state_vertex(p, 9))).to_have_attribute("aria-label", re.compile("marked dead"))
    expect(page.get_by_test_id("score").locator("table.method")).to_have_count(4)


def state_vertex(p: int, size: int) -> str:
    """GTP name of an integer point (row 0 at the top), as the UI labels it."""
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    return f"{letters[p % size]}{size - p // size}"


def fmt(x: float) -> str:
    """A number as JavaScript prints it (45.0 -> "45", 41.5 -> "41.5")."""
    return str(int(x)) if float(x).is_integer() else str(x)
