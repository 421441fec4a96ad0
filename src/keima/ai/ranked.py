"""Levels that play like a player of a given rank: the policy network's choice among a few moves drawn at random.

A strong program that throws games (a random blunder now and then) plays like nobody; a weak player makes
plausible moves that miss what matters. So a ranked level does not search: for each move it draws a share of its
candidate moves (``Sampling.share``: legal, not an own true eye), favouring the points near the opponent's last
move (``Sampling.local``: weaker players answer where the opponent just played), and plays the one the policy
network (``keima.ai.network``, trained on GNU Go's games) likes best among them, or one drawn by the network's
preference at a temperature (``Sampling.temperature``). The more moves drawn, the more often the network's own
choice is among them and the stronger the level; with every move drawn it is the network alone. This is the idea
of KaTrain's rank-calibrated bots (pick the policy's favourite among n random moves); the drawing, the locality
and the levels' shares here are ours, and each level's rank is measured against GNU Go (``bench/rank_levels.py``,
docs/bot.md, « Levels by rank »).

Passing and resigning stay the seat's decisions (``keima.seat``), as for the other levels; a ranked level is a
teaching level there (it plays on while a border is open, and does not resign early).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy and numba load when a ranked level first plays, not when keima.ai is imported
    import numpy as np

    from keima.ai import network
    from keima.rules.game import Game

#: How far from the opponent's last move a point counts as near (rows and columns, the 5x5 square around it).
NEAR = 2


@dataclass(frozen=True)
class Sampling:
    """How a ranked level draws its moves: ``share`` of the candidates (0 < share <= 1, at least one move),
    ``local`` the weight of a point near the opponent's last move against 1 elsewhere (>= 1), ``temperature`` 0
    for the network's favourite among the drawn, or above 0 to draw among them by the network's preference
    softened by it."""

    share: float
    local: float = 1.0
    temperature: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 < self.share <= 1.0:
            raise ValueError(f"share must be in (0, 1], not {self.share}")
        if self.local < 1.0:
            raise ValueError(f"local must be at least 1, not {self.local}")
        if self.temperature < 0.0:
            raise ValueError(f"temperature must be at least 0, not {self.temperature}")


def board_network(size: int) -> network.Network:
    """The policy network for ``size`` x ``size`` boards: the one shipped for that size, else the shipped one of
    the nearest size, resized (``keima.ai.network.resized``). Raises ``LookupError`` when none is shipped."""
    from keima.ai import network

    net = network.shipped(size)
    if not network.is_empty(net):
        return net
    for other in sorted((9, 13, 19), key=lambda s: (abs(s - size), -s)):
        net = network.shipped(other)
        if not network.is_empty(net):
            return network.resized(net, size)
    raise LookupError("no policy network is shipped")


def policy_scores(game: Game, color: int, compiled: bool = True) -> np.ndarray:
    """The policy network's score (a logit) of every point of ``game``'s board (``row * n + col``) for ``color``
    to play. ``compiled``: read the planes with the compiled code (False: interpreted, while numba compiles in
    the background). ``game`` is not changed."""
    import numpy as np

    from keima.ai import fastboard as fb
    from keima.ai import network
    from keima.ai.interpreted import interpreted
    from keima.ai.planes import N_PLANES, fill_planes
    from keima.ai.quick import forward as numpy_forward
    from keima.ai.searcher import load

    n = game.size
    net = board_network(n)
    x = np.zeros((n * n, N_PLANES), dtype=np.float32)
    if compiled:
        network.single_threaded_blas()  # small matrices: BLAS threads would only compete with the searches
        fill_planes(load(game, color), color, x)
        scores: np.ndarray = network.forward(x, n, *net)
    else:
        interpreted(fill_planes)(load(game, color, set_stone=interpreted(fb.set_stone)), color, x)
        scores = numpy_forward(x, n, *net)
    return scores.astype(np.float64)


def draw(candidates: Sequence[int], weights: Sequence[float], k: int, rng: random.Random) -> list[int]:
    """``k`` distinct moves of ``candidates`` drawn at random without replacement, each in proportion to its
    weight among those left (all of them when ``k`` is at least their number)."""
    if k >= len(candidates):
        return list(candidates)
    # One key per move, u ** (1 / weight), and the k largest: a weighted draw without replacement in one pass.
    keys = sorted(((rng.random() ** (1.0 / w), p) for p, w in zip(candidates, weights, strict=True)), reverse=True)
    return [p for _key, p in keys[:k]]


def near(game: Game, p: int, q: int | None) -> bool:
    """Whether point ``p`` lies within ``NEAR`` rows and columns of point ``q`` (False when ``q`` is None)."""
    if q is None:
        return False
    n = game.size
    return abs(p // n - q // n) <= NEAR and abs(p % n - q % n) <= NEAR


def sampled_move(game: Game, color: int, candidates: Sequence[int], sampling: Sampling, rng: random.Random,
                 scores: np.ndarray | None = None) -> int | None:
    """The ranked level's move for ``color`` among ``candidates`` (see the module docstring); None when there is
    no candidate. ``scores``: the network's scores of the points (default: ``policy_scores`` of the position)."""
    if not candidates:
        return None
    if scores is None:
        scores = policy_scores(game, color)
    played = game.last_move
    last = played.point if played is not None and played.color != color else None
    weights = [sampling.local if near(game, p, last) else 1.0 for p in candidates]
    k = max(1, math.ceil(sampling.share * len(candidates)))
    drawn = draw(candidates, weights, k, rng)
    if sampling.temperature <= 0.0:
        return max(drawn, key=lambda p: (scores[p], -p))
    top = max(float(scores[p]) for p in drawn)
    weights = [math.exp((float(scores[p]) - top) / sampling.temperature) for p in drawn]
    return int(rng.choices(drawn, weights=weights, k=1)[0])
