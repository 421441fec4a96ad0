"""Automatch in the lobby, two people in two browser contexts: one in English on a desktop, one in French on a
390 px phone. Both ask for a 9x9 blitz game, both pages go to the same game; once the rated game ends, each
player's rating change shows next to their name. Cancelling brings the form back."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

BLACK_MOVES = ["C3", "C4", "C5", "C6", "C7"]
WHITE_MOVES = ["G3", "G4", "G5", "G6", "G7"]


def register(page: Any, name: str) -> None:
    answer = page.request.post("/api/players", data={"name": name, "password": "correct horse"})
    assert answer.status == 201, answer.text()


def ask(page: Any, start: str) -> None:
    """Only 9x9, blitz, then the start button (named ``start`` in the page's language)."""
    page.goto("/")
    panel = page.get_by_test_id("automatch")
    panel.wait_for()
    page.get_by_test_id("automatch-size-19").uncheck()
    page.get_by_test_id("automatch-size-9").check()
    page.get_by_test_id("automatch-speed-blitz").check()
    panel.get_by_role("button", name=start).click()


def test_two_people_are_matched_and_see_their_rating_change(new_page: Any, ui: Any, server: Any, shot: Any) -> None:
    tag = secrets.token_hex(2)
    alice = new_page()
    bob = new_page(locale="fr-FR", width=390, height=844, touch=True)
    register(alice, f"alice{tag}")
    register(bob, f"bob{tag}")

    ask(alice, "Find an opponent")
    waiting = alice.get_by_test_id("automatch-waiting")
    expect(waiting).to_contain_text("Looking for an opponent")
    expect(waiting).to_contain_text(re.compile(r"0:0\d"))
    shot(alice, "waiting-en")

    bob.goto("/")
    expect(bob.get_by_test_id("automatch").get_by_role("heading")).to_have_text("Partie automatique")
    expect(bob.get_by_test_id("automatch-speed-blitz").locator("xpath=..")).to_contain_text("Blitz")
    # The panel fits the phone: nothing wider than the screen.
    assert bob.evaluate("document.documentElement.scrollWidth") <= 390
    shot(bob, "panel-fr-phone")
    ask(bob, "Trouver un adversaire")

    for page in (alice, bob):
        page.wait_for_url(re.compile(r"/g/[^/?]+$"))
    gid = alice.url.rsplit("/g/", 1)[1]
    assert bob.url.rsplit("/g/", 1)[1] == gid
    ui.point(bob, "A1").wait_for()
    expect(alice.get_by_test_id("you")).to_have_text("You play Black")  # equal ratings: the first to ask
    state = server.game(gid)
    assert state["rated"] is True and state["size"] == 9 and state["clock"]["spec"]["main"] == 300
    shot(bob, "matched-fr-phone")

    for b, w in zip(BLACK_MOVES, WHITE_MOVES, strict=True):
        ui.play_api(alice, gid, {"type": "play", "move": b})
        ui.play_api(bob, gid, {"type": "play", "move": w})
    ui.play_api(bob, gid, {"type": "resign"})
    # The ratings are updated, then the game's page learns of the change (its own "rated" event).
    expect(alice.get_by_test_id("rating-change-B")).to_contain_text(re.compile(r"^\s*\+\d+\.\d$"), timeout=20_000)
    expect(alice.get_by_test_id("rating-change-W")).to_contain_text(re.compile(r"^\s*\u2212\d+\.\d$"))
    expect(bob.get_by_test_id("rating-change-B")).to_contain_text(re.compile(r"^\s*\+\d+,\d$"))  # 12,3 in French
    change = server.game(gid)["rating_change"]
    assert change["B"] > 0 > change["W"]
    assert alice.get_by_test_id("rating-change-B").get_attribute("aria-label") == f"rating +{change['B']:.1f}"
    shot(alice, "rating-change-en")
    shot(bob, "rating-change-fr-phone")

    # Back in the lobby, the player's finished games say which were rated and what they did to the rating.
    alice.goto("/")
    mine = alice.get_by_test_id("lobby-my-finished").locator(f'[data-game="{gid}"]')
    expect(mine).to_contain_text("rated")
    expect(alice.get_by_test_id(f"my-rating-change-{gid}")).to_have_text(f" +{change['B']:.1f}")
    shot(alice, "lobby-after-en")

    # Asking again, reloading, and cancelling: the reloaded page shows the wait since the request (it showed
    # 0:00 after every reload before), the form comes back, and the server has no entry left.
    ask(alice, "Find an opponent")
    expect(alice.get_by_test_id("automatch-waiting")).to_be_visible()
    alice.wait_for_timeout(3000)
    alice.reload()
    # Within a second: a page counting from its own load would still show 0:00 or 0:01.
    expect(alice.get_by_test_id("automatch-waiting")).to_contain_text(re.compile(r"0:0[3-9]"), timeout=1000)
    alice.get_by_test_id("automatch-cancel").click()
    expect(alice.get_by_test_id("automatch-start")).to_be_visible()
    assert alice.request.get("/api/automatch").json()["waiting"] is False
