"""Move features of the learned prior: what a candidate move looks like, as a handful of small integers.

The learned prior (``keima.ai.prediction``) scores a move as the sum of the weights of its features, the way
Coulom's "Elo ratings of move patterns" (2007) scores moves; a softmax over the legal moves turns the scores
into the probability that a player would choose each move. The features of ``c`` playing ``p``:

- ``F_SMALL``: the 3x3 neighbourhood, each neighbour empty / own / opposing / off the board, and for the four
  orthogonal neighbours that hold a stone, whether its chain has one liberty, two, or more (32 bits);
- ``F_LARGE``: the 5x5 window around the point, stones and edge only (48 bits);
- ``F_LAST`` / ``F_LAST2``: the distance to the last and the second-last move, ``dx + dy + max(dx, dy)``
  capped at 17 (0: no such move or a pass);
- ``F_LINE``: the line (1..5, the fifth meaning "fifth or higher"), whether the 5x5 window is empty, and the
  phase of the game (under 10%, 30%, or more of the board covered), as one index of 30;
- ``F_TACTICS``: a bit per tactical fact (``TACTICS``): captures, saves, self-ataris, ataris and ladders.

Both shape codes are canonical: the smallest of the codes of the 8 rotations and reflections of the
neighbourhood, so a shape and its mirror image share one weight. Colours are not swapped: ``own`` is always the
side that plays the move. Everything here is compiled (numba) and reads the board without changing it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from keima.ai.fastboard import (
    BORDER,
    COL,
    EMPTY,
    HEAD,
    M_LAST,
    M_LAST2,
    M_N,
    M_NEMPTY,
    M_W,
    META,
    SIZE,
    in_atari,
    liberties,
    self_atari_size,
    stones_near,
)
from keima.ai.tactics import atari_ladders, escape_is_laddered

F_SMALL, F_LARGE, F_LAST, F_LAST2, F_LINE, F_TACTICS = range(6)
N_FEATURES = 6
N_DIST = 18
N_LINE = 30
TACTICS = (
    "captures",            # an adjacent opposing chain is in atari
    "captures-big",        # ... of two stones or more
    "captures-last",       # ... the chain of the last move
    "saves",               # an adjacent own chain is in atari
    "saves-into-ladder",   # ... and the extended chain still dies in a ladder
    "self-atari-one",      # the new stone alone is left in atari
    "self-atari-big",      # a chain of two stones or more is left in atari
    "atari-ladder",        # an atari on a two-liberty chain that cannot escape
    "atari",               # an atari on a two-liberty chain that can
)
N_TACTICS = len(TACTICS)


@njit(cache=True, inline="always")
def _sym(s: int, dr: int, dc: int) -> tuple[int, int]:
    """Offset (dr, dc) under symmetry ``s`` (0..7) of the square: bit 0 flips rows, bit 1 columns, bit 2 swaps."""
    if s & 1:
        dr = -dr
    if s & 2:
        dc = -dc
    if s & 4:
        return dc, dr
    return dr, dc


@njit(cache=True)
def shape_codes(b: np.ndarray, p: int, c: int) -> tuple[int, int]:
    """Return the canonical (3x3 with liberties, 5x5) codes of empty point ``p`` for the player ``c``."""
    w = b[META, M_W]
    n = b[META, M_N]
    col = b[COL]
    r = p // w - 1
    cc = p % w - 1
    state = np.empty(25, dtype=np.int64)  # by (dr + 2) * 5 + dc + 2, absolute orientation
    libs = np.zeros(25, dtype=np.int64)
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            rr = r + dr
            c2 = cc + dc
            i = (dr + 2) * 5 + dc + 2
            if rr < 0 or rr >= n or c2 < 0 or c2 >= n:
                state[i] = 3
                continue
            k = col[(rr + 1) * w + c2 + 1]
            state[i] = 0 if k == EMPTY else 1 if k == c else 3 if k == BORDER else 2
            if abs(dr) + abs(dc) == 1 and (state[i] == 1 or state[i] == 2):
                q = (rr + 1) * w + c2 + 1
                if in_atari(b, b[HEAD, q]):
                    libs[i] = 1
                elif liberties(b, q) == 2:
                    libs[i] = 2
    best_small = -1
    best_large = -1
    for s in range(8):
        small = 0
        large = 0
        for dr in range(-2, 3):
            for dc in range(-2, 3):
                if dr == 0 and dc == 0:
                    continue
                tr, tc = _sym(s, dr, dc)
                i = (tr + 2) * 5 + tc + 2
                large = large * 4 + state[i]
                if abs(dr) <= 1 and abs(dc) <= 1:
                    small = small * 16 + state[i] * 4 + libs[i]
        if best_small < 0 or small < best_small:
            best_small = small
        if best_large < 0 or large < best_large:
            best_large = large
    return best_small, best_large


@njit(cache=True, inline="always")
def _distance(a: int, p: int, w: int) -> int:
    """Coulom's distance ``dx + dy + max(dx, dy)`` between points ``a`` and ``p``, capped at 17; 0 without ``a``."""
    if a <= 0:
        return 0
    dx = abs(a % w - p % w)
    dy = abs(a // w - p // w)
    return min(dx + dy + max(dx, dy), N_DIST - 1)


@njit(cache=True)
def move_features(b: np.ndarray, p: int, c: int, out: np.ndarray) -> None:
    """Write the ``N_FEATURES`` raw features of ``c`` playing the empty point ``p`` into ``out``."""
    w = b[META, M_W]
    n = b[META, M_N]
    col = b[COL]
    small, large = shape_codes(b, p, c)
    out[F_SMALL] = small
    out[F_LARGE] = large
    out[F_LAST] = _distance(b[META, M_LAST], p, w)
    out[F_LAST2] = _distance(b[META, M_LAST2], p, w)
    r = p // w - 1
    cc = p % w - 1
    line = min(min(r, cc), min(n - 1 - r, n - 1 - cc), 4)
    empty = 1 if stones_near(b, p) == 0 else 0
    covered = n * n - b[META, M_NEMPTY]
    phase = 0 if 10 * covered < n * n else 1 if 10 * covered < 3 * n * n else 2
    out[F_LINE] = (line * 2 + empty) * 3 + phase
    bits = 0
    opp = 3 - c
    last = b[META, M_LAST]
    last_head = b[HEAD, last] if last > 0 and col[last] == opp else -1
    saves = False
    for q in (p - 1, p + 1, p - w, p + w):
        k = col[q]
        if k == opp:
            h = b[HEAD, q]
            if in_atari(b, h):
                bits |= 1
                if b[SIZE, h] >= 2:
                    bits |= 2
                if h == last_head:
                    bits |= 4
            elif (bits & 128) == 0 and liberties(b, q) == 2:
                # Any chain put in atari that cannot escape makes the move a ladder atari, whatever the order.
                bits |= 128 if atari_ladders(b, p, c, h) else 256
        elif k == c and in_atari(b, b[HEAD, q]):
            saves = True
    if saves:
        bits |= 8
        if (bits & 1) == 0 and escape_is_laddered(b, p, c):
            bits |= 16
    sa = self_atari_size(b, p, c)
    if sa == 1:
        bits |= 32
    elif sa >= 2:
        bits |= 64
    if bits & 128:
        bits &= ~256
    out[F_TACTICS] = bits
