"""How SGF properties map to and from keima games."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from keima import Game
from keima.record import SgfError, dump_sgf, load_record, load_sgf
from keima.record.sgf import format_komi
from keima.rules.board import BLACK, WHITE
from keima.rules.coords import from_gtp


def props(text: str, ident: str) -> list[str]:
    """Every value of ``ident`` anywhere in SGF text (enough for these small records)."""
    return re.findall(rf"(?<![A-Z]){ident}((?:\[[^\]]*\])+)", text)


def test_fresh_even_game_header() -> None:
    game = Game(size=13, rules="french")
    game.play("D4")
    game.play("pass")
    text = dump_sgf(game, info={"PB": "Alice", "PW": "Bob", "DT": "2026-11-21"})
    assert text.startswith("(;FF[4]")
    for prop in (
        "GM[1]",
        "CA[UTF-8]",
        "SZ[13]",
        "KM[7.5]",
        "RU[French]",
        "PB[Alice]",
        "PW[Bob]",
        "DT[2026-11-21]",
    ):
        assert prop in text
    assert "AP[keima:" in text
    assert "HA[" not in text and "AB[" not in text  # never HA[0] nor an empty AB
    assert ";B[dj];W[]" in text  # D4 on 13x13, and a pass as W[]
    assert "RE[" not in text  # not finished


def test_handicap_stones_written_with_ha_in_the_root() -> None:
    game = Game(size=19, rules="japanese", handicap=3)
    game.play("K10")
    text = dump_sgf(game)
    root = text.split(";")[1]
    assert "HA[3]" in root
    assert sorted(props(root, "AB")[0][1:-1].split("][")) == ["dd", "dp", "pd"]
    again = load_sgf(text)
    assert again.handicap == 3 and set(again.handicap_stones) == set(game.handicap_stones)
    assert again.moves[0].color == WHITE


def test_handicap_one_is_no_stones_and_half_komi() -> None:
    game = Game(size=9, rules="french", handicap=1)
    text = dump_sgf(game)
    assert "HA[1]" in text and "AB[" not in text and "KM[0.5]" in text
    again = load_sgf(text)
    assert again.handicap == 1 and again.handicap_stones == () and again.komi == 0.5


def test_ha_zero_and_empty_ab_read_as_even_game() -> None:
    game = load_sgf("(;GM[1]FF[4]SZ[9]HA[0]AB[]KM[6.5];B[ee])")
    assert game.handicap == 0 and game.handicap_stones == () and game.komi == 6.5
    assert [e.kind for e in game.events] == ["move"]


def test_free_handicap_not_on_star_points() -> None:
    game = load_sgf("(;GM[1]FF[4]SZ[19]HA[2]AB[aa][ss]RU[Chinese];W[jj])")
    assert game.handicap_stones and set(game.handicap_stones) == {0, 360}
    assert game.komi == 0.5  # the Chinese preset's handicap komi


def test_fixed_points_under_japanese_rules() -> None:
    game = load_sgf("(;GM[1]FF[4]SZ[19]HA[2]AB[dp][pd]RU[Japanese];W[dd])")
    assert game.rules.name == "japanese" and len(game.handicap_stones) == 2


def test_setup_without_rule_actions() -> None:
    # A white stone at aa with no liberty after AB: setup puts stones without captures, so this is refused
    # (an impossible position), while the same stones with a liberty are accepted as they are.
    with pytest.raises(SgfError, match="no liberty"):
        load_sgf("(;GM[1]SZ[5]AW[aa]AB[ba][ab])")
    game = load_sgf("(;GM[1]SZ[5]AW[aa][bb]AB[ba][ca]AE[cc]PL[W])")
    assert game.board.get(0) == WHITE and game.to_move == WHITE
    assert game.prisoners == {BLACK: 0, WHITE: 0}


def test_compressed_point_lists() -> None:
    game = load_sgf("(;GM[1]SZ[5]AB[aa:ab][ca:cb])")
    assert game.board.count(BLACK) == 4


def test_pass_forms() -> None:
    for text in ("(;SZ[19];B[tt];W[])", "(;SZ[9];B[tt];W[tt])", "(;SZ[9];B[];W[])"):
        game = load_sgf(text)
        assert [m.point for m in game.moves] == [None, None]
        assert game.phase == "scoring"
    # On boards larger than 19x19, tt is a real point.
    game = load_sgf("(;SZ[21];B[tt])")
    assert game.moves[0].point == 19 * 21 + 19
    with pytest.raises(SgfError, match="off the 9x9"):
        load_sgf("(;SZ[9];B[ee];W[tt];B[ss])")


@pytest.mark.parametrize(
    ("ru", "name"),
    [
        ("French", "french"),
        ("FFG", "french"),
        ("AGA", "aga"),
        ("Japanese", "japanese"),
        ("japanese (1989)", "japanese"),
        ("Chinese", "chinese"),
        ("Chinese rules", "chinese"),
        ("NZ", "new-zealand"),
        ("New Zealand", "new-zealand"),
        ("Tromp-Taylor", "tromp-taylor"),
        ("EGC2011", "egc2011"),
        ("Korean", "japanese"),
        ("koSITUATIONALscoreAREAtaxNONEsui0whbN-1fpok1", "aga"),
        ("koSIMPLEscoreTERRITORYtaxSEKIsui0whb0fpok1", "japanese"),
        ("koPOSITIONALscoreAREAtaxNONEsui1whb0fpok1", "tromp-taylor"),
    ],
)
def test_ru_spellings(ru: str, name: str) -> None:
    game = load_sgf(f"(;GM[1]SZ[9]RU[{ru}];B[ee])")
    assert game.rules.name == name


def test_katago_variant_is_written_back_exactly() -> None:
    record = load_record("(;GM[1]SZ[9]RU[koSIMPLEscoreAREAtaxNONEsui0whbNfpok1];B[ee])")
    rules = record.game.rules
    assert (rules.ko, rules.scoring, rules.handicap_bonus, rules.suicide) == (
        "simple",
        "area",
        "n",
        "forbidden",
    )
    text = dump_sgf(record)
    assert "RU[koSIMPLEscoreAREAtaxNONEsui0whbNfpok1]" in text  # the original spelling is kept
    fresh = Game(size=9, rules=rules)
    written = dump_sgf(fresh)
    assert "RU[keima:chinese,ko=simple]" in written
    assert load_sgf(written).rules.ko == "simple"


def test_unknown_ru_is_kept_and_warned() -> None:
    record = load_record("(;GM[1]SZ[9]RU[Ing goe]KM[8];B[ee])")
    assert record.game.rules.name == "french"
    assert any("RU[Ing goe]" in w for w in record.warnings)
    assert "RU[Ing goe]" not in dump_sgf(record)  # the game is French now, and says so
    assert "RU[French]" in dump_sgf(record)


@pytest.mark.parametrize(
    ("re_value", "result", "reason"),
    [
        ("W+R", "W+R", "resign"),
        ("B+Resign", "B+R", "resign"),
        ("B+T", "B+T", "timeout"),
        ("W+F", "W+F", "forfeit"),
        ("Void", "Void", "no-result"),
    ],
)
def test_results_that_end_a_game(re_value: str, result: str, reason: str) -> None:
    game = load_sgf(f"(;GM[1]SZ[9]RE[{re_value}];B[ee];W[cc])")
    assert game.result == result and game.end_reason == reason and game.phase == "finished"
    assert f"RE[{result}]" in dump_sgf(game)


def test_counted_result_and_territory() -> None:
    # 5x5: Black owns the two left columns, White the two right ones; B+2 area without komi... then 0 komi
    # gives B 10 vs W 10 with the middle column split: B plays c1,c2,c3 and W c4,c5 so Black has 13, W 12.
    moves = ";B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de];B[];W[]"
    game = load_sgf(f"(;GM[1]SZ[5]KM[0]RU[Chinese]RE[B+5]{moves})")
    assert game.phase == "finished" and game.result == "B+5"
    text = dump_sgf(game)
    tb = props(text, "TB")[0]
    tw = props(text, "TW")[0]
    assert tb.count("[") == 10 and tw.count("[") == 5
    again = load_record(text)
    assert again.dead_source == "TB/TW" and again.dead == frozenset()


def test_dead_stones_from_tb_tw() -> None:
    # A white stone inside Black's TB is dead.
    moves = ";B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de];B[];W[aa];B[];W[]"
    tb = "".join(f"[{c}{r}]" for c in "ab" for r in "abcde")
    tw = "[ea][eb][ec][ed][ee]"
    record = load_record(f"(;GM[1]SZ[5]KM[0]RU[Chinese]RE[B+5]{moves}TB{tb}TW{tw})")
    assert record.dead == frozenset({0}) and record.dead_source == "TB/TW"
    assert record.game.result == "B+5" and record.game.dead == frozenset({0})
    assert record.warnings == []


def test_disagreeing_result_is_a_warning_not_an_error() -> None:
    moves = ";B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de];B[];W[]"
    record = load_record(f"(;GM[1]SZ[5]KM[0]RU[Chinese]RE[W+3]{moves})")
    assert record.game.result == "B+5"
    assert any("RE[W+3]" in w for w in record.warnings)


def test_comments_and_moves_after_loading() -> None:
    record = load_record("(;GM[1]SZ[9]C[root comment];B[ee]C[first move];W[cc](;B[gg])(;B[gc]C[other]))")
    game = record.game
    game.undo()
    game.play("C3")  # Black diverges at move 3: a new main line, both old branches kept as variations
    text = dump_sgf(record)
    assert "C[root comment]" in text and "C[first move]" in text and "C[other]" in text
    tree = load_record(text).tree
    w_node = tree.get_main_sequence()[2]
    assert [child.get_raw("B") for child in w_node] == [b"cg", b"gg", b"gc"]
    assert load_sgf(text).moves[-1].point == from_gtp("C3", 9)


def test_sources(tmp_path: Path) -> None:
    text = "(;GM[1]SZ[9];B[ee])"
    path = tmp_path / "game.sgf"
    path.write_text(text)
    for source in (text, text.encode(), path):
        assert load_sgf(source).moves[0].point == 40
    with pytest.raises(SgfError, match="not as a file name"):
        load_sgf(str(path))  # a str is always SGF text: files come as a Path
    with pytest.raises(SgfError, match="cannot read the file"):
        load_sgf(tmp_path / "missing.sgf")
    with pytest.raises(SgfError, match="not int"):
        load_sgf(42)  # type: ignore[arg-type]


def test_komi_format() -> None:
    assert [format_komi(k) for k in (7.5, 0.5, 6.0, -3.0, 0.0)] == ["7.5", "0.5", "6", "-3", "0"]


def test_info_keys_are_checked() -> None:
    with pytest.raises(ValueError, match="not an SGF property name"):
        dump_sgf(Game(size=9), info={"pb": "x"})


def test_draw_by_count() -> None:
    # Black 15 points of area on 5x5 against White 10 + 5 komi: a draw, written RE[0].
    moves = ";B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de];B[];W[]"
    game = load_sgf(f"(;GM[1]SZ[5]KM[5]RU[Chinese]RE[0]{moves})")
    assert game.result == "0" and game.phase == "finished"
    assert "RE[0]" in dump_sgf(game)


def test_collection_reads_the_first_game_and_says_so() -> None:
    record = load_record("(;GM[1]SZ[9];B[ee])(;GM[1]SZ[9];B[cc])")
    assert record.game.moves[0].point == 40
    assert any("more than one game" in w for w in record.warnings)


def test_error_attributes_of_an_illegal_move() -> None:
    with pytest.raises(SgfError) as info:
        load_sgf("(;GM[1]SZ[9]\n;B[ee]\n;W[ee])")
    err = info.value
    assert (err.line, err.column, err.node) == (3, 1, 2)
    assert (err.move_number, err.color, err.point, err.rule) == (2, WHITE, "E5", "occupied")
    assert str(err).startswith("<string>:3:1: move 2 (White E5) is illegal")


def test_unfinished_free_placement_round_trips() -> None:
    game = Game(size=13, rules="chinese", handicap=3, placement="free")
    game.play("D4")
    text = dump_sgf(game)
    assert "HA[3]" in text and "AB[" not in text
    again = load_sgf(text)
    assert (
        again.phase == "handicap"
        and again.handicap_left == 2
        and again.handicap_stones == game.handicap_stones
    )
    # A partially placed record keeps its HA when written back.
    assert "HA[3]" in dump_sgf(again)


def test_relaxed_placement_keeps_the_ru_text() -> None:
    # Japanese rules place handicap stones on fixed points; a record with other points is still read, and its
    # RU is written back as it was.
    record = load_record("(;GM[1]FF[4]SZ[19]HA[2]AB[aa][ss]RU[Japanese];W[jj])")
    assert record.game.rules.handicap_placement == "either"
    assert any("relaxed" in w for w in record.warnings)
    assert "RU[Japanese]" in dump_sgf(record)
