"""``keima play``: scripted games through standard input, without a terminal."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from keima import Game
from keima.cli import main
from keima.cli.play import terminal_board
from keima.record import load_record

WALL = [
    "E5",
    "F5",
    "E3",
    "F3",
    "E7",
    "F7",
    "E1",
    "F1",
    "E9",
    "F9",
    "E2",
    "F2",
    "E4",
    "F4",
    "E6",
    "F6",
    "E8",
    "F8",
]


def play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lines: list[str], *argv: str
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["play", *argv])
    return code, capsys.readouterr().out


def test_full_game_with_refusals_undo_and_counting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sgf = tmp_path / "game.sgf"
    script = [
        *WALL[:4],
        "E5",  # occupied
        "Z1",  # off the board
        "dead E5",  # not in the dead-stone phase
        "J9",
        "undo",  # takes J9 back
        *WALL[4:],
        "pass",
        "C5",
        "pass",
        "pass",
        "help",
        "dead C5",
        "accept",
        "accept",
    ]
    code, out = play(monkeypatch, capsys, script, "--size", "9", "--sgf", str(sgf), "--no-estimate")
    assert code == 0
    assert "Refused (occupied): E5 is occupied" in out
    assert "'Z1' is off the 9x9 board" in out
    assert "'dead' is for the dead-stone phase" in out
    assert "Taken back." in out
    assert "dead-stone phase: dead D4" in out  # the help of that phase
    assert "Game over: B+1.5" in out
    for method in ("area", "territory", "quick-count", "japanese"):
        assert f"  {method} " in out
    record = load_record(sgf)
    game = record.game
    assert game.result == "B+1.5" and game.end_reason == "score"
    assert len(game.moves) == 22 and game.dead == frozenset({4 * 9 + 2})
    assert record.info["PB"] == "Black" and record.dead_source == "TB/TW"


def test_captures_are_reported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # On 5x5 Black surrounds White's A5 stone and takes it.
    code, out = play(
        monkeypatch,
        capsys,
        ["B5", "A5", "A4", "quit"],
        "--size",
        "5",
        "--sgf",
        str(tmp_path / "c.sgf"),
        "--no-color",
    )
    assert code == 0 and "Black captures 1 stone." in out
    assert "prisoners: Black 1, White 0" in out
    assert load_record(tmp_path / "c.sgf").game.prisoners[1] == 1


def test_resign_and_resume(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sgf = tmp_path / "r.sgf"
    code, out = play(
        monkeypatch,
        capsys,
        ["C3", "pass", "pass", "resume", "D4", "resign"],
        "--size",
        "5",
        "--sgf",
        str(sgf),
        "--no-estimate",
    )
    assert code == 0
    assert "disputes the marking: play resumes" in out
    assert "resigns" in out
    game = load_record(sgf).game
    assert game.result is not None and game.result.endswith("+R")
    assert [m.point is None for m in game.moves] == [False, True, True, False]


def test_input_end_saves_the_unfinished_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sgf = tmp_path / "u.sgf"
    code, out = play(monkeypatch, capsys, ["D4", "E5"], "--size", "9", "--handicap", "2", "--sgf", str(sgf))
    assert code == 0 and "Input ended." in out
    game = load_record(sgf).game
    assert game.handicap == 2 and len(game.handicap_stones) == 2
    assert [m.color for m in game.moves] == [2, 1]  # White moves first after the handicap


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--size", "40"], "--size must be from 2 to 25, not 40"),
        (["--rules", "martian"], "unknown ruleset"),
        (["--handicap", "12"], "handicap must be an integer from 0 to 9"),
        (["--vs", "bot", "--level", "godlike"], "unknown bot level"),
        (["--vs", "bot", "--human", "purple"], "--human must be black or white"),
    ],
)
def test_bad_options_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", *argv]) == 2
    assert message in capsys.readouterr().err


def test_against_the_bot(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sgf = tmp_path / "bot.sgf"
    code, out = play(
        monkeypatch,
        capsys,
        ["C3", "pass", "pass", "pass", "pass", "accept"],
        "--size",
        "5",
        "--vs",
        "bot",
        "--level",
        "beginner",
        "--seconds",
        "0.1",
        "--sgf",
        str(sgf),
    )
    assert code == 0 and "keima (White)" in out
    record = load_record(sgf)
    assert record.info["PW"] == "keima"
    colors = [m.color for m in record.game.moves]
    assert colors[:2] == [1, 2]  # the bot answered the first move


def test_terminal_board_marks() -> None:
    game = Game(size=5)
    game.play("C3")
    text = terminal_board(game)
    assert text.splitlines()[0] == "   A B C D E"
    assert " 3 . .(X). . 3" in text
    coloured = terminal_board(game, color=True)
    assert "\x1b[" in coloured and "\x1b[" not in text


def test_subprocess_without_tty(tmp_path: Path) -> None:
    sgf = tmp_path / "s.sgf"
    proc = subprocess.run(
        [sys.executable, "-m", "keima", "play", "--size", "5", "--sgf", str(sgf), "--no-estimate"],
        input="C3\nD3\npass\npass\naccept\naccept\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "\x1b[" not in proc.stdout  # no colour when stdout is not a terminal
    assert load_record(sgf).game.phase == "finished"


class _InterruptingInput(io.StringIO):
    """Gives its lines, then behaves like Ctrl-C at the next prompt."""

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_still_saves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sgf = tmp_path / "i.sgf"
    monkeypatch.setattr(sys, "stdin", _InterruptingInput("D4\nE5\n"))
    assert main(["play", "--size", "9", "--sgf", str(sgf)]) == 130
    assert "Interrupted." in capsys.readouterr().out
    assert len(load_record(sgf).game.moves) == 2


def test_undecodable_input_is_not_a_crash(tmp_path: Path) -> None:
    sgf = tmp_path / "b.sgf"
    proc = subprocess.run(
        [sys.executable, "-m", "keima", "play", "--size", "9", "--sgf", str(sgf)],
        input=b"D4\n\xff\xfe\nE5\n",
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr
    assert b"Not understood" in proc.stdout
    assert len(load_record(sgf).game.moves) == 2


def test_undo_against_the_bot_takes_back_its_reply_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # The bot grants the undo (Seat.answers_undo): Black's C3 and the bot's answer both go, Black plays again.
    sgf = tmp_path / "undo.sgf"
    code, out = play(
        monkeypatch, capsys, ["C3", "undo", "B2", "pass", "pass", "pass", "pass", "accept"],
        "--size", "5", "--vs", "bot", "--level", "beginner", "--seconds", "0.1", "--sgf", str(sgf),
    )
    assert code == 0 and "Taken back." in out
    moves = load_record(sgf).game.moves
    assert (moves[0].color, moves[0].point) == (1, 3 * 5 + 1)  # B2, row 3 from the top: the first move now
    assert moves[1].color == 2  # and the bot answered B2
