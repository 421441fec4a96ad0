"""Demo boards (docs/teaching.md): a shared board whose tree (moves played by the referee, setup stones, marks,
comments, variations) those in control change by versioned ops that every watcher receives live, with questions
answered by the watchers, a chat, and the board's SGF.
"""

from __future__ import annotations

from keima.server.boards import routes
from keima.server.boards.model import BoardTree
from keima.server.boards.routes import BOARDS_MAX_BODY
from keima.server.boards.service import Boards, tree_from_sgf

__all__ = ["BOARDS_MAX_BODY", "BoardTree", "Boards", "routes", "tree_from_sgf"]
