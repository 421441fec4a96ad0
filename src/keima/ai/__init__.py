"""keima's computer opponent.

Public API (stable): ``make_player(level)`` returns a ``Player`` whose ``genmove(game, color, seconds)`` answers a
board point or ``None`` (pass), never resigning (that is the seat's decision, ``keima.seat``);
``estimate_dead(game)`` returns the dead stones of the current position; ``estimate_ownership(game)`` each point's
expected owner (+1 Black .. -1 White); ``LEVELS`` names the strength levels (also accepted as 1..3).
``keima.ai.standin`` is the simple stand-in policy. numba is imported on first use, not by ``import keima.ai``.
"""

from __future__ import annotations

from keima.ai.player import LEVELS, Player, estimate_dead, estimate_ownership, level_name

__all__ = ["LEVELS", "Player", "estimate_dead", "estimate_ownership", "level_name", "make_player"]


def make_player(level: str | int = "strong", seed: int | None = None) -> Player:
    """Return a computer player at ``level`` (``"beginner"``, ``"intermediate"``, ``"strong"`` or 1..3).

    Raises ``ValueError`` for an unknown level."""
    return Player(level, seed=seed)
