"""The Glicko-2 update: Glickman's worked example, and what every update must do."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from keima.ratings import glicko2
from keima.ratings.game import rate
from keima.ratings.glicko2 import Rating, expected, update


def test_glickmans_example_one_period_of_three_games() -> None:
    # Glickman, "Example of the Glicko-2 system": a 1500/200/0.06 player beats a 1400/30 one and loses to
    # 1550/100 and 1700/300 in one period; the paper's figures, rounded as printed there.
    after = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
                                             (Rating(1700, 300), 0.0)])
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_same_games_one_at_a_time_are_not_one_period() -> None:
    # keima rates each game as its own period: each game moves the rating from where the previous one left it,
    # with the deviation it left, so the same three games end elsewhere, and their order matters.
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    period = update(Rating(1500, 200, 0.06), games)

    def one_by_one(order: list[tuple[Rating, float]]) -> Rating:
        r = Rating(1500, 200, 0.06)
        for game in order:
            r = update(r, [game])
        return r

    forward, backward = one_by_one(games), one_by_one(games[::-1])
    assert abs(forward.rating - period.rating) > 0.1 and abs(forward.deviation - period.deviation) > 0.1
    assert abs(forward.rating - backward.rating) > 0.1 and abs(forward.deviation - backward.deviation) > 0.1


def test_no_game_changes_nothing() -> None:
    assert update(Rating(1720, 80, 0.07), []) == Rating(1720, 80, 0.07)


def test_a_score_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError):
        update(Rating(), [(Rating(), 2.0)])


def test_equal_players_after_a_jigo_keep_their_rating() -> None:
    black, white = rate(Rating(), Rating(), 0.5)
    assert black.rating == pytest.approx(1500) and white.rating == pytest.approx(1500)
    assert black.deviation < 350


def test_the_bounds_hold_at_the_extremes() -> None:
    # Unclamped, each of these would leave the bounds: a big win at the top, a big loss at the bottom, a settled
    # player's deviation shrinking below the floor, an upset raising a high volatility further.
    assert update(Rating(5990, 500), [(Rating(5990, 30), 1.0)]).rating == glicko2.MAX_RATING
    assert update(Rating(105, 500), [(Rating(105, 30), 0.0)]).rating == glicko2.MIN_RATING
    assert update(Rating(1500, 30, 0.01), [(Rating(1500, 30), 1.0)]).deviation == glicko2.MIN_DEVIATION
    assert update(Rating(1000, 30, 0.15), [(Rating(3000, 30), 1.0)]).volatility == glicko2.MAX_VOLATILITY


ratings = st.builds(
    Rating,
    rating=st.floats(glicko2.MIN_RATING, glicko2.MAX_RATING),
    deviation=st.floats(glicko2.MIN_DEVIATION, glicko2.MAX_DEVIATION),
    volatility=st.floats(glicko2.MIN_VOLATILITY, glicko2.MAX_VOLATILITY),
)


@given(ratings, ratings, st.sampled_from([0.0, 0.5, 1.0]))
# Found by Hypothesis: a volatility at its ceiling must be the one that widened the deviation.
@example(Rating(100.0, 30.0, 0.15), Rating(762.0, 30.0, 0.125), 1.0)
def test_a_game_moves_the_rating_toward_the_result_and_shrinks_the_deviation(
    player: Rating, opponent: Rating, score: float
) -> None:
    after = update(player, [(opponent, score)])
    surprise = score - expected(player, opponent)
    # Toward the result: up after doing better than expected, down after doing worse (clamped at the bounds).
    if surprise > 1e-9:
        assert after.rating >= player.rating
    elif surprise < -1e-9:
        assert after.rating <= player.rating
    # A game is information: the new deviation is at most the deviation before the game widened by the period's
    # volatility (Glickman's step 6), which only the floor may overrule. (Against an opponent thousands of points
    # away the game tells next to nothing, and the two are equal to the last digits.)
    widened = math.hypot(player.deviation, after.volatility * glicko2.SCALE)
    assert after.deviation <= widened * (1 + 1e-12) or after.deviation == glicko2.MIN_DEVIATION
    assert glicko2.MIN_RATING <= after.rating <= glicko2.MAX_RATING
    assert glicko2.MIN_DEVIATION <= after.deviation <= glicko2.MAX_DEVIATION
    assert glicko2.MIN_VOLATILITY <= after.volatility <= glicko2.MAX_VOLATILITY


@given(ratings, st.floats(-400, 400), st.floats(glicko2.MIN_DEVIATION, 150), st.sampled_from([0.0, 0.5, 1.0]))
def test_an_unsettled_player_is_surer_after_a_game_against_a_near_opponent(
    player: Rating, gap: float, opponent_deviation: float, score: float
) -> None:
    # At a new player's volatility (0.06): a very volatile player's deviation widens by more than one game tells,
    # which the property above covers.
    deviation = player.deviation if player.deviation >= 100 else 100 + player.deviation
    player = Rating(player.rating, deviation, glicko2.NEW_VOLATILITY)
    opponent = Rating(min(glicko2.MAX_RATING, max(glicko2.MIN_RATING, player.rating + gap)), opponent_deviation)
    assert update(player, [(opponent, score)]).deviation < player.deviation
