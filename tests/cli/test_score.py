"""``keima score``: counts a record's final position under every method, with the dead stones' origin."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from keima.cli import main

CORPUS = Path(__file__).resolve().parent.parent / "data" / "sgf"
COUNTED = CORPUS / "keima_9x9_counted.sgf"  # 9x9 wall game, White's C5 dead inside Black's area
UNCOUNTED = CORPUS / "keima_9x9_japanese_uncounted.sgf"  # the same game under Japanese rules, no TB/TW


def score_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["score", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_counted_record_uses_its_territory(capsys: pytest.CaptureFixture[str]) -> None:
    data = score_json(capsys, str(COUNTED))
    assert data["result"] == "B+1.5" and data["rules"] == "french"
    assert data["black"] == 45 and data["white"] == 43.5
    assert data["dead"] == ["C5"] and data["dead_source"] == "the record's TB/TW"
    methods = data["methods"]
    assert isinstance(methods, dict)
    assert set(methods) == {"area", "territory", "quick-count", "japanese"}
    area = methods["area"]
    assert area["result"] == "B+1.5"
    assert area["B"]["stones"] == 9 and area["B"]["territory"] == 36
    assert area["W"]["stones"] == 9 and area["W"]["territory"] == 27 and area["W"]["komi"] == 7.5
    # Territory counting with pass stones: Black 36 + 1 dead + 1 pass stone = 38, White 27 + 2 + 7.5 = 36.5.
    assert (methods["territory"]["black"], methods["territory"]["white"]) == (38, 36.5)
    assert methods["japanese"]["result"] == "B+2.5"  # no pass stones: 37 against 34.5


def test_text_output_names_every_method(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(COUNTED)]) == 0
    out = capsys.readouterr().out
    assert "Dead stones (the record's TB/TW): C5" in out
    assert "area counting): B+1.5" in out
    for name in ("area", "territory", "quick-count", "japanese"):
        assert f"\n{name}" in out
    assert "Black: stones 9, territory 36" in out


def test_all_alive_and_dead_options(capsys: pytest.CaptureFixture[str]) -> None:
    alive = score_json(capsys, str(COUNTED), "--all-alive")
    # C5 alive: Black 9 stones and no territory, White 10 stones + 27 + 7.5 komi.
    assert alive["dead"] == [] and alive["result"] == "W+35.5"
    assert "--all-alive" in str(alive["dead_source"])
    named = score_json(capsys, str(COUNTED), "--dead", "C5")
    assert (
        named["dead"] == ["C5"] and named["result"] == "B+1.5" and named["dead_source"] == "given with --dead"
    )
    several = score_json(capsys, str(COUNTED), "--dead", "C5,E5")  # E5 names Black's whole wall
    assert len(several["dead"]) == 10


def test_rules_and_komi_override(capsys: pytest.CaptureFixture[str]) -> None:
    data = score_json(capsys, str(COUNTED), "--rules", "japanese", "--komi", "6.5")
    assert data["rules"] == "japanese" and data["komi"] == 6.5
    assert data["result"] == "B+3.5"  # territory 36 + 1 prisoner against 27 + 6.5
    tt = score_json(capsys, str(COUNTED), "--rules", "tromp-taylor")
    assert tt["dead"] == [] and "tromp-taylor" in str(tt["dead_source"])


def test_estimator_when_the_record_has_no_marks(capsys: pytest.CaptureFixture[str]) -> None:
    data = score_json(capsys, str(UNCOUNTED))
    assert data["dead_source"] == "keima's dead-stone estimator"
    assert data["dead"] == ["C5"]
    assert data["result"] == "B+3.5"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([str(CORPUS / "bad" / "illegal_ko.sgf")], "illegal_ko.sgf:3:1: move 10 (White B8) is illegal"),
        ([str(CORPUS / "bad" / "truncated.sgf")], "truncated.sgf:2:21: malformed SGF"),
        ([str(CORPUS / "missing.sgf")], "cannot read the file"),
        ([str(COUNTED), "--dead", "A1"], "no stone at A1"),
        ([str(COUNTED), "--dead", "Z9"], "off the 9x9 board"),
        ([str(COUNTED), "--rules", "martian"], "unknown ruleset"),
        ([str(COUNTED), "--dead", "C5", "--all-alive"], "contradict"),
    ],
)
def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(["score", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_ma_marks_on_the_last_node(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = UNCOUNTED.read_text().rstrip().rstrip(")") + "MA[ce])\n"  # C5 on 9x9 is SGF "ce"
    path = tmp_path / "marked.sgf"
    path.write_text(text)
    data = score_json(capsys, str(path))
    assert data["dead"] == ["C5"] and data["dead_source"] == "the record's MA"


def test_unfinished_record_is_counted_as_it_stands(capsys: pytest.CaptureFixture[str]) -> None:
    path = CORPUS / "sabaki_19x19_variations.sgf"  # 40 moves, no passes
    assert main(["score", str(path), "--all-alive"]) == 0
    out = capsys.readouterr().out
    assert "stops after move 40 without the passes" in out
    data = score_json(capsys, str(path), "--all-alive")
    assert data["phase"] == "play" and data["moves"] == 40
