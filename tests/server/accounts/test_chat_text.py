"""What a chat message keeps (issue 30, items 6 and 7): the 500-character limit counts the cleaned text; C1
controls, zero-width and bidi characters are removed; a message with nothing visible left is refused (422,
``field`` ``text``); emoji built with joiners stay whole."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from keima.server.accounts.text import CHAT_MAX, clean_text, visible
from keima.server.errors import Refused

from ..helpers import act, new_game

REMOVED = ["\x85", "\x9b", "\x80", "\x9f", "\x00", "\x1b", "\x7f", "\u200b", "\u200c", "\u2060", "\ufeff",
           "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e",
           "\u200f", "\u061c", "\u00ad"]


@pytest.fixture
def seat(fast_client: TestClient) -> tuple[TestClient, str, str]:
    g = new_game(fast_client, size=9, opponent="local")
    return fast_client, g["game"]["id"], g["seat"]["token"]


def say(seat: tuple[TestClient, str, str], text: str, status: int = 200) -> dict[str, object]:
    c, gid, token = seat
    return act(c, gid, token, {"type": "chat", "text": text}, status)


def test_the_limit_counts_the_cleaned_text(seat: tuple[TestClient, str, str]) -> None:
    body = "x" * CHAT_MAX
    state = say(seat, f"  \n{body}\t \n")
    assert state["game"]["chat"][-1]["text"] == body  # type: ignore[index]
    err = say(seat, "x" * (CHAT_MAX + 1), 422)["error"]
    assert err["field"] == "text" and str(CHAT_MAX) in err["message"]  # type: ignore[index]
    # Invisible characters do not count either.
    state = say(seat, "\u200b" * 300 + "y" * CHAT_MAX)
    assert state["game"]["chat"][-1]["text"] == "y" * CHAT_MAX  # type: ignore[index]


@pytest.mark.parametrize("char", REMOVED, ids=[f"U+{ord(c):04X}" for c in REMOVED])
def test_controls_zero_width_and_bidi_characters_are_removed(seat: tuple[TestClient, str, str], char: str) -> None:
    state = say(seat, f"a{char}b{char}")
    assert state["game"]["chat"][-1]["text"] == "ab"  # type: ignore[index]


@pytest.mark.parametrize("text", ["\u200b\u200b\u200b", "\u202e\u2066", "\x85\x9b", " \u3164\u3164 ", "\u2800",
                                  "\u200d\ufe0f", "\u0301\u0301"])
def test_a_message_with_nothing_visible_is_refused(seat: tuple[TestClient, str, str], text: str) -> None:
    err = say(seat, text, 422)["error"]
    assert err["code"] == "invalid-request" and err["field"] == "text"  # type: ignore[index]


def test_line_breaks_accents_and_emoji_sequences_stay(seat: tuple[TestClient, str, str]) -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # joined by zero-width joiners
    heart = "\u2764\ufe0f"
    text = f"bien jou\u00e9\nnice {family} {heart} \u05e9\u05dc\u05d5\u05dd"
    assert say(seat, text)["game"]["chat"][-1]["text"] == text  # type: ignore[index]


@given(st.text(max_size=700))
def test_cleaned_text_is_clean_and_cleaning_it_again_changes_nothing(raw: str) -> None:
    try:
        out = clean_text(raw)
    except Refused as exc:
        assert exc.status == 422 and exc.field == "text"
        return
    assert 1 <= len(out) <= CHAT_MAX
    assert any(visible(c) for c in out)
    assert not any(c in out for c in REMOVED)
    assert clean_text(out) == out
