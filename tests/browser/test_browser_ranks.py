"""The rank beside every name (issue 43, item 6): earned after the first rated game, "alice 3k?" while provisional,
in the lobby's challenge lines (with "rated" marked, and a filter by rank), on the game page and in its chat, in a
player's history (by end date, with each rated game's rating change); the typed rank before the first rated game;
the account form no longer offers a rank once it is earned. In English and French, on a desktop and a 390 px
phone; screenshots in test-artifacts/browser/ranks/."""

from __future__ import annotations

import re
import secrets
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS
from .test_browser_player_page import play, post

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS / "ranks"


@pytest.fixture(scope="module")
def ranked(browser: Any, server: Any) -> dict[str, Any]:
    """An earner (typed 5k, then one rated game won: an earned, provisional rank) with a rated open challenge, their
    opponent, and a newcomer (typed 12k, no rated game) with an unrated one."""
    ctxs = [browser.new_context(base_url=server.base) for _ in range(3)]
    a, b, c = (x.new_page() for x in ctxs)
    suffix = secrets.token_hex(3)
    names = (f"Earn{suffix}", f"Opp{suffix}", f"New{suffix}")
    for page, name in zip((a, b, c), names, strict=True):
        post(page, "/api/players", {"name": name, "password": "correct horse"})
    for page, rank in ((a, "5k"), (b, "8k"), (c, "12k")):
        assert page.request.patch("/api/me", data={"rank": rank}).ok
    game = play(a, b, rated=True, loser="W", stones=5, chat="well played")
    deadline = time.monotonic() + 20
    while not server.get(f"/api/players/{names[0]}/ratings")["ratings"]:
        assert time.monotonic() < deadline, "the rated game was not rated"
        time.sleep(0.2)
    while server.game(game)["rating_change"] is None:
        assert time.monotonic() < deadline, "the game did not learn its rating change"
        time.sleep(0.2)
    rated_open = post(a, "/api/games", {"size": 9, "opponent": "open", "color": "B", "rated": True})["game"]["id"]
    plain_open = post(c, "/api/games", {"size": 9, "opponent": "open", "color": "W"})["game"]["id"]
    me = server.get(f"/api/players/{names[0]}")
    for x in ctxs:
        x.close()
    return {"earner": names[0], "opponent": names[1], "newcomer": names[2], "game": game, "rated_open": rated_open,
            "plain_open": plain_open, "rank": me["rank"] + ("?" if me["provisional"] else ""),
            "opp_rank": (o := server.get(f"/api/players/{names[1]}"))["rank"] + ("?" if o["provisional"] else "")}


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _line(page: Any, gid: str) -> Any:
    return page.locator(f'[data-testid="lobby-open"] li[data-game="{gid}"]')


@pytest.mark.parametrize(("locale", "width"), [("en-US", 1280), ("fr-FR", 390), ("en-US", 390), ("fr-FR", 1280)])
def test_ranks_beside_names_in_the_lobby_and_on_the_game_page(new_page: Any, ranked: dict[str, Any],
                                                              locale: str, width: int) -> None:
    fr = locale.startswith("fr")
    page = new_page(locale=locale, width=width)
    page.goto("/")
    earner, newcomer = _line(page, ranked["rated_open"]), _line(page, ranked["plain_open"])
    # The earned rank ("6k?"), not the typed 5k; the newcomer's typed rank; the rated challenge marked.
    expect(earner.locator(".who")).to_contain_text(f"{ranked['earner']} {ranked['rank']}")
    expect(earner.get_by_test_id("rank")).to_have_attribute("title", re.compile("provisoire" if fr else "provisional"))
    expect(newcomer.locator(".who")).to_contain_text(f"{ranked['newcomer']} 12k?")
    expect(earner.get_by_test_id(f"rated-{ranked['rated_open']}")).to_have_text("classée" if fr else "rated")
    expect(newcomer.get_by_test_id(f"rated-{ranked['plain_open']}")).to_have_count(0)
    # The line fits the page's width.
    box = earner.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1
    _shot(page, f"lobby-{locale[:2]}-{width}")

    # The filter: from 1d to 9d hides both kyu challengers; "hide unranked" is kept with it after a reload.
    page.get_by_test_id("rank-from").select_option("1d")
    expect(earner).to_have_count(0)
    expect(newcomer).to_have_count(0)
    expect(page.get_by_test_id("rank-hidden")).to_be_visible()
    page.get_by_test_id("rank-from").select_option("12k")
    page.get_by_test_id("rank-to").select_option("10k")
    expect(newcomer).to_have_count(1)
    expect(earner).to_have_count(0)
    page.reload()
    expect(page.get_by_test_id("rank-from")).to_have_value("12k")
    expect(_line(page, ranked["plain_open"])).to_have_count(1)
    _shot(page, f"lobby-filtered-{locale[:2]}-{width}")
    page.get_by_test_id("rank-from").select_option("30k")
    page.get_by_test_id("rank-to").select_option("9d")
    expect(_line(page, ranked["rated_open"])).to_have_count(1)

    # The game page: both players with the rank they had when they sat down (typed then: neither had a rated
    # game), and the chat's writer with the rank the game shows beside them.
    page.goto(f"/g/{ranked['game']}")
    expect(page.get_by_test_id("name-B")).to_contain_text(f"{ranked['earner']} 5k?")
    expect(page.get_by_test_id("name-W")).to_contain_text(f"{ranked['opponent']} 8k?")
    expect(page.locator(".chat-log li").first).to_contain_text(f"{ranked['opponent']} 8k?")
    _shot(page, f"game-{locale[:2]}-{width}")

    # The challenge's own page: the earned rank now.
    page.goto(f"/g/{ranked['rated_open']}")
    expect(page.get_by_test_id("name-B")).to_contain_text(f"{ranked['earner']} {ranked['rank']}")


@pytest.mark.parametrize(("locale", "width"), [("en-US", 1280), ("fr-FR", 390)])
def test_the_history_is_dated_by_end_with_the_rating_change(new_page: Any, ranked: dict[str, Any], locale: str,
                                                            width: int) -> None:
    fr = locale.startswith("fr")
    page = new_page(locale=locale, width=width)
    page.goto(f"/p/{ranked['earner']}")
    row = page.locator(f'[data-testid="player-games"] li[data-game="{ranked["game"]}"]')
    expect(row).to_contain_text("terminée le" if fr else "ended")
    expect(row).to_contain_text("(N+abandon)" if fr else "(B+R)")
    expect(row.get_by_test_id(f"rated-{ranked['game']}")).to_have_text("classée" if fr else "rated")
    expect(row.get_by_test_id(f"history-change-{ranked['game']}")).to_have_text(re.compile(r"^ ?\+\d"))
    # The other side's names carry their ranks of now.
    expect(row.locator(".who")).to_contain_text(f"{ranked['opponent']} {ranked['opp_rank']}")
    _shot(page, f"history-{locale[:2]}-{width}")


def test_the_rank_field_is_not_offered_once_earned(new_page: Any, ranked: dict[str, Any]) -> None:
    page = new_page(locale="fr-FR", width=390)
    page.goto("/")
    post(page, "/api/session", {"name": ranked["earner"], "password": "correct horse"})
    page.reload()
    expect(page.get_by_test_id("me-name")).to_contain_text(ranked["rank"])
    page.get_by_test_id("account-menu").click()
    page.get_by_test_id("edit-profile").click()
    form = page.get_by_test_id("form-edit")
    expect(form.locator('input[name="rank"]')).to_have_count(0)
    expect(form.get_by_test_id("rank-earned")).to_contain_text("Votre niveau est désormais gagné")
    _shot(page, "account-earned-fr-390")
    # A rename still passes (the earned rank is not sent).
    form.locator('input[name="name"]').fill(ranked["earner"])
    form.get_by_test_id("account-submit").click()
    expect(form).to_have_count(0)
