"""The stand-in move policy: ``keima gtp --policy``, ``keima match ... keima:policy``, and the safety net
that the seat (``keima.seat``) falls back on when the bot fails or answers an illegal move.

The policy is deliberately simple, deterministic for a given seed, and safe. For the colour to move it
looks only at moves that ``Game.legal_moves`` accepts (so it never plays an illegal move under any ruleset,
superko included) and picks, in this order of priority:

1. **Capture**: a move that captures stones; the largest capture wins (ties broken by the seeded
   random generator). A capture that leaves a chain of two or more stones in atari is not taken.
2. **Escape atari**: a move that gives one of its chains in atari two or more liberties; the largest
   chain saved wins.
3. **Weighted random**: any other move, except those that fill one of its own true eyes or that leave the
   played chain with a single liberty (a self-atari, which an immediate capture would punish). The weight
   favours the third and fourth lines over the edge, moves that keep many liberties, and moves that put an
   opposing chain in atari.

It passes when no move is left after those exclusions. When to pass otherwise, or to resign, is the seat's
decision (its manners), not the policy's.

The facts it weighs (captures, liberties after the play, ataris, true eyes) are read by
:func:`keima.rules.shape.play_effect` from the referee's own chains; nothing here counts liberties itself.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Literal

from keima.rules import Board, PlayEffect, play_effect

if TYPE_CHECKING:
    from keima.rules.game import Game

Move = int | None | Literal["resign"]


def board_colors(game: Game) -> list[int]:
    """Return the colour (EMPTY, BLACK or WHITE) of every point of ``game``'s board, indexed by point."""
    return list(game.board.colors)


class Analyzer:
    """One position as the policy reads it: the referee's board (its chains and liberties) and the
    :class:`~keima.rules.shape.PlayEffect` of a candidate play, with the policy's own weight of a point."""

    def __init__(self, colors: Sequence[int], size: int) -> None:
        """Read the position ``colors`` (one colour per point) of a ``size`` board into a board of its own.

        Raises ``ValueError`` for an unsupported size or a colour list of the wrong length."""
        if len(colors) != size * size:
            raise ValueError(f"{len(colors)} colours do not make a {size}x{size} board")
        board = Board(size)
        board.set_stones(enumerate(colors))
        self.board = board
        self.size = size

    @classmethod
    def of_board(cls, board: Board) -> Analyzer:
        """Return an analyzer that reads ``board`` itself, without a copy; the board must not change while the
        analyzer is in use."""
        analyzer = cls.__new__(cls)
        analyzer.board = board
        analyzer.size = board.size
        return analyzer

    @property
    def chain_stones(self) -> list[list[int]]:
        """The stones of every chain, chains in the order of their lowest point."""
        return [list(ch.stones) for ch in self.board.chains()]

    def effect(self, p: int, color: int) -> PlayEffect:
        """Return the :class:`~keima.rules.shape.PlayEffect` of ``color`` playing on the empty point ``p``.

        Raises ``ValueError`` when ``p`` holds a stone."""
        return play_effect(self.board, p, color)

    def line_weight(self, p: int) -> float:
        """Weight of a point by its distance to the edge: the first line is rarely worth playing."""
        r, c = divmod(p, self.size)
        line = min(r, c, self.size - 1 - r, self.size - 1 - c)
        return (0.15, 1.0, 2.0, 2.0)[min(line, 3)] if self.size >= 7 else (0.5, 1.0)[min(line, 1)]


def policy_move(game: Game, color: int, rng: random.Random, candidates: Iterable[int] | None = None) -> int | None:
    """Return the policy's board move for ``color`` in ``game``, or None to pass.

    ``candidates`` defaults to ``game.legal_moves(color)``; only moves among them are ever returned.
    Never raises for a game in phase "play"; does not change ``game``.
    """
    legal = sorted(game.legal_moves(color) if candidates is None else candidates)
    if not legal:
        return None
    analyzer = Analyzer.of_board(game.board)
    effects = [analyzer.effect(p, color) for p in legal]

    # A capture that leaves the capturing chain of two or more stones in atari is no better than any
    # other self-atari (a snapback), so it is not taken.
    captures = [e for e in effects if e.captured > 0 and (e.liberties >= 2 or e.chain_size == 1)]
    if captures:
        best = max(e.captured for e in captures)
        return rng.choice([e.point for e in captures if e.captured == best])

    escapes = [e for e in effects if e.saved > 0]
    if escapes:
        best = max(e.saved for e in escapes)
        return rng.choice([e.point for e in escapes if e.saved == best])

    pool = [e for e in effects if not e.own_eye and e.liberties >= 2]
    if not pool:
        return None
    weights = [
        analyzer.line_weight(e.point) * (1.0 + 0.5 * min(e.liberties, 4)) * (3.0 if e.ataris else 1.0)
        for e in pool
    ]
    return rng.choices([e.point for e in pool], weights=weights, k=1)[0]


class PolicyPlayer:
    """A player object (same interface as ``keima.ai.make_player``) that plays :func:`policy_move`.

    ``seed`` makes its choices reproducible: the same seed and the same game give the same moves.
    """

    name = "keima-policy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def genmove(self, game: Game, color: int, seconds: float) -> Move:
        """Return a legal board point for ``color``, or None to pass when no move is left. Never resigns; ignores
        ``seconds``."""
        return policy_move(game, color, self.rng)
