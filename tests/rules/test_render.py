"""``keima.rules.render.board_diagram``: the one text diagram of a board (GTP showboard, keima play, reports)."""

from __future__ import annotations

from keima.rules.board import BLACK, WHITE, Board
from keima.rules.coords import from_gtp
from keima.rules.render import board_diagram


def board(size: int, black: list[str], white: list[str]) -> Board:
    b = Board(size)
    points = [(from_gtp(v, size), color) for color, vs in ((BLACK, black), (WHITE, white)) for v in vs]
    b.set_stones((p, color) for p, color in points if p is not None)
    return b


def test_stones_star_points_and_coordinates() -> None:
    text = board_diagram(board(9, ["C3", "E5"], ["G7"]))
    assert text == "\n".join([
        "   A B C D E F G H J",
        " 9 . . . . . . . . . 9",
        " 8 . . . . . . . . . 8",
        " 7 . . + . + . O . . 7",
        " 6 . . . . . . . . . 6",
        " 5 . . + . X . + . . 5",
        " 4 . . . . . . . . . 4",
        " 3 . . X . + . + . . 3",
        " 2 . . . . . . . . . 2",
        " 1 . . . . . . . . . 1",
        "   A B C D E F G H J",
    ])


def test_last_move_marks_and_notes() -> None:
    b = board(5, ["E3", "A1"], ["B1"])
    last = from_gtp("E3", 5)
    text = board_diagram(b, last=last, marks={from_gtp("A1", 5): "x", from_gtp("D1", 5): "w"},
                         notes=["first note", "second"])
    assert text == "\n".join([
        "   A B C D E",
        " 5 . . . . . 5     first note",
        " 4 . . . . . 4     second",
        " 3 . . . .(X)3",
        " 2 . . . . . 2",
        " 1 x O . w . 1",
        "   A B C D E",
    ])


def test_paint_hooks_wrap_cells_and_rows_only() -> None:
    text = board_diagram(board(2, ["A2"], []), paint_cell=lambda s: f"<{s}>", paint_row=lambda s: f"[{s}]")
    assert text.splitlines()[1:3] == [" 2[ <X> <.> ]2", " 1[ <.> <.> ]1"]
