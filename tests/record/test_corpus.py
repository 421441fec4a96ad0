"""The SGF corpus (records in the styles of Sabaki, OGS, KGS, GNU Go, Fox, Pandanet, keima...) reads and
round-trips: reading what keima wrote gives the same game, and writing it again gives the same text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from keima.record import SgfError, SgfRecord, dump_sgf, load_record
from keima.rules.board import BLACK, WHITE

from .helpers import BAD_DIR, GOOD, same_game


def test_corpus_is_present() -> None:
    assert len(GOOD) >= 12
    assert len(list(BAD_DIR.glob("*.sgf"))) >= 10


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.name)
def test_round_trip(path: Path) -> None:
    record = load_record(path)
    game = record.game
    game.check_consistency()
    first = dump_sgf(record)
    again = load_record(first)
    same_game(game, again.game)
    assert again.info == record.info
    assert dump_sgf(again) == first
    # keima's own output is read back without any guess or complaint.
    assert again.warnings == []


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.name)
def test_a_game_read_carries_nothing_of_its_record(path: Path) -> None:
    # The record's tree travels in the SgfRecord, never on the game: a game read from SGF writes exactly like
    # its copy, and like the same events replayed into a new game.
    record = load_record(path)
    game = record.game
    assert dump_sgf(game) == dump_sgf(game.copy())
    assert not any(isinstance(value, SgfRecord) for value in vars(game).values())


def test_unknown_properties_and_variations_survive() -> None:
    path = next(p for p in GOOD if p.name.startswith("sabaki"))
    record = load_record(path)
    text = dump_sgf(record)
    for prop in ("MULTIGOGM[1]", "ZZ[custom value]", "SBKV[48.2]", "AP[Sabaki:0.52.2]", "GN[Review]"):
        assert prop in text
    assert "C[A variation from Sabaki]" in text
    assert "C[Main line \\] continues.]" in text
    again = load_record(text).tree
    assert len(again.get_main_sequence()) == 41  # root + 40 moves: the main line stays first
    node = again.get_main_sequence()[20]
    assert len(node) == 2  # the variation is still there
    # The game alone is written as a new record: its moves and setup, nothing of the file it came from.
    bare = dump_sgf(record.game)
    assert "ZZ[custom value]" not in bare and "C[A variation from Sabaki]" not in bare
    assert [m.point for m in load_record(bare).game.moves] == [m.point for m in record.game.moves]


def test_kgs_properties_survive_and_territory_counts() -> None:
    path = next(p for p in GOOD if p.name.startswith("kgs"))
    record = load_record(path)
    game = record.game
    assert game.handicap == 4 and len(game.handicap_stones) == 4
    assert game.komi == 0.5
    assert record.dead_source == "TB/TW"
    text = dump_sgf(record)
    assert "KGSDE[]" in text and "BL[" in text and "WL[" in text and "ST[2]" in text
    assert "HA[4]" in text and "AB[" in text
    assert game.result is not None and text.count("RE[") == 1


def test_encodings_without_ca_are_detected() -> None:
    fox = load_record(next(p for p in GOOD if "gb18030" in p.name))
    assert fox.info["PB"] == "柯洁" and fox.info["PW"] == "朴廷桓"
    assert fox.encoding == "gb18030"
    sjis = load_record(next(p for p in GOOD if "sjis" in p.name))
    assert sjis.info["PB"] == "本因坊秀策" and sjis.info["EV"] == "御城碁"
    comments = [n.get("C") for n in sjis.tree.get_main_sequence() if n.has_property("C")]
    assert comments == ["耳赤の一手。ソフトの評価は白優勢です。"]
    latin = load_record(next(p for p in GOOD if "latin1" in p.name))
    assert latin.info["PB"] == "Jérôme Hübner"
    # Written back as UTF-8 with a CA saying so, and read back identically.
    for record in (fox, sjis, latin):
        text = dump_sgf(record)
        assert "CA[UTF-8]" in text
        assert load_record(text.encode("utf-8")).info == record.info


def test_results_of_the_corpus() -> None:
    by_name = {p.name: load_record(p) for p in GOOD}
    assert by_name["ogs_19x19_resign.sgf"].game.result == "W+R"
    assert by_name["ogs_19x19_resign.sgf"].game.end_reason == "resign"
    assert by_name["katago_9x9_rules_string.sgf"].game.result == "B+T"
    assert by_name["katago_9x9_rules_string.sgf"].game.rules.name == "egc2011"
    assert by_name["nz_7x7_void.sgf"].game.result == "Void"
    counted = by_name["keima_9x9_counted.sgf"].game
    # Area: Black 9 stones + 36 (C5's dead stone removed) = 45, White 9 + 27 + 7.5 komi = 43.5.
    assert counted.result == "B+1.5"
    assert counted.dead == frozenset({counted.board.size * 4 + 2})
    resumed = by_name["keima_9x9_resumed.sgf"].game
    assert [e.kind for e in resumed.events].count("resume") == 1
    assert resumed.result == "B+1.5"


def test_setup_problem() -> None:
    path = next(p for p in GOOD if p.name.startswith("setup"))
    record = load_record(path)
    game = record.game
    assert game.moves[0].color == WHITE  # PL[W]
    setup = game.events[0]
    assert setup.kind == "setup" and len(setup.black) == 11 and len(setup.white) == 7
    assert game.board.count(BLACK) == 11 + 1  # the setup, then B[sc] of the main line
    text = dump_sgf(record)
    assert "PL[W]" in text and "C[Wrong: White dies.]" in text


def test_bad_corpus_is_all_reported() -> None:
    expected = json.loads((BAD_DIR / "expected.json").read_text())
    assert sorted(expected) == sorted(p.name for p in BAD_DIR.glob("*.sgf"))
    for name, want in expected.items():
        with pytest.raises(SgfError) as info:
            load_record(BAD_DIR / name)
        err = info.value
        assert str(err).startswith(f"{BAD_DIR / name}:{want['line']}:{want['column']}: "), (name, str(err))
        if "contains" in want:
            assert str(want["contains"]) in err.message, (name, err.message)
        if "move_number" in want:
            assert err.move_number == want["move_number"], name
        if "color" in want:
            assert err.color == (BLACK if want["color"] == "B" else WHITE), name
        if "point" in want:
            assert err.point == want["point"], name
        if "rule" in want:
            assert err.rule == want["rule"], name
