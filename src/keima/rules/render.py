"""The one text diagram of a board, shared by GTP ``showboard``, ``keima play`` and the benchmarks' reports.

Columns carry GTP letters (no ``I``) above and below, rows GTP numbers (1 at the bottom) on both sides::

       A B C D E
     5 . . . . . 5
     4 . . . . . 4
     3 . .(X). . 3
     2 . . . . . 2
     1 . . . . . 1
       A B C D E

``X`` black, ``O`` white, ``+`` a star point, ``.`` any other empty point; the last move in brackets.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from keima.rules.board import BLACK, WHITE, Board
from keima.rules.coords import GTP_LETTERS, hoshi


def _plain(text: str) -> str:
    return text


def board_diagram(
    board: Board,
    *,
    marks: Mapping[int, str] | None = None,
    last: int | None = None,
    notes: Sequence[str] = (),
    paint_cell: Callable[[str], str] = _plain,
    paint_row: Callable[[str], str] = _plain,
) -> str:
    """Return ``board`` as a text diagram (see the module docstring), lines joined by ``\\n``.

    ``marks``: a one-character symbol per point, shown instead of the stone or empty point (dead stones,
    territory...). ``last``: the point put in brackets (None: no brackets). ``notes``: text written to the right
    of the first rows, one line each. ``paint_cell`` wraps each point's symbol and ``paint_row`` each row
    between its two numbers (terminal colours); they must not change the width that a reader sees.
    """
    size = board.size
    colors = board.colors
    stars = set(hoshi(size))
    symbols = marks or {}
    header = "   " + " ".join(GTP_LETTERS[:size])
    lines = [header]
    for row in range(size):
        number = size - row
        body = ""
        for col in range(size):
            p = row * size + col
            if p in symbols:
                text = symbols[p]
            elif colors[p] == BLACK:
                text = "X"
            elif colors[p] == WHITE:
                text = "O"
            else:
                text = "+" if p in stars else "."
            sep = "(" if p == last else ")" if col > 0 and p - 1 == last else " "
            body += sep + paint_cell(text)
        body += ")" if last == row * size + size - 1 else " "
        note = f"    {notes[row]}" if row < len(notes) else ""
        lines.append(f"{number:>2}{paint_row(body)}{number:<2}{note}".rstrip())
    lines.append(header)
    return "\n".join(lines)
