"""keima: Go under the French Go Federation rules.

The main names (see docs/api.md): ``Game`` (the referee's game), ``IllegalMove``, ``GameError``, ``RulesError``,
``Ruleset``, ``get_ruleset``; SGF records: ``load_sgf`` (a game from a path, bytes or text), ``dump_sgf`` (a game
as SGF text), ``SgfError``; ``__version__``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from keima.record import SgfError, dump_sgf, load_sgf

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
    "dump_sgf",
    "get_ruleset",
    "load_sgf",
]

#: Names of ``keima.record`` offered here; loaded on first use, so that ``import keima`` (the referee alone, as
#: the bot and the server's workers need it) does not pay for sgfmill.
_RECORD_NAMES = frozenset({"SgfError", "dump_sgf", "load_sgf"})


def __getattr__(name: str) -> Any:
    """``load_sgf``, ``dump_sgf`` and ``SgfError`` from ``keima.record``, and ``__version__`` (the installed
    version, from the package metadata), each read on first use. Raises ``AttributeError`` for other names."""
    if name in _RECORD_NAMES:
        return getattr(importlib.import_module("keima.record"), name)
    if name == "__version__":
        return importlib.import_module("keima.version").package_version()
    raise AttributeError(f"module 'keima' has no attribute {name!r}")
