"""Two people in two browser contexts through the invitation link, and a spectator: live updates, undo request
declined then accepted, a dropped socket that reconnects, and the dead-stone phase with a rejection, resumption and
agreement."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def play(ui: Any, mover: Any, watchers: list[Any], vertex: str, color: str) -> None:
    """mover clicks vertex; every page (the mover's and the watchers') then shows the stone."""
    expect(mover.get_by_test_id("turn")).to_contain_text("Your turn")
    ui.point(mover, vertex).click()
    for page in [mover, *watchers]:
        ui.wait_stone(page, vertex, color)


def pass_whoever(pages: list[Any]) -> None:
    """The page whose turn it is passes (after a resumption the ruleset decides who starts), once every page
    shows the same moves (a page may be a few milliseconds behind the other); then every page shows the pass."""
    counts = [p.locator('[data-testid="move-list"] li').count() for p in pages]
    for page in pages:
        expect(page.locator('[data-testid="move-list"] li')).to_have_count(max(counts))
    mover = next((p for p in pages if p.get_by_test_id("turn").text_content().startswith("Your turn")), None)
    assert mover is not None, "nobody's turn: " + " | ".join(
        p.get_by_test_id("turn").text_content() for p in pages
    )
    mover.get_by_role("button", name="Pass", exact=True).click()
    for page in pages:
        expect(page.locator('[data-testid="move-list"] li')).to_have_count(max(counts) + 1)


def test_invitation_live_play_undo_reconnect_and_scoring(
    new_page: Any, ui: Any, server: Any, shot: Any
) -> None:
    alice = new_page()
    gid = ui.create_game(alice, size=9, opponent="invite", color="B")
    invite = alice.get_by_test_id("invite").locator("input")
    expect(invite).to_have_value(re.compile(rf"/g/{gid}\?invite="))
    link = invite.input_value()
    expect(alice.get_by_test_id("waiting")).to_have_text("Waiting for the opponent to join")
    shot(alice, "invite-link")

    bob = new_page()
    bob.goto(link)
    ui.point(bob, "A1").wait_for()
    expect(bob.get_by_test_id("you")).to_have_text("You play White")
    expect(bob).to_have_url(re.compile(rf"/g/{gid}$"))  # the spent code leaves the address bar
    expect(alice.get_by_test_id("invite")).to_have_count(0)  # the seat is taken: the link is gone
    expect(alice.get_by_test_id("waiting")).to_have_count(0)

    # The same link a second time gives nothing: the third person is a spectator.
    carol = new_page()
    carol.goto(link)
    ui.point(carol, "A1").wait_for()
    expect(carol.get_by_test_id("you")).to_have_text("You are watching this game.")
    expect(carol.get_by_test_id("notice")).to_have_text(
        "This invitation has already been used: you are watching the game."
    )
    expect(ui.point(carol, "E5")).to_have_attribute("aria-disabled", "true")

    play(ui, alice, [bob, carol], "C3", "black")
    play(ui, bob, [alice, carol], "G7", "white")
    expect(carol.get_by_test_id("announcer")).to_contain_text("White G7")
    play(ui, alice, [bob, carol], "C7", "black")
    play(ui, bob, [alice, carol], "F6", "white")

    # A spectator's click changes nothing.
    ui.point(carol, "E5").click(force=True)
    carol.wait_for_timeout(300)
    assert server.game(gid)["board"][4 * 9 + 4] == 0

    # Undo: Bob asks, Alice declines; Bob asks again, Alice accepts, F6 is gone for everyone.
    bob.get_by_role("button", name="Ask to undo").click()
    expect(alice.get_by_test_id("undo-ask")).to_contain_text("White asks to take back the last move.")
    expect(bob.get_by_test_id("undo-pending")).to_be_visible()
    shot(alice, "undo-asked")
    alice.get_by_test_id("undo-ask").get_by_role("button", name="Decline").click()
    expect(bob.get_by_test_id("notice")).to_have_text("The undo request was declined.")
    ui.wait_stone(bob, "F6", "white")
    bob.get_by_role("button", name="Ask to undo").click()
    alice.get_by_test_id("undo-ask").get_by_role("button", name="Accept").click()
    for page in (alice, bob, carol):
        ui.wait_stone(page, "F6", "empty")
    expect(bob.get_by_test_id("turn")).to_contain_text("Your turn")
    play(ui, bob, [alice, carol], "G3", "white")

    # Bob's socket drops; the UI says so, reconnects by itself and gets Alice's next move live.
    bob.evaluate("window.keimaSocket.drop()")
    expect(bob.get_by_test_id("connection")).to_contain_text("reconnecting")
    expect(bob.get_by_test_id("connection")).to_contain_text("connected", timeout=15_000)
    expect(bob.get_by_test_id("connection")).not_to_contain_text("reconnecting")
    play(ui, alice, [bob, carol], "D4", "black")

    # Both pass: the dead-stone phase, the same on every screen.
    pass_whoever([alice, bob])
    pass_whoever([alice, bob])
    for page in (alice, bob, carol):
        expect(page.locator(".game")).to_have_attribute("data-phase", "scoring")

    expect(alice.get_by_test_id("proposal")).to_contain_text("The marking is its proposal.")

    # Alice marks White's G3 stone dead; both players and the spectator see the mark.
    ui.point(alice, "G3").click()
    expect(bob.get_by_test_id("proposal")).to_contain_text("The marking has been changed")
    for page in (alice, bob, carol):
        expect(ui.point(page, "G3")).to_have_attribute("aria-label", re.compile("marked dead"))
    expect(bob.get_by_test_id("accepted-B")).to_have_text("Black has not accepted yet")
    shot(bob, "scoring-marked")

    # Bob rejects: play resumes for everyone, with every stone still on the board.
    bob.get_by_role("button", name="Reject and resume play").click()
    for page in (alice, bob, carol):
        expect(page.locator(".game")).to_have_attribute("data-phase", "play")
    ui.wait_stone(alice, "G3", "white")
    expect(ui.point(alice, "G3")).not_to_have_attribute("aria-label", re.compile("marked dead"))

    # The resumption opens with a stone (two passes at once would end it with every stone alive, as the
    # rules say), then two passes, then both accept the same marking and the game is counted.
    if alice.get_by_test_id("turn").text_content().startswith("Your turn"):
        play(ui, alice, [bob, carol], "H8", "black")
    else:
        play(ui, bob, [alice, carol], "H8", "white")
    pass_whoever([alice, bob])
    pass_whoever([alice, bob])
    for page in (alice, bob):
        expect(page.locator(".game")).to_have_attribute("data-phase", "scoring")
    alice.get_by_role("button", name="Accept this marking").click()
    expect(bob.get_by_test_id("accepted-B")).to_have_text("Black accepted")
    assert server.game(gid)["phase"] == "scoring"  # one acceptance is not enough
    bob.get_by_role("button", name="Accept this marking").click()
    for page in (alice, bob, carol):
        expect(page.locator(".game")).to_have_attribute("data-phase", "finished")
    final = server.game(gid)
    assert final["result"] == final["score"]["result"]
    for page in (alice, bob, carol):
        expect(page.get_by_test_id("result")).to_have_attribute("data-result", final["result"])
    expect(carol.get_by_test_id("score").locator("table.method")).to_have_count(4)
    shot(alice, "final")
    shot(carol, "final-spectator")
