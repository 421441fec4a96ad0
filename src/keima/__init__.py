"""keima: Go under the French Go Federation rules.

The main names: ``Game``, ``IllegalMove``, ``GameError``, ``RulesError``, ``Ruleset``, ``get_ruleset``,
``load_sgf`` (see docs/api.md).
"""

from __future__ import annotations

from typing import Any

from keima.game import Game
from keima.rules import (
    BLACK,
    EMPTY,
    PRESETS,
    WHITE,
    Event,
    GameError,
    IllegalMove,
    RulesError,
    Ruleset,
    Score,
    get_ruleset,
)

__version__ = "0.1.0"

__all__ = [
    "BLACK",
    "EMPTY",
    "PRESETS",
    "WHITE",
    "Event",
    "Game",
    "GameError",
    "IllegalMove",
    "Ruleset",
    "RulesError",
    "Score",
    "get_ruleset",
    "load_sgf",
]


def load_sgf(source: Any) -> Game:
    """Read an SGF record (SGF text as a ``str``, the file's bytes, or a ``pathlib.Path`` to read) and return
    the game replayed through the referee (``keima.record.load_sgf``); raises ``keima.record.SgfError`` naming
    what was wrong and where."""
    from keima.record import load_sgf as _load

    return _load(source)
