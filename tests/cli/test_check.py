"""``keima check``: an archive replayed and counted on several processes, each file's verdict and a summary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from keima.cli import main

# No RE: nothing to disagree with.
GOOD = "(;GM[1]FF[4]SZ[9]KM[7.5]RU[French];B[ee];W[gc];B[tt];W[tt])"
# White plays on Black's stone: move 2 is illegal.
ILLEGAL = "(;GM[1]FF[4]SZ[9]KM[7.5]RE[B+R];B[ee];W[ee])"
# Two passes on an empty board: White wins by the komi, not Black by 3 as the record says.
DIFFERS = "(;GM[1]FF[4]SZ[9]KM[7.5]RU[French]RE[B+3];B[tt];W[tt])"


def archive(tmp_path: Path) -> Path:
    d = tmp_path / "archive"
    (d / "sub").mkdir(parents=True)
    (d / "good.sgf").write_text(GOOD)
    (d / "sub" / "illegal.sgf").write_text(ILLEGAL)
    (d / "differs.sgf").write_text(DIFFERS)
    (d / "broken.sgf").write_text("(;SZ[9];B[ee]")
    (d / "notes.txt").write_text("not a record")
    return d


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_check_reports_each_file_and_a_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str) -> None:
    code = main(["check", str(archive(tmp_path)), "--jobs", jobs, "--json"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    rows = {Path(r["file"]).name: r for r in lines[:-1]}
    assert set(rows) == {"good.sgf", "illegal.sgf", "differs.sgf", "broken.sgf"}
    assert rows["illegal.sgf"]["status"] == "illegal" and rows["illegal.sgf"]["illegal"].startswith("move 2 E5")
    assert rows["differs.sgf"]["status"] == "differs"
    assert rows["differs.sgf"]["recorded"] == "B+3" and rows["differs.sgf"]["count"] == "W+7.5"
    assert rows["broken.sgf"]["status"] == "unreadable"
    assert rows["good.sgf"]["status"] == "ok" and rows["good.sgf"]["count"]
    summary = lines[-1]["summary"]
    assert summary["files"] == 4 and summary["illegal"] == 1 and summary["unreadable"] == 1
    assert code == 1


def test_check_table_on_a_clean_archive(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "one.sgf"
    f.write_text(DIFFERS.replace("RE[B+3]", "RE[W+7.5]"))
    assert main(["check", str(f), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "W+7.5" in out and "1 files: 1 agree" in out


def test_check_refuses_a_missing_path_and_bad_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path / "nope")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    (tmp_path / "a.sgf").write_text(GOOD)
    assert main(["check", str(tmp_path), "--rules", "klingon"]) == 2
    assert "--rules" in capsys.readouterr().err
