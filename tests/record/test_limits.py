"""Bounds on reading untrusted SGF: a size limit checked before reading, errors found as soon as they can be
known, and time and memory in proportion to the input whatever it holds (the hostile inputs of the hardening
issue: repeated rectangles, a flood of passes, one huge comment)."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

import keima
from keima.record import DEFAULT_MAX_BYTES, SgfError, dump_sgf, load_record, load_sgf
from keima.rules.board import BLACK

MB = 1 << 20


def rectangles(n: int) -> bytes:
    head = b"(;GM[1]FF[4]SZ[19]AB"
    return head + b"[aa:ss]" * ((n - len(head)) // 7) + b")"


def passes(n: int) -> bytes:
    return b"(;GM[1]FF[4]SZ[19]" + b";B[];W[]" * (n // 8) + b")"


def comment(n: int) -> bytes:
    return b"(;GM[1]FF[4]SZ[19]C[" + b"x" * n + b"])"


def chinese_comment(n: int) -> bytes:
    # GB18030 without CA: the encoding is guessed from the characters (valid, not UTF-8).
    return b"(;GM[1]FF[4]SZ[19]C[" + "\u56f4\u68cb".encode("gb18030") * (n // 4) + b"];B[pd])"


def escapes(n: int) -> bytes:
    return b"(;GM[1]FF[4]SZ[19]C[" + b"\\]" * (n // 2) + b"];B[pd])"


def unclosed(n: int) -> bytes:
    return b"(;GM[1]FF[4]SZ[19];B[pd]C[" + b"x" * n


def measure(build: Callable[[int], bytes], size: int) -> tuple[float, float, str]:
    """(seconds, peak traced memory / input size, outcome) of reading ``build(size)`` with no size limit."""
    data = build(size)
    tracemalloc.start()
    start = time.perf_counter()
    try:
        load_record(data, max_bytes=None)
        outcome = "read"
    except SgfError as exc:
        outcome = exc.message
    seconds = time.perf_counter() - start
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return seconds, peak / len(data), outcome


# ---------------------------------------------------------------------------------------------------- size limit


def test_the_default_limit_is_documented_and_refuses_larger_inputs(tmp_path: Path) -> None:
    assert DEFAULT_MAX_BYTES == MB
    data = comment(DEFAULT_MAX_BYTES)  # a valid record, a few bytes over the limit
    with pytest.raises(SgfError, match=r"more than the limit of 1048576 bytes"):
        load_record(data)
    with pytest.raises(SgfError, match="characters, more than the limit"):
        load_record(data.decode())
    path = tmp_path / "big.sgf"
    path.write_bytes(data)
    with pytest.raises(SgfError, match="more than the limit") as info:
        load_record(path)
    assert info.value.source == str(path)
    # Raised on request, the same record reads.
    assert load_record(data, max_bytes=2 * MB).game.size == 19
    assert load_record(path, max_bytes=None).game.size == 19


def test_a_file_is_not_read_past_the_limit() -> None:
    # /dev/zero never ends: reading it whole would never return.
    start = time.perf_counter()
    with pytest.raises(SgfError, match="more than the limit of 1000 bytes"):
        load_record(Path("/dev/zero"), max_bytes=1000)
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize("bad", [0, -1, 1.5, "10", True])
def test_max_bytes_must_be_a_positive_integer(bad: object) -> None:
    with pytest.raises(ValueError, match="max_bytes"):
        load_record("(;SZ[9])", max_bytes=bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------------- text vs path


@pytest.mark.parametrize("source", ["abc\x00def", "\x00", "game.sgf", "C:\\games\\game.sgf", "x" * 5000, "\ud800"])
def test_a_str_is_always_sgf_text_and_bad_text_is_an_sgf_error(source: str) -> None:
    with pytest.raises(SgfError, match="no SGF game found"):
        load_sgf(source)
    with pytest.raises(SgfError, match="no SGF game found"):
        keima.load_sgf(source)


def test_a_file_name_as_text_says_how_to_read_a_file(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_text("(;GM[1]SZ[9];B[ee])")
    with pytest.raises(SgfError, match="pass a pathlib.Path"):
        load_sgf(str(path))
    assert load_sgf(path).moves[0].point == 40


@pytest.mark.parametrize("source", [b"abc\x00def", b"(;SZ[9]C[\x00];B[ee]\x00)", bytearray(b"\xff\xfe\x00"), None, 3.5])
def test_every_bad_source_is_an_sgf_error(source: object) -> None:
    with pytest.raises(SgfError):
        load_sgf(source)  # type: ignore[arg-type]


def test_a_lone_surrogate_in_a_value_is_an_sgf_error() -> None:
    with pytest.raises(SgfError, match="no UTF-8 form") as info:
        load_sgf("(;SZ[9]\nC[a\ud800b];B[ee])")
    assert (info.value.line, info.value.column) == (2, 3)


# ---------------------------------------------------------------------------------------------------- early errors


def test_an_illegal_move_stops_the_read_before_the_rest_is_parsed() -> None:
    # The garbage after the fifth move would be a syntax error; the move is the first fault, so it is reported.
    text = "(;GM[1]SZ[9];B[];W[];B[];W[];B[ee] ;W[ %%% no closing bracket, no closing parenthesis"
    with pytest.raises(SgfError) as info:
        load_sgf(text)
    assert info.value.move_number == 5 and info.value.color == BLACK
    assert "after the end of the game" in info.value.message


def test_a_point_listed_twice_is_found_at_the_value_that_repeats_it() -> None:
    with pytest.raises(SgfError, match=r"AB\[bb:cc\]: B8 is listed twice") as info:
        load_sgf("(;GM[1]SZ[9]AB[aa:bb][bb:cc])")
    assert (info.value.line, info.value.column, info.value.node) == (1, 2, 0)
    with pytest.raises(SgfError, match=r"AW\[dd\]: D6 is listed twice"):
        load_sgf("(;GM[1]SZ[9];AW[dd][dd])")
    # Across AB and AW the referee's own check still speaks.
    with pytest.raises(SgfError, match="listed twice"):
        load_sgf("(;GM[1]SZ[9]AB[cc]AW[cc])")


def test_rectangles_are_checked_against_the_board_before_anything_is_expanded() -> None:
    with pytest.raises(SgfError, match=r"AB\[aa:zz\].*off the 9x9 board"):
        load_sgf("(;GM[1]SZ[9]AB[aa:zz])")
    with pytest.raises(SgfError, match="corners in the wrong order"):
        load_sgf("(;GM[1]SZ[9]AB[cc:aa])")


def test_territory_lists_merge_repeats_without_expanding_them() -> None:
    # A counted 5x5 game whose TB repeats one rectangle many times: read as the rectangle once.
    moves = ";B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de];B[];W[]"
    text = f"(;GM[1]SZ[5]KM[0]RU[Chinese]RE[B+5]{moves}TB{'[aa:be]' * 50000}TW[ea:ee])"
    start = time.perf_counter()
    record = load_record(text)
    assert time.perf_counter() - start < 5
    assert record.dead == frozenset() and record.game.result == "B+5"


# ---------------------------------------------------------------------------------------------------- time, memory


@pytest.mark.parametrize(
    ("build", "expect"),
    [
        (rectangles, "A19 is listed twice"),
        (passes, "move 5 (Black pass) comes after the end of the game"),
        (comment, "read"),
        (chinese_comment, "read"),
        (escapes, "read"),
        (unclosed, "never closed"),
    ],
    ids=["rectangles", "passes", "comment", "chinese-comment", "escapes", "unclosed"],
)
def test_hostile_inputs_cost_time_and_memory_in_proportion_to_their_size(
    build: Callable[[int], bytes], expect: str
) -> None:
    # 1 MB each, with the size limit lifted: the cost of the reading itself. Before the bounds, the
    # rectangles took 900 bytes of memory per input byte and 10 s, the passes 170 and 3 s, a Chinese comment 80.
    seconds, ratio, outcome = measure(build, MB)
    assert expect in outcome
    assert ratio < 20, f"{ratio:.1f} bytes of memory per byte of input"
    assert seconds < 5


def test_valid_records_stay_readable_and_writable_after_the_bounds() -> None:
    # The streaming parse builds the same tree as before: variations and comments come back when written.
    text = "(;GM[1]FF[4]SZ[9]C[root];B[ee]C[a \\] b](;W[cc];B[gg])(;W[gc]N[side]))"
    record = load_record(text)
    assert [m.point for m in record.game.moves] == [40, 20, 60]
    written = dump_sgf(record)
    assert "C[a \\] b]" in written and "N[side]" in written and "C[root]" in written
