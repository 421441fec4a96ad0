"""The computer player behind ``keima.ai.make_player``.

``Player.genmove`` proposes a move; whatever any search behind it suggests, the move returned is always one the
referee accepts (``game.legality(move, color) is None``), falling back to the next candidate and finally to a pass.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from keima.ai.position import EMPTY, board_colors, chains, neighbours

Move = int | None | Literal["resign"]

LEVELS: tuple[str, ...] = ("beginner", "intermediate", "strong")


def level_name(level: str | int) -> str:
    """Return the canonical level name for ``level`` (a name of ``LEVELS`` or 1..3).

    Raises ``ValueError`` naming the accepted values when ``level`` is none of them.
    """
    if isinstance(level, bool):
        raise ValueError(f"unknown bot level {level!r}: use one of {', '.join(LEVELS)} or 1..{len(LEVELS)}")
    if isinstance(level, int):
        if 1 <= level <= len(LEVELS):
            return LEVELS[level - 1]
    elif isinstance(level, str):
        text = level.strip().lower()
        if text in LEVELS:
            return text
        if text.isdigit() and 1 <= int(text) <= len(LEVELS):
            return LEVELS[int(text) - 1]
    raise ValueError(f"unknown bot level {level!r}: use one of {', '.join(LEVELS)} or 1..{len(LEVELS)}")


def own_eye(colors: list[int], size: int, p: int, color: int) -> bool:
    """Return True when the empty point ``p`` is a true eye of ``color`` (filling it would only hurt)."""
    for q in neighbours(p, size):
        if colors[q] != color:
            return False
    r, c = divmod(p, size)
    bad = 0
    edge = False
    for dr in (-1, 1):
        for dc in (-1, 1):
            rr, cc = r + dr, c + dc
            if 0 <= rr < size and 0 <= cc < size:
                if colors[rr * size + cc] == 3 - color:
                    bad += 1
            else:
                edge = True
    return bad == 0 if edge else bad <= 1


def heuristic_scores(colors: list[int], size: int, color: int, moves: list[int], rng: random.Random) -> dict[int, float]:
    """Score each candidate move with cheap tactics: capture, escape from atari, no own-eye filling,
    no self-atari of two stones or more. Moves scored ``None`` are left out (own eyes, big self-atari)."""
    opp = 3 - color
    chain_of: dict[int, tuple[int, list[int], set[int]]] = {}
    for ch in chains(colors, size):
        for s in ch[1]:
            chain_of[s] = ch
    out: dict[int, float] = {}
    for m in moves:
        if own_eye(colors, size, m, color):
            continue
        score = rng.random()
        captured = 0
        libs: set[int] = set()
        joined = 1
        seen: list[int] = []
        for q in neighbours(m, size):
            k = colors[q]
            if k == EMPTY:
                libs.add(q)
                continue
            ch = chain_of[q]
            if id(ch) in seen:
                continue
            seen.append(id(ch))
            if k == opp and len(ch[2]) == 1:
                captured += len(ch[1])
            elif k == color:
                joined += len(ch[1])
                libs |= ch[2]
        libs.discard(m)
        if captured:
            score += 10.0 + 5.0 * captured
            libs.add(-1)  # a capture always gains at least one liberty
        escaping = sum(
            len(chain_of[q][1]) for q in neighbours(m, size) if colors[q] == color and len(chain_of[q][2]) == 1
        )
        if escaping and len(libs) >= 2:
            score += 8.0 + 3.0 * escaping
        if len(libs) <= 1 and not captured and joined >= 2:
            continue  # self-atari of a group
        r, c = divmod(m, size)
        line = min(r, c, size - 1 - r, size - 1 - c)
        if size >= 7 and line == 0:
            score -= 0.5
        out[m] = score
    return out


class Player:
    """A computer player at one of ``LEVELS``; create it with ``make_player``."""

    def __init__(self, level: str | int = "strong", seed: int | None = None) -> None:
        self.level = level_name(level)
        self._rng = random.Random(seed)

    def reset(self) -> None:
        """Forget anything kept between moves (search trees); call it when a new game starts."""

    def genmove(self, game: Any, color: int | None = None, seconds: float | None = None) -> Move:
        """Return the move for ``color`` (default: the side to move) in ``game``: a board point, ``None`` for a
        pass, or ``"resign"``. The game is not changed. The returned point is always legal for the referee.
        ``seconds`` is the time budget for this move (``None``: the level's default; 0 still answers at once)."""
        if color is None:
            color = game.to_move
        if game.phase not in ("play", "handicap"):
            return None
        colors = board_colors(game)
        size = game.size
        moves = game.legal_moves(color)
        scores = heuristic_scores(colors, size, color, moves, self._rng)
        for m in sorted(scores, key=lambda p: -scores[p]):
            if game.legality(m, color) is None:
                return m
        return None

    def propose_dead(self, game: Any) -> frozenset[int]:
        """Return the stones this player believes dead in ``game``'s current position."""
        return estimate_dead(game)

    def accepts(self, game: Any) -> bool:
        """Return True when the dead stones marked in ``game`` (``game.dead``) are the ones this player believes dead."""
        return frozenset(game.dead) == self.propose_dead(game)


def estimate_dead(game: Any) -> frozenset[int]:
    """Return the dead stones of ``game``'s current position (a first rule: chains the opponent can capture at once).

    The game is not changed."""
    colors = board_colors(game)
    size = game.size
    dead: set[int] = set()
    for _col, stones, libs in chains(colors, size):
        if len(libs) == 1:
            dead.update(stones)
    return frozenset(dead)
