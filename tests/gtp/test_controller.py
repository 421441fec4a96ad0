"""The GTP controller against real subprocesses: ``keima gtp`` itself and the misbehaving fake engine."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from keima.ai.standin import PolicyPlayer
from keima.gtp.controller import (
    EngineDied,
    EngineFailure,
    EngineProtocolError,
    EngineTimeout,
    InProcessEngine,
    SubprocessEngine,
)
from keima.gtp_engine import GtpEngine

from .conftest import fake_argv, gnugo_path

KEIMA_GTP = [sys.executable, "-m", "keima", "gtp", "--policy", "--size", "9"]


def test_keima_gtp_subprocess_session() -> None:
    engine = SubprocessEngine(KEIMA_GTP)
    try:
        assert engine.send("protocol_version", 30) == "2"
        assert engine.send("name", 5) == "keima"
        assert engine.send("boardsize 9", 5) == ""
        assert engine.send("play b e5", 5) == ""
        with pytest.raises(EngineFailure) as info:
            engine.send("play w e5", 5)
        assert info.value.message == "illegal move"
        with pytest.raises(EngineFailure) as unknown:
            engine.send("frobnicate", 5)
        assert unknown.value.message == "unknown command: frobnicate"
        move = engine.send("genmove w", 30)
        assert move.lower() != "e5" and len(move) >= 2
        board = engine.send("showboard", 5)
        assert board.count("\n") == 10 and "X" in board and "O" in board
        assert engine.known("kgs-genmove_cleanup", 5) and not engine.known("frobnicate", 5)
    finally:
        engine.close()
    assert engine.proc.returncode == 0


def test_keima_gtp_reads_a_piped_script_and_survives_bad_bytes() -> None:
    script = b"1 name\n\xff\xfe garbage\n2 boardsize 5\n3 play b c3\n4 play w c3\n5 quit\n6 name\n"
    done = subprocess.run(KEIMA_GTP, input=script, capture_output=True, timeout=60, check=True)
    out = done.stdout.decode()
    assert out.startswith("=1 keima\n\n? unknown command: \ufffd\ufffd\n\n=2\n\n=3\n\n?4 illegal move\n\n=5\n\n")
    assert "=6" not in out  # nothing is read after quit


def test_keima_gtp_exits_at_end_of_input() -> None:
    done = subprocess.run(KEIMA_GTP, input=b"name\n", capture_output=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, b"= keima\n\n")


def test_crashing_engine_reports_its_exit_code_and_stderr() -> None:
    engine = SubprocessEngine(fake_argv("crash"))
    try:
        assert engine.send("boardsize 9", 10) == ""
        with pytest.raises(EngineDied) as info:
            engine.send("genmove b", 10)
        assert "exit code 3" in str(info.value) and "crashing on purpose" in str(info.value)
        with pytest.raises(EngineDied):
            engine.send("name", 10)
    finally:
        engine.close()


def test_hanging_engine_times_out_and_is_killed() -> None:
    engine = SubprocessEngine(fake_argv("hang"))
    try:
        start = time.monotonic()
        with pytest.raises(EngineTimeout) as info:
            engine.send("genmove b", 0.5)
        assert time.monotonic() - start < 5
        assert "within 0.5 s" in str(info.value)
    finally:
        engine.close()
    assert engine.proc.poll() is not None


def test_engine_writing_non_gtp_is_a_protocol_error() -> None:
    engine = SubprocessEngine(fake_argv("noframe"))
    try:
        with pytest.raises(EngineProtocolError) as info:
            engine.send("genmove b", 10)
        assert "not a GTP reply" in str(info.value)
    finally:
        engine.close()


def test_missing_program_cannot_start() -> None:
    with pytest.raises(EngineDied) as info:
        SubprocessEngine(["/nonexistent/engine-binary"])
    assert "cannot start" in str(info.value)


def test_in_process_engine_speaks_the_same_interface() -> None:
    link = InProcessEngine(GtpEngine(PolicyPlayer(3), size=9, dead_estimator=lambda game: frozenset()))
    assert link.send("name") == "keima"
    assert link.request("play b zz").ok is False
    assert link.known("genmove") and not link.known("frobnicate")
    link.close()
    with pytest.raises(EngineDied):
        link.send("name")


def test_in_process_engine_time_limit_is_checked_after_the_fact() -> None:
    class Slow:
        def genmove(self, game: object, color: int, seconds: float) -> None:
            time.sleep(0.3)
            return None

    link = InProcessEngine(GtpEngine(Slow(), size=9, dead_estimator=lambda game: frozenset()))
    with pytest.raises(EngineTimeout):
        link.send("genmove b", 0.1)


def test_engines_started_one_after_another_never_share_a_pipe() -> None:
    # Regression: closing a pipe under its reader thread let the next engine's pipe reuse the descriptor,
    # and the old thread stole the first byte ('=') of the new engine's first reply (seen with GNU Go).
    gnugo = gnugo_path()
    argv = [gnugo, "--mode", "gtp", "--level", "1"] if gnugo else fake_argv("pass")
    for _ in range(60):
        engine = SubprocessEngine(argv)
        try:
            assert engine.send("boardsize 9", 10) == ""
            assert engine.send("clear_board", 10) == ""
        finally:
            engine.close()
