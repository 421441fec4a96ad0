"""The fair-play walk (issue 47): a harassed player reports a chat message and blocks the harasser; a moderator (named
from the command line) handles the report with a mute, then suspends the player, who sees why; a player closes every
page of a lost live game and the opponent claims the win. English on a desktop, French on a phone; screenshots."""

from __future__ import annotations

import re
import secrets
from typing import Any

from playwright.sync_api import expect

from keima.cli import main


def register(page: Any, name: str) -> None:
    page.goto("/")
    answer = page.request.post("/api/players", data={"name": name, "password": "correct horse"})
    assert answer.status == 201, answer.text()


def post(page: Any, path: str, data: dict[str, Any], status: int = 200) -> Any:
    answer = page.request.post(path, data=data)
    assert answer.status == status, answer.text()
    return answer.json() if answer.status != 204 else None


def test_block_report_moderate_and_the_suspended_player_sees_why(new_page: Any, server: Any, shot: Any) -> None:
    tag = secrets.token_hex(3)
    hana, rudy = new_page(), new_page()
    register(hana, f"hana{tag}")
    register(rudy, f"rudy{tag}")
    gid = post(rudy, "/api/games", {"opponent": "open", "size": 9, "color": "B"}, 201)["game"]["id"]
    post(hana, f"/api/games/{gid}/join", {})
    post(rudy, f"/api/games/{gid}/actions", {"type": "chat", "text": "you play like a fool <b>loser</b>"})

    # The harassed player reports the message from the game's chat...
    hana.goto(f"/g/{gid}")
    hana.get_by_test_id("report-chat").first.click()
    hana.get_by_test_id("report-reason").select_option("harassment")
    hana.get_by_test_id("report-text").fill("Insults in the players' chat.")
    hana.get_by_test_id("report-send").click()
    expect(hana.get_by_test_id("chat-reported")).to_be_visible()
    # ... and the game as well (a second target: a second report).
    hana.get_by_test_id("report-game").click()
    hana.get_by_test_id("game-report").get_by_test_id("report-reason").select_option("stalling")
    hana.get_by_test_id("game-report").get_by_test_id("report-send").click()
    expect(hana.get_by_test_id("game-report")).to_contain_text("a moderator will read your report")
    shot(hana, "reported-en")
    # ... and blocks the harasser from his page: his messages go from her chat.
    hana.goto(f"/p/rudy{tag}")
    hana.get_by_test_id("block-toggle").click()
    expect(hana.get_by_test_id("fair-play-note")).to_contain_text(f"You blocked rudy{tag}")
    expect(hana.get_by_test_id("block-toggle")).to_have_text("Unblock")
    shot(hana, "blocked-en")
    hana.get_by_role("button", name=re.compile("account menu|Account", re.I)).first.click() \
        if hana.get_by_test_id("open-blocks").count() == 0 or not hana.get_by_test_id("open-blocks").is_visible() \
        else None
    hana.get_by_test_id("open-blocks").click()
    expect(hana.get_by_test_id("block-list")).to_contain_text(f"rudy{tag}")
    shot(hana, "block-list-en")
    hana.goto(f"/g/{gid}")
    expect(hana.get_by_test_id("chat-players")).not_to_contain_text("fool")
    # His open challenges are not offered to her any more (a stranger's are).
    his = post(rudy, "/api/games", {"opponent": "open", "size": 9}, 201)["game"]["id"]
    stranger = new_page()
    register(stranger, f"sam{tag}")
    theirs = post(stranger, "/api/games", {"opponent": "open", "size": 9}, 201)["game"]["id"]
    hana.goto("/")
    offered = hana.get_by_test_id("lobby-open")
    expect(offered.locator(f'[data-game="{theirs}"]')).to_be_visible()
    expect(offered.locator(f'[data-game="{his}"]')).to_have_count(0)

    # A moderator named from the command line handles the report on a phone, in French: a mute first.
    mona = new_page(locale="fr-FR", width=390, height=844, touch=True)
    register(mona, f"mona{tag}")
    assert main(["admin", "moderator", "add", f"mona{tag}", "--db", f"sqlite:///{server.db}"]) == 0
    mona.goto("/moderation")
    report = mona.locator("[data-testid^=mod-report-]").first
    expect(report.get_by_test_id("mod-quote")).to_have_text(f"rudy{tag}: you play like a fool <b>loser</b>")
    report.get_by_test_id("mod-action").select_option("mute")
    report.get_by_test_id("mod-hours").fill("24")
    report.get_by_test_id("mod-why").fill("Insultes dans la discussion")
    shot(mona, "queue-fr")
    report.get_by_test_id("mod-submit").click()
    # The game's report is left: nothing more to do about it than the mute.
    expect(mona.locator("[data-testid^=mod-report-]")).to_have_count(1)
    left = mona.locator("[data-testid^=mod-report-]").first
    expect(left).to_contain_text("Obstruction")
    left.get_by_test_id("mod-action").select_option("dismiss")
    left.get_by_test_id("mod-why").fill("Déjà traité par le silence")
    left.get_by_test_id("mod-submit").click()
    expect(mona.get_by_test_id("mod-queue")).to_contain_text("Aucun signalement en attente")
    refused = rudy.request.post(f"/api/games/{gid}/actions", data={"type": "chat", "text": "still here"})
    assert refused.status == 403 and refused.json()["error"]["code"] == "muted"
    # Then a suspension, from the form of a player.
    form = mona.get_by_test_id("mod-form-player")
    form.get_by_test_id("mod-name").fill(f"rudy{tag}")
    form.get_by_test_id("mod-action").select_option("suspend")
    form.get_by_test_id("mod-hours").fill("72")
    form.get_by_test_id("mod-why").fill("Insultes reprises par message privé")
    form.get_by_test_id("mod-submit").click()
    log = mona.get_by_test_id("mod-log")
    expect(log).to_contain_text("Suspendre")
    expect(log).to_contain_text("Rendre muet partout")
    shot(mona, "log-fr")

    # The suspended player sees why, and cannot start a game.
    rudy.goto("/")
    expect(rudy.get_by_test_id("standing-note")).to_contain_text("suspended this account until")
    expect(rudy.get_by_test_id("standing-reason")).to_have_text("Insultes reprises par message privé")
    shot(rudy, "suspended-en")
    assert rudy.request.post("/api/games", data={"opponent": "open", "size": 9}).status == 403
    # The reporter is told: the bell.
    bell = hana.request.get("/api/me/notifications").json()["notifications"]
    assert any(n["kind"] == "moderation" and f"report about rudy{tag}" in n["text"] for n in bell)


def test_a_player_closes_every_page_of_a_lost_live_game_and_the_opponent_claims_it(new_page: Any, shot: Any) -> None:
    tag = secrets.token_hex(3)
    lena, paul = new_page(locale="fr-FR", width=390, height=844, touch=True), new_page()
    register(lena, f"lena{tag}")
    register(paul, f"paul{tag}")
    body = {"opponent": "open", "size": 9, "color": "B",
            "clock": {"type": "byoyomi", "main": 300, "period": 10, "periods": 5}}
    gid = post(lena, "/api/games", body, 201)["game"]["id"]
    post(paul, f"/api/games/{gid}/join", {})
    paul.goto(f"/g/{gid}")
    lena.goto(f"/g/{gid}")
    for i, move in enumerate(["E5", "C3", "D4"]):
        post(lena if i % 2 == 0 else paul, f"/api/games/{gid}/actions", {"type": "play", "move": move})
    paul.close()  # his only page: gone
    claim = lena.get_by_test_id("abandon-claim")
    expect(claim).to_be_visible(timeout=20_000)
    expect(lena.get_by_test_id("claim-win")).to_be_visible(timeout=20_000)
    expect(lena.get_by_test_id("claim-annul")).to_be_visible()
    shot(lena, "claim-fr")
    lena.get_by_test_id("claim-win").click()
    expect(lena.locator(".game")).to_have_attribute("data-phase", "finished")
    expect(claim).to_be_hidden()
    # The result is said once: "Noir gagne par forfait", not "... par forfait – forfait".
    expect(lena.get_by_test_id("result")).to_have_text("Résultat\u00a0: Noir gagne par forfait")
    shot(lena, "claimed-fr")
    state = lena.request.get(f"/api/games/{gid}").json()
    assert state["result"] == "B+F"
