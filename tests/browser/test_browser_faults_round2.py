"""More faults new users hit (issue 23 items 15-20 and the phone header, the refusal texts and the marking phase's
"Confirm each move"), each shown in the language and on the screen where it was found."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844, "touch": True}
LESSONS = Path(__file__).resolve().parents[2] / "web" / "src" / "lessons.json"


def number(text: str) -> float:
    """A number as the page writes it, in English or French ("7.5", "7,5", "−1")."""
    return float(text.strip().replace("\u2212", "-").replace(",", ".").replace("\u00a0", ""))


def wall_game(page: Any, ui: Any) -> str:
    """A 9x9 game on one screen: Black walls column E, White column F, both pass; the marking phase."""
    gid = ui.create_game(page, size=9, opponent="local", level=None, komi="7.5")
    for row in range(1, 10):
        for col in ("E", "F"):
            point = ui.point(page, f"{col}{row}")
            point.click()
            expect(point).to_have_class(re.compile("shudan-sign_" + ("1" if col == "E" else "-1")))
    for _ in range(2):
        page.get_by_role("button", name=re.compile("^(Pass|Passer)$")).click()
    expect(page.locator(".game")).to_have_attribute("data-phase", "scoring")
    return str(gid)


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_the_quick_count_table_says_which_rows_make_the_total(
    new_page: Any, ui: Any, shot: Any, locale: str
) -> None:
    page = new_page(locale=locale)
    wall_game(page, ui)
    table = page.locator('table[data-method="quick-count"]')
    expect(table).to_be_visible()
    # The stones held (here the pass stones) explain the filled points: they are apart and not added.
    held = table.locator('tr[data-op="held"]')
    expect(held).not_to_have_count(0)
    expect(table.get_by_test_id("held-rows")).to_contain_text(re.compile("not added|non ajoutées"))
    for column in (1, 2):  # Black, White: the signed rows add up to the total shown
        signed = 0.0
        for row in table.locator("tr[data-op='+'], tr[data-op='-']").all():
            value = number(row.locator("td").nth(column - 1).inner_text())
            signed += value if row.get_attribute("data-op") == "+" else -value
        total = number(table.locator("tr.total td").nth(column - 1).inner_text())
        assert signed == total, (column, signed, total)
    expect(table.locator('tr[data-op="-"] th')).to_contain_text("\u2212")
    expect(page.get_by_test_id("quick-count-note")).to_contain_text(re.compile(r"\+ ou −|\+ or −"))
    shot(page, f"quick-count-{locale}")


def test_confirm_each_move_is_not_offered_while_marking(new_page: Any, ui: Any, shot: Any) -> None:
    page = new_page(locale="fr-FR", **PHONE)
    gid = ui.create_game(page, size=9, opponent="local", level=None)
    expect(page.get_by_test_id("confirm-tap")).to_be_visible()  # while playing, a phone's player may want it
    for _ in range(2):
        ui.play_api(page, gid, {"type": "pass"})
    expect(page.locator(".game")).to_have_attribute("data-phase", "scoring")
    expect(page.get_by_test_id("confirm-tap")).to_have_count(0)
    shot(page, "marking-fr-phone")


def header_rows(page: Any) -> int:
    """How many lines the header takes: its parts' distinct lines, each part's own height in button rows."""
    rows: int = page.evaluate(
        """() => {
            const row = document.querySelector('header .nav-links .button').getBoundingClientRect().height;
            const lines = new Set();
            for (const el of document.querySelectorAll('header h1, header .account, header .nav-links')) {
                const box = el.getBoundingClientRect();
                for (let y = box.top; y < box.bottom - row / 2; y += row) lines.add(Math.round(y / row));
            }
            return lines.size;
        }"""
    )
    return rows


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_the_phone_header_takes_two_lines(new_page: Any, ui: Any, shot: Any, locale: str) -> None:
    page = new_page(locale=locale, **PHONE)
    gid = ui.create_game(page, size=9, opponent="local")
    for path in (f"/g/{gid}", "/", "/review"):
        page.goto(path)
        page.get_by_test_id("language").wait_for()
        page.get_by_test_id("me-name").wait_for()
        assert header_rows(page) <= 2, (path, page.locator("header").bounding_box())
        assert page.locator("header").bounding_box()["height"] < 100
        # The language menu in view (the page links are behind "Pages", below).
        menu = page.get_by_test_id("language").bounding_box()
        assert menu["x"] + menu["width"] <= 390, menu
        # A guest's way in is in view without scrolling: in French, "Modifier le nom et le niveau" came first and
        # pushed "S'inscrire" and "Se connecter" out of the line.
        for link in ("open-register", "open-login"):
            box = page.get_by_test_id(link).bounding_box()
            assert box is not None and box["x"] + box["width"] <= 390, (path, link, box)
    # The page links fold behind "Pages": opened, every one is on the screen, none scrolled out of sight.
    page.get_by_test_id("nav-toggle").click()
    for link in ("learn-link", "position-link", "tournaments-link"):  # (this page is the review's)
        box = page.get_by_test_id(link).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (link, box)
    shot(page, f"phone-pages-{locale}")
    page.get_by_test_id("learn-link").click()
    expect(page).to_have_url(re.compile("/learn$"))
    page.get_by_test_id("nav-toggle").click()
    page.get_by_test_id("position-link").click()
    expect(page).to_have_url(re.compile("/position$"))
    page.get_by_test_id("account-menu").click()
    page.get_by_test_id("edit-profile").click()
    expect(page.get_by_test_id("form-edit")).to_be_visible()
    page.goto(f"/g/{gid}")
    page.get_by_test_id("language").wait_for()
    shot(page, f"phone-header-{locale}")


# Main line B E5, W C7, B G3; a variation W G7, B C3 after Black's first move. Black is named "?", White not at all.
UNNAMED_SGF = (
    "(;GM[1]FF[4]SZ[9]KM[7.5]RU[French]PB[?]C[Start]"
    ";B[ee]C[Tengen]"
    "(;W[cc]C[Main line];B[gg])"
    "(;W[gc]C[A variation];B[cg]))"
)


def review_point(page: Any, vertex: str) -> Any:
    return page.locator(f'[data-testid="review"] .board-column [data-vertex="{vertex}"]')


def open_pasted(page: Any, sgf: str) -> None:
    page.goto("/review")
    page.get_by_test_id("sgf-text").fill(sgf)
    page.get_by_test_id("open-pasted").click()


def test_review_keys_work_at_either_end_and_leave_the_board_its_cursor(new_page: Any, shot: Any) -> None:
    page = new_page()
    open_pasted(page, UNNAMED_SGF)
    position = page.get_by_test_id("review-position")
    expect(position).to_contain_text("Start of the game")
    # The End button is disabled once pressed, and the focus falls to the page: the arrows still work.
    page.get_by_test_id("review-end").click()
    expect(position).to_contain_text("Move 3")
    page.keyboard.press("ArrowLeft")
    expect(position).to_contain_text("Move 2")
    page.keyboard.press("Home")
    expect(position).to_contain_text("Start of the game")
    page.keyboard.press("ArrowLeft")  # at the start: nothing to do, and nothing breaks
    page.keyboard.press("ArrowRight")
    expect(position).to_contain_text("Move 1")
    page.get_by_test_id("review-start").click()  # disabled once pressed
    page.keyboard.press("End")
    expect(position).to_contain_text("Move 3")
    # On the board, the arrows move its cursor, not the move; its help says what Enter does here.
    page.keyboard.press("Home")
    point = review_point(page, "E5")
    point.focus()
    page.keyboard.press("ArrowRight")
    expect(review_point(page, "F5")).to_be_focused()
    expect(position).to_contain_text("Start of the game")
    expect(page.locator("#board-help")).to_contain_text("tries a move")
    # Nobody named: the colours, not "?".
    expect(page.get_by_test_id("review-players")).to_have_text("Black – White")
    shot(page, "review-keys")


def test_review_tries_a_variation_from_any_move_and_keeps_it_in_the_sgf(new_page: Any, shot: Any) -> None:
    page = new_page(locale="fr-FR", **PHONE)
    open_pasted(page, UNNAMED_SGF)
    expect(page.get_by_test_id("review-players")).to_have_text("Noir – Blanc")
    page.get_by_test_id("review-next").click()  # after Black's E5: White to play
    review_point(page, "D4").click()
    position = page.get_by_test_id("review-position")
    expect(position).to_contain_text("Coup 2 – Blanc D4")
    expect(position).to_contain_text("Dans une variante")
    expect(page.get_by_test_id("tried")).to_be_visible()
    expect(review_point(page, "D4")).to_have_attribute("aria-label", re.compile("blanche"))
    # Black answers in the variation, then a pass.
    review_point(page, "C3").click()
    expect(position).to_contain_text("Coup 3 – Noir C3")
    page.get_by_test_id("try-pass").click()
    expect(position).to_contain_text("Coup 4 – Blanc passe")
    # An occupied point tries nothing; an illegal move is refused in French.
    review_point(page, "E5").click()
    expect(position).to_contain_text("Coup 4 – Blanc passe")
    # The slider jumps along the line: to the start, and back to the end of the variation.
    slider = page.get_by_test_id("review-slider")
    slider.fill("0")
    expect(position).to_contain_text("Début de la partie")
    slider.fill("4")
    expect(position).to_contain_text("Coup 4")
    # Back at Black's first move, the variation is a third line beside the record's two.
    slider.fill("1")
    expect(page.get_by_test_id("variation-2")).to_have_text("C. Blanc D4")
    # The downloaded SGF keeps it.
    with page.expect_download() as got:
        page.get_by_test_id("review-download").click()
    sgf = Path(got.value.path()).read_text(encoding="utf-8")
    assert "W[df]" in sgf and "B[cg]" in sgf and "C[A variation]" in sgf, sgf
    shot(page, "review-variation-fr-phone")


@pytest.mark.parametrize(
    ("locale", "sgf", "words"),
    [
        ("fr-FR", "(;GM[1]FF[4]SZ[9]\n;B[ee]\n;W[gc]\n;B[cc]", "Ce fichier est coupé à la ligne 4"),
        ("en-US", "(;GM[1]FF[4]SZ[9]\n;B[ee]\n;W[gc]\n;B[cc]", "This file is cut short at line 4"),
        ("fr-FR", "bonjour", "Ce fichier n’est pas un enregistrement SGF"),
        ("fr-FR", "(;GM[1]SZ[9]\n;B[ee]\n;W[ee])", "un coup que les règles refusent, à la ligne 3"),
    ],
)
def test_review_says_what_is_wrong_with_a_file_in_the_readers_language(
    new_page: Any, shot: Any, locale: str, sgf: str, words: str
) -> None:
    page = new_page(locale=locale, **PHONE)
    open_pasted(page, sgf)
    error = page.get_by_test_id("error")
    expect(error).to_contain_text(words)
    assert "malformed" not in error.inner_text() and "<bytes>" not in error.inner_text()
    shot(page, f"review-error-{locale}")


def test_review_refuses_a_file_too_large_in_french(new_page: Any) -> None:
    page = new_page(locale="fr-FR")
    page.goto("/review")
    big = b"(;GM[1]" + b"C[x]" * 300_000 + b")"
    page.get_by_test_id("sgf-file").set_input_files(
        files=[{"name": "big.sgf", "mimeType": "application/x-go-sgf", "buffer": big}]
    )
    expect(page.get_by_test_id("error")).to_have_text("Ce fichier est trop gros pour être revu ici (1\u00a0Mo au plus).")
    page.get_by_test_id("sgf-text").fill(big.decode())
    page.get_by_test_id("open-pasted").click()
    expect(page.get_by_test_id("error")).to_have_text("Ce fichier est trop gros pour être revu ici (1\u00a0Mo au plus).")


def test_the_learn_quick_count_steps_with_the_arrows_at_once(new_page: Any) -> None:
    page = new_page()
    page.goto("/learn?lesson=quick-count")
    count = page.get_by_test_id("lesson-count")
    expect(count).to_be_visible()
    count.click()
    steps = page.get_by_test_id("count-steps")
    expect(steps).to_have_attribute("data-step", "0")
    page.keyboard.press("ArrowRight")
    expect(steps).to_have_attribute("data-step", "1")


def lesson_point(page: Any, vertex: str) -> Any:
    return page.locator(f'[data-testid="lesson"] .board-column [data-vertex="{vertex}"]')


def test_the_capture_lesson_names_the_last_liberty(new_page: Any) -> None:
    page = new_page(locale="fr-FR", **PHONE)
    page.goto("/learn?lesson=capture")
    expect(page.get_by_test_id("lesson-prompt")).to_have_text(
        "La pierre blanche en C3 n’a plus qu’une liberté, en C2. Jouez Noir en C2 et capturez-la."
    )


@pytest.mark.parametrize(("locale", "screen"), [("fr-FR", PHONE), ("en-US", {})])
def test_the_end_of_game_lesson_goes_through_marking_and_the_count(
    new_page: Any, shot: Any, locale: str, screen: dict[str, Any]
) -> None:
    page = new_page(locale=locale, **screen)
    page.goto("/learn?lesson=end")
    page.get_by_test_id("lesson-pass").click()
    mark = page.get_by_test_id("lesson-mark")
    expect(mark).to_contain_text("E4")
    expect(page.get_by_test_id("lesson-count")).to_have_count(0)  # the count waits for the marking
    lesson_point(page, "C3").click()  # a living stone marked by mistake, then unmarked
    expect(lesson_point(page, "C3")).to_have_class(re.compile("shudan-marker_cross"))
    lesson_point(page, "C3").click()
    lesson_point(page, "E4").click()
    expect(lesson_point(page, "E4")).to_have_class(re.compile("shudan-marker_cross"))
    expect(page.get_by_test_id("lesson-marked")).to_be_visible()
    page.get_by_test_id("lesson-count").click()
    steps = page.get_by_test_id("count-steps")
    expect(steps).to_be_focused()
    page.keyboard.press("End")
    # E4 dead: White holds it and Black's pass stone, both put into Black's 10 points (8 left); Black's one
    # pass stone fills one of White's 5 (the E column, E4 included), and White adds 0.5 of komi.
    expect(page.get_by_test_id("total-B")).to_have_text("8")
    expect(page.get_by_test_id("total-W")).to_have_text(re.compile(r"^4[.,]5$"))
    expect(page.get_by_test_id("lesson-complete")).to_be_visible()
    shot(page, f"end-lesson-{locale}")


def test_the_triple_ko_lesson_says_the_start_counts_as_whites(new_page: Any) -> None:
    page = new_page(locale="fr-FR")
    page.goto("/learn?lesson=superko")
    (lesson,) = [x for x in json.loads(LESSONS.read_text(encoding="utf-8")) if x["id"] == "superko"]
    shown = page.get_by_test_id("lesson")
    for i, step in enumerate(lesson["steps"]):  # each step's move, as its prompt asks: the last one is refused
        expect(shown).to_have_attribute("data-step", str(i))
        lesson_point(page, step["goal"][0]).click()
    refusal = page.get_by_test_id("lesson-refusal")
    expect(refusal).to_have_attribute("data-reason", "superko")
    expect(refusal).to_contain_text("redonnerait au goban sa position de départ")
    expect(refusal).to_contain_text("donc ici par Blanc")


# EGC 2011 explanations' example 6 shape (drawn for keima), every stone in seki, an eye each at A5 and E5; French
# rules, whose area count gives each eye to its side, while the Japanese steps give them to nobody.
SEKI_SGF = (
    "(;GM[1]FF[4]SZ[5]RU[French]KM[7.5]"
    "AB[ba][ab][bb][ac][bc][ad][bd][cd][ae][be][ce]"
    "AW[ca][da][cb][db][eb][dc][ec][ed][de][ee])"
)


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_the_japanese_seki_step_marks_the_eyes_and_the_tool_shows_territory(
    new_page: Any, shot: Any, locale: str
) -> None:
    page = new_page(locale=locale)
    page.goto("/position")
    page.locator('textarea[name="sgf"]').fill(SEKI_SGF)
    page.locator("form.sgf-load button[type=submit]").click()
    point = page.locator('[data-testid="position-tool"] .position-layout [data-vertex="A5"]')
    expect(page.locator('[data-testid="position-tool"] .position-layout [data-vertex="B5"]')).to_have_class(
        re.compile("shudan-sign_1")
    )
    page.get_by_test_id("count").click()
    steps = page.get_by_test_id("count-steps")
    expect(steps).to_be_visible()
    # The position tool's own board shows the territory of the count (the area count's: the eyes)...
    expect(point).to_have_class(re.compile("shudan-paint_1"))
    expect(page.locator('[data-testid="position-tool"] .position-layout [data-vertex="E5"]')).to_have_class(
        re.compile("shudan-paint_-1")
    )
    # ... and under Japanese counting the seki step marks both eyes as nobody's.
    steps.locator('button[data-method="japanese"]').click()
    for _ in range(6):
        if steps.get_attribute("data-kind") == "jp-seki":
            break
        page.get_by_test_id("step-next").click()
    expect(steps).to_have_attribute("data-kind", "jp-seki")
    for vertex in ("A5", "E5"):
        eye = steps.locator(f'[data-vertex="{vertex}"]')
        expect(eye).to_have_class(re.compile("shudan-marker_square"))
        expect(eye).to_have_attribute("aria-label", re.compile("counts for nobody|ne compte pour personne"))
    shot(page, f"seki-eyes-{locale}")
    # An edit makes the count stale: the shading goes.
    page.locator('input[name="tool"][value="black"]').check()
    page.locator('[data-testid="position-tool"] .position-layout [data-vertex="C3"]').click()
    expect(point).not_to_have_class(re.compile("shudan-paint"))


def test_a_player_mutes_a_spectator_for_themselves(new_page: Any, ui: Any, shot: Any) -> None:
    from .test_browser_game_faults import say, two_players

    gid, alice, bob = two_players(new_page, ui, **PHONE)
    carol = new_page()
    carol.goto(f"/g/{gid}")
    expect(carol.get_by_test_id("you")).to_contain_text("watching")
    spam = carol.request.post(f"/api/games/{gid}/actions", data={"type": "chat", "text": "cheap gold", "to": "spectators"})
    assert spam.ok, spam.text()
    say(alice, gid, "bonne partie")
    spectators = bob.get_by_test_id("chat-spectators")
    expect(spectators).to_contain_text("cheap gold")
    # Bob's own messages and the players' have their mute button; he mutes Carol's.
    spectators.get_by_test_id("mute").first.click()
    expect(spectators).not_to_contain_text("cheap gold")
    expect(bob.get_by_test_id("muted")).to_contain_text("Muted")
    expect(bob.get_by_test_id("chat-players")).to_contain_text("bonne partie")
    # Live, and after a reload (the server keeps the list): Carol's next message does not reach Bob; Alice reads it.
    again = carol.request.post(f"/api/games/{gid}/actions", data={"type": "chat", "text": "more gold", "to": "spectators"})
    assert again.ok
    expect(alice.get_by_test_id("chat-spectators")).to_contain_text("more gold")
    say(alice, gid, "à toi")
    expect(bob.get_by_test_id("chat-players")).to_contain_text("à toi")
    expect(spectators).not_to_contain_text("gold")
    bob.reload()
    expect(bob.get_by_test_id("chat-players")).to_contain_text("à toi")
    expect(bob.get_by_test_id("chat-spectators")).not_to_contain_text("gold")
    expect(bob.get_by_test_id("muted")).to_contain_text("Muted")
    shot(bob, "muted-phone")
    bob.get_by_test_id("language").select_option("fr")
    expect(bob.get_by_test_id("muted")).to_contain_text("Masqués (cachés pour vous)")
    shot(bob, "muted-fr-phone")
    # Shown again.
    bob.get_by_test_id("unmute").click()
    expect(bob.get_by_test_id("chat-spectators")).to_contain_text("more gold")


def test_the_position_tool_fits_a_phone(new_page: Any, shot: Any) -> None:
    page = new_page(locale="fr-FR", **PHONE)
    page.goto("/position")
    page.get_by_test_id("count").wait_for()
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390  # the board fits the screen
    count = page.get_by_test_id("count").bounding_box()
    sgf = page.locator("form.sgf-load").bounding_box()
    assert sgf["y"] >= count["y"] + count["height"], (count, sgf)
    page.locator('textarea[name="sgf"]').fill(SEKI_SGF)
    page.locator("form.sgf-load button[type=submit]").click()  # nothing lies over it
    expect(page.get_by_test_id("position-note")).to_be_visible()
    shot(page, "position-phone-fr")
