"""The stand-in move policy: ``keima gtp --policy``, ``keima match ... keima:policy``, and the safety net
that ``genmove`` falls back on when the bot (``keima.ai``) fails or answers an illegal move.

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

It passes when no move is left after those exclusions, and also when the opponent has just passed and
counting the board as it stands (every stone alive) under the game's own rules already gives it the win.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from keima.rules.game import Game

Move = int | None | Literal["resign"]

EMPTY, BLACK, WHITE = 0, 1, 2


def board_colors(game: Game) -> list[int]:
    """Return the colour (EMPTY, BLACK or WHITE) of every point of ``game``'s board, indexed by point."""
    return list(game.board.colors)


@dataclass(frozen=True)
class MoveEffect:
    """What a board play would do, as the policy sees it."""

    point: int
    captured: int
    """Opposing stones removed."""
    chain_size: int
    """Stones in the played chain after the move."""
    liberties: int
    """Liberties of the played chain after the move (captures counted)."""
    saved: int
    """Stones of the mover's chains that were in atari and have two or more liberties afterwards."""
    ataris: int
    """Opposing stones left in atari by the move (chains that had two liberties, one of them here)."""
    own_eye: bool
    """The point is a true eye of the mover (filling it would destroy it)."""


class Analyzer:
    """Chains and liberties of one position, and the effect of a candidate play on them."""

    def __init__(self, colors: list[int], size: int) -> None:
        self.size = size
        self.colors = colors
        n = size * size
        self.neighbours: list[tuple[int, ...]] = []
        self.diagonals: list[tuple[int, ...]] = []
        for p in range(n):
            r, c = divmod(p, size)
            self.neighbours.append(
                tuple(rr * size + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                      if 0 <= rr < size and 0 <= cc < size)
            )
            self.diagonals.append(
                tuple(rr * size + cc for rr, cc in ((r - 1, c - 1), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c + 1))
                      if 0 <= rr < size and 0 <= cc < size)
            )
        self.chain_of: list[int] = [-1] * n
        self.chain_stones: list[list[int]] = []
        self.chain_libs: list[set[int]] = []
        for p in range(n):
            if colors[p] != EMPTY and self.chain_of[p] < 0:
                self._flood(p)

    def _flood(self, start: int) -> None:
        idx = len(self.chain_stones)
        color = self.colors[start]
        stones = [start]
        libs: set[int] = set()
        self.chain_of[start] = idx
        i = 0
        while i < len(stones):
            for q in self.neighbours[stones[i]]:
                qc = self.colors[q]
                if qc == EMPTY:
                    libs.add(q)
                elif qc == color and self.chain_of[q] < 0:
                    self.chain_of[q] = idx
                    stones.append(q)
            i += 1
        self.chain_stones.append(stones)
        self.chain_libs.append(libs)

    def is_true_eye(self, p: int, color: int) -> bool:
        """True when the empty point ``p`` is surrounded by ``color`` and at most a safe number of its
        diagonals are held by the opponent (none on the edge, one in the centre)."""
        if self.colors[p] != EMPTY:
            return False
        if any(self.colors[q] != color for q in self.neighbours[p]):
            return False
        other = 3 - color
        bad = sum(1 for q in self.diagonals[p] if self.colors[q] == other)
        return bad == 0 if len(self.diagonals[p]) < 4 else bad <= 1

    def effect(self, p: int, color: int) -> MoveEffect:
        """Return the :class:`MoveEffect` of ``color`` playing on the empty point ``p``."""
        own: set[int] = set()
        opp: set[int] = set()
        empties: set[int] = set()
        for q in self.neighbours[p]:
            qc = self.colors[q]
            if qc == EMPTY:
                empties.add(q)
            elif qc == color:
                own.add(self.chain_of[q])
            else:
                opp.add(self.chain_of[q])
        captured_points: set[int] = set()
        ataris = 0
        for ch in opp:
            libs = self.chain_libs[ch]
            if libs == {p}:
                captured_points.update(self.chain_stones[ch])
            elif len(libs) == 2:
                ataris += len(self.chain_stones[ch])
        stones: set[int] = {p}
        libs_after: set[int] = set(empties)
        saved = 0
        for ch in own:
            stones.update(self.chain_stones[ch])
            libs_after |= self.chain_libs[ch]
        libs_after.discard(p)
        if captured_points:
            for s in captured_points:
                if any(q in stones for q in self.neighbours[s]):
                    libs_after.add(s)
        # Saved: the mover's chains in atari that this move joins and lifts to two liberties or more
        # (a capture that saves a chain is found first anyway, captures having priority).
        for ch in own:
            if len(self.chain_libs[ch]) == 1 and len(libs_after) >= 2:
                saved += len(self.chain_stones[ch])
        return MoveEffect(
            point=p,
            captured=len(captured_points),
            chain_size=len(stones),
            liberties=len(libs_after),
            saved=saved,
            ataris=ataris if len(libs_after) >= 2 else 0,
            own_eye=self.is_true_eye(p, color),
        )

    def line_weight(self, p: int) -> float:
        """Weight of a point by its distance to the edge: the first line is rarely worth playing."""
        r, c = divmod(p, self.size)
        line = min(r, c, self.size - 1 - r, self.size - 1 - c)
        return (0.15, 1.0, 2.0, 2.0)[min(line, 3)] if self.size >= 7 else (0.5, 1.0)[min(line, 1)]


def choose_move(game: Game, color: int, rng: random.Random, candidates: Iterable[int] | None = None) -> int | None:
    """Return the policy's board move for ``color`` in ``game``, or None to pass.

    ``candidates`` defaults to ``game.legal_moves(color)``; only moves among them are ever returned.
    Never raises for a game in phase "play"; does not change ``game``.
    """
    legal = sorted(game.legal_moves(color) if candidates is None else candidates)
    if not legal:
        return None
    analyzer = Analyzer(board_colors(game), game.size)
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
    """A player object (same interface as ``keima.ai.make_player``) that plays :func:`choose_move`.

    ``seed`` makes its choices reproducible: the same seed and the same game give the same moves.
    """

    name = "keima-policy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def genmove(self, game: Game, color: int, seconds: float) -> Move:
        """Return a legal board point for ``color``, or None to pass. Never resigns; ignores ``seconds``."""
        if game.consecutive_passes >= 1 and _wins_now(game, color):
            return None
        return choose_move(game, color, self.rng)


def _wins_now(game: Game, color: int) -> bool:
    # Counting with every stone alive; the policy only passes back when that count already favours it.
    try:
        margin = game.score(dead=()).margin
    except Exception:  # a scoring failure must never stop the policy from playing on
        return False
    return margin > 0 if color == BLACK else margin < 0
