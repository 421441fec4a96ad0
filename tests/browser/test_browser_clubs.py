"""Clubs in Chromium (issue 46): an admin creates "Club de go de Grenoble" with code 38Gr, invites four players
by the link (one on a phone, two in French), imports lines of the FFG list and one player confirms the line
proposed to them, a ladder challenge is accepted and played to its result, a tournament is made for the members
only, a game offered to the club from the lobby is taken by another member, two members are paired by an
automatch for the club's members only, an announcement reaches a member's bell; an outsider sees the public page and cannot act."""

from __future__ import annotations

import secrets
import shutil
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from keima.tournament.rating_lists import RatedPlayer, ffg_line

from .test_browser_accessibility import AXE, violations

pytestmark = pytest.mark.browser
#: Where the walk's screenshots are kept besides the suite's artifacts (looked at by hand).
SHOTS = Path("/tmp/h46-shots")


def register(page: Any, name: str) -> None:
    page.goto("/")
    answer = page.request.post("/api/players", data={"name": name, "password": "correct horse"})
    assert answer.status == 201, answer.text()


def _line(name: str, first: str, licence: str, club: str, rating: int) -> str:
    return ffg_line(RatedPlayer(name=name, first_name=first, rating=rating + 2050, club=club, country="FR",
                                origin="FFG", ffg_licence=licence, ffg_licence_status="L"))


def test_a_club_walk(new_page: Any, shot: Any) -> None:
    tag = secrets.token_hex(2)

    def keep(page: Any, name: str) -> None:
        path = shot(page, name)
        SHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, SHOTS / path.name)

    admin = new_page()
    admin.add_init_script(path=str(AXE))  # axe-core in every page the admin opens (the accessibility checks)
    register(admin, f"boss{tag}")
    admin.goto("/")
    admin.get_by_test_id("clubs-link").click()
    admin.get_by_test_id("club-create").wait_for()
    assert violations(admin) == [], "the clubs' list"
    admin.get_by_test_id("club-name").fill(f"Club de go de Grenoble {tag}")
    admin.get_by_test_id("club-code").fill(f"{tag[:2]}Gr")
    admin.get_by_test_id("club-city").fill("Grenoble")
    admin.get_by_test_id("club-create-submit").click()
    expect(admin.get_by_test_id("club-title")).to_contain_text(f"Club de go de Grenoble {tag}")
    slug = admin.url.rstrip("/").rsplit("/", 1)[1]
    link = admin.get_by_test_id("club-invite-link").input_value()
    assert f"/c/{slug}?invite=" in link

    # Four players join by the link: one French on a phone, one French on a desktop, two in English.
    people = [("en-US", 1280, "ann"), ("fr-FR", 390, "lea"), ("fr-FR", 1280, "marc"), ("en-US", 1280, "tom")]
    pages = {}
    for locale, width, name in people:
        p = new_page(locale=locale, width=width, height=860, touch=width < 500)
        p.add_init_script(path=str(AXE))
        register(p, f"{name}{tag}")
        p.goto(link[link.index("/c/"):])
        p.get_by_test_id("club-join").click()
        expect(p.get_by_test_id("club-you")).to_contain_text("membre" if locale == "fr-FR" else "member")
        pages[name] = p
    lea = pages["lea"]
    expect(lea.get_by_test_id("club-ladder")).to_contain_text("Échelle")
    keep(lea, "fr-phone-member")
    lea.goto("/c")
    expect(lea.get_by_test_id("my-clubs")).to_contain_text(f"Club de go de Grenoble {tag}")
    keep(lea, "fr-phone-list")
    lea.goto(f"/c/{slug}")

    # The FFG list: the club's lines kept, one proposed to tom's account, who confirms it.
    admin.reload()
    text = "\n".join([_line("DUPONT", "Marie", "1234567", f"{tag[:2]}Gr", -500),
                      _line("MARTIN", "Tom", "2345678", f"{tag[:2]}Gr", -1200),
                      _line("DURAND", "Luc", "3456789", "69Ly", 0)])
    admin.get_by_test_id("club-import-text").fill(text)
    admin.get_by_test_id("club-import-send").click()
    expect(admin.get_by_test_id("club-import-lines")).to_contain_text("MARTIN Tom")
    expect(admin.get_by_test_id("club-import-lines")).not_to_contain_text("DURAND")
    admin.get_by_test_id("propose-2345678").fill(f"tom{tag}")
    admin.get_by_test_id("propose-2345678").press("Enter")
    expect(admin.get_by_test_id("club-import-lines")).to_contain_text("waiting for the account holder")
    tom = pages["tom"]
    tom.reload()
    expect(tom.get_by_test_id("club-proposal")).to_contain_text("MARTIN Tom")
    tom.get_by_test_id("proposal-yes").click()
    expect(tom.get_by_test_id("club-members")).to_contain_text("2345678")

    # The ladder: boss, ann, lea, marc, tom. Lea (French, on the phone) challenges ann, who accepts.
    lea.reload()
    lea.get_by_test_id(f"challenge-ann{tag}").click()
    expect(lea.get_by_test_id("club-challenges")).to_contain_text(f"lea{tag} défie ann{tag}")
    ann = pages["ann"]
    ann.reload()
    ann.get_by_test_id("challenge-accept").click()
    game = ann.get_by_test_id("ladder-game")
    expect(game).to_be_visible()
    gid = game.get_attribute("href").rsplit("/", 1)[1]
    assert lea.request.post(f"/api/games/{gid}/actions", data={"type": "play", "move": "Q16"}).status == 200
    assert ann.request.post(f"/api/games/{gid}/actions", data={"type": "resign"}).status == 200
    lea.reload()
    ladder = lea.get_by_test_id("club-ladder")
    expect(ladder.locator("li").nth(1)).to_contain_text(f"lea{tag}", timeout=20_000)
    expect(lea.get_by_test_id("club-ended")).to_contain_text("gagné par le challenger")
    keep(lea, "fr-phone-ladder")
    assert violations(lea) == [], "a member's club page, French, phone"

    # A tournament for the members only, made from the tournament form; an outsider cannot sign up.
    admin.goto("/t")
    admin.get_by_test_id("t-name").fill(f"Coupe du club {tag}")
    admin.get_by_test_id("t-club").select_option(slug)
    admin.get_by_test_id("t-create").click()
    admin.wait_for_url("**/t/*")
    tid = admin.url.rstrip("/").rsplit("/", 1)[1]
    assert ann.request.post(f"/api/tournaments/{tid}/signup").status == 201

    # Lea offers a game to the club from the lobby; marc takes it from his.
    lea.goto("/")
    lea.get_by_test_id("club-offer").get_by_role("button").click()
    lea.wait_for_url("**/g/*")
    marc = pages["marc"]
    marc.goto("/")
    expect(marc.get_by_test_id("club-games")).to_contain_text(f"lea{tag}")
    keep(marc, "fr-desktop-lobby")
    assert violations(marc) == [], "the lobby with the club's challenges"
    marc.get_by_test_id("club-game-take").first.click()
    marc.wait_for_url("**/g/*")

    # An announcement reaches marc's bell (rendered as text).
    admin.goto(f"/c/{slug}")
    admin.get_by_test_id("club-announce-text").fill("Tournoi jeudi <b>20h</b> !")
    admin.get_by_test_id("club-announce-send").click()
    expect(admin.get_by_test_id("club-announcements")).to_contain_text("Tournoi jeudi <b>20h</b> !")
    keep(admin, "en-desktop-admin")
    assert violations(admin) == [], "an admin's club page"
    marc.goto(f"/c/{slug}")
    marc.get_by_test_id("bell").click()
    expect(marc.get_by_test_id("bell-item-club")).to_contain_text("Tournoi jeudi <b>20h</b>")
    keep(marc, "fr-desktop-bell")

    # Automatch with the club's members only: tom waits, ann is paired with him (not with anyone else).
    for p in (tom, ann):
        p.goto("/")
        p.get_by_test_id("automatch-club").select_option(slug)
        p.get_by_test_id("automatch-start").click()
    ann.wait_for_url("**/g/*")
    tom.wait_for_url("**/g/*")
    assert ann.url == tom.url

    # A demo board for the members: the admin opens it from the club's page; a member finds it there (the admin's
    # page watches it); the outsider, the link in hand, is told it is the members'.
    admin.goto(f"/c/{slug}")
    admin.get_by_test_id("club-board-new").click()
    admin.wait_for_url("**/d/*")
    board_url = admin.url
    tom.goto(f"/c/{slug}")
    expect(tom.get_by_test_id("club-boards").locator("li")).to_have_count(1, timeout=20_000)
    keep(tom, "club-boards")

    # The outsider: the public page, no tools, every action refused.
    outsider = new_page()
    register(outsider, f"out{tag}")
    outsider.goto(board_url)
    expect(outsider.get_by_test_id("db-gone")).to_have_text("This board is for the members of its club.")
    outsider.goto(f"/c/{slug}")
    expect(outsider.get_by_test_id("club-boards")).to_have_count(0)
    outsider.goto(f"/c/{slug}")
    expect(outsider.get_by_test_id("club-members")).to_contain_text(f"tom{tag}")
    expect(outsider.get_by_test_id("club-admin")).to_have_count(0)
    expect(outsider.get_by_test_id("club-join")).to_have_text("Ask to join")
    expect(outsider.locator("[data-testid^=challenge-]")).to_have_count(0)
    assert outsider.request.post(f"/api/clubs/{slug}/announcements", data={"text": "spam"}).status == 403
    assert outsider.request.post(f"/api/clubs/{slug}/ladder/challenges", data={"defender": f"tom{tag}"}).status == 403
    assert outsider.request.post(f"/api/tournaments/{tid}/signup").status == 403
    expect(outsider.get_by_test_id("club-tournaments")).to_contain_text(f"Coupe du club {tag}")
    keep(outsider, "en-desktop-outsider")
    # The player page lists the player's clubs.
    outsider.goto(f"/p/tom{tag}")
    expect(outsider.get_by_test_id("player-clubs")).to_contain_text(f"Club de go de Grenoble {tag}")
