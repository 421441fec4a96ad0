"""Differential test: the compiled playouts' eye test (``fastboard.is_true_eye``) against the referee's
(``keima.rules.shape.is_true_eye``), on many seeded random positions of every size class.

The positions are dense (many surrounded points, many opposing diagonals) so that both answers, and every
edge and corner case, occur often; the test counts them to make sure it is not passing vacuously.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keima.ai import fastboard as fb
from keima.rules import BLACK, EMPTY, WHITE, Board, is_true_eye
from rules.diagram import random_board

SIZES = (2, 3, 4, 5, 7, 9, 13, 19)


def fast_copy(board: Board) -> np.ndarray:
    """The same position on the compiled board (every chain has a liberty, so setting up captures nothing)."""
    n = board.size
    b = fb.new_board(n)
    for p, c in enumerate(board.colors):
        if c != EMPTY:
            fb.set_stone(b, fb.to_fast(p, n), c)
    for p, c in enumerate(board.colors):
        assert int(b[fb.COL, fb.to_fast(p, n)]) == c
    return b


def compare(board: Board) -> tuple[int, int]:
    """Assert both eye tests agree on every empty point for both colours; return (eyes, surrounded non-eyes)."""
    n = board.size
    b = fast_copy(board)
    eyes = false_eyes = 0
    for p in range(n * n):
        if board.colors[p] != EMPTY:
            continue  # the compiled twin is only ever asked about empty points
        for color in (BLACK, WHITE):
            ref = is_true_eye(board, p, color)
            fast = bool(fb.is_true_eye(b, fb.to_fast(p, n), color))
            assert fast == ref, f"{'BW'[color - 1]} eye at {p} differs (compiled {fast}):\n{board.to_ascii({p: '*'})}"
            eyes += ref
            false_eyes += (not ref) and all(board.colors[q] == color for q in board.nbrs[p])
    return eyes, false_eyes


@pytest.mark.parametrize("size", SIZES)
def test_compiled_eye_test_matches_the_referee(size: int) -> None:
    rng = random.Random(1000 + size)
    eyes = false_eyes = 0
    for _ in range(150 if size <= 9 else 40):
        board = random_board(rng, size, rng.uniform(0.5, 0.95))
        e, f = compare(board)
        eyes += e
        false_eyes += f
    # Both answers were exercised (a 2x2 board has no point with an opposing diagonal, a 3x3 board few).
    assert eyes >= 20, eyes
    assert false_eyes >= (0 if size == 2 else 3 if size == 3 else 20), false_eyes


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(SIZES), st.floats(0.3, 1.0))
def test_compiled_eye_test_matches_on_drawn_positions(seed: int, size: int, density: float) -> None:
    compare(random_board(random.Random(seed), size, density))
