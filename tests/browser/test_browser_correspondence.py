"""A correspondence game on a phone, in English and in French: the account's vacation switch, the new-game form's
correspondence preset, and the game page whose clocks stand still while their player is away (``clock.paused``),
showing days as "2 d" / "2 j" and saying why they do not run."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.browser.conftest import SATURDAY, Server, running_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def saturday_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose clock starts on a Saturday morning (UTC): every player's weekend."""
    with running_server(tmp_path_factory, "server-saturday.log", start=SATURDAY) as running:
        yield running


@pytest.mark.parametrize("weekday", ["wednesday", "saturday"])
@pytest.mark.parametrize(("locale", "day", "away", "on", "weekend"), [
    ("en-US", "d", "vacation", "On vacation", "weekend"),
    ("fr-FR", "j", "vacances", "En vacances", "week-end"),
])
def test_a_paused_correspondence_clock_on_a_phone(new_page: Any, ui: Any, server: Server, shot: Any,
                                                  request: pytest.FixtureRequest, locale: str, day: str, away: str,
                                                  on: str, weekend: str, weekday: str) -> None:
    # The suite's server runs on a Wednesday; on a Saturday the weekend pause takes over when the vacation ends.
    if weekday == "saturday":
        server = request.getfixturevalue("saturday_server")
    page = new_page(locale=locale, width=390, height=844, touch=True, on=server)
    page.goto("/")
    name = f"corr{secrets.token_hex(3)}"
    page.get_by_test_id("open-register").click()
    form = page.get_by_test_id("form-register")
    form.locator('input[name="name"]').fill(name)
    form.locator('input[name="password"]').fill("correct horse")
    form.get_by_test_id("account-submit").click()
    expect(page.get_by_test_id("me-name")).to_have_text(name)

    # The account's settings: the device's time zone proposed, and the vacation switch.
    page.get_by_test_id("account-menu").click()
    page.get_by_test_id("open-away").click()
    expect(page.get_by_test_id("time-zone")).not_to_have_value("")
    page.get_by_test_id("vacation").click()
    expect(page.get_by_test_id("vacation")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("vacation")).to_contain_text(on)
    shot(page, "account-away")

    # A correspondence game (2 days a move) on this screen: both seats are this player's, away.
    page.locator("form.new-game").wait_for()
    page.locator('input[name="size"][value="9"]').check()
    page.get_by_test_id("clock-preset").select_option("simple-2d")
    expect(page.get_by_test_id("weekend-pause")).to_be_checked()  # on by default for correspondence
    page.locator('input[name="opponent"][value="local"]').check()
    page.locator('form.new-game button[type="submit"]').click()
    page.wait_for_url(re.compile(r"/g/[^/?]+$"))
    ui.point(page, "A1").wait_for()
    gid = str(page.url.rsplit("/g/", 1)[1])

    clock = server.game(gid)["clock"]
    assert clock["spec"]["type"] == "simple" and clock["paused"] == {"B": "vacation", "W": "vacation"}
    for color in ("B", "W"):
        shown = page.get_by_test_id(f"clock-{color}")
        expect(shown).to_contain_text(f"2\u00a0{day}")
        expect(shown).to_have_class(re.compile(r"\bpaused\b"))
        expect(shown).not_to_have_class(re.compile(r"\brunning\b"))
        expect(page.get_by_test_id(f"paused-{color}")).to_contain_text(away)
    label = page.get_by_test_id("clock-B").get_attribute("aria-label") or ""
    assert away in label
    overflow = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"
    shot(page, "game-paused")

    # Back from vacation: on a weekday the running clock counts again; on a Saturday the weekend holds it.
    page.request.delete("/api/me/vacation")
    page.reload()
    if weekday == "saturday":
        expect(page.get_by_test_id("paused-B")).to_contain_text(weekend)
        expect(page.get_by_test_id("clock-B")).to_have_class(re.compile(r"\bpaused\b"))
        assert server.game(gid)["clock"]["paused"]["B"] == "weekend"  # the clock that would run
        shot(page, "game-weekend")
        return
    expect(page.get_by_test_id("clock-B")).to_have_class(re.compile(r"\brunning\b"))
    expect(page.get_by_test_id("paused-B")).to_have_count(0)
    assert server.game(gid)["clock"]["paused"] == {"B": None, "W": None}


def test_the_bell_counts_and_lists_the_notifications(new_page: Any, server: Any, shot: Any) -> None:
    a = new_page(locale="fr-FR", width=390, height=844, touch=True)
    a.goto("/")
    name = f"bell{secrets.token_hex(3)}"
    a.get_by_test_id("open-register").click()
    form = a.get_by_test_id("form-register")
    form.locator('input[name="name"]').fill(name)
    form.locator('input[name="password"]').fill("correct horse")
    form.get_by_test_id("account-submit").click()
    expect(a.get_by_test_id("me-name")).to_have_text(name)
    expect(a.get_by_test_id("bell")).to_have_attribute("aria-label", "Notifications")
    created = a.request.post("/api/games", data={"opponent": "open", "size": 9, "color": "B",
                                                 "clock": {"type": "simple", "per_move": 86400}})
    assert created.ok, created.text()
    gid = created.json()["game"]["id"]
    b = new_page()
    b.goto("/")
    assert b.request.post(f"/api/games/{gid}/join", data={}).ok

    def listed() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = a.request.get("/api/me/notifications").json()["notifications"]
        return out

    for _ in range(100):  # the outbox delivers at once, in the background
        if listed():
            break
        a.wait_for_timeout(100)
    a.reload()
    bell = a.get_by_test_id("bell")
    expect(bell).to_have_attribute("aria-label", "Notifications\u00a0: 1 non lue")
    bell.click()
    expect(a.get_by_test_id("bell-list")).to_contain_text("a accepté votre partie")
    expect(a.get_by_test_id("bell-list").locator(f'a[href="/g/{gid}"]')).to_have_count(1)
    overflow = a.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the open list makes the page scroll sideways by {overflow} px"
    shot(a, "bell-open")
    a.get_by_test_id("read-all").click()
    expect(bell).to_have_attribute("aria-label", "Notifications")
    assert all(n["read"] for n in listed())


def waiting_for_d4(a: Any, new_page: Any, ui: Any) -> tuple[str, Any]:
    """A correspondence game (a day a move) that ``a`` created as Black, another page joined, and in which ``a``
    played D4: ``a`` waits for the answer, the time to leave conditional moves. Returns its id and the other page."""
    a.goto("/")
    created = a.request.post("/api/games", data={"opponent": "invite", "size": 9, "color": "B",
                                                 "clock": {"type": "simple", "per_move": 86400}})
    assert created.ok, created.text()
    gid, code = created.json()["game"]["id"], created.json()["invite"]["code"]
    b = new_page()
    b.goto("/")
    assert b.request.post(f"/api/games/{gid}/join", data={"code": code}).ok
    ui.play_api(a, gid, {"type": "play", "move": "D4"})
    return str(gid), b


def test_entering_conditional_moves_and_seeing_them_played(new_page: Any, ui: Any, server: Any, shot: Any) -> None:
    a = new_page(width=390, height=844, touch=True)
    gid, b = waiting_for_d4(a, new_page, ui)
    a.goto(f"/g/{gid}")
    editor = a.get_by_test_id("conditional")
    editor.locator("summary").click()  # the typed lines: the alternative to clicking on the board
    editor.get_by_test_id("conditional-text").fill("C3 G7 E5 F6\nG3 C7\nE5")
    editor.get_by_test_id("conditional-save-text").click()
    expect(a.get_by_test_id("conditional-error")).to_contain_text("E5")  # a move without its answer
    editor.get_by_test_id("conditional-text").fill("c3 g7 e5 f6\nG3 C7")
    editor.get_by_test_id("conditional-save-text").click()
    tree = a.get_by_test_id("conditional-tree")
    expect(tree).to_contain_text("if C3 → G7")
    expect(tree.locator("li li .cond-node")).to_have_text("if E5 → F6")
    shot(a, "conditional-entered")
    ui.play_api(b, gid, {"type": "play", "move": "C3"})
    ui.wait_stone(a, "G7", "black")  # played for Black at once
    assert [m["vertex"] for m in server.game(gid)["moves"]] == ["D4", "C3", "G7"]
    # The tree is read again after the move: the answered branch and the other one go (a count waits for it; a
    # text check on several nodes fails at once).
    expect(a.get_by_test_id("conditional-tree").locator("li .cond-node")).to_have_count(1)
    expect(a.get_by_test_id("conditional-tree").locator("li .cond-node")).to_have_text("if E5 → F6")
    shot(a, "conditional-played")


def test_the_bell_count_changes_without_reloading(new_page: Any, server: Any, shot: Any) -> None:
    """The lobby socket that every page's header opens says when a notification is stored: the count changes on
    the lobby and on a game's page with no reload (the minute's poll would come far later than the 10 s allowed)."""
    a = new_page()
    a.goto("/")
    name = f"ring{secrets.token_hex(3)}"
    a.get_by_test_id("open-register").click()
    form = a.get_by_test_id("form-register")
    form.locator('input[name="name"]').fill(name)
    form.locator('input[name="password"]').fill("correct horse")
    form.get_by_test_id("account-submit").click()
    expect(a.get_by_test_id("me-name")).to_have_text(name)
    bell = a.get_by_test_id("bell")
    expect(bell).to_have_attribute("aria-label", "Notifications")
    created = a.request.post("/api/games", data={"opponent": "open", "size": 9, "color": "B",
                                                 "clock": {"type": "simple", "per_move": 86400}})
    assert created.ok, created.text()
    gid = created.json()["game"]["id"]
    loaded = a.evaluate("() => performance.now()")

    b = new_page()
    b.goto("/")
    assert b.request.post(f"/api/games/{gid}/join", data={}).ok
    # On the lobby: the join's "challenge accepted", with no reload.
    expect(bell).to_have_attribute("aria-label", "Notifications: 1 unread", timeout=10_000)
    expect(bell.locator(".count")).to_have_text("1")

    # On another game's page (that game's own lines are read there): the opponent's move makes "your turn".
    other = a.request.post("/api/games", data={"opponent": "open", "size": 9, "color": "B",
                                               "clock": {"type": "simple", "per_move": 86400}}).json()["game"]["id"]
    assert b.request.post(f"/api/games/{other}/join", data={}).ok
    a.goto(f"/g/{other}")
    expect(bell).to_have_attribute("aria-label", "Notifications: 1 unread")
    loaded = a.evaluate("() => performance.now()")
    played = a.request.post(f"/api/games/{gid}/actions", data={"type": "play", "move": "E5"})
    assert played.ok, played.text()
    answered = b.request.post(f"/api/games/{gid}/actions", data={"type": "play", "move": "C3"})
    assert answered.ok, answered.text()
    expect(bell).to_have_attribute("aria-label", "Notifications: 2 unread", timeout=10_000)
    # Well before the minute's poll: the socket told it.
    assert a.evaluate("() => performance.now()") - loaded < 50_000
    bell.click()
    expect(a.get_by_test_id("bell-list")).to_contain_text("Your turn against")
    expect(a.get_by_test_id("bell-item-your-turn")).to_contain_text("9×9, you play Black")
    shot(a, "bell-live-game-page")


def test_a_late_read_of_the_stored_moves_keeps_what_the_player_typed(new_page: Any, ui: Any) -> None:
    """The panel reads the stored tree when the page opens; an answer that comes after the first keystrokes left the
    box empty (the CI rehearsal's Chromium typed before it came)."""
    a = new_page()
    gid, _ = waiting_for_d4(a, new_page, ui)
    held: list[Any] = []
    a.route("**/api/games/*/conditional",
            lambda route: held.append(route) if route.request.method == "GET" else route.continue_())
    a.goto(f"/g/{gid}")
    a.get_by_test_id("conditional").locator("summary").click()
    box = a.get_by_test_id("conditional-text")
    box.fill("C3 G7")
    for _ in range(100):  # the page asked for the stored tree; its answer is held until now
        if held:
            break
        a.wait_for_timeout(50)
    assert held, "the page never read the stored conditional moves"
    with a.expect_response(re.compile(r"/conditional$")):
        for route in held:
            route.continue_()
    a.wait_for_timeout(300)  # the answer's handler has run
    expect(box).to_have_value("C3 G7")


@pytest.mark.parametrize(("locale", "says"), [("en-US", "comes back undelivered"), ("fr-FR", "non distribués")])
def test_an_address_that_bounces_is_said_in_the_settings(new_page: Any, server: Server, shot: Any, locale: str,
                                                         says: str) -> None:
    import sqlalchemy as sa

    page = new_page(locale=locale, width=390, height=844, touch=True)
    page.goto("/")
    name = f"bnc{secrets.token_hex(3)}"
    assert page.request.post("/api/players", data={"name": name, "password": "correct horse"}).status == 201
    me = page.request.patch("/api/me", data={"email": f"{name}@example.org"}).json()
    assert me["email_bounced"] is False
    # What the mailer does when the SMTP server refuses the address for good (tests/server/notifications).
    assert server.db is not None
    engine = sa.create_engine(f"sqlite:///{server.db}")
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE player_settings SET email_bounced_at = CURRENT_TIMESTAMP WHERE player_id = :p"),
                     {"p": me["id"]})
    engine.dispose()
    page.reload()
    page.get_by_test_id("account-menu").click()
    page.get_by_test_id("open-away").click()
    expect(page.get_by_test_id("email-bounced")).to_contain_text(says)
    overflow = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"
    shot(page, "email-bounced")
