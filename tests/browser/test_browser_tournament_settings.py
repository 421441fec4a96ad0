"""A director's settings and players in Chromium (issue 42), in English and French, on a desktop and a 390 px phone:
a 9x9 McMahon created with chosen settings (the board's handicap ceiling offered), a setting changed after round 1
is paired (those a paired round fixes shown fixed), a player edited (a bad rank refused in words naming it),
another withdrawn from the remaining rounds in one click; an anonymous visitor is told to log in to sign up."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from playwright.sync_api import expect

from .test_browser_csp import WATCH

pytestmark = pytest.mark.browser

CASES = [("en-US", 1280, 860), ("fr-FR", 1280, 860), ("en-US", 390, 844), ("fr-FR", 390, 844)]


@pytest.mark.parametrize(("locale", "width", "height"), CASES, ids=["en-desktop", "fr-desktop", "en-phone", "fr-phone"])
def test_a_director_sets_and_changes_settings_and_players(new_page: Any, server: Any, shot: Any, locale: str,
                                                          width: int, height: int) -> None:
    fr = locale.startswith("fr")
    phone = width < 600
    tag = secrets.token_hex(3)
    page = new_page(locale=locale, width=width, height=height, touch=phone)
    page.add_init_script(WATCH)
    page.goto("/t")
    r = page.request.post("/api/players", data={"name": f"td{tag}", "password": "correct horse"})
    assert r.status == 201, r.text()
    page.reload()

    # The form: a 9x9 board offers the ceiling a 9x9 game bears; the director's choices go with it.
    expect(page.get_by_test_id("t-handicap_ceiling")).to_have_value("9")
    page.get_by_test_id("t-name").fill(f"Blitz 9x9 {tag}")
    page.get_by_test_id("t-size").select_option("9")
    expect(page.get_by_test_id("t-handicap_ceiling")).to_have_value("2")
    page.get_by_test_id("t-rounds").fill("4")
    page.get_by_test_id("t-komi").fill("6.5")
    page.get_by_test_id("t-location").fill("Lyon")
    page.get_by_test_id("t-mm_bar").fill("1d")
    page.get_by_test_id("t-main_time").fill("20")
    page.get_by_test_id("t-overtime").select_option("canadian")
    page.get_by_test_id("t-canadian_stones").fill("10")
    page.get_by_test_id("t-criterion-3").select_option("SODOSM")
    shot(page, "form")
    overflow = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the form scrolls sideways by {overflow} px"
    page.get_by_test_id("t-create").click()
    expect(page.get_by_test_id("t-title")).to_have_text(f"Blitz 9x9 {tag}")
    tid = page.url.rstrip("/").rsplit("/", 1)[1]
    t = server.get(f"/api/tournaments/{tid}")
    s = t["settings"]
    assert (t["size"], t["rounds"], t["komi"], s["location"], s["mm_bar"], s["handicap_ceiling"]) == \
        (9, 4, "6.5", "Lyon", "1d", 2)
    assert (s["main_time"], s["overtime"], s["canadian_stones"], s["criteria"]) == \
        (20, "canadian", 10, ["MMS", "SOSM", "SODOSM"])
    # A director who does not play is not offered the account's sign-up.
    expect(page.get_by_test_id("t-signup")).to_have_count(0)

    for name, rank in [("Ito", "1d"), ("Martin", "5k"), ("Novak", "3k"), ("Dupont", "12k")]:
        answer = page.request.post(f"/api/tournaments/{tid}/players", data={"name": name, "rank": rank})
        assert answer.status == 201, answer.text()
    page.reload()
    page.get_by_test_id("t-pair").click()
    expect(page.get_by_test_id("pairings").locator("tbody tr")).to_have_count(2)

    # A setting after round 1 is paired: the komi changes; the board, system, bar and floor are shown fixed.
    page.get_by_test_id("t-settings-open").click()
    expect(page.get_by_test_id("t-locked")).to_be_visible()
    expect(page.get_by_test_id("s-size")).to_be_disabled()
    expect(page.get_by_test_id("s-mm_bar")).to_be_disabled()
    page.get_by_test_id("s-komi").fill("5.5")
    page.get_by_test_id("s-location").fill("Villeurbanne")
    page.get_by_test_id("t-settings-save").click()
    expect(page.get_by_test_id("t-settings-saved")).to_be_visible()
    t = server.get(f"/api/tournaments/{tid}")
    assert (t["komi"], t["settings"]["location"], t["size"]) == ("5.5", "Villeurbanne", 9)
    page.get_by_test_id("t-settings-save").scroll_into_view_if_needed()
    shot(page, "settings")

    # A player edited: a rank the strict reading refuses, in words that name the field, then a good edit.
    page.get_by_test_id("edit-ITO").click()
    editor = page.get_by_test_id("player-editor")
    editor.get_by_test_id("pe-rank").fill("40k")
    editor.get_by_test_id("pe-save").click()
    expect(editor.get_by_test_id("error")).to_have_text(
        "Niveau\u00a0: écrivez-le de 30k à 1k, de 1d à 9d ou de 1p à 9p." if fr
        else "Rank: write it 30k to 1k, 1d to 9d or 1p to 9p.")
    editor.get_by_test_id("pe-rank").fill("2d")
    editor.get_by_test_id("pe-first_name").fill("Ken")
    editor.get_by_test_id("pe-club").fill("69Ly")
    shot(page, "editor")
    editor.get_by_test_id("pe-save").click()
    expect(page.get_by_test_id("player-editor")).to_have_count(0)
    row = page.get_by_test_id("player-ITOKEN")
    expect(row).to_contain_text("Ito Ken")
    expect(row).to_contain_text("2D")
    expect(row).to_contain_text("69Ly")
    # The pairing names the player by the new name.
    expect(page.get_by_test_id("pairings")).to_contain_text("Ito Ken")

    # Withdrawn from the remaining rounds in one click.
    page.get_by_test_id("withdraw-MARTIN").click()
    expect(page.get_by_test_id("absent-MARTIN")).to_have_text(
        "retiré à partir de la ronde 2" if fr else "withdrawn from round 2")
    expect(page.get_by_test_id("withdraw-MARTIN")).to_have_count(0)
    assert next(p for p in server.get(f"/api/tournaments/{tid}")["players"] if p["key"] == "MARTIN")["absent"] == \
        [2, 3, 4]
    page.get_by_test_id("players").scroll_into_view_if_needed()
    shot(page, "withdrawn")
    overflow = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"

    # An anonymous visitor: told to log in to sign up, never offered the account's button.
    public = new_page(locale=locale, width=width, height=height, touch=phone)
    public.goto(f"/t/{tid}")
    expect(public.get_by_test_id("t-login-to-signup")).to_be_visible()
    expect(public.get_by_test_id("t-signup")).to_have_count(0)
    expect(public.get_by_test_id("t-settings")).to_have_count(0)
    expect(public.get_by_test_id("edit-ITOKEN")).to_have_count(0)
    shot(public, "public")
    assert page.evaluate("window.__cspViolations") == []


def test_an_account_signs_up_with_its_first_name_club_and_licence(new_page: Any, server: Any, shot: Any) -> None:
    tag = secrets.token_hex(3)
    director, player = new_page(), new_page(locale="fr-FR", width=390, height=844, touch=True)
    for p, name in ((director, f"d{tag}"), (player, f"p{tag}")):
        p.goto("/t")
        assert p.request.post("/api/players", data={"name": name, "password": "correct horse"}).status == 201
    tid = director.request.post("/api/tournaments", data={"name": f"Club {tag}", "rounds": 3}).json()["id"]
    player.goto(f"/t/{tid}")
    player.get_by_test_id("t-signup").click()
    player.get_by_test_id("su-first_name").fill("Léa")
    player.get_by_test_id("su-club").fill("69Ly")
    player.get_by_test_id("su-country").fill("fr")
    shot(player, "signup")
    player.get_by_test_id("t-signup-send").click()
    expect(player.get_by_test_id("t-signup-form")).to_have_count(0)
    expect(player.get_by_test_id("players")).to_contain_text(f"p{tag} Léa")
    line = server.get(f"/api/tournaments/{tid}")["players"][0]
    assert (line["first_name"], line["club"], line["country"], line["ffg_licence"]) == ("Léa", "69Ly", "FR", "")


@pytest.mark.parametrize(("locale", "width", "height"), [("en-US", 1280, 860), ("fr-FR", 390, 844)],
                         ids=["en-desktop", "fr-phone"])
def test_a_director_creates_a_19x19_swiss(new_page: Any, server: Any, shot: Any, locale: str, width: int,
                                          height: int) -> None:
    """A Swiss on 19x19: choosing the system puts in its defaults (even games, wins first), the director's choices
    go with them, and the tournament's settings are those asked for."""
    tag = secrets.token_hex(3)
    page = new_page(locale=locale, width=width, height=height, touch=width < 600)
    page.goto("/t")
    assert page.request.post("/api/players", data={"name": f"sw{tag}", "password": "correct horse"}).status == 201
    page.reload()
    page.get_by_test_id("t-name").fill(f"Open suisse {tag}")
    page.get_by_test_id("t-size").select_option("19")
    page.get_by_test_id("t-system").select_option("swiss")
    expect(page.get_by_test_id("t-handicap_ceiling")).to_have_value("0")  # a Swiss is even games
    expect(page.get_by_test_id("t-criterion-1")).to_have_value("NBW")
    page.get_by_test_id("t-rounds").fill("6")
    page.get_by_test_id("t-location").fill("Grenoble")
    page.get_by_test_id("t-main_time").fill("90")
    page.get_by_test_id("t-overtime").select_option("byoyomi")
    page.get_by_test_id("t-byoyomi_seconds").fill("30")
    overflow = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the form scrolls sideways by {overflow} px"
    shot(page, "swiss-form")
    page.get_by_test_id("t-create").click()
    expect(page.get_by_test_id("t-title")).to_have_text(f"Open suisse {tag}")
    tid = page.url.rstrip("/").rsplit("/", 1)[1]
    t = server.get(f"/api/tournaments/{tid}")
    s = t["settings"]
    assert (t["system"], t["size"], t["rounds"], s["location"], s["handicap_ceiling"]) == ("swiss", 19, 6, "Grenoble", 0)
    assert (s["main_time"], s["overtime"], s["byoyomi_seconds"], s["criteria"][0]) == (90, "byoyomi", 30, "NBW")
    shot(page, "swiss-page")
