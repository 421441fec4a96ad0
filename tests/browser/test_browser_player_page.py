"""The player page (/p/<name>) end to end: rank and rating, the chart of the rating after each rated game (picked
by click and by keyboard), the games with their filters and pages, the score against each opponent; in English
and French, on a desktop and a 390 px phone, under the server's Content-Security-Policy and axe-core's checks;
and names in the lobby, on a game page and in its chat linking to the page."""

from __future__ import annotations

import re
import secrets
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from .test_browser_accessibility import AXE, violations
from .test_browser_csp import WATCH

pytestmark = pytest.mark.browser

RATED = 4          # rated games: the chart's points
UNRATED = 7        # quick unrated games besides, so that the list has two pages (PAGE is 10)


def post(page: Any, path: str, data: Any, headers: dict[str, str] | None = None) -> Any:
    answer = page.request.post(path, data=data, headers=headers or {})
    assert answer.ok, f"{path}: {answer.status} {answer.text()}"
    return answer.json()


def play(black: Any, white: Any, *, rated: bool, loser: str, stones: int, chat: str | None = None) -> str:
    """A game ``black`` offers by invitation and ``white`` takes: ``stones`` stones each, ``chat`` said by White,
    then ``loser`` ("B" or "W") resigns; returns its id."""
    g = post(black, "/api/games", {"size": 9, "opponent": "invite", "color": "B", "rated": rated})
    gid = g["game"]["id"]
    tokens = {"B": g["seat"]["token"]}
    tokens["W"] = post(white, f"/api/games/{gid}/join", {"code": g["invite"]["code"]})["seat"]["token"]
    seat = {"B": black, "W": white}
    for i in range(stones):
        for color, column in (("B", "C"), ("W", "G")):
            post(seat[color], f"/api/games/{gid}/actions", {"type": "play", "move": f"{column}{i + 1}"},
                 {"X-Keima-Seat": tokens[color]})
    if chat:
        post(white, f"/api/games/{gid}/actions", {"type": "chat", "text": chat, "to": "players"},
             {"X-Keima-Seat": tokens["W"]})
    post(seat[loser], f"/api/games/{gid}/actions", {"type": "resign"}, {"X-Keima-Seat": tokens[loser]})
    return gid


@pytest.fixture(scope="module")
def players(browser: Any, server: Any) -> dict[str, Any]:
    """Two registered players, ``RATED`` rated games between them (the first player wins three) and ``UNRATED``
    quick ones, and a chat message in the last rated game."""
    ctxs = [browser.new_context(base_url=server.base) for _ in range(2)]
    a, b = (c.new_page() for c in ctxs)
    suffix = secrets.token_hex(3)
    names = (f"Pia{suffix}", f"Bo{suffix}")
    for page, name in zip((a, b), names, strict=True):
        post(page, "/api/players", {"name": name, "password": "correct horse"})
    rated = []
    for i in range(RATED):
        black, white = (a, b) if i % 2 == 0 else (b, a)
        a_color = "B" if i % 2 == 0 else "W"
        loser = a_color if i == 1 else ("W" if a_color == "B" else "B")  # the first player loses game 2 only
        rated.append(play(black, white, rated=True, loser=loser, stones=5, chat="good game" if i == RATED - 1 else None))
    unrated = [play(a, b, rated=False, loser="W", stones=1) for _ in range(UNRATED)]
    deadline = time.monotonic() + 20
    while len(server.get(f"/api/players/{names[0]}/ratings")["ratings"]) < RATED:
        assert time.monotonic() < deadline, "the ratings did not follow the games"
        time.sleep(0.2)
    for c in ctxs:
        c.close()
    return {"a": names[0], "b": names[1], "rated": rated, "unrated": unrated}


def open_player(page: Any, name: str) -> None:
    page.goto(f"/p/{name}")
    page.get_by_test_id("player-page").wait_for()
    page.locator('[data-testid="player-games"] li').first.wait_for()


def test_player_page_shows_rank_chart_games_and_opponents(new_page: Any, shot: Any, players: dict[str, Any]) -> None:
    page = new_page()
    page.add_init_script(WATCH)
    page.add_init_script(path=str(AXE))
    a, b = players["a"], players["b"]
    open_player(page, a)
    # Four games against one new opponent leave the deviation wide: the rank is provisional ("6k?").
    expect(page.get_by_test_id("player-rank")).to_contain_text(re.compile(r"\d+[kd]\?"))
    expect(page.get_by_test_id("player-rating")).to_have_text(re.compile(r"^\d[\d,]* ± \d+$"))
    expect(page.get_by_test_id("player-record")).to_have_text("10 won, 1 lost")

    chart = page.get_by_test_id("line-chart")
    expect(chart.locator("circle.dot")).to_have_count(RATED)
    assert chart.locator("path.band").count() == 1 and chart.locator("path.line").count() == 1
    # Tick labels on both axes: game numbers below, round ratings beside.
    xs = chart.locator(".x-tick text").all_text_contents()
    assert xs and all(re.fullmatch(r"\d+", x) for x in xs) and "1" in xs, xs
    ys = [int(y.replace(",", "")) for y in chart.locator(".y-tick text").all_text_contents()]
    assert len(ys) >= 2 and all(y % 10 == 0 for y in ys), ys
    # The dots go up, down, then up: the first player won game 1, lost game 2, won games 3 and 4.
    heights = [float(c.get_attribute("cy")) for c in chart.locator("circle.dot").all()]
    assert heights[1] > heights[0] and heights[2] < heights[1] and heights[3] < heights[2], heights
    shot(page, "desktop-en")

    # The keyboard picks a rated game: ← from nothing picks the newest, again the one before.
    chart.focus()
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("chart-picked")).to_contain_text("After rated game 4")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("chart-picked")).to_contain_text("After rated game 3")
    expect(chart).to_have_attribute("aria-valuenow", "3")
    expect(page.get_by_test_id("chart-cursor")).to_have_count(1)
    # A click near the first dot picks the first game; its link opens that game.
    box = chart.bounding_box()
    first = chart.locator("circle.dot").first.bounding_box()
    page.mouse.click(first["x"] + first["width"] / 2 + 3, box["y"] + box["height"] / 2)
    expect(page.get_by_test_id("chart-picked")).to_contain_text("After rated game 1")
    href = page.get_by_test_id("chart-picked").get_by_role("link", name="Game").get_attribute("href")
    assert href == f"/g/{players['rated'][0]}"

    # The games: ten a page, newest first, with an older page.
    items = page.locator('[data-testid="player-games"] li')
    expect(items).to_have_count(10)
    assert items.first.get_attribute("data-game") == players["unrated"][-1]
    page.get_by_test_id("older").click()
    expect(items).to_have_count(1)
    assert items.first.get_attribute("data-game") == players["rated"][0]
    page.get_by_test_id("newer").click()
    expect(items).to_have_count(10)
    # Filters: the one game lost; games against the opponent; games in progress (none).
    page.get_by_test_id("filter-result").select_option("lost")
    expect(items).to_have_count(1)
    assert items.first.get_attribute("data-game") == players["rated"][1]
    expect(items.first.locator(".outcome")).to_have_text("lost")
    assert items.first.get_by_role("link", name="Review").get_attribute("href") == f"/review?game={players['rated'][1]}"
    page.get_by_test_id("filter-result").select_option("")
    page.get_by_test_id("filter-opponent").select_option(b)
    expect(items).to_have_count(10)
    page.get_by_test_id("filter-status").select_option("live")
    expect(page.get_by_test_id("player-games").get_by_text("No game matches.")).to_be_visible()
    expect(page.get_by_test_id("filter-result")).to_be_disabled()

    # The score against each opponent, the opponent's name linking to their page.
    row = page.get_by_test_id("player-opponents").locator("tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("td")).to_have_text(["10", "1", "0"])
    assert row.get_by_role("link", name=b).get_attribute("href") == f"/p/{b}"
    assert violations(page) == [], "player page"
    assert page.evaluate("window.__cspViolations") == [], "the page was refused something under its CSP"

    # An unknown name is said to be so.
    page.goto("/p/nobody-here")
    expect(page.get_by_test_id("player-error")).to_have_text("No player is named nobody-here.")


def test_player_page_on_a_phone_in_french(new_page: Any, shot: Any, players: dict[str, Any]) -> None:
    page = new_page(locale="fr-FR", width=390, height=844, touch=True)
    page.add_init_script(WATCH)
    open_player(page, players["a"])
    expect(page.get_by_role("heading", name="Classement au fil du temps")).to_be_visible()
    expect(page.get_by_test_id("player-record")).to_have_text("10 gagnées, 1 perdue")
    chart = page.get_by_test_id("line-chart")
    # The chart fits the phone's width, its text at its own size (drawn in CSS pixels, not shrunk).
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert chart.get_attribute("viewBox").split()[2] == str(round(box["width"])), chart.get_attribute("viewBox")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page scrolls sideways"
    dot = chart.locator("circle.dot").nth(1).bounding_box()
    page.touchscreen.tap(dot["x"] + dot["width"] / 2, dot["y"] + dot["height"] / 2)
    expect(page.get_by_test_id("chart-picked")).to_contain_text("Après la partie classée 2")
    expect(page.locator('[data-testid="player-games"] li').first.locator(".outcome")).to_have_text("gagnée")
    assert page.evaluate("window.__cspViolations") == []
    shot(page, "phone-fr")


def test_names_link_to_player_pages_from_lobby_game_and_chat(new_page: Any, players: dict[str, Any]) -> None:
    a, b = players["a"], players["b"]
    page = new_page()
    page.goto("/")
    finished = page.get_by_test_id("lobby-finished")
    link = finished.locator(f'li[data-game="{players["unrated"][-1]}"]').get_by_role("link", name=a, exact=True)
    expect(link).to_have_attribute("href", f"/p/{a}")
    link.click()
    expect(page).to_have_url(re.compile(f"/p/{a}$"))
    page.get_by_test_id("player-page").wait_for()

    # A game page: both seats' names, and the chat's writer.
    gid = players["rated"][-1]
    page.goto(f"/g/{gid}")
    for color, name in (("B", b), ("W", a)):
        expect(page.get_by_test_id(f"name-{color}").get_by_role("link", name=name)).to_have_attribute("href", f"/p/{name}")
    expect(page.locator("a.chat-from")).to_have_text(a)
    expect(page.locator("a.chat-from")).to_have_attribute("href", f"/p/{a}")
    # Neither a seat held by a token alone (its colour speaks) nor a guest (a name of the server's) is a link.
    guest = new_page()
    guest.goto("/")
    guest.locator("form.new-game").wait_for()
    g = post(guest, "/api/games", {"size": 9, "opponent": "invite", "color": "B"})
    say = {"type": "chat", "text": "hello", "to": "players"}
    post(guest, f"/api/games/{g['game']['id']}/actions", say, {"X-Keima-Seat": g["seat"]["token"]})
    guest.request.patch("/api/me", data={})  # now a guest player
    post(guest, f"/api/games/{g['game']['id']}/actions", say, {"X-Keima-Seat": g["seat"]["token"]})
    guest.goto(f"/g/{g['game']['id']}")
    expect(guest.locator(".chat-from")).to_have_count(2)
    writers = guest.locator(".chat-from").all_text_contents()
    assert writers[0] == "Black" and re.fullmatch(r"(Guest|Invité)-\d+", writers[1]), writers
    assert guest.locator("a.chat-from").count() == 0 and guest.locator("a.player-link").count() == 0
