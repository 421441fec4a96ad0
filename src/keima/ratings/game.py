"""The rating of one game between two players: one Glicko-2 period for each, from their values before the game.

The handicap and komi count as a rank difference (``keima.ratings.handicap``): each player is rated against the
opponent as the head start made them, moved by that many ranks on the rank scale (where a rank is the same
distance at every level; in rating points it is not). This is how OGS's one-game-at-a-time analysis (goratings)
applies it.
"""

from __future__ import annotations

from keima.ratings import glicko2, ranks
from keima.ratings.glicko2 import Rating

#: The deviation of a player who declared a rank before their first rated game.
DECLARED_DEVIATION = 250.0
#: A game where either player made fewer moves than this is unrated (an abandoned start).
MIN_MOVES = 5


def initial(rank: str | None) -> Rating:
    """A new player's rating: at their declared rank (``"5k"``) with ``DECLARED_DEVIATION``, else the default.
    An unreadable rank counts as none."""
    if rank:
        try:
            return Rating(ranks.rating_of_rank(rank), DECLARED_DEVIATION, glicko2.NEW_VOLATILITY)
        except ValueError:
            pass
    return Rating()


def _moved(r: Rating, rank_shift: float) -> Rating:
    shifted = ranks.rating_of_number(ranks.rank_number(r.rating) + rank_shift)
    return Rating(shifted, r.deviation, r.volatility)


def rate(black: Rating, white: Rating, black_score: float, rank_difference: float = 0.0) -> tuple[Rating, Rating]:
    """(Black, White) after a game that Black scored ``black_score`` in (1, 0.5 or 0), where Black's head start
    was worth ``rank_difference`` ranks. Raises ``ValueError`` for another score."""
    if black_score not in (0.0, 0.5, 1.0):
        raise ValueError(f"a score is 0, 0.5 or 1, not {black_score!r}")
    new_black = glicko2.update(black, [(_moved(white, -rank_difference), black_score)])
    new_white = glicko2.update(white, [(_moved(black, rank_difference), 1.0 - black_score)])
    return new_black, new_white


def score_of(result: str | None) -> float | None:
    """Black's score in a game of ``result`` ("B+R" 1, "W+3.5" 0, "0" 0.5), None for a game that is not rated
    ("Void", no result)."""
    if result is None:
        return None
    if result.startswith("B+"):
        return 1.0
    if result.startswith("W+"):
        return 0.0
    if result == "0":
        return 0.5
    return None
