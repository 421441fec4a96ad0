"""keima: Go under the French Go Federation rules.

The main names (see docs/api.md): ``Game`` (the referee's game), ``IllegalMove``, ``GameError``, ``RulesError``,
``Ruleset``, ``get_ruleset``; SGF records: ``load_sgf`` (a game from a path, bytes or text), ``dump_sgf`` (a game
as SGF text), ``SgfError``; ``__version__``.
"""

from __future__ import annotations

from keima.record import SgfError, dump_sgf, load_sgf
from keima.rules import (
    BLACK,
    EMPTY,
    PRESETS,
    WHITE,
    Event,
    Game,
    GameError,
    IllegalMove,
    RulesError,
    Ruleset,
    Score,
    get_ruleset,
)
from keima.version import VERSION as __version__

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
    "SgfError",
    "__version__",
    "dump_sgf",
    "get_ruleset",
    "load_sgf",
]
