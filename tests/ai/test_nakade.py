"""Nakade in the playouts: a self-atari that kills a group from inside its eye space is allowed
(``keima.ai.fastboard.is_nakade_self_atari``), so a group whose eye space holds opposing stones can die in a
playout, as it does on the board."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from keima.ai import fastboard as fb
from keima.ai import search as S
from keima.ai.patterns import PATTERN_TABLE
from keima.ai.searcher import load
from keima.record import load_record
from keima.rules import from_gtp


def _board(rows: list[str]) -> tuple[np.ndarray, int, int]:
    """A fast board from square ``rows`` ("X" black, "O" white, "*" the empty point Black is to play) and the
    fast point of "*"."""
    n = len(rows)
    assert all(len(r) == n for r in rows)
    b = fb.new_board(n)
    star = -1
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            p = fb.to_fast(r * n + c, n)
            if ch in "XO":
                fb.set_stone(b, p, fb.BLACK if ch == "X" else fb.WHITE)
            elif ch == "*":
                star = p
    return b, n, star


def _pad(rows: list[str], n: int) -> list[str]:
    """``rows`` widened and lengthened with empty points to ``n`` x ``n``."""
    return [r.ljust(n, ".") for r in rows] + ["." * n] * (n - len(rows))


CASES = [
    # (name, rows, kills as a nakade); the white walls are one chain, larger than the black one, unless said
    ("two stones fill a straight three", ["*X.O", "OOOO"], True),
    ("the square four of a bulky five", ["*X.O", "XXOO", "OOO"], True),
    ("the pyramid four", ["X*X.O", "OXOOO", "OOO"], True),
    ("the bulky five", ["X*X.O", "XXOOO", "OOO"], True),
    ("the crossed five", [".OOO", "OOXOOO", "OX*X.O", "OOXOO", ".OOO"], True),
    ("the rabbity six", [".OOO", "OXXOOO", "OX*X.O", "OOXOO", ".OOO"], True),
    ("a straight four lives", ["*XXX.O", "OOOOOO"], False),
    ("a bent four lives", ["*XX.O", "XOOOO", "OO"], False),
    ("the U five lives", ["X*X.O", "XOXOO", "OOOO"], False),
    ("a rectangular six lives", ["XXX.O", "X*XOO", "OOOO"], False),
    ("seven stones are too many", ["XXX*.O", "XXXOOO", "OOOO"], False),
    ("the liberty touches open ground", ["*X.", "OO"], False),
    ("the liberty touches another black chain", ["*X.XO", "OOOOO"], False),
    ("small opposing chains around: the chain's own liberties", ["O*X.O", ".OOO"], False),
    ("not a self-atari: two liberties", ["*X.O", "O.OO", "OOO"], False),
]


@pytest.mark.parametrize(("name", "rows", "kills"), CASES, ids=[c[0] for c in CASES])
def test_which_self_ataris_kill_as_a_nakade(name: str, rows: list[str], kills: bool) -> None:
    b, _, star = _board(_pad(rows, 9))
    assert fb.is_legal(b, star, fb.BLACK), name
    assert fb.is_nakade_self_atari(b, star, fb.BLACK) is kills, name


# A white group whose only eye space is a straight three holding a black stone: it is dead (Black fills the
# second point, White must capture two stones, Black plays inside the two-point eye again), whoever is to move.
DEAD_IN_STRAIGHT_THREE = [
    ".X.OX..",
    "OOOOX..",
    "XXXXX..",
    ".......",
    ".......",
    ".......",
    ".......",
]


@pytest.mark.parametrize("to_move", [fb.BLACK, fb.WHITE])
def test_playouts_kill_a_group_with_a_nakade_inside(to_move: int) -> None:
    white = [r * 7 + c for r, line in enumerate(DEAD_IN_STRAIGHT_THREE) for c, ch in enumerate(line) if ch == "O"]
    playouts = 200
    dead = {}
    for nakade in (False, True):
        b, n, _ = _board(DEAD_IN_STRAIGHT_THREE)
        b[fb.META, fb.M_TOMOVE] = to_move
        own = np.zeros(b.shape[1], dtype=np.float64)
        S.run_playouts(b, playouts, PATTERN_TABLE, S.make_params(0.5, heavy=True, nakade=nakade), own, 5, False)
        # own[p] adds +1 per playout Black owns p and -1 per playout White does: the share Black ends with.
        dead[nakade] = float(np.mean([(own[fb.to_fast(p, n)] + playouts) / (2 * playouts) for p in white]))
    # Without the nakade self-atari, Black may never fill the second point, and White lives in every playout.
    assert dead[False] == 0.0
    assert dead[True] >= 0.9, dead


def test_a_real_dead_group_is_dead_in_the_playouts() -> None:
    """From a 19x19 game keima lost as White giving three stones: at move 300 keima passed, counting itself ahead,
    with its group around R18 dead (Black's stones at S19 and S17 sit in its eye space). GNU Go disputed the
    count, captured the group, and keima resigned. Without the nakade self-atari the playouts keep the group alive
    and find White winning; with it they find the group dead and Black winning."""
    rec = load_record(Path(__file__).parents[1] / "data" / "games" / "gnugo_keima_19x19_h3_nakade.sgf")
    game = rec.game.copy()
    while game.move_number > 300:
        game.undo()
    b = load(game)
    group = [p for p in (from_gtp(v, 19) for v in ("R18", "Q18", "T18", "S18")) if p is not None]
    assert all(game.board.colors[p] == 2 for p in group)
    playouts = 1000
    margin = {}
    black_share = {}
    for nakade in (False, True):
        own = np.zeros(b.shape[1], dtype=np.float64)
        params = S.make_params(game.komi, heavy=True, nakade=nakade)
        margin[nakade] = S.run_playouts(b, playouts, PATTERN_TABLE, params, own, 1, True)
        black_share[nakade] = float(np.mean([(own[fb.to_fast(p, 19)] + playouts) / (2 * playouts) for p in group]))
    assert black_share[False] < 0.3 and margin[False] < 0, (black_share, margin)
    assert black_share[True] > 0.8 and margin[True] > 5, (black_share, margin)
