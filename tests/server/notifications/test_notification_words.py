"""A notification's result in the reader's words: the bell said "Partie terminée contre bob : B+R" in French
(French players write "Noir gagne par abandon", as the game's page does)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from keima.server import timesource
from keima.server.notifications.lines import line_of, result_words

from ..accounts.test_players import Browser, registered
from ..helpers import wait_for
from ..ratings.test_ratings import rated_game


@pytest.mark.parametrize(("result", "lang", "words"), [
    ("B+R", "en", "Black wins by resignation"),
    ("B+R", "fr", "Noir gagne par abandon"),
    ("W+T", "fr", "Blanc gagne au temps"),
    ("W+Time", "en", "White wins on time"),
    ("B+F", "fr", "Noir gagne par forfait"),
    ("W+3.5", "en", "White wins by 3.5 points"),
    ("W+3.5", "fr", "Blanc gagne de 3,5\u00a0points"),
    ("B+1", "en", "Black wins by 1 point"),
    ("B+1.5", "en", "Black wins by 1.5 points"),
    ("B+1.5", "fr", "Noir gagne de 1,5\u00a0point"),
    ("0", "fr", "Partie nulle (jigo)"),
    ("Void", "en", "No result"),
    ("B+R", "de", "Black wins by resignation"),  # a language keima does not speak: English
    ("strange", "fr", "strange"),
])
def test_result_words(result: str, lang: str, words: str) -> None:
    assert result_words(result, lang) == words


def test_a_finished_games_line_names_the_result_in_words() -> None:
    item = {"kind": "game-finished", "game": "g1", "data": {"opponent": "bob", "result": "W+R"}}
    assert line_of(item, "fr") == "Partie terminée contre bob\u00a0: Blanc gagne par abandon"
    assert line_of(item, "en") == "Game over against bob: White wins by resignation"


def test_the_bell_of_a_french_player_says_the_result_in_french(client: TestClient) -> None:
    alice, bob = Browser(client), Browser(client)
    registered(alice, "alicefr")
    registered(bob, "bobfr")
    alice.req("PATCH", "/api/me", 200, json={"lang": "fr"})
    rated_game(alice, bob)  # bob resigns

    def finished() -> list[str]:
        found = alice.req("GET", "/api/me/notifications", 200).json()["notifications"]
        return [n["text"] for n in found if n["kind"] == "game-finished"]

    wait_for(lambda: bool(finished()))
    # Said to the reader: whether they won, and how.
    assert finished() == ["Vous avez gagné contre bobfr par abandon"]


@pytest.mark.parametrize(("hours", "lang", "said"), [
    (23.51, "en", "The count against bob: the marking on the board stands in 23 h 30 min unless you answer"),
    (-2, "en", "The count against bob: its deadline has passed"),
    (-2, "fr", "Le décompte contre bob\u00a0: son délai est passé"),
    # bob has accepted: the reader's answer is the one awaited (and the deadline still says when it passed).
    (5.51, "en+", "bob accepted the marking of your count: it stands in 5 h 30 min unless you answer"),
    (5.51, "fr+", "bob a accepté le marquage de votre décompte\u00a0: il sera retenu dans 5 h 30 min sans réponse de "
                  "votre part"),
    (-2, "en+", "The count against bob: its deadline has passed"),
])
def test_a_counting_reminder_read_after_its_deadline_says_it_passed(hours: float, lang: str, said: str) -> None:
    deadline = timesource.now_utc() + timedelta(hours=hours)
    accepted = lang.endswith("+")
    lang = lang.rstrip("+")
    item = {"kind": "count-deadline", "game": "g",
            "data": {"deadline": deadline.isoformat(), "opponent": "bob", "accepted": accepted}}
    assert line_of(item, lang) == said
