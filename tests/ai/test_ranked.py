"""The ranked levels (``keima.ai.ranked``): the policy network's choice among moves drawn at random."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from keima.ai import make_player
from keima.ai.player import LEVEL_CONFIGS, RANKED
from keima.ai.ranked import Sampling, draw, near, policy_scores, sampled_move
from keima.rules import Game, from_gtp, is_true_eye


def _candidates(game: Game, color: int) -> list[int]:
    return [p for p in game.legal_moves(color) if not is_true_eye(game.board, p, color)]


@pytest.mark.parametrize(("share", "local", "temperature"), [(0.0, 1.0, 0.0), (1.5, 1.0, 0.0), (0.5, 0.5, 0.0),
                                                             (0.5, 1.0, -1.0)])
def test_a_draw_out_of_range_is_refused(share: float, local: float, temperature: float) -> None:
    with pytest.raises(ValueError):
        Sampling(share, local, temperature)


def test_the_draw_gives_distinct_moves_and_all_of_them_when_asked() -> None:
    rng = random.Random(1)
    moves = list(range(50))
    drawn = draw(moves, [1.0] * 50, 10, rng)
    assert len(drawn) == 10 and len(set(drawn)) == 10 and set(drawn) <= set(moves)
    assert sorted(draw(moves, [1.0] * 50, 80, rng)) == moves


def test_heavier_moves_are_drawn_more_often() -> None:
    rng = random.Random(2)
    counts: Counter[int] = Counter()
    for _ in range(2000):
        counts.update(draw(list(range(20)), [4.0] * 5 + [1.0] * 15, 3, rng))
    heavy = sum(counts[p] for p in range(5)) / 5
    light = sum(counts[p] for p in range(5, 20)) / 15
    assert heavy > 2.0 * light


def test_near_is_the_five_by_five_square_around_the_last_move() -> None:
    game = Game(9)
    e5 = from_gtp("E5", 9)
    assert near(game, from_gtp("G7", 9), e5) and near(game, from_gtp("C3", 9), e5)
    assert not near(game, from_gtp("H5", 9), e5) and not near(game, from_gtp("E5", 9), None)


def test_with_every_move_drawn_it_plays_the_networks_favourite() -> None:
    game = Game(19)
    for move in ("Q16", "D4", "Q3"):
        game.play(from_gtp(move, 19))
    color = int(game.to_move)
    cands = _candidates(game, color)
    scores = policy_scores(game, color)
    best = max(cands, key=lambda p: scores[p])
    assert sampled_move(game, color, cands, Sampling(1.0), random.Random(3)) == best
    # The given scores decide, not the network's: a made-up favourite is played.
    made_up = np.zeros(361)
    made_up[from_gtp("K10", 19)] = 5.0
    assert sampled_move(game, color, cands, Sampling(1.0), random.Random(3), made_up) == from_gtp("K10", 19)


def test_a_small_draw_plays_the_favourite_less_often() -> None:
    game = Game(19)
    for move in ("Q16", "D4"):
        game.play(from_gtp(move, 19))
    color = int(game.to_move)
    cands = _candidates(game, color)
    scores = policy_scores(game, color)
    best = max(cands, key=lambda p: scores[p])
    rng = random.Random(4)
    small = sum(sampled_move(game, color, cands, Sampling(0.05), rng, scores) == best for _ in range(200))
    large = sum(sampled_move(game, color, cands, Sampling(0.5), rng, scores) == best for _ in range(200))
    assert small < large and large >= 80  # half the moves drawn: the favourite is in the draw about half the time


def test_a_temperature_spreads_the_choice_over_the_draw() -> None:
    game = Game(9)
    color = int(game.to_move)
    cands = _candidates(game, color)
    scores = policy_scores(game, color)
    rng = random.Random(5)
    cold = {sampled_move(game, color, cands, Sampling(1.0), rng, scores) for _ in range(30)}
    warm = {sampled_move(game, color, cands, Sampling(1.0, temperature=2.0), rng, scores) for _ in range(30)}
    assert len(cold) == 1 and len(warm) > 3


def test_no_candidate_is_a_pass() -> None:
    assert sampled_move(Game(9), 1, [], Sampling(0.5), random.Random(6)) is None


@pytest.mark.parametrize("level", RANKED)
def test_a_ranked_level_plays_legal_moves_and_never_fills_its_own_eye(level: str) -> None:
    game = Game(9)
    players = {1: make_player(level, seed=1), 2: make_player(level, seed=2)}
    for _ in range(80):
        if game.phase != "play":
            break
        color = int(game.to_move)
        move = players[color].genmove(game, color)
        assert move is None or (isinstance(move, int) and game.legality(move, color) is None
                                and not is_true_eye(game.board, move, color))
        game.play(move)


def test_the_ladder_draws_more_moves_at_each_stronger_rank() -> None:
    shares = [LEVEL_CONFIGS[level].sampling.share for level in RANKED]  # type: ignore[union-attr]
    assert shares == sorted(shares) and len(set(shares)) == len(shares)
    assert all(LEVEL_CONFIGS[level].teaching for level in RANKED)
