"""The French UI: chosen from the browser's language, switchable, remembered, and complete (labels, refusals)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_french_from_the_browser_and_switchable(new_page: Any, ui: Any, shot: Any) -> None:
    page = new_page(locale="fr-FR")
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", name="Nouvelle partie")).to_be_visible()
    expect(page.get_by_role("button", name="Commencer la partie")).to_be_visible()
    shot(page, "home-fr")

    page.locator('input[name="opponent"][value="local"]').check()
    page.get_by_role("button", name="Commencer la partie").click()
    ui.point(page, "A1").wait_for()
    expect(page.get_by_test_id("board")).to_have_attribute("aria-label", "Goban de 9 sur 9")
    expect(page.get_by_test_id("turn")).to_have_text("Noir joue")
    expect(page.get_by_test_id("settings")).to_have_text("9×9, règles françaises (FFG), komi 7,5")
    ui.point(page, "D4").click()
    expect(ui.point(page, "D4")).to_have_attribute("aria-label", "D4, pierre noire, dernier coup")
    expect(page.get_by_test_id("announcer")).to_have_text("Noir D4")
    ui.point(page, "D4").click()
    expect(page.get_by_test_id("refusal")).to_contain_text("D4 est déjà occupée")
    expect(page.get_by_role("button", name="Passer", exact=True)).to_be_visible()
    shot(page, "game-fr")

    # Switch to English: every label follows at once, the game goes on.
    page.get_by_test_id("language").select_option("en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(ui.point(page, "D4")).to_have_attribute("aria-label", "D4, black stone, last move")
    expect(page.get_by_test_id("turn")).to_have_text("White to play")
    expect(page.get_by_test_id("refusal")).to_contain_text("D4 is already occupied")
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_visible()

    # The choice is remembered over the browser's language after a reload.
    page.reload()
    ui.point(page, "A1").wait_for()
    expect(page.get_by_test_id("turn")).to_have_text("White to play")
    page.get_by_test_id("language").select_option("fr")
    expect(page.get_by_test_id("turn")).to_have_text(re.compile("^Blanc joue$"))
    shot(page, "switched-back-fr")

    # Resigning asks for a confirmation, then the result is given in words.
    page.get_by_role("button", name="Abandonner").click()
    expect(page.get_by_text("Abandonner cette partie ?")).to_be_visible()
    page.get_by_role("button", name="Abandonner").click()
    expect(page.get_by_test_id("result")).to_contain_text("Noir gagne par abandon")
    expect(page.get_by_test_id("result")).not_to_contain_text("B+R")  # French players have no letters for it
    expect(page.locator(".game")).to_have_attribute("data-phase", "finished")
    shot(page, "resigned-fr")


# Text of the page (text nodes, labels read aloud, placeholders) where French typography wants a no-break space
# (U+00A0 or the narrow U+202F) before ":", ";", "!" and "?". Times ("10:00") and addresses are not sentences.
BAD_FRENCH_PUNCTUATION = r"""() => {
    const texts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n.data);
    for (const el of document.querySelectorAll('[aria-label], [placeholder], [title]')) {
        for (const a of ['aria-label', 'placeholder', 'title']) if (el.hasAttribute(a)) texts.push(el.getAttribute(a));
    }
    const joined = [];
    // Adjacent text nodes ("Connexion", " : ", "connecté") are read together.
    for (const el of document.querySelectorAll('body *')) {
        if (el.children.length === 0 || el.matches('p, li, div.refusal, strong, span, label, caption, button')) {
            joined.push(el.textContent);
        }
    }
    const bad = [];
    for (const s of [...texts, ...joined]) {
        const re = /[:;!?]/g;
        let m;
        while ((m = re.exec(s))) {
            const before = s[m.index - 1], after = s[m.index + 1];
            if (m[0] === ':' && /\d/.test(before || '') && /\d/.test(after || '')) continue;  // a time
            if (m[0] === ':' && after === '/') continue;  // an address
            // A provisional rank ("4k?", "2d?") is a notation beside a name, not a sentence's question.
            if (m[0] === '?' && /\d[kdp]$/.test(s.slice(Math.max(0, m.index - 3), m.index))) continue;
            if (before === '\u00a0' || before === '\u202f') continue;
            bad.push(JSON.stringify(s.slice(Math.max(0, m.index - 25), m.index + 5)));
        }
    }
    return [...new Set(bad)];
}"""


def test_french_typography_and_wording(new_page: Any, ui: Any, shot: Any) -> None:
    page = new_page(locale="fr-FR")
    page.goto("/")
    page.locator("form.new-game").wait_for()
    assert page.evaluate(BAD_FRENCH_PUNCTUATION) == [], "new-game form"

    page.locator('input[name="opponent"][value="local"]').check()
    page.get_by_role("button", name="Commencer la partie").click()
    ui.point(page, "E5").click()
    expect(ui.point(page, "E5")).to_have_attribute("aria-label", re.compile("pierre noire"))
    ui.point(page, "E5").click()  # occupied: the refusal is in French too
    expect(page.get_by_test_id("refusal")).to_be_visible()
    page.get_by_role("button", name="Abandonner").click()  # the confirmation question
    expect(page.locator(".confirm")).to_be_visible()
    assert page.evaluate(BAD_FRENCH_PUNCTUATION) == [], "game in play"
    expect(page.locator(".confirm")).to_contain_text("Abandonner cette partie\u202f?")
    expect(page.get_by_test_id("connection")).to_have_text("Connexion\u00a0: connecté")
    page.locator(".confirm").get_by_role("button", name="Annuler").click()

    # White passes, Black passes: the marking starts with no dead stone; Black's lone stone is then marked.
    page.get_by_role("button", name="Passer", exact=True).click()
    page.get_by_role("button", name="Passer", exact=True).click()
    expect(page.locator(".game")).to_have_attribute("data-phase", "scoring")
    expect(page.get_by_test_id("scoring")).to_contain_text("Cliquez sur une chaîne")
    expect(page.get_by_test_id("proposal")).to_contain_text("aucune pierre morte")
    ui.point(page, "E5").click()
    expect(ui.point(page, "E5")).to_have_attribute("aria-label", re.compile("marquée morte"))
    expect(page.get_by_test_id("proposal")).to_contain_text("Le marquage a été modifié")
    expect(page.get_by_test_id("proposal")).to_contain_text("aucune pierre morte")
    expect(page.get_by_test_id("proposal")).not_to_contain_text("0 pierre")
    assert page.evaluate(BAD_FRENCH_PUNCTUATION) == [], "dead-stone phase"
    shot(page, "scoring-fr")

    # Walls on the D and F columns, a black stone dead in White's area: the quick count fills White's territory
    # with it, and its "filled" row is explained in one line.
    gid = ui.create_game(page, size=9, opponent="local")
    for row in range(1, 10):
        ui.play_api(page, gid, {"type": "play", "move": f"D{row}"})
        ui.play_api(page, gid, {"type": "play", "move": f"F{row}"})
    ui.play_api(page, gid, {"type": "play", "move": "H5"})
    ui.play_api(page, gid, {"type": "pass"})
    ui.play_api(page, gid, {"type": "pass"})
    expect(page.locator(".game")).to_have_attribute("data-phase", "scoring")
    expect(page.get_by_test_id("proposal")).to_be_visible()
    if "marquée morte" not in (ui.point(page, "H5").get_attribute("aria-label") or ""):
        ui.point(page, "H5").click()
    expect(ui.point(page, "H5")).to_have_attribute("aria-label", re.compile("marquée morte"))
    quick = page.locator('table[data-method="quick-count"]')
    expect(quick.locator("tr", has_text="rempli")).to_be_visible()
    note = page.get_by_test_id("quick-count-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("elles le remplissent (− rempli)")
    assert page.evaluate(BAD_FRENCH_PUNCTUATION) == [], "quick count"
    shot(page, "quick-count-fr")
