"""``keima.Game``: the referee's game plus the record I/O that the pure rules core must not import."""

from __future__ import annotations

from keima.rules.game import Game as _RulesGame


class Game(_RulesGame):
    """A ``keima.rules.game.Game`` that can also write itself as SGF (see docs/api.md)."""

    def to_sgf(self) -> str:
        """Return the game as an SGF FF[4] record (``keima.record.dump_sgf``)."""
        from keima.record import dump_sgf  # record/ sits above rules/: imported on use, not at start-up

        return dump_sgf(self)
