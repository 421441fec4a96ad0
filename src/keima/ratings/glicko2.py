"""The Glicko-2 rating update (Mark Glickman, "Example of the Glicko-2 system", glicko.net), within OGS's bounds.

``update(player, games)`` is one rating period: the player's rating, deviation and volatility after the games
``games`` (each an opponent as they were before the period, and the player's score 1, 0.5 or 0). keima rates one
game at a time, as OGS does (``keima.ratings.game``): every rated game is a period of its own for both players.

The bounds (``MIN_DEVIATION``...) are OGS's (the ``goratings`` repository): a deviation never falls so low that a
rating freezes nor rises above a new player's uncertainty by much, a volatility that stays sane after a streak of
surprises, and ratings that stay inside the rank scale.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The system constant: how much the volatility may change in one period (Glickman suggests 0.3 to 1.2).
TAU = 0.5
#: Glicko-2's internal scale: a rating of 1500 + SCALE x mu, a deviation of SCALE x phi.
SCALE = 173.7178
#: The rating the internal scale is centred on.
CENTRE = 1500.0
#: The tolerance of the volatility's root finding (Glickman's epsilon).
EPSILON = 1e-6
MIN_DEVIATION, MAX_DEVIATION = 30.0, 500.0
MIN_VOLATILITY, MAX_VOLATILITY = 0.01, 0.15
MIN_RATING, MAX_RATING = 100.0, 6000.0
#: A new player with no declared rank.
NEW_RATING, NEW_DEVIATION, NEW_VOLATILITY = 1500.0, 350.0, 0.06
#: A bound on the root finding's steps: it converges in a handful; this only guards against a float oddity.
_MAX_STEPS = 100


@dataclass(frozen=True)
class Rating:
    """A player's rating, its deviation (the uncertainty, one standard deviation) and volatility."""

    rating: float = NEW_RATING
    deviation: float = NEW_DEVIATION
    volatility: float = NEW_VOLATILITY


def _clamp(x: float, lo: float, hi: float) -> float:
    return min(hi, max(lo, x))


def _g(phi: float) -> float:
    # How much an opponent's uncertainty flattens the expected score.
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(player: Rating, opponent: Rating) -> float:
    """The player's expected score against ``opponent`` (0..1), the opponent's deviation taken into account."""
    mu, mu_j = (player.rating - CENTRE) / SCALE, (opponent.rating - CENTRE) / SCALE
    return 1.0 / (1.0 + math.exp(-_g(opponent.deviation / SCALE) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, v: float, delta: float) -> float:
    # Glickman's step 5: the new volatility is exp(x / 2) for the root x of f, found by the Illinois variant of
    # regula falsi between a bracket [a, b] where f changes sign.
    ln_s2 = math.log(sigma * sigma)
    phi2, d2 = phi * phi, delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (d2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - ln_s2) / (TAU * TAU)

    a = ln_s2
    if d2 > phi2 + v:
        b = math.log(d2 - phi2 - v)
    else:
        k = 1
        while f(ln_s2 - k * TAU) < 0 and k < _MAX_STEPS:
            k += 1
        b = ln_s2 - k * TAU
    fa, fb = f(a), f(b)
    for _ in range(_MAX_STEPS):
        if abs(b - a) <= EPSILON:
            break
        c = a + (a - b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            a, fa = b, fb
        else:
            fa /= 2.0
        b, fb = c, fc
    return math.exp(a / 2.0)


def update(player: Rating, games: Sequence[tuple[Rating, float]]) -> Rating:
    """The player after one rating period of ``games`` (opponent before the period, score 1/0.5/0), within the
    bounds above. A period without games leaves the player as they are (keima does not age ratings). Raises
    ``ValueError`` for a score outside 0..1."""
    if not games:
        return player
    mu, phi = (player.rating - CENTRE) / SCALE, player.deviation / SCALE
    inv_v = 0.0
    gain = 0.0
    for opp, score in games:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is 0, 0.5 or 1, not {score!r}")
        g = _g(opp.deviation / SCALE)
        e = expected(player, opp)
        inv_v += g * g * e * (1.0 - e)
        gain += g * (score - e)
    v = 1.0 / inv_v
    # Kept within its bounds before it widens the deviation: the volatility stored is the one the update used.
    sigma = _clamp(_volatility(phi, player.volatility, v, v * gain), MIN_VOLATILITY, MAX_VOLATILITY)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * gain
    return Rating(
        rating=_clamp(CENTRE + SCALE * mu_new, MIN_RATING, MAX_RATING),
        deviation=_clamp(SCALE * phi_new, MIN_DEVIATION, MAX_DEVIATION),
        volatility=sigma,
    )
