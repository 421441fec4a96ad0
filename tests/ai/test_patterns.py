"""The 3x3 pattern table and the code the playouts read it with.

``keima.ai.search.pattern_code`` reads a neighbourhood as Black sees it, without a branch on the colour to move:
that is right only because the table holds every pattern with the colours swapped too. These tests hold both
halves of that bargain."""

from __future__ import annotations

import random

import pytest

from keima.ai import fastboard as fb
from keima.ai import search as S
from keima.ai.patterns import PATTERN_TABLE, build_table
from keima.ai.searcher import load
from keima.rules import Game, from_gtp


def _swapped(code: int) -> int:
    """``code`` with own and opposing stones exchanged in each of its eight 2-bit fields."""
    out = 0
    for i in range(8):
        v = (code >> (2 * i)) & 3
        out |= {1: 2, 2: 1}.get(v, v) << (2 * i)
    return out


def _code_for(b: object, p: int, c: int) -> int:
    """The code of ``p`` read for colour ``c`` (1 own, 2 opposing, 3 border), the slow way."""
    w = int(b[fb.META, fb.M_W])  # type: ignore[index]
    code = 0
    for i, q in enumerate((p - w - 1, p - w, p - w + 1, p - 1, p + 1, p + w - 1, p + w, p + w + 1)):
        k = int(b[fb.COL, q])  # type: ignore[index]
        v = 0 if k == fb.EMPTY else 3 if k == fb.BORDER else 1 if k == c else 2
        code |= v << (2 * i)
    return code


def test_the_table_matches_a_shape_for_both_colours() -> None:
    assert all(PATTERN_TABLE[code] == PATTERN_TABLE[_swapped(code)] for code in range(1 << 16))


def test_a_one_sided_table_is_refused_by_the_check_above() -> None:
    # The check can fail: a table built from one colour only (no swap) is not its own mirror.
    one_sided = build_table(("XOX" "..." "???",))
    one_sided[_swapped(int(one_sided.nonzero()[0][0]))] = 0
    assert not all(one_sided[code] == one_sided[_swapped(code)] for code in range(1 << 16))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_code_read_as_black_matches_as_the_colour_to_move_reads_it(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(9)
    for _ in range(40):
        legal = list(game.legal_moves())
        game.play(rng.choice(legal))
    b = load(game)
    n = 9
    for p in range(n * n):
        q = fb.to_fast(p, n)
        if b[fb.COL, q] != fb.EMPTY:
            continue
        for c in (fb.BLACK, fb.WHITE):
            assert PATTERN_TABLE[S.pattern_code(b, q, c)] == PATTERN_TABLE[_code_for(b, q, c)]


def test_a_hane_is_seen_for_either_colour() -> None:
    # A9 . X O X . . . . .     Under the white stone C9 between two black ones, C8 is the hane shape
    # A8 . . * . . . . . .     "XOX / ..." for Black and its vital point for White: it matches for both.
    b = fb.new_board(9)
    for move, colour in (("B9", fb.BLACK), ("C9", fb.WHITE), ("D9", fb.BLACK)):
        fb.set_stone(b, fb.to_fast(from_gtp(move, 9), 9), colour)
    point = fb.to_fast(from_gtp("C8", 9), 9)
    far = fb.to_fast(from_gtp("G3", 9), 9)
    for c in (fb.BLACK, fb.WHITE):
        assert PATTERN_TABLE[S.pattern_code(b, point, c)] == 1
        assert PATTERN_TABLE[S.pattern_code(b, far, c)] == 0
