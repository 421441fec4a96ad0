"""The lobby end to end: A registers and posts an open challenge; B, a guest with the home page open,
sees it appear without reloading and accepts; they play; C finds the game under live games, watches and chats
with the spectators (a message that looks like HTML stays text); A logs in from another device, finds the game
under "my games" and moves in it."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_lobby_challenge_play_watch_chat_and_another_device(new_page: Any, ui: Any, shot: Any, server: Any) -> None:
    name = f"amelie{secrets.randbelow(10**6)}"
    password = "tsumego-123"

    # B, a guest, has the home page open before anyone posts a challenge.
    b = new_page()
    b.goto("/")
    expect(b.get_by_test_id("me-name")).to_have_text(re.compile(r"^Guest$"))
    b.get_by_test_id("lobby-open").wait_for()

    # A registers, then posts an open challenge.
    a = new_page()
    a.goto("/")
    expect(a.get_by_test_id("me-name")).to_have_text(re.compile(r"^Guest$"))
    a.get_by_test_id("open-register").click()
    form = a.get_by_test_id("form-register")
    form.locator('input[name="name"]').fill(name)
    form.locator('input[name="password"]').fill(password)
    form.get_by_test_id("account-submit").click()
    expect(a.get_by_test_id("me-name")).to_have_text(name)
    gid = ui.create_game(a, opponent="open", color="B")
    expect(a.get_by_test_id("waiting")).to_be_visible()
    expect(a.get_by_test_id("name-B")).to_contain_text(name)
    shot(a, "a-challenge-posted")

    # B sees it appear in the lobby without reloading, and accepts.
    row = b.locator(f'[data-testid="lobby-open"] li[data-game="{gid}"]')
    expect(row).to_contain_text(name)
    expect(row).to_contain_text("9×9")
    shot(b, "b-lobby-sees-challenge")
    row.get_by_test_id(f"accept-{gid}").click()
    b.wait_for_url(re.compile(rf"/g/{re.escape(gid)}$"))
    expect(b.get_by_test_id("you")).to_contain_text("White")
    expect(a.get_by_test_id("waiting")).to_have_count(0)  # the game starts for both at once
    expect(a.get_by_test_id("name-W")).to_contain_text("Guest-")

    # They play.
    ui.point(a, "E5").click()
    expect(ui.point(b, "E5")).to_have_attribute("aria-label", re.compile("black stone", re.I))
    ui.point(b, "C3").click()
    expect(ui.point(a, "C3")).to_have_attribute("aria-label", re.compile("white stone", re.I))

    # C finds the game under live games, watches it and chats with the spectators.
    c = new_page()
    c.goto("/")
    watch = c.locator(f'[data-testid="lobby-live"] li[data-game="{gid}"]')
    expect(watch).to_contain_text(name)
    expect(watch).to_contain_text("move 2")
    watch.get_by_test_id(f"watch-{gid}").click()
    c.wait_for_url(re.compile(rf"/g/{re.escape(gid)}$"))
    expect(c.get_by_test_id("you")).to_contain_text("watching")
    expect(ui.point(c, "C3")).to_have_attribute("aria-label", re.compile("white stone", re.I))
    html = "<img src=x onerror=alert(1)>"
    c.get_by_test_id("chat-input").fill(html)
    c.get_by_test_id("chat-send").click()
    expect(c.get_by_test_id("chat-spectators")).to_contain_text(html)
    expect(a.get_by_test_id("chat-spectators")).to_contain_text(html)  # the players see it, as text
    assert c.locator('[data-testid="chat"] img').count() == 0
    b.get_by_test_id("chat-input").fill("have a good game")
    b.get_by_test_id("chat-send").click()
    expect(c.get_by_test_id("chat-players")).to_contain_text("have a good game")
    shot(c, "c-watching-and-chatting")

    # A, on another device, logs in and finds the game in "my games", where it is A's turn.
    d = new_page(width=420, height=860, touch=True)
    d.goto("/")
    expect(d.get_by_test_id("me-name")).to_have_text(re.compile(r"^Guest$"))
    d.get_by_test_id("open-login").click()
    form = d.get_by_test_id("form-login")
    form.locator('input[name="name"]').fill(name.upper())  # names compare without case
    form.locator('input[name="password"]').fill(password)
    form.get_by_test_id("account-submit").click()
    expect(d.get_by_test_id("me-name")).to_have_text(name)
    mine = d.locator(f'[data-testid="lobby-mine"] li[data-game="{gid}"]')
    expect(mine).to_contain_text("your turn")
    shot(d, "d-my-games")
    mine.get_by_test_id(f"open-{gid}").click()
    d.wait_for_url(re.compile(rf"/g/{re.escape(gid)}$"))
    expect(d.get_by_test_id("you")).to_contain_text("Black")
    ui.point(d, "G7").click()
    if d.get_by_test_id("tap-hint").count():  # a phone confirms a move with a second tap
        ui.point(d, "G7").click()
    expect(ui.point(b, "G7")).to_have_attribute("aria-label", re.compile("black stone", re.I))
    expect(ui.point(a, "G7")).to_have_attribute("aria-label", re.compile("black stone", re.I))
    state = server.game(gid)
    assert [m["vertex"] for m in state["moves"]] == ["E5", "C3", "G7"]
    assert [m["text"] for m in state["chat"]] == [html, "have a good game"]
    shot(d, "d-moved-from-another-device")

    # Back on B's home page, the tab says it is B's turn in another game.
    b.goto("/")
    expect(b).to_have_title(re.compile("Your turn"))
    expect(b.get_by_test_id("turn-note")).to_be_visible()

    # B resigns; the game is then among A's finished games (on A's other device too) and the lobby's.
    b.goto(f"/g/{gid}")
    b.get_by_role("button", name="Resign").click()
    b.locator(".confirm").get_by_role("button", name="Resign").click()
    expect(b.get_by_test_id("result")).to_contain_text("B+R")
    d.goto("/")
    expect(d.locator(f'[data-testid="lobby-my-finished"] li[data-game="{gid}"]')).to_contain_text("B+R")
    expect(d.locator(f'[data-testid="lobby-finished"] li[data-game="{gid}"]')).to_contain_text(name)
    expect(d.locator(f'[data-testid="lobby-mine"] li[data-game="{gid}"]')).to_have_count(0)
    shot(d, "d-finished")


def test_account_password_change_logout_login_and_delete(new_page: Any, shot: Any, server: Any) -> None:
    name = f"bruno{secrets.randbelow(10**6)}"
    page = new_page()
    page.goto("/")
    expect(page.get_by_test_id("me-name")).to_have_text(re.compile(r"^Guest$"))

    def fill(mode: str, **fields: str) -> None:
        if mode in ("password", "delete"):  # the account's menu holds these; register and login stay in view
            page.get_by_test_id("account-menu").click()
        page.get_by_test_id(f"open-{mode}").click()
        form = page.get_by_test_id(f"form-{mode}")
        for field, value in fields.items():
            form.locator(f'input[name="{field}"]').fill(value)
        form.get_by_test_id("account-submit").click()

    # A name taken case-insensitively is refused with the server's message; another is accepted.
    page.get_by_test_id("account-menu").click()
    page.get_by_test_id("edit-profile").click()
    form = page.get_by_test_id("form-edit")
    form.locator('input[name="rank"]').fill("12k")
    form.get_by_test_id("account-submit").click()
    expect(page.get_by_test_id("me-name")).to_contain_text("12 kyu")
    fill("register", name=name, password="first-pass")
    expect(page.get_by_test_id("me-name")).to_contain_text(name)
    fill("password", password="wrong-pass", **{"new-password": "second-pass"})
    expect(page.get_by_test_id("account-error")).to_have_text(
        "Current password: this is not your password. Type it again.")
    page.get_by_test_id("form-password").locator('input[name="password"]').fill("first-pass")
    page.get_by_test_id("form-password").get_by_test_id("account-submit").click()
    expect(page.get_by_test_id("account-done")).to_be_visible()
    page.get_by_test_id("account-menu").click()
    page.get_by_test_id("logout").click()
    expect(page.get_by_test_id("me-name")).to_have_text(re.compile(r"^Guest$"))
    fill("login", name=name, password="first-pass")
    expect(page.get_by_test_id("account-error")).to_have_text(
        "Name or password: one of them is wrong. Check both and try again.")
    page.get_by_test_id("form-login").locator('input[name="password"]').fill("second-pass")
    page.get_by_test_id("form-login").get_by_test_id("account-submit").click()
    expect(page.get_by_test_id("me-name")).to_contain_text(name)
    shot(page, "logged-in-again")
    page.get_by_test_id("account-menu").click()
    page.get_by_test_id("open-delete").click()
    expect(page.get_by_test_id("form-delete")).to_contain_text("cannot be undone")
    page.get_by_test_id("form-delete").get_by_test_id("account-submit").click()
    expect(page.get_by_test_id("me-name")).to_have_text(re.compile(r"^Guest$"))
