"""The settings panel asks for the link that confirms an address again (issue 43, item 7: a new one could not be
asked for), on a phone, in English and in French: the button beside the unconfirmed address, what it says after,
and the day's limit in words."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.browser.conftest import Server

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("locale", "button", "sent", "limit"), [
    ("en-US", "Send the link again", "A new link was sent to", "try again tomorrow"),
    ("fr-FR", "Renvoyer le lien", "Un nouveau lien a été envoyé à", "réessayez demain"),
])
def test_the_confirmation_link_is_sent_again_from_the_settings(new_page: Any, server: Server, shot: Any,
                                                               locale: str, button: str, sent: str,
                                                               limit: str) -> None:
    page = new_page(locale=locale, width=390, height=844, touch=True)
    page.goto("/")
    name = f"lnk{secrets.token_hex(3)}"
    assert page.request.post("/api/players", data={"name": name, "password": "correct horse"}).status == 201
    assert page.request.patch("/api/me", data={"email": f"{name}@example.org"}).ok  # the first link
    page.reload()
    page.get_by_test_id("account-menu").click()
    page.get_by_test_id("open-away").click()
    again = page.get_by_test_id("email-resend")
    expect(again).to_have_text(button)
    again.click()
    said = page.get_by_test_id("email-resent")
    expect(said).to_contain_text(f"{sent} {name}@example.org")
    expect(said).to_have_attribute("role", "status")
    again.click()  # the third link of the day
    expect(said).to_have_attribute("role", "status")
    expect(again).to_be_enabled()
    again.click()  # a fourth: refused
    expect(said).to_contain_text(limit)
    expect(said).to_have_attribute("role", "alert")
    overflow = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"
    shot(page, "email-resend")
