"""Two-liberty fights in the playouts (``keima.ai.search._low_liberty_moves``, ``keima.ai.tactics.liberties_after``):
a heavy playout answers a move that leaves a chain with two liberties, with the atari that keeps a chase going or
the move that saves its own chain, instead of leaving the fight to chance."""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit

from keima.ai import fastboard as fb
from keima.ai import search as S
from keima.ai.patterns import PATTERN_TABLE
from keima.ai.tactics import liberties_after


def _board(rows: list[str], last: tuple[int, int], to_move: int = fb.BLACK,
           before: tuple[int, int] | None = None) -> tuple[np.ndarray, int]:
    """A fast board from square ``rows`` ("X" black, "O" white) with the stone at ``last`` (row, column) as the
    last move, the one at ``before`` as the move before it, and ``to_move`` to play."""
    n = len(rows)
    b = fb.new_board(n)
    for r, line in enumerate(rows):
        assert len(line) == n
        for c, ch in enumerate(line):
            if ch in "XO":
                fb.set_stone(b, fb.to_fast(r * n + c, n), fb.BLACK if ch == "X" else fb.WHITE)
    b[fb.META, fb.M_LAST] = fb.to_fast(last[0] * n + last[1], n)
    if before is not None:
        b[fb.META, fb.M_LAST2] = fb.to_fast(before[0] * n + before[1], n)
    b[fb.META, fb.M_TOMOVE] = to_move
    return b, n


def _moves(rows: list[str], last: tuple[int, int], before: tuple[int, int] | None) -> set[tuple[int, int]]:
    b, n = _board(rows, last, before=before)
    cand = np.zeros(64, dtype=np.int64)
    k = S._low_liberty_moves(b, fb.BLACK, cand)
    return {divmod(fb.from_fast(int(p), n), n) for p in cand[:k]}


EMPTY_ROW = "........."
CASES = [
    # (name, rows, last move, the move before it, Black's answers (row, column))
    ("a ladder: both ataris keep the chase on two liberties",
     [EMPTY_ROW, EMPTY_ROW, "....X....", "..XO.....", "...X.....", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW],
     (3, 3), None, {(2, 3), (3, 4)}),
    ("the chase goes before the chains it leaves on two liberties (D5 here)",
     [EMPTY_ROW, EMPTY_ROW, "...XX....", "..XOOX...", "...XO....", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW],
     (4, 4), (3, 5), {(5, 4)}),
    ("White left the stone Black's last move put in atari: take it, before the chase of A9",
     ["O........", EMPTY_ROW, EMPTY_ROW, "....X....", "...XO....", "....X....", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW],
     (0, 0), (5, 4), {(4, 5)}),
    ("an atari the stone runs from into three liberties is not played",
     [EMPTY_ROW, EMPTY_ROW, "...X.....", "..XO.....", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW],
     (3, 3), None, set()),
    ("Black's two-liberty chain extends where it gains liberties",
     [EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "....O....", "...OX....", ".....O...", "....O....", EMPTY_ROW, EMPTY_ROW],
     (4, 3), None, {(4, 5)}),
    ("Black's two-liberty chain captures a neighbour in atari, or extends where it gains liberties",
     [EMPTY_ROW, EMPTY_ROW, "....X....", "...XO....", "....X.O..", "....OO...", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW],
     (5, 4), None, {(3, 5), (4, 3)}),
    ("three liberties on both sides: nothing to answer",
     [EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, "...OX....", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW],
     (4, 3), None, set()),
]


@pytest.mark.parametrize(("name", "rows", "last", "before", "expected"), CASES, ids=[c[0] for c in CASES])
def test_the_answers_to_a_two_liberty_fight(name: str, rows: list[str], last: tuple[int, int],
                                            before: tuple[int, int] | None, expected: set[tuple[int, int]]) -> None:
    assert _moves(rows, last, before) == expected, name


def _random_position(rng: random.Random, n: int, moves: int) -> np.ndarray:
    """A fast board after up to ``moves`` random legal moves (captures included) from the empty ``n`` x ``n``."""
    b = fb.new_board(n)
    c = fb.BLACK
    for _ in range(moves):
        empty = [int(p) for p in b[fb.EMPTY_LIST, :b[fb.META, fb.M_NEMPTY]]]
        legal = [p for p in empty if fb.is_legal(b, p, c)]
        if not legal:
            break
        fb.place(b, rng.choice(legal), c)
        c = 3 - c
    return b


@pytest.mark.parametrize("seed", range(12))
def test_liberties_after_a_move_are_those_of_the_board_after_it(seed: int) -> None:
    # Differential: for every legal move that captures nothing (the function does not count captures), the count
    # is that of the chain on a copy of the board with the move played and, with ``skip``, an opposing stone on a
    # liberty; capped or not.
    rng = random.Random(seed)
    n = rng.choice([5, 7, 9])
    b = _random_position(rng, n, rng.randint(5, n * n))
    w = n + 2
    checked = 0
    for c in (fb.BLACK, fb.WHITE):
        for p in [int(q) for q in b[fb.EMPTY_LIST, :b[fb.META, fb.M_NEMPTY]]]:
            if not fb.is_legal(b, p, c):
                continue
            if any(b[fb.COL, q] == 3 - c and fb.in_atari(b, b[fb.HEAD, q]) for q in (p - 1, p + 1, p - w, p + w)):
                continue
            t = b.copy()
            fb.place(t, p, c)
            exact = fb.liberties(t, p)
            assert liberties_after(b, p, c, -1, 99) == exact
            assert liberties_after(b, p, c, -1, 3) == min(exact, 3)
            libs = [q for q in [int(x) for x in t[fb.EMPTY_LIST, :t[fb.META, fb.M_NEMPTY]]]
                    if any(t[fb.COL, r] == c and t[fb.HEAD, r] == t[fb.HEAD, p] for r in (q - 1, q + 1, q - w, q + w))]
            assert len(libs) == exact
            skip = rng.choice(libs) if libs else -1
            if skip >= 0:
                t[fb.COL, skip] = 3 - c  # only counted, never played: no capture to make
                assert liberties_after(b, p, c, skip, 99) == fb.liberties(t, p)
            checked += 1
    assert checked > 0


# A ladder on an empty 9x9 board: the white stone at D6 has two liberties, Black to play. Read out, it dies (the
# ladder runs to the edge); in a playout without the two-liberty answers Black chases it only by chance.
LADDER = [EMPTY_ROW, EMPTY_ROW, "....X....", "..XO.....", "...X.....", EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW]


@njit
def _seed(seed: int) -> None:
    np.random.seed(seed)  # numba's generator, the one the compiled playouts draw from


def test_playouts_read_a_ladder_out() -> None:
    # The first 40 moves of heavy playouts from the ladder: how often the white stone is captured by then.
    captured = {}
    for low_liberty in (False, True):
        params = S.make_params(0.5, heavy=True, low_liberty=low_liberty)
        cand = np.zeros(64, dtype=np.int64)
        _seed(11)
        taken = 0
        for _ in range(200):
            b, n = _board(LADDER, (3, 3))
            stone = fb.to_fast(3 * n + 3, n)
            for _move in range(40):
                c = int(b[fb.META, fb.M_TOMOVE])
                p = S.playout_move(b, c, True, PATTERN_TABLE, params, cand)
                if p == fb.PASS:
                    fb.play_pass(b)
                else:
                    fb.place(b, p, c)
                if b[fb.COL, stone] != fb.WHITE:
                    taken += 1
                    break
        captured[low_liberty] = taken / 200
    assert captured[False] < 0.5, captured
    assert captured[True] > 0.8, captured  # 0.08 and 0.905 at this seed
