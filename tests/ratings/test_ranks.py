"""Ranks from ratings on OGS's logarithmic scale, and the ratings of declared ranks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from keima.ratings import ranks
from keima.ratings.game import initial

# rating -> rank: ln(rating / 525) x 23.15, 30 = 1 dan, floors to the rank below, ends at 30k and 9d.
TABLE = [
    (100, "30k"),  # below the scale: its end
    (525, "30k"),  # rank number 0
    (1000, "16k"),  # 14.92
    (1500, "6k"),  # 24.30: a new player
    (1900, "1k"),  # 29.78
    (1960, "1d"),  # 30.49
    (2000, "1d"),  # 30.96
    (2200, "4d"),  # 33.17
    (2750, "9d"),  # 38.34
    (6000, "9d"),  # 56.4: above the scale: its end
]


@pytest.mark.parametrize(("rating", "rank"), TABLE)
def test_rank_of_rating(rating: float, rank: str) -> None:
    assert ranks.rank_label(rating) == rank


@pytest.mark.parametrize(("number", "rank"), [(0.0, "30k"), (0.99, "30k"), (1.0, "29k"), (29.999, "1k"),
                                              (30.0, "1d"), (37.99, "8d"), (38.0, "9d")])
def test_rank_boundaries(number: float, rank: str) -> None:
    # Just above a boundary, so that the float round trip through the rating cannot cross it.
    assert ranks.rank_label(ranks.rating_of_number(number + 1e-9)) == rank


@pytest.mark.parametrize(("rating", "deviation", "shown"), [(1500, 350, "6k?"), (1500, 160, "6k?"),
                                                              (1500, 159.9, "6k"), (2000, 60, "1d")])
def test_provisional_ranks_are_shown_with_a_question_mark(rating: float, deviation: float, shown: str) -> None:
    assert ranks.shown_rank(rating, deviation) == shown


@given(st.sampled_from([f"{n}k" for n in range(1, 31)] + [f"{n}d" for n in range(1, 10)]))
def test_a_declared_rank_reads_back_as_itself(rank: str) -> None:
    r = initial(rank)
    assert ranks.rank_label(r.rating) == rank
    assert r.deviation == 250 and r.volatility == 0.06


@pytest.mark.parametrize("bad", ["0k", "31k", "10d", "5p", "k", "", "5 kyu"])
def test_a_rank_that_is_not_one_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        ranks.rating_of_rank(bad)
    assert initial(bad) == initial(None)


def test_a_player_with_no_rank_starts_at_1500() -> None:
    r = initial(None)
    assert (r.rating, r.deviation, r.volatility) == (1500, 350, 0.06)
