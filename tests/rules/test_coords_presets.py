"""Coordinates (docs/api.md), the ruleset presets and handicap settings (docs/rules.md, « Presets »)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import keima
from keima.rules import coords
from keima.rules.board import BLACK, WHITE
from keima.rules.coords import CoordinateError
from keima.rules.ruleset import PRESETS

# ---------------------------------------------------------------- coordinates
# The conversion table of docs/api.md and coords' docstring, on 19x19: (row, col), point, SGF, GTP.
TABLE_19 = [
    ((0, 0), 0, "aa", "A19"),
    ((0, 18), 18, "sa", "T19"),
    ((18, 0), 342, "as", "A1"),
    ((15, 3), 288, "dp", "D4"),
    ((9, 9), 180, "jj", "K10"),
    ((3, 15), 72, "pd", "Q16"),
]


@pytest.mark.parametrize(("rowcol", "p", "sgf", "gtp"), TABLE_19)
def test_conversion_table(rowcol: tuple[int, int], p: int, sgf: str, gtp: str) -> None:
    assert coords.point(*rowcol, 19) == p
    assert coords.row_col(p, 19) == rowcol
    assert coords.to_sgf(p, 19) == sgf
    assert coords.from_sgf(sgf, 19) == p
    assert coords.to_gtp(p, 19) == gtp
    assert coords.from_gtp(gtp, 19) == p
    assert coords.from_gtp(gtp.lower(), 19) == p


@pytest.mark.parametrize("size", [2, 9, 19, 25])
def test_vertex_table_agrees_with_from_gtp(size: int) -> None:
    table = coords.vertex_table(size)
    assert len(table) == 2 * size * size + 3
    for text, p in table.items():
        assert coords.from_gtp(text, size) == p


@pytest.mark.parametrize("spelling", ["D4", "d4", " D4 ", "D04"])
def test_play_reads_every_spelling_of_a_vertex_alike(spelling: str) -> None:
    game = keima.Game(9)
    record = game.play(spelling)
    assert record.point == coords.from_gtp("D4", 9)
    assert game.board.colors[record.point] == BLACK


@pytest.mark.parametrize("spelling", ["pass", "PASS", "Pass", "pAsS", " pass"])
def test_play_reads_every_spelling_of_pass(spelling: str) -> None:
    game = keima.Game(9)
    assert game.play(spelling).is_pass
    assert game.to_move == WHITE


def test_passes() -> None:
    assert coords.to_gtp(None, 19) == "pass"
    assert coords.from_gtp("pass", 19) is None
    assert coords.from_gtp("PASS", 9) is None
    assert coords.to_sgf(None, 19) == ""
    assert coords.from_sgf("", 19) is None
    assert coords.from_sgf("tt", 19) is None  # FF[3] pass on boards up to 19
    assert coords.from_sgf("tt", 9) is None
    assert coords.from_sgf("tt", 21) == coords.point(19, 19, 21)  # a real point on larger boards


def test_gtp_skips_i() -> None:
    assert coords.to_gtp(coords.point(0, 8, 19), 19) == "J19"
    with pytest.raises(CoordinateError):
        coords.from_gtp("I5", 19)


@pytest.mark.parametrize(
    ("func", "text", "size"),
    [
        (coords.from_gtp, "Z1", 19),
        (coords.from_gtp, "A20", 19),
        (coords.from_gtp, "A0", 19),
        (coords.from_gtp, "K1", 9),
        (coords.from_gtp, "", 19),
        (coords.from_gtp, "11", 19),
        (coords.from_sgf, "zz", 19),
        (coords.from_sgf, "a", 19),
        (coords.from_sgf, "abc", 19),
        (coords.from_sgf, "j1", 9),
        (coords.from_sgf, "ja", 9),
    ],
)
def test_bad_coordinates(func: Callable[[str, int], int | None], text: str, size: int) -> None:
    with pytest.raises(CoordinateError) as info:
        func(text, size)
    assert isinstance(info.value, ValueError)
    assert repr(text) in str(info.value) or text in str(info.value)


@pytest.mark.parametrize("size", [1, 0, 26, -3])
def test_bad_sizes(size: int) -> None:
    with pytest.raises(CoordinateError):
        coords.check_size(size)


@settings(max_examples=300, deadline=None)
@given(size=st.integers(2, 25), data=st.data())
def test_round_trips(size: int, data: st.DataObject) -> None:
    p = data.draw(st.integers(0, size * size - 1))
    row, col = coords.row_col(p, size)
    assert 0 <= row < size and 0 <= col < size
    assert coords.point(row, col, size) == p
    assert coords.from_gtp(coords.to_gtp(p, size), size) == p
    assert coords.from_sgf(coords.to_sgf(p, size), size) == p
    # GTP rows count from the bottom, SGF rows from the top.
    assert coords.to_gtp(p, size)[1:] == str(size - row)
    assert coords.to_sgf(p, size)[1] == coords.SGF_LETTERS[row]


def test_game_accepts_every_move_spelling() -> None:
    for move in ("D4", "d4", 15 * 19 + 3):
        game = keima.Game(size=19)
        game.play(move)
        assert game.board.colors[15 * 19 + 3] == BLACK
    game = keima.Game(size=19)
    game.play("pass")
    game.play(None)
    assert game.phase == "scoring"


# ---------------------------------------------------------------- presets (docs/rules.md)
PRESET_TABLE = {
    # name: (ko, suicide, scoring, seki eyes count, pass stones, white passes last, handicap bonus, komi,
    #        dead stones)
    "french": ("natural-situational", "forbidden", "area", True, "n-1", 7.5, "agreement"),
    "egc2011": ("positional", "multi-stone", "area", True, "n-1", 7.5, "agreement"),
    "aga": ("situational", "forbidden", "area", True, "n-1", 7.5, "agreement"),
    "chinese": ("positional", "forbidden", "area", True, "n", 7.5, "agreement"),
    "japanese": ("simple", "forbidden", "territory", False, "none", 6.5, "agreement"),
    "new-zealand": ("situational", "multi-stone", "area", True, "none", 7.0, "agreement"),
    "tromp-taylor": ("positional", "multi-stone", "area", True, "none", 7.5, "none"),
}


def test_every_preset_is_in_the_table() -> None:
    assert set(PRESETS) == set(PRESET_TABLE)


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
def test_preset_values(name: str) -> None:
    r = PRESETS[name]
    ko, suicide, scoring, seki, bonus, komi, dead = PRESET_TABLE[name]
    assert (r.ko, r.suicide, r.scoring, r.seki_eyes_count) == (ko, suicide, scoring, seki)
    assert (r.handicap_bonus, r.default_komi, r.dead_stones) == (bonus, komi, dead)
    assert keima.Game(size=9, rules=name).komi == komi


@pytest.mark.parametrize("name", ["egc2011", "aga"])
def test_pass_stones_and_white_passes_last(name: str) -> None:
    assert PRESETS[name].pass_stones and PRESETS[name].white_passes_last


def test_french_is_the_default() -> None:
    assert keima.Game(size=9).rules.name == "french"


def test_replace_makes_a_variant() -> None:
    r = PRESETS["french"].replace(ko="positional")
    assert r.ko == "positional" and PRESETS["french"].ko == "natural-situational"
    with pytest.raises(keima.RulesError):
        PRESETS["french"].replace(colour="blue")


# ---------------------------------------------------------------- handicap (FFG rules, « Partie à handicap »)
# GTP version 2 fixed_handicap points on 19x19.
FIXED_19 = {
    2: {"D4", "Q16"},
    3: {"D4", "Q16", "D16"},
    4: {"D4", "Q16", "D16", "Q4"},
    5: {"D4", "Q16", "D16", "Q4", "K10"},
    6: {"D4", "Q16", "D16", "Q4", "D10", "Q10"},
    7: {"D4", "Q16", "D16", "Q4", "D10", "Q10", "K10"},
    8: {"D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16"},
    9: {"D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"},
}


@pytest.mark.parametrize("n", sorted(FIXED_19))
def test_fixed_handicap_points_19(n: int) -> None:
    game = keima.Game(size=19, handicap=n)
    assert {coords.to_gtp(p, 19) for p in game.handicap_stones} == FIXED_19[n]
    assert game.board.count(BLACK) == n
    assert game.to_move == WHITE
    assert game.phase == "play"
    # French rules: komi becomes half a point in a handicap game (FFG rules, « Partie à handicap »).
    assert game.komi == 0.5


def test_fixed_handicap_on_small_boards() -> None:
    assert {coords.to_gtp(p, 9) for p in keima.Game(size=9, handicap=3).handicap_stones} == {"C3", "G7", "C7"}
    assert {coords.to_gtp(p, 13) for p in keima.Game(size=13, handicap=2).handicap_stones} == {"D4", "K10"}
    assert len(keima.Game(size=9, handicap=9).handicap_stones) == 9


@pytest.mark.parametrize(("size", "stones", "placed"), [
    (19, 3, ["D4", "Q16", "D16"]),  # the fixed points, in GTP's order
    (9, 2, ["C3", "G7"]),
    (13, 4, ["D4", "K10", "D10", "K4"]),
    (5, 2, ["C3", "A5"]),  # no fixed points below 7x7: the centre (5x5's only star point), then the first empty
    (3, 2, ["B2", "A3"]),
])
def test_free_handicap_stones_go_where_they_usually_go(size: int, stones: int, placed: list[str]) -> None:
    game = keima.Game(size=size, handicap=stones, placement="free", rules="chinese")
    seen = []
    while game.phase == "handicap":
        p = game.next_handicap_point()
        assert p is not None and game.legality(p, BLACK) is None
        seen.append(coords.to_gtp(p, size))
        game.play(p, BLACK)
    assert seen == placed
    assert game.next_handicap_point() is None  # outside the handicap phase


def test_handicap_one_is_no_stone_and_half_a_point() -> None:
    game = keima.Game(size=19, handicap=1)
    assert game.handicap_stones == ()
    assert game.to_move == BLACK
    assert game.komi == 0.5


def test_explicit_komi_wins_over_handicap_komi() -> None:
    assert keima.Game(size=19, handicap=4, komi=3.5).komi == 3.5


@pytest.mark.parametrize(
    ("rules", "bonus"), [("french", 3), ("egc2011", 3), ("aga", 3), ("chinese", 4), ("new-zealand", 0)]
)
def test_handicap_bonus_under_area_counting(rules: str, bonus: int) -> None:
    """White receives n-1 points (French: one for each move White could not play at the start, FFG rules,
    « Partie à handicap »), n under Chinese rules, none under New Zealand rules."""
    game = keima.Game(size=9, rules=rules, handicap=4, placement="free")
    game.place_handicap(["C3", "G7", "C7", "G3"])
    score = game.score()
    assert score.methods["area"].breakdown[WHITE].handicap_bonus == bonus


def test_free_placement_one_by_one() -> None:
    game = keima.Game(size=9, handicap=2, placement="free")
    assert game.phase == "handicap"
    game.play("E5")
    assert game.phase == "handicap"
    assert game.to_move == BLACK
    game.play("C3")
    assert game.phase == "play"
    assert game.to_move == WHITE
    assert set(game.handicap_stones) == {coords.from_gtp("E5", 9), coords.from_gtp("C3", 9)}
