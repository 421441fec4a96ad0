"""3x3 shape patterns for the playout policy and the search priors.

A pattern is a 3x3 diagram centred on the candidate move, read from the side to move: ``X`` own stone, ``O``
opposing stone, ``.`` empty, ``#`` border, ``?`` anything, ``x`` not own (``O`` or ``.``), ``o`` not opposing.
Each pattern is matched in its 8 symmetries and with the colours swapped (a good shape for one side is a vital
point for the other). The patterns are the usual hane / cut / edge shapes of Monte-Carlo Go programs, written here
from their Go meaning.

The compiled code reads a neighbourhood as a 16-bit code: 2 bits per neighbour (0 empty, 1 own, 2 opposing,
3 border) in the order NW, N, NE, W, E, SW, S, SE; ``PATTERN_TABLE[code]`` is 1 when some pattern matches.
"""

from __future__ import annotations

import itertools

import numpy as np

PATTERNS: tuple[str, ...] = (
    # hane: answer a contact move by bending round the opposing stone
    "XOX" "..." "???",
    "XO." "..." "?.?",
    "XO?" "X.." "x.?",
    # cut: separate two opposing stones that touch diagonally
    "XO?" "O.o" "?o?",
    "XO?" "O.X" "???",
    "?X?" "O.O" "ooo",
    # ko-ish and nose shapes
    "OX?" "o.O" "???",
    # edge: block, hane and cut along the first line
    "X.?" "O.?" "###",
    "OX?" "x.O" "###",
    "?X?" "o.O" "###",
    "?XO" "o.o" "###",
    "?OX" "X.O" "###",
)

_VALUES = {"." : (0,), "X": (1,), "O": (2,), "#": (3,), "?": (0, 1, 2, 3), "x": (0, 2), "o": (0, 1)}

# Neighbour order of the code: NW, N, NE, W, E, SW, S, SE as (row, col) offsets.
_ORDER = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def _grid(pattern: str) -> dict[tuple[int, int], str]:
    return {(r - 1, c - 1): pattern[r * 3 + c] for r in range(3) for c in range(3)}


def _symmetries(grid: dict[tuple[int, int], str]) -> list[dict[tuple[int, int], str]]:
    out = []
    for flip in (False, True):
        for rot in range(4):
            g = {}
            for (r, c), v in grid.items():
                rr, cc = (c, r) if flip else (r, c)
                for _ in range(rot):
                    rr, cc = cc, -rr
                g[(rr, cc)] = v
            out.append(g)
    return out


def _codes(grid: dict[tuple[int, int], str], swap: bool) -> list[int]:
    choices = []
    for off in _ORDER:
        vals = _VALUES[grid[off]]
        if swap:
            vals = tuple({1: 2, 2: 1}.get(v, v) for v in vals)
        choices.append(vals)
    out = []
    for combo in itertools.product(*choices):
        out.append(sum(v << (2 * i) for i, v in enumerate(combo)))
    return out


def build_table(patterns: tuple[str, ...] = PATTERNS) -> np.ndarray:
    """Return the 65,536-entry match table (``uint8``) for ``patterns`` (see the module docstring)."""
    table = np.zeros(1 << 16, dtype=np.uint8)
    for pat in patterns:
        if len(pat) != 9 or pat[4] != "." or any(ch not in _VALUES for ch in pat):
            raise ValueError(f"bad 3x3 pattern {pat!r}: 9 characters of .XO#?xo with '.' in the centre")
        for g in _symmetries(_grid(pat)):
            for swap in (False, True):
                for code in _codes(g, swap):
                    table[code] = 1
    return table


PATTERN_TABLE: np.ndarray = build_table()
