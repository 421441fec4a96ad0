"""What new users hit in the lobby, the game page and the forms, each shown in the language and on the screen where
it was found: an open challenge's time control and colour, the "your turn" notice counting the game on screen, the
opponent's name and level, a refused move and the first tap on a phone, the computer's dispute note and marking
against the computer, French typography and results, layouts that broke (the komi field, the header, the account
forms, the phone lobby) and error messages in one voice."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.browser.conftest import Server, running_server

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844, "touch": True}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of this module's own: its many new players stay under the per-address limit of new guests
    (30 in 10 minutes) of the server the rest of the suite shares."""
    with running_server(tmp_path_factory, "server-new-users.log") as running:
        yield running
LETTERS = "ABCDEFGHJKLMNOPQRST"
NBSP = "\u00a0"


def vertex_of(point: int, size: int) -> str:
    return f"{LETTERS[point % size]}{size - point // size}"


def hand(page: Any, message: dict[str, Any]) -> None:
    """Give the page's socket a message as if the server had sent it."""
    page.evaluate("(text) => window.keimaSocket.receive(text)", json.dumps(message))


def record_sends(page: Any) -> None:
    """From now on what the page sends on its socket is kept in ``window.sentBySocket`` (and not sent)."""
    page.wait_for_function("window.keimaSocket && window.keimaSocket.isOpen")
    page.evaluate(
        """() => {
            window.sentBySocket = [];
            window.keimaSocket.ws.send = (text) => window.sentBySocket.push(JSON.parse(text));
        }"""
    )


def sent_actions(page: Any) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = page.evaluate("window.sentBySocket")
    return [m["action"] for m in sent if m.get("type") == "action"]


def my_state(page: Any, gid: str) -> dict[str, Any]:
    """The game's state as the page's player sees it (their seat cookie)."""
    state: dict[str, Any] = page.request.get(f"/api/games/{gid}").json()
    return state


def bot_game_after_one_move(page: Any, ui: Any, level: str = "beginner") -> tuple[str, dict[str, Any]]:
    """A 9x9 game against keima at ``level``, the human Black, after E5 and the computer's answer."""
    gid = str(ui.create_game(page, size=9, opponent="bot", level=level, color="B"))
    ui.point(page, "E5").click()
    expect(page.locator('[data-testid="move-list"] li')).to_have_count(2, timeout=180_000)
    return gid, my_state(page, gid)


# -- the lobby --------------------------------------------------------------------------------------------------
def test_an_open_challenge_shows_its_main_time_and_the_creators_colour(new_page: Any) -> None:
    alice = new_page()
    alice.goto("/")
    answer = alice.request.post("/api/games", data={
        "size": 9, "opponent": "open", "color": "W",
        "clock": {"type": "byoyomi", "main": 1800, "periods": 3, "period": 10}})
    assert answer.ok, answer.text()
    gid = answer.json()["game"]["id"]
    for locale, words, colour in (
        ("en-US", f"30{NBSP}min + 3{NBSP}×{NBSP}10{NBSP}s byo-yomi", "plays White"),
        ("fr-FR", f"30{NBSP}min + byo-yomi 3{NBSP}×{NBSP}10{NBSP}s", "joue Blanc"),
    ):
        bob = new_page(locale=locale)
        bob.goto("/")
        line = bob.locator(f'[data-testid="lobby-open"] li[data-game="{gid}"]')
        expect(line).to_contain_text(words)
        expect(bob.get_by_test_id(f"creator-color-{gid}")).to_have_text(colour)
        expect(line).not_to_contain_text("3x10")


def test_the_turn_notice_and_the_tab_title_leave_out_the_game_on_screen(new_page: Any, ui: Any) -> None:
    page = new_page()
    games = [str(ui.create_game(page, size=9, opponent="bot", level="beginner", color="B")) for _ in range(3)]
    # On the third game's page (reached from the form, as a person does): two other games wait for a move.
    note = page.get_by_test_id("turn-note")
    expect(note.get_by_test_id("moves-link")).to_have_text("Your move: 2")
    expect(note.locator("a.turn-game")).to_have_count(2)
    for gid in games[:2]:
        expect(note.locator(f'a[href$="/g/{gid}"]')).to_have_count(1)
    expect(note.locator(f'a[href$="/g/{games[2]}"]')).to_have_count(0)
    expect(page).to_have_title(re.compile(r"^Your turn in 2 games!"))
    page.wait_for_timeout(1500)  # a later lobby message does not bring it back
    expect(note.locator("a.turn-game")).to_have_count(2)
    # Followed from the notice, the first game leaves the notice and the third comes in.
    note.locator(f'a[href$="/g/{games[0]}"]').click()
    page.wait_for_url(re.compile(f"/g/{games[0]}$"))
    expect(note.locator(f'a[href$="/g/{games[0]}"]')).to_have_count(0)
    expect(note.locator(f'a[href$="/g/{games[2]}"]')).to_have_count(1)
    expect(page).to_have_title(re.compile(r"^Your turn in 2 games!"))


# -- the game page ----------------------------------------------------------------------------------------------
def test_the_game_page_names_the_computer_and_its_level_in_both_languages(new_page: Any, ui: Any) -> None:
    page = new_page()
    gid, state = bot_game_after_one_move(page, ui, level="strong")
    expect(page.get_by_test_id("name-W")).to_have_text(" keima (strong)")
    record_sends(page)
    # The computer's turn (a state where it is to move), in English then in French.
    thinking = {**state, "version": state["version"] + 1, "to_move": "W"}
    hand(page, {"type": "state", "game": thinking})
    expect(page.get_by_test_id("thinking")).to_have_text("keima (strong) is thinking…")
    page.get_by_test_id("language").select_option("fr")
    expect(page.get_by_test_id("thinking")).to_have_text("keima (fort) réfléchit…")
    expect(page.get_by_test_id("name-W")).to_have_text(" keima (fort)")
    page.goto("/")
    expect(page.get_by_test_id("lobby-mine").locator(f'li[data-game="{gid}"]')).to_contain_text("contre keima (fort)")


@pytest.mark.skipif(not os.access("/usr/games/gnugo", os.X_OK), reason="GNU Go is not installed")
def test_the_game_page_names_a_gtp_engine(new_page: Any, ui: Any) -> None:
    page = new_page(locale="fr-FR")
    page.goto("/")
    page.locator('input[name="size"][value="9"]').check()
    page.locator('input[name="opponent"][value="bot"]').check()
    page.locator('select[name="bot_level"]').select_option("engine:GNU Go")
    page.locator('form.new-game button[type="submit"]').click()
    page.wait_for_url(re.compile(r"/g/[^/?]+$"))
    expect(page.get_by_test_id("name-W")).to_have_text(" GNU Go")


def test_a_refused_move_on_a_phone_is_explained_in_sight_and_a_first_tap_shows_the_stone(
    new_page: Any, ui: Any, shot: Any
) -> None:
    page = new_page(**PHONE)
    ui.create_game(page, size=9, opponent="local")
    point = ui.point(page, "E5")
    point.tap()
    expect(point).to_have_class(re.compile(r"\bshudan-selected\b"))
    look = point.evaluate(
        """(el) => {
            const sel = getComputedStyle(el.querySelector('.shudan-selection'));
            const ghost = getComputedStyle(el.querySelector('.shudan-ghost'), '::before');
            return {selBorder: sel.borderTopStyle, selBackground: sel.backgroundColor,
                    ghostShown: ghost.display, ghostRound: ghost.borderRadius, ghostColour: ghost.backgroundColor};
        }"""
    )
    # The stone to be played, round and dark, with no blue selection square over it.
    assert look["selBorder"] == "none" and look["selBackground"] in ("rgba(0, 0, 0, 0)", "transparent"), look
    assert look["ghostShown"] == "block" and look["ghostRound"] == "50%", look
    assert look["ghostColour"].startswith("rgba(0, 0, 0"), look
    shot(page, "first-tap")
    point.tap()
    ui.wait_stone(page, "E5", "black")
    point.tap()  # occupied: refused at once
    refusal = page.get_by_test_id("refusal")
    expect(refusal).to_have_attribute("data-reason", "occupied")
    expect(refusal).to_be_in_viewport(ratio=1)
    assert page.evaluate("window.scrollY") == 0  # seen without scrolling
    shot(page, "refused")


def test_the_dispute_note_goes_once_play_goes_on_and_marking_against_the_computer_waits_for_submit(
    new_page: Any, ui: Any, shot: Any
) -> None:
    page = new_page()
    gid, state = bot_game_after_one_move(page, ui)
    white = next(m["point"] for m in state["moves"] if m["color"] == "W")
    record_sends(page)
    v = state["version"]

    # The marking phase, the computer having accepted its proposal: a click marks a chain on the page only.
    scoring = {**state, "version": v + 1, "phase": "scoring", "proposal": [], "dead": [], "accepted": ["W"]}
    hand(page, {"type": "state", "game": scoring})
    expect(page.get_by_test_id("scoring")).to_be_visible()
    ui.point(page, vertex_of(white, 9)).click()
    expect(ui.point(page, vertex_of(white, 9))).to_have_attribute("aria-label", re.compile("marked dead"))
    expect(page.get_by_test_id("marks-pending")).to_contain_text("1 change not sent yet")
    page.wait_for_timeout(300)
    assert sent_actions(page) == []
    shot(page, "marked-not-sent")
    # Undone, then marked again and submitted: the toggle and the acceptance go together.
    page.get_by_test_id("undo-marks").click()
    expect(ui.point(page, vertex_of(white, 9))).not_to_have_attribute("aria-label", re.compile("marked dead"))
    ui.point(page, vertex_of(white, 9)).click()
    page.get_by_test_id("submit-marking").click()
    page.wait_for_function("() => window.sentBySocket.filter((m) => m.type === 'action').length === 1")
    assert sent_actions(page) == [{"type": "toggle_dead", "point": white}]
    # The server takes the toggle (its ack): the acceptance follows.
    toggle_id = page.evaluate("window.sentBySocket.find((m) => m.type === 'action').id")
    hand(page, {"type": "ack", "id": toggle_id})
    page.wait_for_function("() => window.sentBySocket.filter((m) => m.type === 'action').length === 2")
    assert sent_actions(page) == [{"type": "toggle_dead", "point": white}, {"type": "accept"}]

    # The computer disputed and play resumed: its note is shown until a move is played.
    note = "keima thinks E4 is alive (it lives in 90% of its playouts): play resumes to settle it on the board"
    resumed = {**state, "version": v + 2, "bot_note": note}
    hand(page, {"type": "state", "game": resumed})
    expect(page.get_by_test_id("bot-note")).to_have_text(note + ".")
    page.get_by_test_id("language").select_option("fr")  # the server's English note, said in French
    expect(page.get_by_test_id("bot-note")).to_have_text(
        f"keima pense que la chaîne en E4 est vivante (elle vit dans 90{NBSP}% de ses parties simulées){NBSP}: "
        "la partie reprend pour régler cela sur le goban.")
    page.get_by_test_id("language").select_option("en")
    e4 = 5 * 9 + 4
    board = list(state["board"])
    board[e4] = 1
    moved = {**resumed, "version": v + 3, "board": board, "to_move": "W",
             "moves": [*state["moves"], {"n": len(state["moves"]) + 1, "color": "B", "point": e4, "vertex": "E4",
                                         "captures": 0}]}
    hand(page, {"type": "state", "game": moved})
    ui.wait_stone(page, "E4", "black")
    expect(page.get_by_test_id("bot-note")).to_have_count(0)


# -- French ---------------------------------------------------------------------------------------------------------
def visible_text(page: Any) -> str:
    text: str = page.evaluate("document.body.innerText")
    return text


def test_french_pages_use_french_typography_levels_and_results(new_page: Any, ui: Any) -> None:
    page = new_page(locale="fr-FR")
    gid = str(ui.create_game(page, size=9, opponent="local"))
    ui.play_api(page, gid, {"type": "resign"})
    expect(page.get_by_test_id("result")).to_contain_text("Blanc gagne par abandon")
    expect(page.get_by_test_id("result")).not_to_contain_text("W+R")
    local = str(ui.create_game(page, size=9, opponent="local"))
    ui.play_api(page, local, {"type": "pass"})
    ui.play_api(page, local, {"type": "pass"})
    expect(page.get_by_test_id("scoring")).to_be_visible()
    page.get_by_role("button", name="Accepter ce marquage (Noir)").click()
    page.get_by_role("button", name="Accepter ce marquage (Blanc)").click()
    expect(page.get_by_test_id("result")).to_contain_text("Blanc gagne de 7,5 points (B+7,5)")
    for path in (f"/g/{local}", "/", "/position", "/learn"):
        page.goto(path)
        page.wait_for_timeout(800)
        text = visible_text(page)
        assert "'" not in text, (path, [line for line in text.splitlines() if "'" in line])
        assert not re.search(r"\S [:;?!]", text), (path, re.findall(r".{20}\S [:;?!].{0,10}", text))
        assert "(W+" not in text and not re.search(r"[BN]\+\d+\.\d", text), path  # N+1,5 and B+7,5 in French
    page.goto("/")
    finished = page.get_by_test_id("lobby-finished").locator(f'li[data-game="{local}"]')
    expect(finished).to_contain_text("Blanc gagne de 7,5 points (B+7,5)")
    expect(page.get_by_test_id("learn-link")).to_have_text("Leçons de règles")
    page.goto("/position")
    expect(page.get_by_text(f"Position après le coup (vide{NBSP}: la fin)")).to_be_visible()


# -- layout ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_komi_placeholder_fits_its_field(new_page: Any, locale: str, width: int) -> None:
    page = new_page(locale=locale, width=width, touch=width < 600)
    page.goto("/")
    komi = page.locator('input[name="komi"]')
    expect(komi).to_have_attribute("placeholder", re.compile(r"7[.,]5"))
    fits = komi.evaluate(
        """(el) => {
            const s = getComputedStyle(el);
            const ctx = document.createElement('canvas').getContext('2d');
            ctx.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
            const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 20;  // the spinner
            return {text: ctx.measureText(el.placeholder).width, room};
        }"""
    )
    assert fits["text"] <= fits["room"], fits


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_the_game_header_never_leaves_the_language_menu_alone_on_a_line(new_page: Any, ui: Any, locale: str) -> None:
    page = new_page(locale=locale, width=1280)
    ui.create_game(page, size=9, opponent="local")
    # Both boxes in one step: the header may still gain its turn note as the page loads, which moves the
    # links to a line of their own between two separate measures.
    menu, last_link = page.evaluate(
        """() => ['language', 'learn-link'].map((id) => {
            const r = document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height};
        })"""
    )
    assert abs(menu["y"] + menu["height"] / 2 - (last_link["y"] + last_link["height"] / 2)) < 4, (menu, last_link)


@pytest.mark.parametrize("width", [390, 1280])
def test_the_account_forms_keep_labels_fields_and_links_apart(new_page: Any, width: int) -> None:
    page = new_page(width=width, touch=width < 600)
    page.goto("/")
    page.get_by_test_id("open-login").click()
    form = page.get_by_test_id("form-login")
    form.locator('input[name="name"]').fill("nobody-here")
    form.locator('input[name="password"]').fill("wrong-pass")
    form.get_by_test_id("account-submit").click()
    error = page.get_by_test_id("account-error")
    expect(error).to_be_visible()
    boxes = [form.get_by_text("Password", exact=True).bounding_box(), form.locator('input[name="password"]').bounding_box(),
             error.bounding_box(), form.get_by_text("Name", exact=True).bounding_box()]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"] or \
                a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
            assert apart, (a, b)
    # The rename form: the header's links are not floating beside it (below it on a wide screen; on a phone the
    # page links' button is on the first line, above the account's row and its form).
    page.get_by_test_id("account-menu").click()
    page.get_by_test_id("edit-profile").click()
    rename = page.get_by_test_id("form-edit").bounding_box()
    if width < 600:
        pages = page.get_by_test_id("nav-toggle").bounding_box()
        assert pages["y"] + pages["height"] <= rename["y"], (rename, pages)
    else:
        link = page.get_by_test_id("position-link").bounding_box()
        assert link["y"] >= rename["y"] + rename["height"], (rename, link)


def test_the_phone_lobby_keeps_a_finished_games_links_together(new_page: Any, ui: Any) -> None:
    page = new_page(**PHONE)
    gid = str(ui.create_game(page, size=9, opponent="local"))
    ui.play_api(page, gid, {"type": "resign"})
    page.goto("/")
    line = page.get_by_test_id("lobby-finished").locator(f'li[data-game="{gid}"]')
    expect(line.get_by_role("link", name="SGF")).to_be_visible()
    # Measured in one step: the lists above may still grow as the lobby loads, which moves the line between
    # two separate measurements (CI once saw the SGF link 141 px below the Review link that way).
    review, sgf, what = line.evaluate(
        """li => {
             const box = el => { const r = el.getBoundingClientRect(); return {y: r.y, width: r.width, height: r.height}; };
             const link = text => [...li.querySelectorAll('a')].find(a => a.textContent.trim() === text);
             return [box(link('Review')), box(link('SGF')), box(li.querySelector('.what'))];
           }"""
    )
    assert abs(review["y"] - sgf["y"]) < 2, (review, sgf)
    assert what["width"] >= 150, what  # the settings are not squeezed into a narrow column


# -- errors in one voice ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("locale", "short_password", "taken"),
    [
        ("en-US", "Password: use 6 to 200 characters.", "Name: this name is taken"),
        ("fr-FR", f"Mot de passe{NBSP}: de 6 à 200 caractères.", f"Nom{NBSP}: ce nom est déjà pris"),
    ],
)
def test_account_errors_name_the_field_and_what_to_do(
    new_page: Any, server: Any, locale: str, short_password: str, taken: str
) -> None:
    owner = new_page()
    owner.goto("/")
    name = f"taken{os.getpid() % 1000}{locale[:2]}"
    assert owner.request.post("/api/players", data={"name": name, "password": "long-enough"}).ok
    page = new_page(locale=locale)
    page.goto("/")
    page.get_by_test_id("open-register").click()
    form = page.get_by_test_id("form-register")
    form.locator('input[name="name"]').fill("someone-new")
    form.locator('input[name="password"]').fill("abc")
    form.get_by_test_id("account-submit").click()
    error = page.get_by_test_id("account-error")
    expect(error).to_have_text(short_password)
    form.locator('input[name="name"]').fill(name)
    form.locator('input[name="password"]').fill("long-enough-too")
    form.get_by_test_id("account-submit").click()
    expect(error).to_contain_text(taken)
    for wrong in ("settings", "réglages", "Error", "Erreur"):
        expect(error).not_to_contain_text(wrong)
