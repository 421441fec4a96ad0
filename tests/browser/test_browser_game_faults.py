"""Faults new users hit on the game page (issue 23: 9, 11, 12, 13, 14), each shown in the language and on the screen
where it was found: the chat scrolled to its newest message, a burst of chat messages losing none, chat times in
French, "Ask to undo" with nothing to take back and the number of moves an undo takes back, and a spectator in
the marking phase."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def two_players(new_page: Any, ui: Any, **bob_screen: Any) -> tuple[str, Any, Any]:
    """A 9x9 game between Alice (Black, who made it) and Bob (White, through the invitation link)."""
    alice = new_page()
    gid = str(ui.create_game(alice, size=9, opponent="invite", color="B"))
    link = alice.get_by_test_id("invite").locator("input").input_value()
    bob = new_page(**bob_screen)
    bob.goto(link)
    expect(bob.get_by_test_id("you")).to_contain_text("White")
    expect(alice.get_by_test_id("waiting")).to_have_count(0)
    return gid, alice, bob


def say(page: Any, gid: str, text: str) -> None:
    """Post a chat message as the page's player, over HTTP (paced by the caller under the server's rate limit)."""
    answer = page.request.post(f"/api/games/{gid}/actions", data={"type": "chat", "text": text, "to": "players"})
    assert answer.ok, answer.text()


def at_newest(page: Any, testid: str) -> dict[str, Any]:
    """Whether a chat log is scrolled to its newest message, and whether it overflows at all."""
    result: dict[str, Any] = page.evaluate(
        """(id) => {
            const list = document.querySelector(`[data-testid=${id}] ol`);
            const box = list.getBoundingClientRect();
            const last = list.lastElementChild.getBoundingClientRect();
            return {
                overflows: list.scrollHeight > list.clientHeight + 4,
                atEnd: list.scrollHeight - list.scrollTop - list.clientHeight < 4,
                lastShown: last.bottom <= box.bottom + 1 && last.top >= box.top - 1,
            };
        }""",
        testid,
    )
    return result


def test_the_chat_scrolls_to_the_newest_message_for_players_and_spectators(
    new_page: Any, ui: Any, shot: Any
) -> None:
    gid, alice, bob = two_players(new_page, ui)
    carol = new_page(width=390, height=844, touch=True)  # a spectator on a phone
    carol.goto(f"/g/{gid}")
    expect(carol.get_by_test_id("you")).to_contain_text("watching")
    for i in range(14):
        say(alice, gid, f"message number {i + 1}")
        time.sleep(0.36)  # under the server's 3 messages a second
    for page in (alice, bob, carol):
        log = page.get_by_test_id("chat-players")
        expect(log.locator("li")).to_have_count(14)
        expect(log.locator("li").last).to_contain_text("message number 14")
        where = at_newest(page, "chat-players")
        assert where["overflows"], "14 messages overflow the chat box: the test would show nothing"
        assert where["atEnd"] and where["lastShown"], where
    shot(carol, "spectator-phone-chat")
    # A reader who scrolled back up is not pulled down by the next message.
    bob.evaluate("document.querySelector('[data-testid=chat-players] ol').scrollTop = 0")
    bob.wait_for_timeout(200)
    say(alice, gid, "message number 15")
    expect(bob.get_by_test_id("chat-players").locator("li")).to_have_count(15)
    assert bob.evaluate("document.querySelector('[data-testid=chat-players] ol').scrollTop") == 0
    assert at_newest(carol, "chat-players")["atEnd"]


def test_a_burst_of_chat_messages_loses_none_and_its_error_goes_when_it_no_longer_holds(
    new_page: Any, ui: Any, server: Any, shot: Any
) -> None:
    gid, alice, bob = two_players(new_page, ui)
    box = alice.get_by_test_id("chat-input")
    words = [f"burst{i}" for i in range(1, 11)]
    # Written after whatever came back into the box (it stays in front of what is written next), each word at
    # once, so that the burst is a burst however slow the machine (typing key by key spreads it over seconds).
    box.click()
    for w in words:
        box.press("End")
        alice.keyboard.insert_text(w)
        box.press("Enter")
    error = alice.get_by_test_id("chat-error")
    expect(error).to_contain_text("too many messages in a row")
    expect(error).to_contain_text("back in the box")
    shot(alice, "burst-refused")
    # Every message is either stored or back in the box, once, in the order written.
    alice.wait_for_timeout(300)
    stored = [m["text"] for m in server.game(gid)["chat"]]
    kept = box.input_value()
    assert 1 <= len(stored) < 10
    assert "".join([*stored, kept]).replace(" ", "") == "".join(words), (stored, kept)
    # The error says to wait a second: it is gone once that holds no more, and the rest can be sent.
    expect(error).to_have_count(0, timeout=4_000)
    alice.get_by_test_id("chat-send").click()
    expect(box).to_have_value("")
    expect(bob.get_by_test_id("chat-players").locator("li").last).to_contain_text(kept)
    assert "".join(m["text"] for m in server.game(gid)["chat"]).replace(" ", "") == "".join(words)
    expect(error).to_have_count(0)


def test_chat_times_follow_the_page_language(new_page: Any, ui: Any, shot: Any) -> None:
    # The browser speaks English (its clock format is 12-hour); the page is switched to French.
    gid, alice, bob = two_players(new_page, ui)
    say(alice, gid, "bonjour")
    stamp = bob.get_by_test_id("chat-players").locator(".chat-at")
    expect(stamp).to_have_text(re.compile(r"^\d{1,2}:\d{2}\s?[AP]M$"))
    bob.get_by_test_id("language").select_option("fr")
    expect(bob.get_by_test_id("chat-players").locator("h4")).to_have_text("Discussion des joueurs")
    expect(stamp).to_have_text(re.compile(r"^\d{2}:\d{2}$"))
    shot(bob, "french-chat-time")


def test_ask_to_undo_needs_a_move_to_take_back_and_says_how_many(new_page: Any, ui: Any, shot: Any) -> None:
    gid, alice, bob = two_players(new_page, ui)
    # Before Black's first move, neither side has anything to take back.
    for page in (alice, bob):
        expect(page.get_by_test_id("ask-undo")).to_be_disabled()
        expect(page.get_by_test_id("undo-note")).to_have_text("Nothing to take back: you have not played yet.")
    ui.point(alice, "C3").click()
    ui.wait_stone(bob, "C3", "black")
    expect(bob.get_by_test_id("ask-undo")).to_be_disabled()  # White has still not played
    expect(alice.get_by_test_id("ask-undo")).to_be_enabled()
    expect(alice.get_by_test_id("undo-note")).to_have_text("If accepted, your last move is taken back.")
    ui.point(bob, "G7").click()
    ui.wait_stone(alice, "G7", "white")
    # Now Black's undo takes back two moves: White's G7 and Black's C3; the request and the prompt say so.
    expect(alice.get_by_test_id("undo-note")).to_contain_text("2 moves are taken back")
    shot(alice, "undo-two-moves")
    alice.get_by_test_id("ask-undo").click()
    ask = bob.get_by_test_id("undo-ask")
    expect(ask).to_contain_text("Black asks to take back 2 moves: your last move and theirs.")
    shot(bob, "undo-prompt-two-moves")
    ask.get_by_role("button", name="Accept").click()
    for page in (alice, bob):
        ui.wait_stone(page, "C3", "empty")
        ui.wait_stone(page, "G7", "empty")
        expect(page.get_by_test_id("ask-undo")).to_be_disabled()


def test_a_spectator_in_the_marking_phase_is_not_given_the_players_instructions(
    new_page: Any, ui: Any, shot: Any
) -> None:
    player = new_page()
    gid = ui.create_game(player, size=9, opponent="local")
    ui.point(player, "C3").click()
    ui.wait_stone(player, "C3", "black")
    for _ in range(2):
        player.get_by_role("button", name="Pass", exact=True).click()
        player.wait_for_timeout(200)
    expect(player.get_by_test_id("scoring-help")).to_contain_text("Click a chain")
    spectator = new_page(locale="fr-FR")
    spectator.goto(f"/g/{gid}")
    help_text = spectator.get_by_test_id("scoring-help")
    expect(help_text).to_have_text(re.compile("^Les joueurs marquent les pierres mortes"))
    expect(help_text).not_to_contain_text("Cliquez")
    expect(spectator.get_by_role("button", name=re.compile("Accepter"))).to_have_count(0)
    shot(spectator, "spectator-marking-fr")
