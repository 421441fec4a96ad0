"""keima's computer opponent.

Public API (stable): ``make_player(level)`` returns a ``Player`` whose ``genmove(game, color, seconds)`` answers a
board point or ``None`` (pass), never resigning (that is the seat's decision, ``keima.seat``);
``estimate_dead(game)`` returns the dead stones of the current position; ``estimate_ownership(game)`` each point's
expected owner (+1 Black .. -1 White); ``LEVELS`` names the strength levels (the first three also accepted as
1..3), ``RANKED`` those named by the rank they play at (``keima.ai.ranked``).
``keima.ai.standin`` is the simple stand-in policy. numba is imported on first use, not by ``import keima.ai``.
"""

from __future__ import annotations

from keima.ai.player import LEVELS, RANKED, Player, estimate_dead, estimate_ownership, level_name

__all__ = ["LEVELS", "RANKED", "Player", "estimate_dead", "estimate_ownership", "level_name", "make_player"]


def make_player(level: str | int = "strong", seed: int | None = None) -> Player:
    """Return a computer player at ``level`` (one of ``LEVELS``: ``"beginner"``, ``"15k"``..., or 1..3).

    Raises ``ValueError`` for an unknown level."""
    return Player(level, seed=seed)
