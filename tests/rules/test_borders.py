"""Open borders and open capturing races (``keima.rules.borders``), on hand-drawn boards: a border where a move still
gains a point is open, dame is not; two short chains touching are an open race while one side can still take a
liberty, a seki is not."""

from __future__ import annotations

from tests.positions import SEKI

from keima.rules import to_gtp
from keima.rules.borders import open_borders, open_races

from .diagram import setup_game


def names(game_size: int, points: object) -> list[str]:
    return sorted(to_gtp(p, game_size) for p in points)  # type: ignore[attr-defined]


# Black's wall on column D, White's on column G: the two empty columns between belong to nobody and a stone there
# makes points one side's. An open border.
OPEN = "\n".join(["...X..O.."] * 9)

# The walls touch through one empty column: each point there touches both colours. Dame, nothing to gain.
DAME = "\n".join(["...X.O..."] * 9)

# The same walls closed but at the bottom edge, where Black's and White's areas meet: open.
LEAK = "\n".join(["...XO...."] * 8 + [".........."[:9]])

# Black's chain B9-B6-A6 (liberties A7, A8, A9: an eye space) against White's C9-C6-A5-C5 (liberties D9, D7,
# D6): a capturing race, open.
RACE = """
.XO.X....
.XOXX....
.XO.X....
XXO.X....
OOOXX....
XXXX.....
.........
.........
.........
"""

def test_an_open_border_between_two_walls() -> None:
    game, _ = setup_game(OPEN)
    [region] = open_borders(game.board)
    assert names(9, region) == sorted(f"{c}{r}" for c in "EF" for r in range(1, 10))


def test_dame_is_no_open_border() -> None:
    game, _ = setup_game(DAME)
    assert open_borders(game.board) == []


def test_a_border_open_at_the_edge() -> None:
    game, _ = setup_game(LEAK)
    [region] = open_borders(game.board)
    assert "E1" in names(9, region) and "A1" in names(9, region)


def test_the_empty_board_is_open() -> None:
    game, _ = setup_game(".........\n" * 9)
    assert len(open_borders(game.board)[0]) == 81


def test_dead_stones_off_close_a_border() -> None:
    # A White stone left inside Black's area makes it neutral; with the stone called dead it is Black's.
    game, pos = setup_game("\n".join(["...X.O..."] * 4 + [".O.X.O..."] + ["...X.O..."] * 4))
    assert open_borders(game.board) != []
    stone = next(p for p in pos.white if p % 9 == 1)
    assert open_borders(game.board, frozenset({stone})) == []


def test_a_capturing_race_is_open() -> None:
    game, _ = setup_game(RACE)
    [race] = open_races(game.board)
    assert names(9, race.black) == ["A6", "B6", "B7", "B8", "B9"]
    assert names(9, race.white)[:3] == ["A5", "B5", "C5"]
    # Black takes White's outside liberties; White may play A8, the middle of Black's eye space.
    assert names(9, race.moves) == ["A8", "D6", "D7", "D9"]
    assert to_gtp(race.point, 9) == "B9"  # the first stone of the two chains, top left first


def test_a_settled_race_is_not_open() -> None:
    # White's outside liberties filled but one, and White's chain captured: nothing left to race.
    game, _ = setup_game(RACE.replace(".XO.X....\n.XOXX", ".X..X....\n.X.XX").replace(".XO.X....\nXXO", ".X..X....\nXX."))
    assert open_races(game.board) == []


def test_a_seki_is_no_open_race() -> None:
    game, _ = setup_game(SEKI)
    assert open_races(game.board) == []


def test_long_chains_are_no_race() -> None:
    # Four liberties each: more than RACE_LIBERTIES, the count reads it.
    game, _ = setup_game("..XO.....\n..XO.....\n..XO.....\n" + ".........\n" * 6)
    assert open_races(game.board) == []
