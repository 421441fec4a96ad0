"""What is still open on a board before play should end: borders where a move still gains a point, and capturing
races where a move still takes a liberty.

An *open border* is a neutral region (bordered by both colours, or by none: ``scoring.territory_regions``), once
the dead stones are off, that holds a point touching at most one colour: a stone there makes that point, and
often the ones behind it, one side's. A neutral region all of whose points touch both colours is *dame*: filling
it changes no count. Seki points (``life.seki_points``) are neither.

An *open capturing race* is a pair of adjacent chains of opposite colours, each with at most ``RACE_LIBERTIES``
liberties, neither alive whatever is played (``life.unconditionally_alive``), where one side can still take a
liberty of the other: a play on it that captures, or that leaves the played chain two liberties or more (a seki,
whose shared liberties neither side can fill without self-atari, is not open). Whoever moves there first may
capture; passing leaves the race to the opponent.

Facts of the board only: no reading of who wins the race, no estimate of who owns what (the callers bring the
dead stones they believe in).
"""

from __future__ import annotations

from dataclasses import dataclass

from keima.rules.board import BLACK, EMPTY, WHITE, Board, Chain
from keima.rules.life import seki_points, unconditionally_alive
from keima.rules.shape import play_effect

#: A chain with at most this many liberties may be in a capturing race (more: the race is far from being decided
#: by the next moves, and the count of the stones' area reads it).
RACE_LIBERTIES = 3


@dataclass(frozen=True)
class Race:
    """An open capturing race (see the module docstring): Black's chain, White's chain, and the points where a
    move takes a liberty of one of them (``moves``: capturing, or keeping two liberties)."""

    black: tuple[int, ...]
    white: tuple[int, ...]
    moves: frozenset[int]

    @property
    def point(self) -> int:
        """The point that names the race: the lowest stone of the two chains."""
        return min(self.black[0], self.white[0])


def open_borders(board: Board, dead: frozenset[int] = frozenset()) -> list[frozenset[int]]:
    """Return the open borders of ``board`` with the ``dead`` stones off (see the module docstring): each the
    empty points of one neutral region but its seki points, in the order of their lowest point. Empty when every
    neutral point is dame or seki. ``board`` is not changed."""
    final = board.copy()
    final.remove(dead)
    colors = final.colors
    regions = [(pts, border) for pts, border in final.regions((EMPTY,))
               if len({colors[q] for q in border}) != 1]
    if not regions:
        return []
    seki = seki_points(final)
    out: list[frozenset[int]] = []
    for pts, _border in regions:
        rest = frozenset(pts - seki)
        if any(len({colors[q] for q in final.nbrs[p]} - {EMPTY}) < 2 for p in rest):
            out.append(rest)
    return out


def open_races(board: Board) -> list[Race]:
    """Return the open capturing races of ``board`` (see the module docstring), in the order of their lowest
    stones. ``board`` is not changed."""
    alive = unconditionally_alive(board, BLACK) | unconditionally_alive(board, WHITE)
    short = [ch for ch in board.chains() if len(ch.libs) <= RACE_LIBERTIES and ch.stones[0] not in alive]
    if len(short) < 2:
        return []
    ids = {id(ch) for ch in short}
    out: list[Race] = []
    for a in short:
        if a.color != BLACK:
            continue
        seen: set[int] = set()
        for s in a.stones:
            for q in board.nbrs[s]:
                b = board.chain_at[q]
                if b is None or b.color != WHITE or id(b) not in ids or id(b) in seen:
                    continue
                seen.add(id(b))
                moves = _takes(board, b, BLACK) | _takes(board, a, WHITE)
                if moves:
                    out.append(Race(tuple(sorted(a.stones)), tuple(sorted(b.stones)), frozenset(moves)))
    return sorted(out, key=lambda r: (r.point, r.black[0], r.white[0]))


def _takes(board: Board, chain: Chain, color: int) -> set[int]:
    """The liberties of ``chain`` where ``color`` may play without self-atari, or capturing."""
    out: set[int] = set()
    for p in chain.libs:
        effect = play_effect(board, p, color)
        if effect.captured or effect.liberties >= 2:
            out.add(p)
    return out
