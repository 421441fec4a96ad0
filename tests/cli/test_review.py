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
            assert set(cand) == {"move", "winrate", "score", "loss", "visits", "pv"}
            assert cand["loss"] is None or cand["loss"] >= 0
            assert cand["pv"][0] == cand["move"]
            assert cand["visits"] >= 2
    # The progress bar: one line per tenth (stderr is not a terminal here), the last one complete.
    lines = out.err.strip().splitlines()
    done = data["summary"]
    assert set(done) == {"thresholds", "B", "W"} and done["B"]["moves"] == 4 and done["W"]["moves"] == 3
    # The refine pass searched some positions again: more searches than the 8 positions.
    assert sum(m["searches"] for m in moves) > 8
    last = lines[-1].split("] ")[1].split(" searches")[0].split("/")
    assert lines[-1].startswith("reviewing [" + "#" * 30 + "]") and last[0] == last[1]
    assert "s left" in lines[0]


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
    assert nodes[1].get("C").startswith("a fine start\n\nkeima review:\nMove 1 (B E5): Black ")
    assert "Best next moves for B:\nA " in nodes[0].get("C")
    # The labels at a node are the next move's candidates, in the comment's order.
    labels = nodes[0].get("LB")
    assert labels and labels[0][1] == "A"
    assert nodes[0].get("C").split("\nA ")[1].startswith(
        "ABCDEFGHJ"[labels[0][0][1]] + str(labels[0][0][0] + 1))
    assert game.get_root().get("PB") == "Alice"
    # The record's variation stays, second as it was; a better line of the review may follow it.
    assert len(nodes[4]) >= 2 and list(nodes[4])[1].get_move() == ("b", (8, 0))


def test_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;SZ[9];B[ee];W[ee])", encoding="utf-8")
    assert main(["review", str(bad), *FAST]) == 2
    assert "illegal" in capsys.readouterr().err
    assert main(["review", str(bad), "--top", "11"]) == 2
    assert main(["review", str(bad), "--seconds", "-1"]) == 2


# A 9x9 game whose Black throws a group away: the review classes the moves and shows better lines as variations.
THROWN = ("(;GM[1]FF[4]SZ[9]KM[7]RU[chinese];B[ee];W[gc];B[cg];W[gg];B[cc];W[fg];B[aa];W[ef];B[ba];W[de];B[ab]"
          ";W[ed];B[ca];W[fe];B[ac])")


def test_better_lines_are_variations_and_a_second_review_replaces_the_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``-o``: at each classed move the better line is a variation beside it (keima's reader and sgfmill read it
    back, its comment says what it gains); the labels on a node are the next move's candidates, never mixed with
    a mark of the better move; a record reviewed twice carries one analysis."""
    from keima.record import load_record

    path = tmp_path / "thrown.sgf"
    path.write_text(THROWN, encoding="utf-8")
    out = tmp_path / "once.sgf"
    assert main(["review", str(path), "--playouts", "300", "--seed", "2", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Black: accuracy " in printed and "White: accuracy " in printed
    game = sgf.Sgf_game.from_bytes(out.read_bytes())
    main_line = game.get_main_sequence()
    assert len(main_line) == 16 and not any(n.has_property("TR") for n in main_line)
    branches = [(i, child) for i, node in enumerate(main_line[:-1]) for child in list(node)[1:]]
    assert branches, "no better line written"
    for i, child in branches:
        text = child.get("C")
        assert text.startswith("keima review:\nBetter than ") and " gains about " in text
        # The variation starts with the side that played the move it replaces, and goes on as a line.
        assert child.get_move()[0] == main_line[i + 1].get_move()[0]
        assert child.get_move()[1] != main_line[i + 1].get_move()[1]
    for node in main_line:
        labels = node.get("LB") if node.has_property("LB") else []
        assert [text for _p, text in labels] == list("ABCDE"[: len(labels)])
    record = load_record(out)
    assert [m for m in record.moves] == [m for m in load_record(path).moves]
    assert record.game.move_number == 15
    # Reviewed again: one analysis, as many variations, no property doubled.
    twice = tmp_path / "twice.sgf"
    assert main(["review", str(out), "--playouts", "300", "--seed", "3", "-o", str(twice)]) == 0
    again = sgf.Sgf_game.from_bytes(twice.read_bytes())
    second = again.get_main_sequence()
    theirs = [c for node in second[:-1] for c in list(node)[1:]]
    assert theirs and all(c.get("C").count("keima review:") == 1 for c in theirs)
    for node in second:
        assert node.get("C").count("keima review:") == 1
        assert len(node.get_raw_list("SBKV")) == 1
        labels = node.get("LB") if node.has_property("LB") else []
        assert len(labels) <= 5
    assert all(len(node) <= 2 for node in second)


def test_the_default_budget_is_the_reviews_playouts_by_board_size(record: Path, capsys: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from keima.ai import analysis

    # Neither --seconds nor --playouts: the server's default, playouts by board size (made small here).
    monkeypatch.setitem(analysis.DEFAULT_PLAYOUTS, 9, 30)
    assert main(["review", str(record), "--seed", "1", "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    # Each position's candidates share its 30 playouts (a refined position's, two or more searches merged).
    assert all(sum(c["visits"] for c in m["best"]) <= 30 * m_searches
               for m, m_searches in zip(moves[1:], [p["searches"] for p in moves[:-1]], strict=True))
