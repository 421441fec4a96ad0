"""Read a referee position (``keima.Game``) into plain data for the bot's Python-side tactics.

The bot never changes the game it is given: it reads the board's colours and keeps its own copies. Neighbours
and chains come from the referee's own board code, so the bot and the referee cannot disagree on them.
"""

from __future__ import annotations

from typing import Any

from keima.rules.board import BLACK, EMPTY, WHITE, Board
from keima.rules.coords import neighbours_table

__all__ = ["BLACK", "EMPTY", "WHITE", "board_colors", "chains", "neighbours"]


def board_colors(game: Any) -> list[int]:
    """Return the colour of every point of ``game``'s board (``row * size + col``; 0 empty, 1 black, 2 white)."""
    return list(game.board.colors)


def neighbours(p: int, size: int) -> tuple[int, ...]:
    """Return the on-board neighbours of point ``p``."""
    return neighbours_table(size)[p]


def chains(colors: list[int], size: int) -> list[tuple[int, list[int], set[int]]]:
    """Return every chain of the position ``colors`` as ``(color, stones, liberties)``."""
    board = Board(size)
    board.set_stones(enumerate(colors))
    return [(ch.color, ch.stones, ch.libs) for ch in board.chains()]
