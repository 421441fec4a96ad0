"""A tournament director in Chromium, in English and French, on a desktop and on a 390 px phone: creating the
tournament, registering players, pairing a round, entering results (one by forfeit); the public page, open in
another browser, shows each result as it is entered (the tournament's socket)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .test_browser_accessibility import AXE, violations
from .test_browser_csp import WATCH

pytestmark = pytest.mark.browser

def ffg(names: str, rating: int, licence: str) -> str:
    """A line of the FFG rating list (fixed columns, tests/tournament/test_rating_lists.py)."""
    return f"{names:<38}{rating:>5} L {licence} 69Ly FR"


def nameish(key: str) -> str:
    """The name the page shows for a player key of this test ("DUPONTJEAN" -> "DUPONT")."""
    return {"DUPONTJEAN": "DUPONT", "NOVAKPETRA": "NOVAK"}.get(key, key.capitalize())


CASES = [("en-US", 1280, 860), ("fr-FR", 1280, 860), ("en-US", 390, 844), ("fr-FR", 390, 844)]


@pytest.mark.parametrize(("locale", "width", "height"), CASES, ids=["en-desktop", "fr-desktop", "en-phone", "fr-phone"])
def test_director_pairs_and_enters_results(new_page: Any, server: Any, shot: Any, locale: str, width: int,
                                           height: int) -> None:
    fr = locale.startswith("fr")
    phone = width < 600
    page = new_page(locale=locale, width=width, height=height, touch=phone)
    page.add_init_script(WATCH)
    page.add_init_script(path=str(AXE))
    page.goto("/t")
    r = page.request.post("/api/players", data={"name": f"td{locale[:2]}{width}", "password": "correct horse"})
    assert r.status == 201, r.text()
    page.reload()
    page.get_by_test_id("t-name").fill(f"Open {locale} {width}")
    page.get_by_test_id("t-create").click()
    expect(page.get_by_test_id("t-title")).to_have_text(f"Open {locale} {width}")
    tid = page.url.rstrip("/").rsplit("/", 1)[1]

    # Two players typed in the director's form, two pasted from the FFG list.
    for name, rank in [("Ito", "1d"), ("Martin", "5k")]:
        page.get_by_test_id("p-name").fill(name)
        page.get_by_test_id("p-rank").fill(rank)
        page.get_by_test_id("p-add").click()
        expect(page.get_by_test_id("players")).to_contain_text(name)
    page.get_by_test_id("p-lines").fill("\n".join([ffg("NOVAK Petra", -350, "0700348"), ffg("DUPONT Jean", -156, "1500104")]))
    page.get_by_test_id("p-add-lines").click()
    expect(page.get_by_test_id("players")).to_contain_text("DUPONT")
    expect(page.get_by_test_id("players").locator("tbody tr")).to_have_count(4)
    # Martin is away in round 2.
    page.get_by_test_id("absent-player").select_option("MARTIN")
    page.get_by_test_id("absent-round").select_option("2")
    page.get_by_test_id("absent").click()
    expect(page.get_by_test_id("players").locator("tbody tr").nth(1)).to_contain_text("2")

    # The public page, in another browser with nobody logged in.
    public = new_page(locale=locale, width=width, height=height, touch=phone)
    public.add_init_script(WATCH)
    public.goto(f"/t/{tid}")
    expect(public.get_by_test_id("t-title")).to_be_visible()
    expect(public.get_by_test_id("director-tools")).to_have_count(0)

    page.get_by_test_id("t-pair").click()
    rows = page.get_by_test_id("pairings").locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(public.get_by_test_id("pairings").locator("tbody tr")).to_have_count(2)  # live
    # A swap of two players of different tables, before the round starts.
    before = server.get(f"/api/tournaments/{tid}")["round_list"][0]["games"]
    page.get_by_test_id("swap-a").select_option(before[0]["white"])
    page.get_by_test_id("swap-b").select_option(before[1]["white"])
    page.get_by_test_id("swap").click()
    expect(public.get_by_test_id("table-1")).to_contain_text(nameish(before[1]["white"]))
    after = server.get(f"/api/tournaments/{tid}")["round_list"][0]["games"]
    assert {frozenset((g["white"], g["black"])) for g in after} == {
        frozenset((before[0]["white"], before[1]["black"])), frozenset((before[1]["white"], before[0]["black"]))}
    shot(page, "paired")
    overflow = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"

    # Results: White wins at table 1; Black wins table 2 by forfeit.
    page.get_by_test_id("result-1").select_option("white")
    expect(public.get_by_test_id("table-1")).to_contain_text("Blanc gagne" if fr else "White wins")
    page.get_by_test_id("forfeit-2").check()
    page.get_by_test_id("result-2").select_option("black")
    expect(public.get_by_test_id("table-2")).to_contain_text(
        re.compile("Noir gagne \\(par forfait\\)" if fr else "Black wins \\(by forfeit\\)"))
    t = server.get(f"/api/tournaments/{tid}")
    assert [(g["table"], g["result"], g["by_forfeit"]) for g in t["round_list"][0]["games"]] == [
        (1, "white", False), (2, "black", True)]
    # The standings follow on both pages.
    after = "Classement après la ronde 1" if fr else "Standings after round 1"
    expect(page.get_by_role("heading", name=after)).to_be_visible()
    expect(public.get_by_role("heading", name=after)).to_be_visible()
    standings = server.get(f"/api/tournaments/{tid}/standings")
    first = standings["lines"][0]
    expect(public.get_by_test_id("standings").locator("tbody tr").first).to_contain_text(first["name"])
    shot(page, "results")
    shot(public, "public")
    overflow = public.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the public page scrolls sideways by {overflow} px"
    # The projector's view: large print, no header, still live.
    public.get_by_test_id("t-projector").click()
    expect(public.locator("header")).to_be_hidden()
    page.get_by_test_id("result-1").select_option("draw")
    expect(public.get_by_test_id("table-1")).to_contain_text("Nulle" if fr else "Draw")
    shot(public, "projector")
    # The files are a click away.
    with page.expect_download() as dl:
        page.get_by_test_id("export-tou").click()
    assert dl.value.suggested_filename.endswith(".tou")
    # The director's page passes axe-core's WCAG A/AA checks.
    assert violations(page) == []
    # Nothing of the pages was refused by the content security policy.
    assert page.evaluate("window.__cspViolations") == [] and public.evaluate("window.__cspViolations") == []


def test_a_player_finds_their_game_and_the_referee_opens_its_position(new_page: Any, server: Any, ui: Any,
                                                                       shot: Any) -> None:
    director, black, white = (new_page(width=390, height=844, touch=True) for _ in range(3))
    for i, p in enumerate((director, black, white)):
        p.goto("/t")
        assert p.request.post("/api/players", data={"name": f"online{i}", "password": "correct horse"}).status == 201
    t = director.request.post("/api/tournaments", data={"name": "Online", "rounds": 3, "size": 9, "online": True})
    tid = t.json()["id"]
    for p in (black, white):
        assert p.request.post(f"/api/tournaments/{tid}/signup").status == 201
    assert director.request.post(f"/api/tournaments/{tid}/rounds/1/pairing", data={}).ok
    assert director.request.post(f"/api/tournaments/{tid}/rounds/1/start", data={}).ok
    # The player's page: their table, colour, opponent and a link to the game, once the scheduler made it.
    black.goto(f"/t/{tid}")
    expect(black.get_by_test_id("my-game")).to_be_visible()
    mine = black.request.get(f"/api/tournaments/{tid}/me").json()["rounds"][0]
    player, other = (black, white) if mine["color"] == "B" else (white, black)
    if player is not black:
        player.goto(f"/t/{tid}")
    expect(player.get_by_test_id("my-table")).to_contain_text("Black")
    player.get_by_test_id("check-in").click()
    expect(player.get_by_test_id("check-in")).to_have_count(0)
    shot(player, "my-table")
    player.get_by_test_id("my-game").click()
    ui.point(player, "E5").wait_for()
    # The game names its tournament, round and table, and links back to it.
    expect(player.get_by_test_id("game-event")).to_contain_text("Online")
    expect(player.get_by_test_id("game-event")).to_contain_text("round 1, table 1")
    assert player.get_by_test_id("game-event").locator("a").get_attribute("href").endswith(f"/t/{tid}")
    gid = player.url.rsplit("/g/", 1)[1]
    ui.play_api(player, gid, {"type": "play", "move": "E5"})
    ui.wait_stone(player, "E5", "black")
    # The referee called to the table opens its position in the position tool.
    director.goto(f"/t/{tid}")
    director.get_by_test_id("referee-1").click()
    expect(director.get_by_test_id("position-tool")).to_be_visible()
    ui.wait_stone(director, "E5", "black")
    shot(director, "referee-position")
    assert other is not player
