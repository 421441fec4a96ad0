"""``keima gtp`` and ``keima match`` from the command line, and a real match against GNU Go."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from keima.cli import main
from keima.record import load_sgf

from .conftest import FAKE, gnugo_path


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["gtp", "--size", "1"], "--size must be from 2 to 25, not 1"),
        (["gtp", "--rules", "calvinball"], "unknown ruleset 'calvinball'"),
        (["gtp", "--level", "grandmaster"], "--level: unknown bot level 'grandmaster'"),
        (["gtp", "--seconds", "0"], "--seconds must be positive"),
        (["match", "--black", "keima", "--white", "keima", "--games", "0"], "--games must be at least 1"),
        (["match", "--black", "/nonexistent/engine", "--white", "keima"], "--black: cannot find the program"),
        (["match", "--black", "keima", "--white", "'unclosed"], "--white: cannot read the command"),
        (["match", "--black", "keima", "--white", "keima:grandmaster"], "--white: unknown bot level"),
        (["match", "--black", "keima", "--white", "keima", "--size", "30"], "30"),
        (["match", "--black", "keima", "--white", "keima", "--rules", "calvinball"], "unknown ruleset"),
        (["match", "--black", "keima", "--white", "keima", "--move-time", "-1"], "--move-time must be positive"),
        (["match", "--black", "keima", "--white", "keima", "--handicap", "1"], "--handicap must be from 2 to 9"),
        (["match", "--black", "keima", "--white", "keima", "--handicap", "10"], "--handicap must be from 2 to 9"),
        (["match", "--black", "keima", "--white", "keima", "--handicap", "3", "--rules", "chinese"],
         "the chinese rules place handicap stones free, not fixed"),
        (["match", "--black", "keima", "--white", "keima", "--handicap", "9", "--size", "7"], "7x7"),
    ],
)
def test_bad_options_exit_2_with_a_message(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"keima {argv[0]}: error:" in err and message in err, err


def test_match_against_a_cheating_engine(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    cheat = f"{sys.executable} {FAKE} illegal"
    code = main(["match", "--black", "keima:policy", "--white", cheat, "--size", "7", "--games", "2",
                 "--sgf", str(tmp_path), "--move-time", "10"])
    out, err = capsys.readouterr()
    assert code == 0
    rows = [line.split() for line in out.splitlines()[1:3]]
    label = os.path.basename(sys.executable)
    assert [row[:4] for row in rows] == [["1", "keima:policy", label, "B+F"], ["2", label, "keima:policy", "W+F"]]
    assert "forfeits: illegal move" in out and "game 2:" in err
    assert sorted(os.listdir(str(tmp_path))) == ["game-001.sgf", "game-002.sgf"]


def test_match_with_a_crashing_engine_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    crash = f"{sys.executable} {FAKE} crash"
    assert main(["match", "--black", crash, "--white", "keima:policy", "--size", "7"]) == 1
    out = capsys.readouterr().out
    assert "W+F" in out and "crash" in out


@pytest.mark.gnugo
@pytest.mark.slow
def test_keima_against_gnugo(tmp_path: object) -> None:
    gnugo = gnugo_path()
    if gnugo is None:
        pytest.skip("GNU Go is not installed (scripts/test.sh installs the Debian package gnugo)")
    sgf_dir = os.path.join(str(tmp_path), "sgf")
    done = subprocess.run(
        [sys.executable, "-m", "keima", "match", "--black", "keima:beginner", "--white",
         f"{gnugo} --mode gtp --level 1", "--size", "9", "--rules", "french", "--games", "2",
         "--move-time", "60", "--keima-seconds", "0.1", "--sgf", sgf_dir],
        capture_output=True, text=True, timeout=400,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    rows = [line.split() for line in lines[1:3]]
    # Colours alternate, and both games end normally: by counting or by resignation, never by forfeit.
    assert [(row[1], row[2]) for row in rows] == [("keima:beginner", "gnugo"), ("gnugo", "keima:beginner")]
    for number, row in enumerate(rows, start=1):
        path = os.path.join(sgf_dir, f"game-{number:03d}.sgf")
        game = load_sgf(Path(path))
        assert game.result == row[3] and game.size == 9 and game.rules.name == "french"
        assert len(game.moves) == int(row[4])
        if game.end_reason == "score":
            # keima counted the final position itself, with the dead stones the engines agreed on.
            assert re.fullmatch(r"[BW]\+\d+(\.\d+)?|0", row[3])
            assert game.score().result == row[3]
        elif game.end_reason == "forfeit":
            # The one forfeit a sound engine can earn: GNU Go plays simple ko, so it may break the French
            # superko rule; keima must then name the rule. Anything else (crash, timeout) fails the test.
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            assert "(gnugo) forfeits" in text and "superko" in text, done.stdout + done.stderr
        elif game.end_reason == "no-result":
            # GNU Go may refuse a ko recapture that the French rule allows after a pass: no result.
            with open(path, encoding="utf-8") as fh:
                assert "(gnugo) refused" in fh.read(), done.stdout + done.stderr
        else:
            assert game.end_reason == "resign", done.stdout + done.stderr
    assert lines[-1].startswith("Wins: keima:beginner ")


def test_keima_seconds_bounds_keima_thinking_in_a_match(monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee sends a per-move limit (--move-time); keima's in-process bot still thinks at most
    --keima-seconds per move."""
    from keima.seat import KeimaPlayer

    budgets: list[float] = []

    def recording(self: KeimaPlayer, game: object, color: int, seconds: float) -> None:
        budgets.append(seconds)
        return None  # a pass: the game ends at once, the policy answering it

    monkeypatch.setattr(KeimaPlayer, "genmove", recording)
    monkeypatch.setattr(KeimaPlayer, "warm_up", lambda self: None)
    argv = ["match", "--black", "keima", "--white", "keima:policy", "--size", "5", "--games", "1"]
    assert main([*argv, "--move-time", "30", "--keima-seconds", "0.25"]) == 0
    assert budgets and all(b is not None and 0 < b <= 0.25 for b in budgets)
