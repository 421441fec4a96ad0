"""``keima tournament``: the JSON answers as documented, the files it writes, and its errors."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from keima.cli import main
from keima.tournament import opengotha_xml

DATA = Path(__file__).resolve().parent.parent / "data" / "tournament"
MCMAHON = DATA / "mcmahon_synthetic.xml"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    assert main(["tournament", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_standings_json_has_one_object_per_player(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "standings", str(MCMAHON))
    assert isinstance(data, list) and len(data) == 11
    first = data[0]
    assert set(first) == {"place", "name", "first_name", "rank", "MMS", "SOSM", "SOSOSM"}
    assert (first["name"], first["first_name"], first["rank"], first["place"]) == ("Arnaud", "Zoé", "3D", 1)
    assert first["MMS"] == 32 and first["SOSM"] == 91.5  # points, with halves
    assert [row["place"] for row in data] == sorted(row["place"] for row in data)


def test_standings_after_an_earlier_round(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "standings", str(MCMAHON), "--round", "0")
    assert isinstance(data, list)
    assert all(row["SOSM"] == 0 for row in data)
    assert data[0]["MMS"] == 32  # 3D is rank 2, counted from 30K: 32 before the first round


def test_swiss_with_categories_standings_name_its_criteria(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "standings", str(DATA / "swisscat_synthetic.xml"))
    assert isinstance(data, list)
    assert set(data[0]) == {"place", "name", "first_name", "rank", "CAT", "NBW", "EXT", "EXR"}
    assert {row["CAT"] for row in data} == {1, 2}


def test_pair_json_has_one_object_per_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "paired.xml"
    data = run_json(capsys, "pair", str(MCMAHON), "--round", "4", "-o", str(out))
    assert isinstance(data, dict) and set(data) == {"round", "tables", "bye"}
    assert data["round"] == 4
    tables = data["tables"]
    assert [t["table"] for t in tables] == list(range(1, len(tables) + 1))
    for table in tables:
        assert set(table) == {"table", "white", "black", "handicap"}
        assert set(table["white"]) == set(table["black"]) == {"name", "first_name"}
        assert isinstance(table["handicap"], int)
    seated = len(tables) * 2 + (data["bye"] is not None)
    assert seated == 11  # everyone plays round 4
    paired = opengotha_xml.read(out.read_bytes())
    assert len(paired.games_of_round(4)) == len(tables)


def test_pair_sets_aside_the_rounds_from_the_one_paired(capsys: pytest.CaptureFixture[str]) -> None:
    again = run_json(capsys, "pair", str(MCMAHON), "--round", "3")
    assert isinstance(again, dict)
    # Garnier is absent from round 3: 10 players, no bye.
    assert len(again["tables"]) == 5 and again["bye"] is None


def test_pair_with_a_seed_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    first = run_json(capsys, "pair", str(MCMAHON), "--round", "1", "--seed", "5")
    second = run_json(capsys, "pair", str(MCMAHON), "--round", "1", "--seed", "5")
    assert first == second


@pytest.mark.parametrize(
    ("fmt", "start"), [("tou", b";name=synthetique"), ("h9", b"; CL[A]"), ("xml", b"<?xml")]
)
def test_export_formats(fmt: str, start: bytes, tmp_path: Path) -> None:
    out = tmp_path / f"out.{fmt}"
    assert main(["tournament", "export", str(MCMAHON), "--format", fmt, "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data.startswith(start)
    if fmt != "xml":
        data.decode("iso-8859-15")
        assert b"Lukasiewicz" in data if fmt == "tou" else b"?ukasiewicz" in data


def test_text_outputs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "standings", str(MCMAHON)]) == 0
    assert "Arnaud Zoé" in capsys.readouterr().out
    assert main(["tournament", "pair", str(MCMAHON), "--round", "4"]) == 0
    assert capsys.readouterr().out.startswith("Round 4")


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament"],
        ["tournament", "standings", "/nonexistent/file.xml"],
        ["tournament", "pair", str(MCMAHON), "--round", "9"],
        ["tournament", "standings", str(MCMAHON), "--round", "-1"],
    ],
)
def test_errors_exit_with_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "error" in capsys.readouterr().err


def test_a_file_that_is_not_a_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text("<Other/>")
    assert main(["tournament", "standings", str(bad)]) == 2
    assert "not an OpenGotha tournament" in capsys.readouterr().err


def test_pair_keeps_the_bye_the_director_set_for_the_round(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    t = opengotha_xml.read(MCMAHON.read_bytes())
    chosen = t.players[0].key  # the strongest: never OpenGotha's choice
    path = tmp_path / "with_bye.xml"
    path.write_text(opengotha_xml.write(replace(t, byes={**t.byes, 4: chosen})), "utf-8")
    data = run_json(capsys, "pair", str(path), "--round", "4")
    assert isinstance(data, dict)
    assert data["bye"] == {"name": t.players[0].name, "first_name": t.players[0].first_name}
    assert len(data["tables"]) == 5
