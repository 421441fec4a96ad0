"""``keima review``: the bot's review of a record, as JSON, as an annotated SGF that sgfmill (and Sabaki) read
back, and its progress bar. Budgets are a few dozen playouts per position."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sgfmill import sgf

from keima.cli import main

# A short 9x9 game with a comment of its own and a variation, both of which the annotated record keeps.
RECORD = (
    "(;GM[1]FF[4]SZ[9]KM[7]RU[french]PB[Alice]PW[Bob]RE[W+R]"
    ";B[ee]C[a fine start];W[cc];B[gc];W[cg](;B[gg];W[eg];B[ec])(;B[aa]))"
)
FAST = ["--playouts", "40", "--seed", "1"]


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "game.sgf"
    path.write_text(RECORD, encoding="utf-8")
    return path


def test_json_lists_every_move(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(record), *FAST, "--json", "--top", "3"]) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    moves = data["moves"]
    assert data["size"] == 9
    assert [m["n"] for m in moves] == list(range(8))
    assert [m["played"] for m in moves] == [None, "E5", "C7", "G7", "C3", "G3", "E3", "E7"]
    assert [m["color"] for m in moves] == [None, "B", "W", "B", "W", "B", "W", "B"]
    for m in moves:
        assert 0 <= m["winrate"] <= 1
        assert isinstance(m["score"], float | int)
        assert (m["loss"] is None) == (m["n"] == 0)
        assert 1 <= len(m["best"]) <= 3 or m["n"] == 0
        for cand in m["best"]:
            assert set(cand) == {"move", "winrate", "visits", "pv"}
            assert cand["pv"][0] == cand["move"]
            assert cand["visits"] >= 2
    # The progress bar: one line per tenth (stderr is not a terminal here), the last one complete.
    lines = out.err.strip().splitlines()
    assert lines[-1].startswith("reviewing [" + "#" * 30 + "] 8/8 positions")


def test_annotated_sgf_reads_back_with_win_rates(record: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "reviewed.sgf"
    assert main(["review", str(record), *FAST, "-o", str(out)]) == 0
    summary = capsys.readouterr().out
    assert summary.startswith("7 moves reviewed; at the end Black ")
    game = sgf.Sgf_game.from_bytes(out.read_bytes())
    nodes = game.get_main_sequence()
    assert [n.get_move() for n in nodes][1:3] == [("b", (4, 4)), ("w", (6, 2))]
    for node in nodes:
        value = float(node.get_raw("SBKV"))
        assert 0 <= value <= 100  # Sabaki's convention: Black's win rate in percent
        float(node.get_raw("SBKS"))
        assert node.has_property("C")
    assert nodes[1].get("C").startswith("a fine start\n\nMove 1 (B E5): Black ")
    assert "Best next moves:\nA " in nodes[0].get("C")
    # The labels at a node are the next move's candidates, in the comment's order.
    labels = nodes[0].get("LB")
    assert labels and labels[0][1] == "A"
    assert nodes[0].get("C").split("\nA ")[1].startswith(
        "ABCDEFGHJ"[labels[0][0][1]] + str(labels[0][0][0] + 1))
    assert game.get_root().get("PB") == "Alice"
    assert len(nodes[4]) == 2  # the variation stays


def test_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;SZ[9];B[ee];W[ee])", encoding="utf-8")
    assert main(["review", str(bad), *FAST]) == 2
    assert "illegal" in capsys.readouterr().err
    assert main(["review", str(bad), "--top", "11"]) == 2
    assert main(["review", str(bad), "--seconds", "-1"]) == 2
