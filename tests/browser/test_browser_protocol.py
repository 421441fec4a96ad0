"""The game page's client of protocol 2 (notes: docs/web-api.md), in Chromium: deltas handed to the page's socket
change the board, the move list and the turn; a delta after a gap is not applied and the page asks for a resync.

The deltas are handed to the page's own socket client (``window.keimaSocket``) as if the server had sent them, so
these tests hold while the server still speaks protocol 1."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LETTERS = "ABCDEFGHJKLMNOPQRST"


def point(vertex: str, size: int) -> int:
    """The server's point number of a GTP vertex (row-major from the top row)."""
    x = LETTERS.index(vertex[0])
    y = size - int(vertex[1:])
    return y * size + x


def hand(page: Any, message: dict[str, Any]) -> None:
    """Give the page's socket a message as if the server had sent it."""
    page.evaluate("(text) => window.keimaSocket.receive(text)", json.dumps(message))


def start(page: Any, ui: Any, server: Any) -> tuple[str, int]:
    """A local 9x9 game with Black's C3 played through the board; returns its id and version. What the page sends
    on its socket from then on is recorded in ``window.sentBySocket`` (and not sent)."""
    gid = str(ui.create_game(page, opponent="local"))
    ui.point(page, "C3").click()
    ui.wait_stone(page, "C3", "black")
    state = server.game(gid)
    assert state["moves"][0]["point"] == point("C3", 9)
    page.wait_for_function("window.keimaSocket && window.keimaSocket.isOpen")
    page.evaluate(
        """() => {
            window.sentBySocket = [];
            window.keimaSocket.ws.send = (text) => window.sentBySocket.push(JSON.parse(text));
        }"""
    )
    return gid, int(state["version"])


def white_move(n: int, vertex: str, version: int) -> dict[str, Any]:
    """The delta of White playing ``vertex`` as move ``n``, after version ``version``."""
    p = point(vertex, 9)
    return {
        "type": "delta", "from": version, "to": version + 1,
        "event": {"type": "moved", "move": {"n": n, "color": "W", "point": p, "vertex": vertex, "captures": 0}},
        "placed": [[p, "W"]], "to_move": "B",
    }


def test_a_move_delta_changes_the_board_the_list_and_the_turn(new_page: Any, ui: Any, server: Any, shot: Any) -> None:
    page = new_page()
    _, version = start(page, ui, server)
    hand(page, white_move(2, "G7", version))
    ui.wait_stone(page, "G7", "white")
    assert ui.stone_at(page, "C3") == "black"
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(2)
    expect(page.get_by_test_id("move-list").locator("li").last).to_contain_text("G7")
    expect(page.get_by_test_id("turn")).to_have_text("Black to play")
    # An undo delta takes the move back: the stone goes, the list shortens.
    hand(page, {"type": "delta", "from": version + 1, "to": version + 2,
                "event": {"type": "undone", "moves": 1}, "removed": [point("G7", 9)], "to_move": "W"})
    ui.wait_stone(page, "G7", "empty")
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(1)
    expect(page.get_by_test_id("turn")).to_have_text("White to play")
    assert page.evaluate("window.sentBySocket") == []
    shot(page, "after-deltas")


def test_a_gap_is_not_applied_and_asks_for_a_resync(new_page: Any, ui: Any, server: Any) -> None:
    page = new_page()
    _, version = start(page, ui, server)
    hand(page, white_move(3, "G7", version + 1))  # version + 1 -> + 2: the page holds version
    page.wait_for_function("window.sentBySocket.length > 0")
    assert page.evaluate("window.sentBySocket") == [{"type": "resync", "from": version}]
    assert ui.stone_at(page, "G7") == "empty"
    expect(page.get_by_test_id("move-list").locator("li")).to_have_count(1)
    # A delta already applied is ignored; the full state the server answers with is taken.
    hand(page, white_move(1, "J9", version - 1))
    state = server.game(page.url.rsplit("/g/", 1)[1])
    hand(page, {"type": "state", "game": {**state, "version": version + 2}})
    hand(page, white_move(2, "G7", version + 2))
    ui.wait_stone(page, "G7", "white")
    assert ui.stone_at(page, "J9") == "empty"
    assert page.evaluate("window.sentBySocket") == [{"type": "resync", "from": version}]
