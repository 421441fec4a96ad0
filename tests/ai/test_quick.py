"""The bot's moves while its search compiles (``keima.ai.quick``) and the interpreted kernels under them
(``keima.ai.interpreted``): the same results as the compiled code, legal answers, the search's priors."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.rules.diagram import random_board, setup_game

from keima.ai import fastboard as fb
from keima.ai import network, quick
from keima.ai import planes as PL
from keima.ai import search as S
from keima.ai.interpreted import interpreted
from keima.ai.patterns import PATTERN_TABLE
from keima.ai.searcher import load
from keima.rules import Game, to_gtp


def _random_game(size: int, seed: int, density: float = 0.4) -> Game:
    board = random_board(random.Random(seed), size, density)
    game = Game(size)
    game.setup(black=board.stones(1), white=board.stones(2))
    return game


def test_only_numba_kernels_have_twins() -> None:
    with pytest.raises(TypeError, match="not a numba-compiled function"):
        interpreted(load)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([5, 9, 19]), st.floats(0.1, 0.7))
def test_interpreted_planes_equal_the_compiled_ones(seed: int, size: int, density: float) -> None:
    """The twin of ``fill_planes`` (liberties, candidates, captures, self-ataris, ladders) writes exactly what the
    compiled kernel writes, from both sides, on random positions."""
    game = _random_game(size, seed, density)
    for color in (1, 2):
        compiled = np.full((size * size, PL.N_PLANES), 7.0, dtype=np.float32)
        twin = np.full((size * size, PL.N_PLANES), 7.0, dtype=np.float32)
        PL.fill_planes(load(game), color, compiled)
        interpreted(PL.fill_planes)(load(game, set_stone=interpreted(fb.set_stone)), color, twin)
        assert np.array_equal(compiled, twin)


def test_the_interpreted_board_is_the_compiled_board() -> None:
    """Setting up a position with the interpreted ``set_stone`` gives the compiled one's array, field by field."""
    for seed in range(5):
        game = _random_game(9, seed)
        assert np.array_equal(load(game), load(game, set_stone=interpreted(fb.set_stone)))


@pytest.mark.parametrize("size", [9, 19])
def test_numpy_forward_equals_the_compiled_network(size: int) -> None:
    net = network.shipped(size)
    rng = np.random.default_rng(size)
    x = (rng.random((size * size, PL.N_PLANES)) < 0.3).astype(np.float32)
    compiled = network.forward(x, size, *net)
    assert np.allclose(quick.forward(x, size, *net), compiled, rtol=1e-4, atol=1e-4)


def test_the_opening_move_is_the_centre_of_an_empty_9x9() -> None:
    result = quick.QuickSearcher(seed=1).search(Game(9), 1)
    assert result.move is not None and to_gtp(result.move, 9) == "E5"
    assert result.playouts == 0 and not result.ownership.any()


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([9, 19]), st.integers(1, 2))
def test_the_quick_move_is_the_network_s_choice_up_to_a_near_tie(seed: int, size: int, color: int) -> None:
    """With a network, the quick move is the candidate the compiled network scores best, or one within what the
    hand-written prior may add back (its range over the network's weight: under 0.1 of a score)."""
    game = _random_game(size, seed, 0.3)
    result = quick.QuickSearcher(seed=seed).search(game, color)
    b = load(game, color)
    x = np.zeros((size * size, PL.N_PLANES), dtype=np.float32)
    PL.fill_planes(b, color, x)
    scores = network.forward(x, size, *network.shipped(size))
    candidates = [p for p, _, _ in result.ranked if p is not None]
    if not candidates:
        return
    assert result.move is not None
    assert max(scores[p] for p in candidates) - scores[result.move] <= 0.96 / quick.QUICK_NET_WEIGHT + 1e-4


def test_own_eyes_only_leave_a_pass() -> None:
    game, _ = setup_game("""
        XXXXX
        X.X.X
        XXXXX
        X.X.X
        XXXXX
    """)
    result = quick.QuickSearcher(seed=1).search(game, 1)
    assert result.move is None and result.ranked == [(None, 0.0, 0.5)]
    assert quick.QuickSearcher(seed=1).search(game, 1, allow_pass=False).ranked == []


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([5, 9, 13, 19]), st.integers(1, 2))
def test_the_quick_ranking_is_legal_and_keeps_to_the_allowed_moves(seed: int, size: int, color: int) -> None:
    """On random positions of every kind of board (no network on 5x5), every ranked move is legal for
    the referee and among ``allowed``; the pass comes last; win rates are priors in 0.02..0.98."""
    game = _random_game(size, seed)
    rng = random.Random(seed)
    legal = sorted(game.legal_moves(color))
    allowed = rng.sample(legal, k=max(1, len(legal) // 2)) if legal else []
    result = quick.QuickSearcher(seed=seed).search(game, color, allowed=allowed)
    moves = [m for m, _, _ in result.ranked]
    assert moves[-1] is None and None not in moves[:-1]
    assert set(moves[:-1]) <= set(allowed)
    assert all(game.legality(m, color, allow_out_of_turn=True) is None for m in moves[:-1])
    assert all(0.02 <= w <= 0.98 for _, _, w in result.ranked)
    assert result.move == moves[0]


def test_the_quick_move_follows_the_network_on_19x19() -> None:
    """With the 19x19 network the empty board's move is a corner point (third or fourth line), as the search's
    own root priors have it."""
    result = quick.QuickSearcher(seed=3).search(Game(19), 1)
    assert result.move is not None
    r, c = divmod(result.move, 19)
    assert {min(r, 18 - r), min(c, 18 - c)} <= {2, 3}


def test_quick_ownership_is_the_search_estimate_with_fewer_playouts() -> None:
    game, _ = setup_game("""
        .X.O.
        XX.OO
        .X.O.
        XX.OO
        .X.O.
    """)
    own = quick.ownership(game, seed=5)
    assert own.shape == (25,) and np.all(np.abs(own) <= 1.0)
    assert own[0] == 1.0 and own[4] == -1.0  # inside each side's wall, in every playout
    assert quick.quick_playouts(9) == 32 and quick.quick_playouts(19) == 8


def test_interpreted_playouts_finish_the_game() -> None:
    """A twin of ``run_playouts`` plays positions out to the end (every point then owned by one side or shared
    as dame): the owners it adds are whole numbers per playout."""
    game = _random_game(9, 11, 0.2)
    b = load(game)
    own = np.zeros(b.shape[1], dtype=np.float64)
    params = S.make_params(7.5)
    interpreted(S.run_playouts)(b, 3, PATTERN_TABLE, params, own, 1, True)
    assert np.all(own == np.round(own)) and np.all(np.abs(own) <= 3)


def test_seeded_quick_estimates_repeat_and_leave_numpy_alone() -> None:
    game = _random_game(9, 12, 0.3)
    np.random.seed(99)
    expected_draw = np.random.random()
    np.random.seed(99)
    first = quick.ownership(game, seed=7)
    assert np.array_equal(quick.ownership(game, seed=7), first)  # the twins' own generator, seeded
    assert np.random.random() == expected_draw  # numpy's global generator was not touched
