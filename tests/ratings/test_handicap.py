"""The rank difference a handicap and a komi stand for (OGS's goratings rule, docs/ratings.md)."""

from __future__ import annotations

import pytest

from keima.ratings.game import rate
from keima.ratings.glicko2 import Rating
from keima.ratings.handicap import rank_difference
from keima.rules.ruleset import get_ruleset

# (handicap, size, komi, rules, ranks). Worked by hand: perfect komi 6 (territory) or 7 (area), a free move
# 12 points (13 under area counting), one rank = 12 points on 19x19, 3 times that on 13x13, 6 times on 9x9.
TABLE = [
    (0, 19, 7.5, "french", 0.0),  # even at the usual komi: even, whatever 7.5 against 7 says
    (0, 19, 6.5, "japanese", 0.0),
    (0, 9, 7.5, "french", 0.0),
    (0, 19, 0.5, "japanese", (6 - 0.5) / 12),  # no komi: Black's half-rank
    (0, 19, 0.5, "chinese", (7 - 0.5) / 12),
    (2, 19, 0.5, "japanese", (6 - 0.5 + 12) / 12),  # one extra move
    (9, 19, 0.5, "japanese", (6 - 0.5 + 8 * 12) / 12),
    (2, 19, 0.5, "french", (7 - (0.5 + 1) + 13) / 12),  # French rules: White gets n - 1 points back
    (4, 19, 0.5, "chinese", (7 - (0.5 + 4) + 3 * 13) / 12),  # Chinese rules: n points
    (0, 9, 0.5, "japanese", (6 - 0.5) * 6 / 12),
    (0, 13, 0.5, "japanese", (6 - 0.5) * 3 / 12),
    (0, 19, 12.0, "japanese", (6 - 12) / 12),  # a big komi: White's head start
]


@pytest.mark.parametrize(("handicap", "size", "komi", "rules", "expected"), TABLE)
def test_rank_difference(handicap: int, size: int, komi: float, rules: str, expected: float) -> None:
    assert rank_difference(handicap, size, komi, get_ruleset(rules)) == pytest.approx(expected)


def test_a_handicap_win_moves_the_ratings_less_than_an_even_win() -> None:
    # Black 5k wins against White 1d with four stones: about what was expected, so smaller changes than the same
    # win in an even game.
    black, white = Rating(1620, 100), Rating(1960, 100)
    shift = rank_difference(4, 19, 0.5, get_ruleset("japanese"))
    even_b, even_w = rate(black, white, 1.0)
    hc_b, hc_w = rate(black, white, 1.0, shift)
    assert 0 < hc_b.rating - black.rating < even_b.rating - black.rating
    assert 0 < white.rating - hc_w.rating < white.rating - even_w.rating
