"""GTP framing: preprocessing, command parsing, reply formatting and parsing."""

from __future__ import annotations

import pytest

from keima.gtp.protocol import Command, GtpError, format_reply, parse_line, parse_response, preprocess


def test_preprocess_removes_comments_controls_and_tabs() -> None:
    assert preprocess("  play\tb  d4 # a comment\r") == "play b  d4"
    assert preprocess("\x01gen\x7fmove w") == "genmove w"
    assert preprocess("# only a comment") == ""
    assert preprocess("   \t ") == ""


def test_parse_line_reads_ids_names_and_arguments() -> None:
    assert parse_line("12 Play B D4") == Command(12, "play", ("B", "D4"))
    assert parse_line("genmove w") == Command(None, "genmove", ("w",))
    assert parse_line("7") == Command(7, "", ())
    assert parse_line("") is None
    assert parse_line("# comment") is None
    # A token that is not all digits is a command name, not an id.
    assert parse_line("12abc x") == Command(None, "12abc", ("x",))
    # Non-ASCII digits are not GTP ids.
    assert parse_line("\u0663 name") == Command(None, "\u0663", ("name",))


def test_format_reply_frames_success_and_failure() -> None:
    assert format_reply(None, True) == "=\n\n"
    assert format_reply(3, True, "C3") == "=3 C3\n\n"
    assert format_reply(4, False, "illegal move") == "?4 illegal move\n\n"
    # Error messages are folded onto one line; success text never holds an empty line.
    assert format_reply(None, False, "a\n\nb") == "? a b\n\n"
    assert format_reply(None, True, "a\n\n\nb\n") == "= a\nb\n\n"
    assert format_reply(None, True, "\nboard\nrows") == "=\nboard\nrows\n\n"


def test_parse_response_round_trips_format_reply() -> None:
    text = format_reply(15, True, "A1\nB2")
    lines = text.rstrip("\n").split("\n")
    response = parse_response(lines)
    assert (response.ok, response.id, response.text) == (True, 15, "A1\nB2")
    failure = parse_response(["?2 unknown command"])
    assert (failure.ok, failure.id, failure.text) == (False, 2, "unknown command")
    assert parse_response(["="]).text == ""


@pytest.mark.parametrize("lines", [[], ["hello"], [""]])
def test_parse_response_rejects_what_is_not_a_reply(lines: list[str]) -> None:
    with pytest.raises(GtpError):
        parse_response(lines)
