"""Read a referee position (``keima.Game``) into plain data for the bot.

The bot never changes the game it is given: it reads the board's colours, the side to move and the referee's
legality, and keeps its own copies.
"""

from __future__ import annotations

from typing import Any

EMPTY = 0
BLACK = 1
WHITE = 2


def board_colors(game: Any) -> list[int]:
    """Return the colour of every point of ``game``'s board (``row * size + col``; 0 empty, 1 black, 2 white)."""
    board = game.board
    colors = getattr(board, "colors", None)
    if colors is not None:
        return list(colors)
    return [int(board.get(p)) for p in range(game.size * game.size)]


def neighbours(p: int, size: int) -> list[int]:
    """Return the on-board neighbours of point ``p``."""
    r, c = divmod(p, size)
    out = []
    if r > 0:
        out.append(p - size)
    if r < size - 1:
        out.append(p + size)
    if c > 0:
        out.append(p - 1)
    if c < size - 1:
        out.append(p + 1)
    return out


def chains(colors: list[int], size: int) -> list[tuple[int, list[int], set[int]]]:
    """Return every chain as ``(color, stones, liberties)`` by flood fill (plain Python; small boards or rare use)."""
    seen = [False] * len(colors)
    out: list[tuple[int, list[int], set[int]]] = []
    for p, col in enumerate(colors):
        if col == EMPTY or seen[p]:
            continue
        stones = [p]
        libs: set[int] = set()
        seen[p] = True
        i = 0
        while i < len(stones):
            for q in neighbours(stones[i], size):
                if colors[q] == EMPTY:
                    libs.add(q)
                elif colors[q] == col and not seen[q]:
                    seen[q] = True
                    stones.append(q)
            i += 1
        out.append((col, stones, libs))
    return out
