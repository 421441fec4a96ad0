"""Being told, as a correspondence player meets it (issue 43), in English on a desktop and in French on a 390 px
phone: the header's count of games waiting for a move and their page by time left, the bell's one line per game
saying when and which game, read by itself once the game is opened, the counting deadline counted down on the game
page, the account's menu on a phone header that does not scroll sideways, and a correspondence automatch wait that
needs no page and is cancelled from "my games"."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CASES = [
    pytest.param("en-US", 1280, 860, False, {
        "moves": "Your move: 2", "game": "9×9, you play White", "ago": "just now", "left": r"left",
        "deadline": "Unless a player answers, the marking on the board stands in", "menu": "Account",
        "logout": "Log out", "corr": "You may close this page", "wait": "Waiting for a correspondence game",
    }, id="en-desktop"),
    pytest.param("fr-FR", 390, 844, True, {
        "moves": "À vous\u00a0: 2", "game": "9×9, vous avez les Blancs", "ago": "à l’instant", "left": r"reste",
        "deadline": "Sans réponse, le marquage du plateau sera retenu dans", "menu": "Compte",
        "logout": "Se déconnecter", "corr": "Vous pouvez fermer cette page",
        "wait": "En attente d’une partie par correspondance",
    }, id="fr-phone"),
]


def register(page: Any, name: str) -> None:
    answer = page.request.post("/api/players", data={"name": name, "password": "correct horse"})
    assert answer.status == 201, answer.text()


def corr_game(creator: Any, joiner: Any, per_move: int) -> str:
    made = creator.request.post("/api/games", data={"opponent": "open", "size": 9, "color": "B", "clock": {
        "type": "simple", "per_move": per_move, "weekend_pause": False}})
    assert made.ok, made.text()
    gid = str(made.json()["game"]["id"])
    assert joiner.request.post(f"/api/games/{gid}/join", data={}).ok
    return gid


def act(page: Any, gid: str, action: dict[str, Any]) -> None:
    done = page.request.post(f"/api/games/{gid}/actions", data=action)
    assert done.ok, done.text()


def no_sideways_scroll(page: Any) -> None:
    overflow = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"


@pytest.mark.parametrize(("locale", "width", "height", "touch", "words"), CASES)
def test_a_correspondence_players_day(new_page: Any, shot: Any, locale: str, width: int, height: int, touch: bool,
                                      words: dict[str, str]) -> None:
    me = new_page(locale=locale, width=width, height=height, touch=touch)
    alice = new_page()
    mine, hers = f"me{secrets.token_hex(3)}", f"al{secrets.token_hex(3)}"
    register(me, mine)
    register(alice, hers)
    long = corr_game(alice, me, 5 * 86400)
    short = corr_game(alice, me, 2 * 86400)
    act(alice, long, {"type": "play", "move": "E5"})
    act(alice, short, {"type": "play", "move": "E5"})

    # The header counts the games waiting for my move; its link lists them, the least time left first.
    me.goto("/")
    link = me.get_by_test_id("moves-link")
    expect(link).to_have_text(words["moves"])
    no_sideways_scroll(me)
    bell = me.get_by_test_id("bell")
    expect(bell.locator(".count")).to_have_text("2")
    bell.click()
    turns = me.get_by_test_id("bell-list").get_by_test_id("bell-item-your-turn")
    expect(turns).to_have_count(2)  # one line per game, each naming its game
    expect(turns.first).to_contain_text(words["game"])
    expect(turns.first).to_contain_text(words["ago"])
    shot(me, "bell")
    bell.click()
    link.click()
    me.wait_for_url(re.compile(r"/moves$"))
    listed = me.get_by_test_id("my-moves").locator("li")
    expect(listed).to_have_count(2)
    expect(listed.nth(0)).to_have_attribute("data-game", short)
    expect(listed.nth(1)).to_have_attribute("data-game", long)
    expect(me.get_by_test_id(f"moves-left-{short}")).to_contain_text(re.compile(words["left"]))
    no_sideways_scroll(me)
    shot(me, "moves-page")

    # Opening the game reads its line: the count drops to the other game's, here and on the server.
    me.get_by_test_id(f"move-in-{short}").click()
    me.wait_for_url(re.compile(f"/g/{short}$"))
    expect(bell.locator(".count")).to_have_text("1")
    unread = me.request.get("/api/me/notifications?unread=true").json()["notifications"]
    assert [n["game"] for n in unread] == [long]

    # Both pass: the count begins, its deadline counted down on the page.
    act(me, short, {"type": "pass"})
    act(alice, short, {"type": "pass"})
    deadline = me.get_by_test_id("scoring-deadline")
    expect(deadline).to_contain_text(words["deadline"])
    expect(deadline).to_contain_text(re.compile(r"2\u00a0[dj] 23\u00a0h|3\u00a0[dj]"))
    no_sideways_scroll(me)
    shot(me, "count-deadline")

    # The account's actions are in one menu, every item on the screen.
    me.get_by_test_id("account-menu").click()
    menu = me.get_by_test_id("account-menu-list")
    expect(me.get_by_test_id("account-menu")).to_contain_text(words["menu"])
    expect(me.get_by_test_id("logout")).to_have_text(words["logout"])
    box = me.get_by_test_id("logout").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    shot(me, "account-menu")
    me.keyboard.press("Escape")
    expect(menu).to_have_count(0)

    # A correspondence automatch wait needs no page, and "my games" cancels it.
    me.goto("/")
    me.get_by_test_id("automatch-speed-correspondence").check()
    me.get_by_test_id("automatch-start").click()
    expect(me.get_by_test_id("automatch-corr-note")).to_contain_text(words["corr"])
    me.reload()
    wait = me.get_by_test_id("corr-wait")
    expect(wait).to_contain_text(words["wait"])
    no_sideways_scroll(me)
    shot(me, "corr-wait")
    me.get_by_test_id("corr-wait-cancel").click()
    expect(wait).to_have_count(0)
    expect(me.get_by_test_id("automatch-waiting")).to_have_count(0)
    assert me.request.get("/api/automatch").json()["waiting"] is False
