"""Every number the GTP engine accepts is bounded: times, stones, periods, komi, sizes, handicaps, move numbers.
A number out of range gets a clear ``?`` reply and changes nothing, so the next ``genmove`` still answers
(before the bounds, ``time_settings 10 10 <400 nines>`` was accepted and every ``genmove`` then failed with an
internal ``OverflowError``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from keima.ai.standin import PolicyPlayer
from keima.gtp_engine import MAX_KOMI, MAX_SECONDS, MAX_STONES, GtpEngine
from keima.timecontrol import TimeBudget

HUGE = "9" * 400
VERY_HUGE = "9" * 5000  # longer than Python converts to int at all


def engine() -> GtpEngine:
    return GtpEngine(PolicyPlayer(0), size=9, dead_estimator=lambda game: frozenset())


def reply(e: GtpEngine, line: str) -> str:
    text, _quit = e.handle_line(line)
    assert text is not None
    return text.strip()


def assert_genmove_works(e: GtpEngine) -> None:
    answer = reply(e, "genmove b")
    assert answer.startswith("= ") and "internal error" not in answer, answer


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (f"time_settings 10 10 {HUGE}", "byo-yomi stones must be 0 to 1000"),
        (f"time_settings 10 10 {VERY_HUGE}", "byo-yomi stones must be 0 to 1000"),
        (f"time_settings {HUGE} 10 10", "main time must be 0 to 3.1536e+07"),
        ("time_settings 1e400 10 10", "main time must be 0 to"),
        ("time_settings 10 inf 10", "byo-yomi time must be a number"),
        ("time_settings 10 nan 10", "byo-yomi time must be a number"),
        ("time_settings -1 10 10", "main time must be 0 to"),
        (f"kgs-time_settings canadian 10 10 {HUGE}", "periods or stones must be 0 to 1000"),
        (f"kgs-time_settings byoyomi 10 10 {HUGE}", "periods or stones must be 0 to 1000"),
        (f"kgs-time_settings byoyomi 10 {HUGE} 5", "period time must be 0 to"),
        (f"kgs-time_settings absolute {HUGE}", "main time must be 0 to"),
        (f"time_left b 10 {HUGE}", "stones must be 0 to 1000"),
        (f"time_left b {HUGE} 0", "time must be"),
        ("time_left b 1e999 0", "time must be"),
        ("time_left b 10 -1", "stones must be 0 to 1000"),
        ("komi 1e300", "komi must be -1000 to 1000"),
        (f"komi {HUGE}", "komi must be -1000 to 1000"),
        ("komi -inf", "komi must be a number"),
        ("komi nan", "komi must be a number"),
        (f"boardsize {VERY_HUGE}", "unacceptable size"),
        (f"boardsize -{VERY_HUGE}", "unacceptable size"),
        (f"fixed_handicap {VERY_HUGE}", "invalid number of stones"),
        (f"place_free_handicap {HUGE}", "invalid number of stones"),
        (f"loadsgf game.sgf {VERY_HUGE}", "the move number must be 1 to 1000000"),
    ],
)
def test_numbers_out_of_range_are_refused_and_change_nothing(line: str, message: str) -> None:
    e = engine()
    before = (e.game, e.clock.kind, e.clock.main, e.clock.period, e.clock.stones, dict(e.clock.left), e.setup.size)
    answer = reply(e, line)
    assert answer.startswith("? ") and message in answer, answer
    assert "internal error" not in answer
    assert (e.game, e.clock.kind, e.clock.main, e.clock.period, e.clock.stones, dict(e.clock.left), e.setup.size) == before
    assert_genmove_works(e)


@pytest.mark.parametrize(
    "line",
    [
        f"time_settings {MAX_SECONDS:.0f} {MAX_SECONDS:.0f} {MAX_STONES}",
        f"kgs-time_settings canadian {MAX_SECONDS:.0f} {MAX_SECONDS:.0f} {MAX_STONES}",
        f"kgs-time_settings byoyomi {MAX_SECONDS:.0f} {MAX_SECONDS:.0f} {MAX_STONES}",
        f"kgs-time_settings absolute {MAX_SECONDS:.0f}",
        "time_settings 0 0 0",
        "time_settings 0.5 1e1 +3",
    ],
)
def test_the_largest_accepted_settings_still_give_a_move(line: str) -> None:
    e = engine()
    assert reply(e, line) == "="
    assert reply(e, f"time_left b {MAX_SECONDS:.0f} {MAX_STONES}") == "="
    assert reply(e, "time_left w -3 0") == "="  # a controller's slightly negative time reads as none left
    assert e.clock.left[2] == (0.0, 0)
    assert_genmove_works(e)
    assert reply(e, f"komi {MAX_KOMI:g}") == "=" and reply(e, f"komi -{MAX_KOMI:g}") == "="


def test_the_clock_itself_refuses_values_out_of_range() -> None:
    clock = TimeBudget()
    with pytest.raises(ValueError, match="out of range"):
        clock.set_canadian(10, 10, 10**400)
    with pytest.raises(ValueError, match="out of range"):
        clock.set_kgs("byoyomi", 10, float("inf"), 5)
    assert clock.kind == "none"


def test_loadsgf_reads_at_most_the_default_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.sgf"
    big.write_bytes(b"(;GM[1]SZ[9]C[" + b"x" * (1 << 20) + b"];B[ee])")
    e = engine()
    answer = reply(e, f"loadsgf {big}")
    assert answer.startswith("? cannot load file") and "more than the limit of 1048576 bytes" in answer, answer[:300]
    answer = reply(e, "loadsgf /dev/zero")
    assert "more than the limit" in answer
    answer = reply(e, "loadsgf a\x00b.sgf")
    assert answer.startswith("? cannot load file") and "internal error" not in answer
    assert_genmove_works(e)
