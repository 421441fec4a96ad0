"""Dead stones and ownership of a position: heavy playouts, checked by Benson's unconditional life and seki.

A chain is dead when, averaged over its stones and over playouts started with either side to move, the points it
stands on end up owned by the opponent. Chains that ``keima.rules.life`` proves unconditionally alive (Benson) or
in seki are never dead, whatever the playouts say (random playouts tend to break sekis).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from keima.ai.engine import ownership
from keima.rules import life as _life


def protected_stones(game: Any) -> frozenset[int]:
    """Return stones that are never dead: unconditionally alive (Benson) for either colour, or in seki."""
    board = game.board
    out: set[int] = set()
    for color in (1, 2):
        out |= _life.unconditionally_alive(board, color)
    out |= _life.seki_stones(board)
    return frozenset(out)


def dead_from_ownership(game: Any, own: np.ndarray, threshold: float = 0.0) -> frozenset[int]:
    """Return the stones of chains whose mean ownership favours the opponent by more than ``threshold``
    (excluding ``protected_stones``)."""
    board = game.board
    safe = protected_stones(game)
    dead: set[int] = set()
    for ch in board.chains():
        if any(s in safe for s in ch.stones):
            continue
        sign = 1.0 if ch.color == 1 else -1.0
        mean = sign * float(np.mean([own[s] for s in ch.stones]))
        if mean < -threshold:
            dead.update(ch.stones)
    return frozenset(dead)


def estimate_dead(game: Any, playouts: int | None = None, seed: int | None = None) -> frozenset[int]:
    """Return the dead stones of ``game``'s current position. The game is not changed.

    ``playouts``: how many playouts to average (default by board size); ``seed`` makes it reproducible."""
    if not any(game.board.colors):
        return frozenset()
    own = ownership(game, playouts, seed)
    return dead_from_ownership(game, own)
