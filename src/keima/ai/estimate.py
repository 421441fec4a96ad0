"""Dead stones and ownership of a position: heavy playouts, checked by Benson's unconditional life and seki.

A chain is dead when, averaged over its stones and over playouts started with either side to move, the points it
stands on end up owned by the opponent. Chains that ``keima.rules.life`` proves unconditionally alive (Benson), or
that are in seki once the other dead stones are removed, are never dead, whatever the playouts say (random
playouts tend to break sekis).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from keima.ai.searcher import ownership
from keima.rules import life as _life

SEKI_VETO_LIMIT = 0.7


def protected_stones(game: Any) -> frozenset[int]:
    """Return the stones that are unconditionally alive (Benson) for either colour: never dead."""
    board = game.board
    out: set[int] = set()
    for color in (1, 2):
        out |= _life.unconditionally_alive(board, color)
    return frozenset(out)


def dead_from_ownership(game: Any, own: np.ndarray, threshold: float = 0.0) -> frozenset[int]:
    """Return the stones of chains whose mean ownership favours the opponent by more than ``threshold``,
    except unconditionally alive chains and chains in seki.

    Seki is a property of the final board, once the dead stones are off: each candidate chain is tested with the
    other candidates removed (on the board as it stands, a dead group next to a living one can look like a
    seki). The seki veto applies only where the playouts are not decisive (mean ownership above
    ``-SEKI_VETO_LIMIT``): the seki test looks at shapes, and a chain that the opponent captures in nearly
    every playout is dead even when its shape passes the test (a capturing race it loses)."""
    board = game.board
    safe = protected_stones(game)
    candidates: list[tuple[list[int], float]] = []
    for ch in board.chains():
        if any(s in safe for s in ch.stones):
            continue
        sign = 1.0 if ch.color == 1 else -1.0
        mean = sign * float(np.mean([own[s] for s in ch.stones]))
        if mean < -threshold:
            candidates.append((list(ch.stones), mean))
    dead: set[int] = {s for stones, _ in candidates for s in stones}
    for stones, mean in candidates:
        if mean <= -SEKI_VETO_LIMIT:
            continue
        scratch = board.copy()
        scratch.remove(dead - set(stones))
        if stones[0] in _life.seki_stones(scratch):
            dead -= set(stones)
    return frozenset(dead)


def estimate_dead(game: Any, playouts: int | None = None, seed: int | None = None,
                  owner: Callable[..., np.ndarray] = ownership) -> frozenset[int]:
    """Return the dead stones of ``game``'s current position. The game is not changed.

    ``playouts``: how many playouts to average (default by board size); ``seed`` makes it reproducible.
    ``owner``: the ownership estimate (``keima.ai.quick.ownership`` before the search is compiled)."""
    if not any(game.board.colors):
        return frozenset()
    own = owner(game, playouts, seed)
    return dead_from_ownership(game, own)
