"""Ranks from ratings and back: OGS's logarithmic scale, shown in the French form ("5k", "2d").

A rating r stands for the rank number ``ln(r / BASE) x STEP``: 0 is 30 kyu, 29 is 1 kyu, 30 is 1 dan, 38 is 9 dan;
one rank is a constant ratio of ratings, so that a rank is narrower in rating points among beginners, whose
results differ more from game to game. A rank is provisional while the rating's deviation is ``PROVISIONAL`` or
more: it is then shown with a question mark ("5k?").
"""

from __future__ import annotations

import math

#: OGS's logarithmic rank scale (goratings, RatingMath.py): rank number = ln(rating / BASE) x STEP.
BASE = 525.0
STEP = 23.15
#: The rank number of 1 dan; 1 kyu is one below it.
FIRST_DAN = 30
MAX_KYU, MAX_DAN = 30, 9
#: A deviation from which a rank is provisional (OGS's cut-off).
PROVISIONAL = 160.0


def rank_number(rating: float) -> float:
    """The rank number of ``rating`` (> 0): 0 for 30k, 30 for 1d, fractional in between."""
    return math.log(rating / BASE) * STEP


def rating_of_number(number: float) -> float:
    """The rating whose rank number is ``number`` (the inverse of ``rank_number``)."""
    return BASE * math.exp(number / STEP)


def rank_label(rating: float) -> str:
    """The rank of ``rating`` in its short French form, from "30k" to "9d" (beyond them, the end ones)."""
    n = math.floor(rank_number(rating))
    if n < FIRST_DAN:
        return f"{min(MAX_KYU, FIRST_DAN - n)}k"
    return f"{min(MAX_DAN, n - FIRST_DAN + 1)}d"


def is_provisional(deviation: float) -> bool:
    """Whether a rank with this deviation is provisional."""
    return deviation >= PROVISIONAL


def shown_rank(rating: float, deviation: float) -> str:
    """The rank as a page shows it: "5k", or "5k?" while provisional."""
    return rank_label(rating) + ("?" if is_provisional(deviation) else "")


def rating_of_rank(rank: str) -> float:
    """The rating a declared rank ("15k", "3d", the form ``keima.server.accounts.text.check_rank`` gives) stands for: the
    middle of the rank, so that it reads back as the same rank. Raises ``ValueError`` for anything else."""
    digits, kind = rank[:-1], rank[-1:]
    if not digits.isdigit() or kind not in ("k", "d"):
        raise ValueError(f"a rank is written like \"15k\" or \"3d\", not {rank!r}")
    n = int(digits)
    if not (1 <= n <= (MAX_KYU if kind == "k" else MAX_DAN)):
        raise ValueError(f"no such rank: {rank!r}")
    number = FIRST_DAN - n if kind == "k" else FIRST_DAN + n - 1
    return rating_of_number(number + 0.5)
