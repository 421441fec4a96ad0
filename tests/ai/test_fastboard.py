"""Differential tests: the compiled playout board against the referee (``keima.rules``).

Thousands of seeded random move sequences on boards of every size class, under both suicide rules: after every
move the colours, each chain's exact liberties, the atari flags, the captures and the legality of every point
(occupied, suicide, simple ko) must equal the referee's.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from keima.ai import fastboard as fb
from keima.rules import Game, get_ruleset

SIZES = (2, 3, 4, 5, 7, 9, 13, 19)


def _assert_same(game: Game, b: np.ndarray) -> None:
    n = game.size
    colors = game.board.colors
    for p in range(n * n):
        q = fb.to_fast(p, n)
        assert int(b[fb.COL, q]) == colors[p], f"colour differs at {p}"
        if colors[p]:
            libs = len(game.board.chain(p).libs)
            assert fb.liberties(b, q) == libs, f"liberties differ at {p}"
            assert fb.in_atari(b, int(b[fb.HEAD, q])) == (libs == 1)
    assert int(b[fb.META, fb.M_NEMPTY]) == colors.count(0)


def _legal_sets(game: Game, b: np.ndarray, color: int) -> tuple[set[int], set[int]]:
    n = game.size
    ref = set(game.legal_moves(color))
    fast = {p for p in range(n * n) if fb.is_legal(b, fb.to_fast(p, n), color)}
    return ref, fast


def _random_game(seed: int, n: int, suicide: str, full_check: bool) -> int:
    """Play one random sequence in both boards, comparing after each move; returns the moves played."""
    rng = random.Random(seed)
    game = Game(n, rules=get_ruleset("french", ko="simple", suicide=suicide, cycle_no_result=False))
    b = fb.new_board(n, suicide_allowed=suicide == "multi-stone")
    played = 0
    for _ in range(rng.randint(5, 3 * n * n)):
        color = game.to_move
        assert int(b[fb.META, fb.M_TOMOVE]) == color
        ref, fast = _legal_sets(game, b, color) if full_check else (set(), set())
        if full_check:
            assert ref == fast, f"legal moves differ (seed {seed}, move {played}): {sorted(ref ^ fast)}"
        empties = [p for p in range(n * n) if game.board.colors[p] == 0]
        if not empties:
            break
        p = rng.choice(empties)
        q = fb.to_fast(p, n)
        ref_ok = game.legality(p, color) is None
        assert fb.is_legal(b, q, color) == ref_ok, f"legality of {p} differs (seed {seed})"
        if not ref_ok:
            if game.consecutive_passes == 0 and rng.random() < 0.3:
                game.pass_move()
                fb.play_pass(b)
            continue
        rec = game.play(p, color)
        caught = fb.place(b, q, color)
        assert caught == rec.captures
        played += 1
        _assert_same(game, b)
    return played


@pytest.mark.parametrize("suicide", ["forbidden", "multi-stone"])
@pytest.mark.parametrize("n", SIZES)
def test_random_sequences_match_referee(n: int, suicide: str) -> None:
    # Small boards get more sequences (captures, suicides and kos are frequent there) and full legality sweeps.
    count = {2: 300, 3: 300, 4: 250, 5: 200, 7: 100, 9: 60, 13: 8, 19: 4}[n]
    total = 0
    for seed in range(count):
        total += _random_game(1000 * n + seed, n, suicide, full_check=n <= 9)
    assert total > count  # the sequences really played moves


def test_simple_ko_point_is_forbidden_then_free() -> None:
    # . X O .      Black captures at the ko; White may not retake at once, but may after a move elsewhere.
    # X O . O
    # . X O .
    # . . . X
    game = Game(4, rules=get_ruleset("french", ko="simple"))
    b = fb.new_board(4)
    moves = [(0, 1), (0, 2), (1, 0), (1, 3), (2, 1), (2, 2), (3, 3), (1, 1)]
    for r, c in moves:
        p = r * 4 + c
        game.play(p)
        fb.place(b, fb.to_fast(p, 4), game.moves[-1].color)
    # Black captures the white stone at (1,1) by playing (1,2).
    p = 1 * 4 + 2
    assert game.to_move == 1
    game.play(p)
    assert fb.place(b, fb.to_fast(p, 4), 1) == 1
    retake = fb.to_fast(1 * 4 + 1, 4)
    assert game.legality(1 * 4 + 1, 2) == "ko"
    assert not fb.is_legal(b, retake, 2)
    game.play(3 * 4 + 0)
    fb.place(b, fb.to_fast(12, 4), 2)
    game.play(3 * 4 + 1)
    fb.place(b, fb.to_fast(13, 4), 1)
    assert fb.is_legal(b, retake, 2) == (game.legality(5, 2) is None)


def test_true_eye_and_self_atari() -> None:
    # Black stones around an eye at (1,1) on 5x5; the eye is true (no white diagonal).
    n = 5
    b = fb.new_board(n)
    for r, c in [(0, 1), (1, 0), (1, 2), (2, 1), (0, 0), (2, 0), (0, 2), (2, 2)]:
        fb.set_stone(b, fb.to_fast(r * n + c, n), fb.BLACK)
    eye = fb.to_fast(1 * n + 1, n)
    assert fb.is_true_eye(b, eye, fb.BLACK)
    assert not fb.is_true_eye(b, eye, fb.WHITE)
    # White playing inside is a suicide (forbidden) and thus illegal.
    assert not fb.is_legal(b, eye, fb.WHITE)
    # The bottom two rows of a 5x5 board; "*" is the corner (4,4), empty:
    #   . . . X X
    #   . . X O *
    # White at the corner joins (4,3): the two stones have no liberty left, a suicide of two stones.
    b2 = fb.new_board(n)
    for r, c in [(3, 3), (3, 4), (4, 2)]:
        fb.set_stone(b2, fb.to_fast(r * n + c, n), fb.BLACK)
    fb.set_stone(b2, fb.to_fast(4 * n + 3, n), fb.WHITE)
    corner = fb.to_fast(4 * n + 4, n)
    assert not fb.is_legal(b2, corner, fb.WHITE)  # forbidden where suicide is
    b3 = fb.new_board(n, suicide_allowed=True)
    for r, c in [(3, 3), (3, 4), (4, 2)]:
        fb.set_stone(b3, fb.to_fast(r * n + c, n), fb.BLACK)
    fb.set_stone(b3, fb.to_fast(4 * n + 3, n), fb.WHITE)
    assert fb.is_legal(b3, corner, fb.WHITE)  # allowed where suicide is: both white stones come off
    fb.place(b3, corner, fb.WHITE)
    assert b3[fb.COL, corner] == fb.EMPTY and b3[fb.COL, fb.to_fast(4 * n + 3, n)] == fb.EMPTY
    # Without the black stone at (3,4):
    #   . . . X .
    #   . . X O *
    # White at the corner leaves its two stones with one liberty, (3,4): a self-atari of two stones; White at
    # (3,4) instead is a lone stone with two liberties, no self-atari.
    b4 = fb.new_board(n)
    for r, c in [(3, 3), (4, 2)]:
        fb.set_stone(b4, fb.to_fast(r * n + c, n), fb.BLACK)
    fb.set_stone(b4, fb.to_fast(4 * n + 3, n), fb.WHITE)
    assert fb.self_atari_size(b4, corner, fb.WHITE) == 2
    assert fb.self_atari_size(b4, fb.to_fast(3 * n + 4, n), fb.WHITE) == 0


def _board_from_rows(rows: list[str], suicide_allowed: bool = False) -> np.ndarray:
    n = len(rows)
    b = fb.new_board(n, suicide_allowed=suicide_allowed)
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch in "XO":
                fb.set_stone(b, fb.to_fast(r * n + c, n), fb.BLACK if ch == "X" else fb.WHITE)
    return b


@pytest.mark.parametrize("heavy", [False, True])
@pytest.mark.parametrize("suicide_allowed", [False, True])
def test_playouts_never_fill_own_true_eyes(heavy: bool, suicide_allowed: bool) -> None:
    """A black group with two true eyes survives every playout (light or heavy, either suicide rule): neither
    side ever fills Black's eyes (White could not, Black never does), so its stones end Black's every time."""
    from keima.ai import search as S
    from keima.ai.patterns import PATTERN_TABLE

    rows = [
        "X.X.XO.",
        "XXXXXO.",
        "OOOOOO.",
        ".......",
        ".......",
        ".......",
        ".......",
    ]
    b = _board_from_rows(rows, suicide_allowed)
    n = 7
    own = np.zeros(b.shape[1], dtype=np.float64)
    params = S.make_params(0.5, heavy=heavy)
    playouts = 300
    mean = S.run_playouts(b, playouts, PATTERN_TABLE, params, own, 3, True)
    for p in (0, 2, 4, 7, 8, 9, 10, 11):
        assert own[fb.to_fast(p, n)] == playouts  # black every time
    # The margin the playouts return is the area the owners add up to, less the komi (0.5): the eyes and the
    # stones counted above are in it every time.
    area = sum(own[fb.to_fast(p, n)] for p in range(n * n)) / playouts
    assert mean == pytest.approx(area - 0.5)
