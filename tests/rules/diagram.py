"""ASCII diagrams for the rules tests: parse a position, render a board, set up a ``Game`` from a diagram.

A diagram is a block of rows, top row first (row 0 at the top, as in keima's internal convention), one
character per point, spaces ignored: ``X`` black stone, ``O`` white stone, ``.`` empty point, a lowercase
letter an empty point carrying that label (``a``, ``b``... as in the FFG rules' diagrams, used to name the
points a test plays or checks). A diagram may be narrower or shorter than the board it is set on: ``parse`` places it
in the top-left corner of a square board of ``size`` (default: the larger of its two dimensions), the rest
of the board being empty.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import keima
from keima.rules.board import BLACK, EMPTY, WHITE, Board

_SYMBOLS = {BLACK: "X", WHITE: "O", EMPTY: "."}


@dataclass(frozen=True)
class Position:
    """A parsed diagram: the board size, the stones of each colour and the labelled empty points."""

    size: int
    black: frozenset[int]
    white: frozenset[int]
    labels: dict[str, int] = field(default_factory=dict)

    def colors(self) -> list[int]:
        """Return the colour of every point, in point order."""
        out = [EMPTY] * (self.size * self.size)
        for p in self.black:
            out[p] = BLACK
        for p in self.white:
            out[p] = WHITE
        return out

    def at(self, label: str) -> int:
        """Return the point labelled ``label``; raise ``KeyError`` naming the label if there is none."""
        if label not in self.labels:
            raise KeyError(f"the diagram has no point labelled {label!r}")
        return self.labels[label]


def rows_of(text: str) -> list[str]:
    """Return the non-blank rows of ``text`` with spaces removed."""
    return [line.replace(" ", "") for line in text.strip("\n").splitlines() if line.strip()]


def parse(text: str, size: int | None = None) -> Position:
    """Return the ``Position`` drawn in ``text``, set on a ``size`` x ``size`` board.

    Raises ``ValueError`` for an unknown character, a label used twice, or a diagram larger than ``size``.
    """
    rows = rows_of(text)
    height = len(rows)
    width = max((len(r) for r in rows), default=0)
    n = size if size is not None else max(height, width)
    if height > n or width > n:
        raise ValueError(f"a {width}x{height} diagram does not fit a {n}x{n} board")
    black: set[int] = set()
    white: set[int] = set()
    labels: dict[str, int] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            p = r * n + c
            if ch == "X":
                black.add(p)
            elif ch == "O":
                white.add(p)
            elif ch == ".":
                continue
            elif ch.islower():
                if ch in labels:
                    raise ValueError(f"label {ch!r} is used twice in the diagram")
                labels[ch] = p
            else:
                raise ValueError(f"unknown character {ch!r} at row {r}, column {c} of the diagram")
    return Position(n, frozenset(black), frozenset(white), labels)


def render(colors: Sequence[int], size: int) -> str:
    """Return ``colors`` (one colour per point) as diagram rows, top row first."""
    return "\n".join("".join(_SYMBOLS[colors[r * size + c]] for c in range(size)) for r in range(size))


def board_colors(game: keima.Game) -> list[int]:
    """Return a copy of the colour of every point of ``game``'s board."""
    return list(game.board.colors)


def show(game: keima.Game) -> str:
    """Return ``game``'s board as diagram rows (for assertion messages)."""
    return render(board_colors(game), game.size)


def setup_game(
    text: str,
    rules: str | keima.Ruleset = "french",
    size: int | None = None,
    komi: float | None = None,
    handicap: int = 0,
) -> tuple[keima.Game, Position]:
    """Return a new ``Game`` whose board is the diagram ``text`` (set up SGF-style, without captures), and the
    parsed ``Position``. Black is to move unless the game's own set-up says otherwise."""
    pos = parse(text, size)
    game = keima.Game(size=pos.size, rules=rules, komi=komi, handicap=handicap)
    game.setup(black=sorted(pos.black), white=sorted(pos.white))
    return game, pos


def random_board(rng: random.Random, size: int, density: float) -> Board:
    """A random position in which every chain has a liberty (chains left without one are removed)."""
    board = Board(size)
    board.set_stones(
        (p, rng.choice((BLACK, WHITE)) if rng.random() < density else EMPTY) for p in range(size * size)
    )
    while dead := [s for ch in board.chains() if not ch.libs for s in ch.stones]:
        board.remove(dead)
    return board
