"""A tournament director's pairing, sheets and projector in Chromium (English and French, desktop and 390 px phone):
choosing the bye, pairing two players by hand and letting the engine pair the others, seeing each warning before
the round starts (handicap over the ceiling, missing results, rematch, colours), "pair again" asking before it
drops the hand changes, the pairing and result sheets printed to PDF (A4), the standings after an earlier round,
the log in words, the list's status; and the projector paging through 60 players' standings at 1280x720.
Screenshots go to test-artifacts/browser/tournament-director/."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .test_browser_csp import WATCH

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "tournament-director"

CASES = [("en-US", 1280, 860), ("fr-FR", 1280, 860), ("en-US", 390, 844), ("fr-FR", 390, 844)]
# Two 2D, two 1K and a 25K (counted as the 20K floor): the 1K against the 25K calls for 18 stones.
PLAYERS = [("Ardent", "2d"), ("Brave", "2d"), ("Calm", "1k"), ("Deft", "1k"), ("Eager", "25k")]


def _snap(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize(("locale", "width", "height"), CASES, ids=["en-desktop", "fr-desktop", "en-phone", "fr-phone"])
def test_director_bye_hand_pairing_warnings_and_sheets(new_page: Any, server: Any, locale: str, width: int,
                                                       height: int) -> None:
    fr = locale.startswith("fr")
    phone = width < 600
    tag = f"{locale[:2]}-{'phone' if phone else 'desktop'}"
    page = new_page(locale=locale, width=width, height=height, touch=phone)
    page.add_init_script(WATCH)
    page.goto("/t")
    assert page.request.post("/api/players", data={"name": f"dir{tag}", "password": "correct horse"}).status == 201
    r = page.request.post("/api/tournaments", data={"name": f"Coupe {tag}", "rounds": 3, "location": "Lyon",
                                                    "begin_date": "2026-12-05"})
    tid = r.json()["id"]
    keys = {}
    for name, rank in PLAYERS:
        t = page.request.post(f"/api/tournaments/{tid}/players", data={"name": name, "rank": rank}).json()
        keys[name] = next(p["key"] for p in t["players"] if p["name"] == name)
    page.goto(f"/t/{tid}")
    expect(page.get_by_test_id("t-dates")).to_contain_text("Lyon")

    # Round 1: the director gives the bye to Calm, pairs Ardent with Brave by hand, and the engine pairs the rest.
    page.get_by_test_id("bye-choose").select_option(keys["Calm"])
    expect(page.get_by_test_id("pairings")).to_contain_text("Exempt\u00a0: Calm" if fr else "Bye: Calm")
    page.get_by_test_id("match-a").select_option(keys["Ardent"])
    page.get_by_test_id("match-b").select_option(keys["Brave"])
    page.get_by_test_id("match").click()
    expect(page.get_by_test_id("table-1")).to_contain_text("Ardent")
    expect(page.get_by_test_id("table-1")).to_contain_text("Brave")
    page.get_by_test_id("t-pair").click()
    expect(page.get_by_test_id("pairings").locator("tbody tr")).to_have_count(3)
    r1 = server.get(f"/api/tournaments/{tid}")["round_list"][0]
    assert r1["bye"] == keys["Calm"] and r1["hand_tables"] == [1] and r1["hand_bye"] == keys["Calm"]
    # Deft (1K) against Eager (25K, the 20K floor): 18 stones called for, over the ceiling of 9.
    warn = page.get_by_test_id("warning-handicap")
    expect(warn).to_contain_text("Deft")
    expect(warn).to_contain_text("Eager")
    expect(warn).to_contain_text("18")
    _snap(page, f"{tag}-round1-hand")

    # The printable sheets, as Chromium prints them (A4), and as the print media shows them.
    for kind in ("pairings", "results"):
        sheet = new_page(locale=locale, width=794, height=1123)
        sheet.goto(f"/t/{tid}?sheet={kind}&round=1")
        expect(sheet.get_by_test_id(f"sheet-{kind}")).to_be_visible()
        table = sheet.get_by_test_id(f"sheet-{kind}-table")
        expect(table.locator("tbody tr")).to_have_count(2)
        expect(table).to_contain_text("Ardent")
        expect(table).to_contain_text("2D")
        expect(sheet.locator("header").first).to_be_hidden()
        pdf = sheet.pdf(format="A4", print_background=True)
        assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page[^s]", pdf)) >= 1
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / f"{tag}-sheet-{kind}.pdf").write_bytes(pdf)
        sheet.emulate_media(media="print")
        expect(sheet.get_by_test_id("sheet-print")).to_be_hidden()
        _snap(sheet, f"{tag}-sheet-{kind}-print")

    # Round 2 before round 1's results: a warning names the players of each table without a result.
    page.get_by_test_id("round-tab-2").click()
    missing = page.get_by_test_id("warning-missing-result")
    expect(missing).to_have_count(2)
    expect(missing.first).to_contain_text("Ardent")
    for g in r1["games"]:
        assert page.request.put(f"/api/tournaments/{tid}/rounds/1/tables/{g['table']}/result",
                                data={"result": "white"}).ok
    expect(missing).to_have_count(0)
    page.get_by_test_id("t-pair").click()
    expect(page.get_by_test_id("pairings").locator("tbody tr")).to_have_count(3)
    # Ardent and Brave again, by hand: a rematch; then their colours turned: one has White twice.
    page.get_by_test_id("match-a").select_option(keys["Ardent"])
    page.get_by_test_id("match-b").select_option(keys["Brave"])
    page.get_by_test_id("match").click()
    rematch = page.get_by_test_id("warning-rematch")
    expect(rematch).to_contain_text("Ardent")
    expect(rematch).to_contain_text("Brave")
    expect(rematch).to_contain_text("ronde 1" if fr else "round 1")
    first_white = next(g["white"] for g in r1["games"] if keys["Ardent"] in (g["white"], g["black"]))
    page.get_by_test_id("swap-a").select_option(keys["Ardent"])
    page.get_by_test_id("swap-b").select_option(keys["Brave"])
    r2 = server.get(f"/api/tournaments/{tid}")["round_list"][1]
    table = next(g for g in r2["games"] if keys["Ardent"] in (g["white"], g["black"]))
    if table["white"] != first_white:
        page.get_by_test_id("swap").click()
    # White twice for one, Black twice for the other: each is named.
    colour = page.get_by_test_id("warning-colour")
    twice_white = next(n for n, k in keys.items() if k == first_white)
    expect(colour.filter(has_text=twice_white)).to_have_count(1)
    expect(colour.filter(has_text=twice_white)).to_contain_text("Blanc" if fr else "White")
    _snap(page, f"{tag}-round2-warnings")
    overflow = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"

    # Pair again asks first, naming the hand changes; dismissed, nothing changes; accepted, they are gone.
    asked: list[str] = []

    def dismiss(d: Any) -> None:
        asked.append(d.message)
        d.dismiss()

    page.once("dialog", dismiss)
    page.get_by_test_id("t-repair").click()
    expect(rematch).to_have_count(1)
    assert asked and ("à la main" if fr else "by hand") in asked[0], asked
    page.once("dialog", lambda d: d.accept())
    page.get_by_test_id("t-repair").click()
    expect(rematch).to_have_count(0)
    assert server.get(f"/api/tournaments/{tid}")["round_list"][1]["hand_tables"] == []

    # The standings after an earlier round, and the log in words (local times, no raw keys).
    page.get_by_test_id("standings-round").select_option("0")
    expect(page.get_by_role("heading", name="Classement avant la ronde 1" if fr else "Standings before round 1")).to_be_visible()
    page.get_by_test_id("t-log").locator("summary").click()
    log = page.get_by_test_id("t-log-lines")
    expect(log).to_contain_text("a exempté Calm" if fr else "gave the bye of round 1 to Calm")
    expect(log).to_contain_text("à la main" if fr else "by hand")
    assert "{" not in log.inner_text()
    _snap(page, f"{tag}-log")
    # The list: dates, place, status and players.
    page.goto("/t")
    line = page.get_by_test_id(f"t-line-{tid}")
    expect(line).to_contain_text("ronde 2 sur 3" if fr else "round 2 of 3")
    expect(line).to_contain_text("5 joueurs" if fr else "5 players")
    expect(line).to_contain_text("Lyon")
    _snap(page, f"{tag}-list")
    assert page.evaluate("window.__cspViolations") == []


@pytest.mark.parametrize(("width", "height", "players"), [(1280, 720, 60), (1920, 1080, 200), (1280, 720, 6)],
                         ids=["720p-60", "1080p-200", "720p-6"])
def test_the_projector_pages_through_every_line(new_page: Any, server: Any, width: int, height: int,
                                               players: int) -> None:
    page = new_page(width=width, height=height)
    page.goto("/t")
    assert page.request.post("/api/players", data={"name": f"proj{width}x{players}", "password": "correct horse"}).ok
    tid = page.request.post("/api/tournaments", data={"name": f"Projected {players}", "rounds": 4}).json()["id"]
    for i in range(players):
        rank = f"{1 + i % 20}k"
        # Every seventh player has a name as long as French names get (a double surname and a double first name).
        name, first = (f"Delacroix-Beaumont{i:03d}", "Marie-Charlotte") if i % 7 == 3 else (f"Player{i:03d}",
                                                                                              "Long-Firstname")
        assert page.request.post(f"/api/tournaments/{tid}/players",
                                 data={"name": name, "first_name": first, "rank": rank}).ok
    assert page.request.post(f"/api/tournaments/{tid}/rounds/1/pairing", data={}).ok
    page.goto(f"/t/{tid}?projector&every=1")
    expect(page.get_by_test_id("projector")).to_be_visible()
    lines: set[str] = set()
    tables: set[str] = set()
    pages_seen: set[str] = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (len(lines) < players or len(tables) < players // 2):
        seen = page.evaluate("""() => [...document.querySelectorAll(
            '[data-testid^="proj-line-"], .projector-view [data-testid^="table-"]')].map((el) => {
              const r = el.getBoundingClientRect();
              return [el.dataset.testid, r.top >= 0 && r.bottom <= window.innerHeight + 0.5
                      && r.right <= window.innerWidth + 0.5];
            })""")
        for testid, inside in seen:
            assert inside, f"{testid} is outside the {width}x{height} screen"
            (lines if testid.startswith("proj-line-") else tables).add(testid)
        # Every name is read whole: a long one takes two lines of smaller type, never an ellipsis.
        clipped = page.evaluate("""() => [...document.querySelectorAll('.projector-view td.name')]
            .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
            .map((el) => el.textContent)""")
        assert clipped == [], f"names cut at {width}x{height}: {clipped[:3]}"
        if page.get_by_test_id("proj-page").count():
            pages_seen.add(page.get_by_test_id("proj-page").inner_text() + page.get_by_test_id("proj-title").inner_text())
            if len(pages_seen) <= 2:
                _snap(page, f"projector-{width}x{height}-{players}-{len(pages_seen)}")
        time.sleep(0.3)
    assert len(lines) == players, f"saw {len(lines)} of {players} standings lines"
    assert len(tables) == players // 2
    assert page.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight + 1")
    if players <= 6:
        _snap(page, f"projector-{width}x{height}-{players}")
