"""Faults found walking the newer features (scripts/walk/walk_new.py) in Chromium, each checked where it showed:
the bell's list, the bot's stored review, a rated game's page, a tournament's pairings on a phone."""

from __future__ import annotations

import re
import secrets
import time
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PASSWORD = "correct horse"


def register(page: Any, name: str) -> None:
    page.goto("/")
    answer = page.request.post("/api/players", data={"name": name, "password": PASSWORD})
    assert answer.status == 201, answer.text()


def finished_game(alice: Any, bob: Any, moves: int = 2, rated: bool = False) -> str:
    """A 9x9 game alice (Black) invited bob to, ``moves`` moves each, then bob resigns; returns its id."""
    made = alice.request.post("/api/games", data={"size": 9, "opponent": "invite", "color": "B", "rated": rated})
    assert made.status == 201, made.text()
    body = made.json()
    gid = body["game"]["id"]
    assert bob.request.post(f"/api/games/{gid}/join", data={"code": body["invite"]["code"]}).ok
    for b, w in list(zip(["C3", "C4", "C5", "C6", "C7", "D3"], ["G3", "G4", "G5", "G6", "G7", "F3"],
                         strict=True))[:moves]:
        assert alice.request.post(f"/api/games/{gid}/actions", data={"type": "play", "move": b}).ok
        assert bob.request.post(f"/api/games/{gid}/actions", data={"type": "play", "move": w}).ok
    assert bob.request.post(f"/api/games/{gid}/actions", data={"type": "resign"}).ok
    return str(gid)


@pytest.mark.parametrize(("locale", "width", "height"), [("en-US", 1280, 860), ("fr-FR", 390, 844)],
                         ids=["en-desktop", "fr-phone"])
def test_the_bell_lists_a_new_notification_within_the_screen(new_page: Any, shot: Any, locale: str, width: int,
                                                             height: int) -> None:
    """The bell opened just after a game ended lists it (not a minute later), and its list is on the screen:
    it went off the left edge on a desktop and was clipped out of sight by the phone's account strip."""
    phone = width < 600
    tag = secrets.token_hex(3)
    alice = new_page(locale=locale, width=width, height=height, touch=phone)
    bob = new_page()
    register(alice, f"bell{tag}")
    register(bob, f"bellop{tag}")
    alice.reload()
    bell = alice.get_by_test_id("bell")
    expect(bell).to_be_visible()
    finished_game(alice, bob)
    deadline = time.monotonic() + 15
    while True:
        made = alice.request.get("/api/me/notifications").json()["notifications"]
        if any(n["kind"] == "game-finished" for n in made):
            break
        assert time.monotonic() < deadline, "no notification made for the finished game"
        time.sleep(0.3)
    bell.click()
    listed = alice.get_by_test_id("bell-list")
    expect(listed.locator("li")).to_have_count(len(made))
    box = listed.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
    # What the reader sees at the list's middle is the list (not clipped, not under anything).
    inside = alice.evaluate(
        "([x, y]) => !!document.elementFromPoint(x, y)?.closest('[data-testid=\"bell-list\"]')",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert inside, "the bell's list is hidden"
    # Its lines wrap within it: nothing to scroll sideways to read a notification.
    assert listed.evaluate("el => el.scrollWidth <= el.clientWidth"), "a notification is cut at the list's edge"
    expect(listed.get_by_role("link").first).to_have_text(re.compile("." * 5))
    shot(alice, "bell-open")


@pytest.mark.parametrize(("locale", "width", "height"), [("fr-FR", 390, 844), ("en-US", 1280, 860)],
                         ids=["fr-phone", "en-desktop"])
def test_a_games_review_asked_before_is_shown_at_once(new_page: Any, shot: Any, locale: str, width: int,
                                                      height: int) -> None:
    """Reopening a finished game whose review the bot has done shows its graphs at once, on the game's page and
    on /review (they offered "Ask the bot for a review" again)."""
    tag = secrets.token_hex(3)
    alice, bob = new_page(), new_page()
    register(alice, f"rev{tag}")
    register(bob, f"revop{tag}")
    gid = finished_game(alice, bob)
    url = alice.request.post(f"/api/games/{gid}/analysis").json()["url"]
    deadline = time.monotonic() + 60
    while alice.request.get(url).json()["status"] != "done":
        assert time.monotonic() < deadline, "the review did not end"
        time.sleep(0.5)
    reader = new_page(locale=locale, width=width, height=height, touch=width < 600)
    for path in (f"/g/{gid}", f"/review?game={gid}"):
        reader.goto(path)
        expect(reader.get_by_test_id("line-chart")).to_have_count(2)
        expect(reader.get_by_test_id("bot-start")).to_have_count(0)
        shot(reader, "review-shown" if path.startswith("/g/") else "review-page")
    # A live game's page does not look for a review (it has none: the request would only be refused).
    asked: list[str] = []
    alice.on("request", lambda r: asked.append(r.url) if r.url.endswith("/analysis") else None)
    live = alice.request.post("/api/games", data={"size": 9, "opponent": "local"}).json()["game"]["id"]
    alice.goto(f"/g/{live}")
    alice.locator('[data-testid="board"] [data-vertex="A1"]').wait_for()
    alice.wait_for_timeout(500)
    assert asked == []


@pytest.mark.parametrize(("locale", "width", "height", "words"), [
    ("en-US", 1280, 860, "rated game"), ("fr-FR", 390, 844, "partie classée")], ids=["en-desktop", "fr-phone"])
def test_a_rated_games_page_says_it_is_rated(new_page: Any, ui: Any, shot: Any, locale: str, width: int,
                                             height: int, words: str) -> None:
    """The players of a rated game (automatch's, or an invitation marked rated) are told so on its page, in
    their language; an unrated game's page says nothing of it."""
    tag = secrets.token_hex(3)
    alice = new_page(locale=locale, width=width, height=height, touch=width < 600)
    bob = new_page()
    register(alice, f"rated{tag}")
    register(bob, f"ratedop{tag}")
    made = alice.request.post("/api/games", data={"size": 9, "opponent": "invite", "rated": True}).json()
    gid = made["game"]["id"]
    assert bob.request.post(f"/api/games/{gid}/join", data={"code": made["invite"]["code"]}).ok
    alice.goto(f"/g/{gid}")
    ui.point(alice, "A1").wait_for()
    expect(alice.get_by_test_id("settings")).to_contain_text(words)
    shot(alice, "rated")
    unrated = alice.request.post("/api/games", data={"size": 9, "opponent": "invite"}).json()["game"]["id"]
    alice.goto(f"/g/{unrated}")
    ui.point(alice, "A1").wait_for()
    expect(alice.get_by_test_id("settings")).not_to_contain_text(words)


@pytest.mark.parametrize("locale", ["fr-FR", "en-US"])
def test_a_directors_pairings_fit_a_phone(new_page: Any, shot: Any, locale: str) -> None:
    """On a 390 px phone, the director of a round of four sees each table's result menu and the standings' last
    column without scrolling the tables sideways (the menu and "SOSOSM" were cut at the box's edge)."""
    page = new_page(locale=locale, width=390, height=844, touch=True)
    register(page, f"tdphone{secrets.token_hex(3)}")
    tid = page.request.post("/api/tournaments", data={"name": "Phone cup", "rounds": 3, "size": 9}).json()["id"]
    # Names as long as an account's ("frpop9a7b"), one per table.
    for name, rank in [("Ito", "1d"), ("Martin", "5k"), ("Novak", "3k"), ("Kowalczyk", "20k")]:
        assert page.request.post(f"/api/tournaments/{tid}/players", data={"name": name, "rank": rank}).status == 201
    assert page.request.post(f"/api/tournaments/{tid}/rounds/1/pairing", data={}).ok
    page.goto(f"/t/{tid}")
    expect(page.get_by_test_id("pairings").locator("tbody tr")).to_have_count(2)
    expect(page.get_by_test_id("standings").locator("tbody tr")).to_have_count(4)
    for table in ("pairings", "standings"):
        cut = page.get_by_test_id(table).evaluate("t => t.parentElement.scrollWidth - t.parentElement.clientWidth")
        assert cut <= 0, f"the {table} are cut by {cut} px"
    shot(page, "pairings")


@pytest.mark.parametrize(("locale", "width", "height"), [("en-US", 1280, 860), ("fr-FR", 390, 844)],
                         ids=["en-desktop", "fr-phone"])
def test_the_review_page_opens_at_its_top(new_page: Any, ui: Any, locale: str, width: int, height: int) -> None:
    """/review?game= opened scrolled down (focusing the review for its arrow keys scrolled it into view), the
    site's header and account bar out of sight."""
    tag = secrets.token_hex(3)
    alice, bob = new_page(), new_page()
    register(alice, f"top{tag}")
    register(bob, f"topop{tag}")
    gid = finished_game(alice, bob)
    reader = new_page(locale=locale, width=width, height=height, touch=width < 600)
    reader.goto(f"/review?game={gid}")
    ui.point(reader, "A1").wait_for()
    reader.wait_for_timeout(500)
    assert reader.evaluate("window.scrollY") == 0
    expect(reader.locator("header h1")).to_be_in_viewport()
    # The arrow keys still step through the moves at once (the review has the focus).
    reader.keyboard.press("ArrowRight")
    expect(reader.get_by_test_id("review-position")).to_contain_text(re.compile("C3"))


@pytest.mark.parametrize(("locale", "start"), [("en-US", "Start the game"), ("fr-FR", "Commencer la partie")])
def test_an_open_settings_form_closes_when_a_game_starts(new_page: Any, ui: Any, locale: str, start: str) -> None:
    """On a phone, the correspondence settings opened in the lobby stayed open over the new game's page, a
    screen of form above its board."""
    page = new_page(locale=locale, width=390, height=844, touch=True)
    register(page, f"away{secrets.token_hex(3)}")
    page.reload()
    page.get_by_test_id("account-menu").click()
    page.get_by_test_id("open-away").click()
    expect(page.get_by_test_id("vacation")).to_be_visible()
    page.locator('input[name="size"][value="9"]').check()
    page.locator('input[name="opponent"][value="local"]').check()
    page.get_by_role("button", name=start).click()
    page.wait_for_url(re.compile(r"/g/[^/?]+$"))
    ui.point(page, "E5").wait_for()
    expect(page.get_by_test_id("vacation")).to_have_count(0)
    expect(ui.point(page, "E5")).to_be_in_viewport()
