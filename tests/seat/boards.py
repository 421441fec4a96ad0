"""Boards for the seat's tests, as ASCII diagrams: ``X`` Black, ``O`` White, ``.`` empty, one row a line."""

from __future__ import annotations

from keima.rules import coords
from keima.rules.board import BLACK
from keima.rules.game import Game


def board(text: str, *, to_move: int = BLACK, komi: float | None = None, rules: str = "french") -> Game:
    """A game set up with the stones of the diagram ``text``, ``to_move`` to play."""
    rows = text.split()
    n = len(rows)
    game = Game(n, rules=rules, komi=komi)
    game.setup(black=[r * n + c for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "X"],
               white=[r * n + c for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "O"],
               to_move=to_move)
    return game


def at(game: Game, vertex: str) -> int:
    """The point of the GTP ``vertex`` on ``game``'s board."""
    p = coords.from_gtp(vertex, game.size)
    assert p is not None
    return p
