"""An account plays for a tournament player only once it says so (issue 49): a director registers a player with
an account; the account's page asks it to confirm, in English and in French, on a desktop and on a phone; the
players' list says "asked, not confirmed" until then, and names the account after."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def register(page: Any, name: str) -> None:
    page.goto("/")
    answer = page.request.post("/api/players", data={"name": name, "password": "correct horse"})
    assert answer.status == 201, answer.text()


@pytest.mark.parametrize(("locale", "width", "asked", "confirm"), [
    ("en-US", 1280, "asked, not confirmed", "Confirm: I play"),
    ("fr-FR", 390, "demandé, non confirmé", "Confirmer\u00a0: je joue"),
])
def test_a_proposed_account_confirms_before_it_plays(new_page: Any, shot: Any, locale: str, width: int, asked: str,
                                                     confirm: str) -> None:
    tag = secrets.token_hex(3)
    director = new_page(locale=locale, width=width, height=860, touch=width < 500)
    register(director, f"dir{tag}")
    made = director.request.post("/api/tournaments", data={"name": f"Cup {tag}", "rounds": 3})
    assert made.status == 201, made.text()
    tid = made.json()["id"]
    player = new_page(locale=locale, width=width, height=860, touch=width < 500)
    register(player, f"pl{tag}")
    answer = director.request.post(f"/api/tournaments/{tid}/players",
                                   data={"name": "Martin", "first_name": "Lea", "rank": "3k", "account": f"pl{tag}"})
    assert answer.status == 201, answer.text()

    player.goto(f"/t/{tid}")
    expect(player.get_by_test_id("t-proposal")).to_contain_text("Martin Lea")
    expect(player.get_by_test_id("players")).to_contain_text(asked)
    expect(player.get_by_test_id("t-signup")).to_have_count(0)  # the proposal stands in its place
    expect(player.get_by_test_id("t-confirm")).to_have_text(confirm)
    shot(player, "asked")
    player.get_by_test_id("t-confirm").click()
    expect(player.get_by_test_id("t-proposal")).to_have_count(0)
    expect(player.get_by_test_id("players")).to_contain_text(f"pl{tag}")
    expect(player.get_by_test_id("players")).not_to_contain_text(asked)
    shot(player, "confirmed")
