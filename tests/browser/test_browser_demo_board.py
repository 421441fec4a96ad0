"""A lesson on a demo board in the browser (issue 45): a teacher opens "review together" from a finished game, five
students watch (one on a French phone); marks, a variation and a comment reach them live, a question is answered by
the five and shown to the teacher as a heat map, control goes to a student and comes back, a student browses alone
and comes back to the presenter, a node is counted step by step, and the SGF saved opens back as the same tree."""

from __future__ import annotations

import re
import secrets
import shutil
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .test_browser_accessibility import AXE, violations

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/h45-shots")


def register(page: Any, name: str) -> str:
    answer = page.request.post("/api/players", data={"name": name, "password": "correct horse"})
    assert answer.status == 201, answer.text()
    return str(answer.json()["id"])


def keep(path: Path) -> None:
    SHOTS.mkdir(exist_ok=True)
    shutil.copy(path, SHOTS / path.name)


def point(page: Any, vertex: str) -> Any:
    return page.locator(f'[data-testid="board"] [data-vertex="{vertex}"]')


def test_a_lesson_with_five_students(new_page: Any, ui: Any, shot: Any) -> None:
    tag = secrets.token_hex(2)
    teacher = new_page()
    teacher.add_init_script(path=str(AXE))  # the page passes axe-core's checks as it is used
    register(teacher, f"teacher{tag}")
    gid = ui.create_game(teacher, size=9, opponent="local")
    for move in ("E5", "C3", "G7", "C7"):
        ui.play_api(teacher, gid, {"type": "play", "move": move})
    ui.play_api(teacher, gid, {"type": "resign"})
    teacher.goto(f"/g/{gid}")
    teacher.get_by_test_id("review-together").click()
    teacher.wait_for_url("**/d/*")
    bid = teacher.url.rsplit("/d/", 1)[1]
    expect(teacher.get_by_test_id("db-status")).to_contain_text("Move 4")

    students = []
    for i in range(5):
        phone = i == 4
        page = new_page(locale="fr-FR", width=390, height=844, touch=True) if phone else new_page()
        register(page, f"student{i}{tag}")
        page.goto(f"/d/{bid}")
        expect(page.get_by_test_id("db-status")).to_contain_text("Coup 4" if phone else "Move 4")
        students.append(page)
    phone = students[4]

    # Marks, a variation from move 2 and a comment reach everyone live.
    teacher.get_by_text("Triangle").click()
    point(teacher, "D4").click()
    for button, number in (("db-first", 0), ("db-next", 1), ("db-next", 2)):  # each waits for the last one's delta
        teacher.get_by_test_id(button).click()
        expect(teacher.get_by_test_id("db-status")).to_contain_text(f"Move {number} ")
    teacher.get_by_text("Play", exact=True).click()
    point(teacher, "D6").click()  # Black's other answer to C3: a second line after move 2
    teacher.get_by_test_id("db-comment-edit").click()
    teacher.get_by_test_id("db-comment-text").fill("<i>Better</i>: take the corner")
    teacher.get_by_test_id("db-comment-save").click()
    for page in students:
        expect(page.get_by_test_id("db-comment")).to_have_text("<i>Better</i>: take the corner")
        expect(point(page, "D6")).to_have_attribute("aria-label", re.compile(
            "D6, black stone" if page is not phone else "D6, pierre noire"))
    teacher.get_by_test_id("db-prev").click()
    expect(students[0].get_by_test_id("db-variations")).to_contain_text("D6")

    # A question: the five answer on their own board, the teacher sees the heat map and the names.
    teacher.get_by_test_id("db-ask").click()
    for i, page in enumerate(students):
        expect(page.get_by_test_id("db-question")).to_be_visible()
        point(page, "G3" if i < 3 else "D6").click()
        expect(page.get_by_test_id("db-question")).to_contain_text("G3" if i < 3 else "D6")
    expect(teacher.get_by_test_id("db-answers")).to_contain_text("5 answers")
    expect(teacher.locator(".shudan-heat_9")).to_have_count(1)
    assert violations(teacher) == [], "a question open, its heat map"
    keep(shot(teacher, "question-en-desktop"))
    keep(shot(phone, "question-fr-phone"))
    teacher.get_by_test_id("db-reveal").click()
    expect(students[1].locator(".shudan-heat_9")).to_have_count(1)

    # Control to a student and back.
    teacher.locator(f'[data-person="student0{tag}"]').click()
    expect(students[0].get_by_test_id("db-tools")).to_be_visible()
    point(students[0], "G3").click()
    expect(point(teacher, "G3")).to_have_attribute("aria-label", re.compile("G3, black stone"))
    teacher.get_by_test_id("db-take").click()
    expect(students[0].get_by_test_id("db-tools")).to_have_count(0)

    # A student browses alone and comes back to the presenter.
    phone.get_by_test_id("db-first").click()
    expect(phone.get_by_test_id("db-status")).to_contain_text("Coup 0")
    phone.get_by_test_id("db-back").click()
    expect(phone.get_by_test_id("db-status")).to_contain_text("Coup 3")

    # Browsing alone, the phone tries a line of its own (the referee judges each move) and proposes it; the
    # teacher adds it to the board, and everyone following goes there.
    phone.get_by_test_id("db-first").click()
    point(phone, "F5").click()
    expect(phone.get_by_test_id("db-draft")).to_contain_text("F5")
    phone.get_by_test_id("db-propose").click()
    expect(teacher.get_by_test_id("db-proposals")).to_contain_text("F5")
    keep(shot(phone, "proposal-fr-phone"))
    teacher.get_by_test_id("db-proposals").get_by_role("button").click()
    expect(students[0].get_by_test_id("db-status")).to_contain_text("Move 1")
    phone.get_by_test_id("db-back").click()
    expect(phone.get_by_test_id("db-status")).to_contain_text("Coup 1")

    # The count of the node, step by step; the chat.
    teacher.get_by_test_id("db-count").click()
    expect(teacher.get_by_test_id("db-count-result")).to_be_visible()
    phone.get_by_test_id("db-chat-text").fill("merci !")
    phone.get_by_test_id("db-chat-text").press("Enter")
    expect(teacher.get_by_test_id("db-chat")).to_contain_text("merci !")
    assert violations(teacher) == [], "the count of a node, the chat"
    keep(shot(teacher, "count-en-desktop"))
    keep(shot(phone, "follow-fr-phone"))

    # The SGF saved opens back as the same tree.
    sgf = teacher.request.get(f"/api/boards/{bid}/sgf").text()
    assert "TR[" in sgf and "C[<i>Better</i>: take the corner]" in sgf
    again = teacher.request.post("/api/boards", data={"sgf": sgf})
    assert again.status == 201
    before = teacher.request.get(f"/api/boards/{bid}").json()["tree"]["nodes"]
    assert again.json()["tree"]["nodes"] == before

    # The teacher deletes the proposed line: everyone following goes back to the root.
    teacher.get_by_test_id("db-delete").click()
    expect(students[0].get_by_test_id("db-status")).to_contain_text("Move 0")
    expect(point(students[0], "F5")).to_have_attribute("aria-label", re.compile("empty"))

    # A student copies the board to one of their own (the relay a commentator reviews, OGS issue 1562).
    students[1].get_by_test_id("db-copy").click()
    students[1].wait_for_url(re.compile(r"/d/(?!" + bid + ")"))
    expect(students[1].get_by_test_id("db-status")).to_contain_text("Move 0")
    expect(students[1].get_by_test_id("db-tools")).to_be_visible()

    # The lobby lists the live public board.
    teacher.goto("/")
    expect(teacher.get_by_test_id("demo-boards")).to_contain_text("teacher")
    teacher.get_by_test_id("db-new").click()  # the form that opens a board, unfolded
    teacher.get_by_test_id("demo-boards").scroll_into_view_if_needed()
    keep(shot(teacher, "lobby-en-desktop"))


def test_a_tournament_table_relayed_and_watched_on_the_public_page(new_page: Any, shot: Any) -> None:
    tag = secrets.token_hex(2)
    director, recorder = new_page(), new_page(locale="fr-FR", width=390, height=844, touch=True)
    register(director, f"director{tag}")
    register(recorder, f"recorder{tag}")
    t = director.request.post("/api/tournaments", data={"name": f"Coupe {tag}", "rounds": 3}).json()
    tid = t["id"]
    for name, rank in (("Martin", "5k"), ("Dupont", "2k"), ("Novak", "1d"), ("Ito", "3k")):
        assert director.request.post(f"/api/tournaments/{tid}/players", data={"name": name, "rank": rank}).ok
    assert director.request.post(f"/api/tournaments/{tid}/rounds/1/pairing", data={}).ok
    director.goto(f"/t/{tid}")
    director.get_by_test_id("relay-recorder").fill(f"recorder{tag}")
    director.get_by_test_id("relay-give").click()
    relays = director.get_by_test_id("relays")
    expect(relays.locator("li")).to_have_count(1)
    bid = relays.locator("li").get_attribute("data-board")
    # The recorder enters moves; the tournament's public page shows them live.
    recorder.goto(f"/d/{bid}")
    for vertex in ("Q16", "D4", "R4"):
        point(recorder, vertex).click()
        expect(point(recorder, vertex)).to_have_attribute("aria-label", re.compile("pierre"))
    expect(relays.locator('[data-vertex="R4"]')).to_have_attribute("aria-label", re.compile("black stone"))
    keep(shot(director, "relay-en-desktop"))
    recorder.get_by_test_id("relay-send").click()
    expect(recorder.get_by_test_id("relay-result")).to_contain_text("Envoyé")
    keep(shot(recorder, "relay-fr-phone"))
    sgf = recorder.request.get(f"/api/boards/{bid}/sgf").text()
    assert f"EV[Coupe {tag}]" in sgf and "RO[1]" in sgf and "RE[B+]" in sgf
    # The director reviews the relayed game together: a board of their own from the relay's record.
    relays.get_by_test_id("review-together").click()
    director.wait_for_url(re.compile(r"/d/(?!" + bid + ")"))
    expect(director.get_by_test_id("db-title")).to_contain_text(f"Coupe {tag}")
    expect(point(director, "R4")).to_have_attribute("aria-label", re.compile("black stone"))
