"""The one place that converts between keima's internal points, SGF and GTP coordinates.

Internal convention (used everywhere else in keima): a point is the ``int`` ``row * size + col``, with row 0 at
the **top** edge and col 0 at the **left** edge, so the internal orientation is SGF's. A pass is ``None``.

Conversion table on a 19x19 board (``size`` = 19):

==============  ===========  =========  ==========  =================================
position        (row, col)   point      SGF         GTP
==============  ===========  =========  ==========  =================================
top-left        (0, 0)       0          ``aa``      ``A19``
top-right       (0, 18)      18         ``sa``      ``T19`` (GTP letters skip ``I``)
bottom-left     (18, 0)      342        ``as``      ``A1``
lower-left hoshi (15, 3)     288        ``dp``      ``D4``
centre          (9, 9)       180        ``jj``      ``K10``
pass            --           ``None``   ``""``      ``pass`` (also ``tt`` in SGF if size <= 19)
==============  ===========  =========  ==========  =================================

SGF letters run ``a``..``z`` then ``A``..``Z`` (FF[4], boards up to 52); keima accepts boards of 2..25.
GTP columns are ``A``..``Z`` without ``I`` (25 letters: hence the 25x25 limit); GTP rows count from the bottom.
"""

from __future__ import annotations

from functools import cache
from typing import Final

MIN_SIZE: Final = 2
MAX_SIZE: Final = 25

GTP_LETTERS: Final = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
SGF_LETTERS: Final = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


class CoordinateError(ValueError):
    """A coordinate that cannot be read, or that lies off the board."""


def check_size(size: int) -> int:
    """Return ``size`` if keima supports that board size (2..25); raise ``CoordinateError`` otherwise."""
    if not isinstance(size, int) or isinstance(size, bool) or not MIN_SIZE <= size <= MAX_SIZE:
        raise CoordinateError(f"board size must be an integer from {MIN_SIZE} to {MAX_SIZE}, not {size!r}")
    return size


def point(row: int, col: int, size: int) -> int:
    """Return the point at ``(row, col)``; raise ``CoordinateError`` if it is off the board."""
    if not (0 <= row < size and 0 <= col < size):
        raise CoordinateError(f"({row}, {col}) is off the {size}x{size} board")
    return row * size + col


def row_col(p: int, size: int) -> tuple[int, int]:
    """Return ``(row, col)`` of point ``p`` (row 0 at the top)."""
    return divmod(p, size)


def to_gtp(p: int | None, size: int) -> str:
    """Return the GTP vertex of ``p`` (``"D4"``), or ``"pass"`` for ``None``."""
    if p is None:
        return "pass"
    row, col = divmod(p, size)
    return f"{GTP_LETTERS[col]}{size - row}"


def from_gtp(text: str, size: int) -> int | None:
    """Return the point named by a GTP vertex (case-insensitive), or ``None`` for ``pass``.

    Raises ``CoordinateError`` for a malformed vertex (including the letter ``I``) or one off the board.
    """
    t = text.strip().upper()
    if t == "PASS":
        return None
    if len(t) < 2 or t[0] not in GTP_LETTERS or not t[1:].isdigit():
        raise CoordinateError(f"{text!r} is not a GTP vertex (expected a letter A-Z without I, then a number)")
    col = GTP_LETTERS.index(t[0])
    number = int(t[1:])
    if col >= size or not 1 <= number <= size:
        raise CoordinateError(f"{text!r} is off the {size}x{size} board")
    return (size - number) * size + col


@cache
def vertex_table(size: int) -> dict[str, int | None]:
    """Return the usual spellings of every GTP vertex on a ``size`` board (upper and lower case, and ``pass`` as
    ``pass``/``PASS``/``Pass``) mapped to what ``from_gtp`` returns for them: a look-up instead of a parse. Any
    other spelling is absent (``from_gtp`` reads it, or words the error). The caller must not change the dict."""
    table: dict[str, int | None] = {"pass": None, "PASS": None, "Pass": None}
    for p in range(size * size):
        vertex = to_gtp(p, size)
        table[vertex] = p
        table[vertex.lower()] = p
    return table


def to_sgf(p: int | None, size: int) -> str:
    """Return the SGF point of ``p`` (``"dd"``), or ``""`` for a pass."""
    if p is None:
        return ""
    row, col = divmod(p, size)
    return SGF_LETTERS[col] + SGF_LETTERS[row]


def from_sgf(text: str, size: int) -> int | None:
    """Return the point named by an SGF point value, or ``None`` for a pass.

    ``""`` is a pass, and so is ``"tt"`` on boards of 19 or less (FF[3] habit). Raises ``CoordinateError``
    for anything else that is not a point on the board.
    """
    if text == "" or (text == "tt" and size <= 19):
        return None
    if len(text) != 2 or text[0] not in SGF_LETTERS or text[1] not in SGF_LETTERS:
        raise CoordinateError(f"{text!r} is not an SGF point (two letters a-z or A-Z)")
    col = SGF_LETTERS.index(text[0])
    row = SGF_LETTERS.index(text[1])
    if col >= size or row >= size:
        raise CoordinateError(f"SGF point {text!r} is off the {size}x{size} board")
    return row * size + col


@cache
def neighbours_table(size: int) -> tuple[tuple[int, ...], ...]:
    """Return, for every point, the tuple of its orthogonal neighbours on a ``size`` board."""
    table: list[tuple[int, ...]] = []
    for p in range(size * size):
        row, col = divmod(p, size)
        nbrs: list[int] = []
        if row > 0:
            nbrs.append(p - size)
        if row < size - 1:
            nbrs.append(p + size)
        if col > 0:
            nbrs.append(p - 1)
        if col < size - 1:
            nbrs.append(p + 1)
        table.append(tuple(nbrs))
    return tuple(table)


def hoshi(size: int) -> tuple[int, ...]:
    """Return the star points (hoshi) usually drawn on a ``size`` board, as points."""
    if size < 7:
        return ()
    edge = 3 if size >= 13 else 2
    far = size - 1 - edge
    lines = [edge, far]
    if size % 2 == 1 and size >= 9:
        lines.insert(1, size // 2)
    pts = [r * size + c for r in lines for c in lines]
    if size % 2 == 1 and size < 9:
        pts.append((size // 2) * size + size // 2)
    return tuple(sorted(pts))


def fixed_handicap_points(n: int, size: int) -> tuple[int, ...]:
    """Return the GTP version 2 fixed handicap points for ``n`` stones, in the GTP order.

    Boards 7x7 and larger; up to 4 stones on even sizes and on 7x7, up to 9 on odd sizes from 9x9.
    Raises ``CoordinateError`` when ``n`` stones do not fit that scheme.
    """
    if size < 7:
        raise CoordinateError(f"fixed handicap needs a board of at least 7x7, not {size}x{size}")
    limit = 9 if size % 2 == 1 and size >= 9 else 4
    if not 2 <= n <= limit:
        raise CoordinateError(f"fixed handicap on {size}x{size} allows 2 to {limit} stones, not {n}")
    edge = 3 if size >= 13 else 2
    lo, hi, mid = edge, size - 1 - edge, size // 2

    def at(col: int, row_from_bottom: int) -> int:
        return (size - 1 - row_from_bottom) * size + col

    # GTP order: D4 Q16 D16 Q4, then the sides and the centre as the count requires.
    corners = [at(lo, lo), at(hi, hi), at(lo, hi), at(hi, lo)]
    centre = at(mid, mid)
    left, right = at(lo, mid), at(hi, mid)
    bottom, top = at(mid, lo), at(mid, hi)
    table: dict[int, list[int]] = {
        2: corners[:2],
        3: corners[:3],
        4: corners,
        5: corners + [centre],
        6: corners + [left, right],
        7: corners + [left, right, centre],
        8: corners + [left, right, bottom, top],
        9: corners + [left, right, bottom, top, centre],
    }
    return tuple(table[n])


def handicap_order(n: int, size: int) -> tuple[int, ...]:
    """Return the points where ``n`` free handicap stones usually go, best first: the fixed points for ``n``
    stones where GTP defines them, then the other star points and the centre (the centre alone below 5x5).
    Never raises for a board of ``MIN_SIZE`` or more."""
    if size < 5:
        return ((size // 2) * size + size // 2,)
    try:
        first = fixed_handicap_points(n, size)
    except CoordinateError:
        first = ()
    edge = 2 if size < 13 else 3
    lo, hi, mid = edge, size - 1 - edge, size // 2
    stars = [(lo, hi), (hi, lo), (hi, hi), (lo, lo), (mid, mid), (mid, lo), (mid, hi), (lo, mid), (hi, mid)]
    rest = [r * size + c for r, c in stars]
    return tuple(dict.fromkeys([*first, *rest]))
