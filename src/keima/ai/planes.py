"""What the policy network sees: a position as a stack of 0/1 planes over the board, from the side to move.

``fill_planes(b, c, x)`` writes, for the player ``c`` about to move on fast board ``b``, one row of ``x`` per
point (referee order: ``row * n + col``) and one column per plane:

- ``PL_OWN``, ``PL_OPP``, ``PL_EMPTY``: whose stone is there;
- ``PL_OWN_LIBS`` .. ``+2``: an own stone whose chain has one, two, three or more liberties (exact counts);
  ``PL_OPP_LIBS`` .. ``+2``: the same for opposing stones;
- ``PL_LAST``, ``PL_LAST2``: the last move and the one before (nothing after a pass);
- ``PL_KO``: the simple-ko point, which the side to move may not take back (``c`` is meant to be the side to
  move; for the other player the plane still marks it);
- ``PL_CANDIDATE``: the moves the search considers (legal for ``c`` and not its own true eye);
- ``PL_CAPTURE``: a candidate that captures; ``PL_SELF_ATARI``: one that leaves its own chain in atari
  without capturing;
- ``PL_LADDER_ATARI``: a candidate that does not capture and puts a two-liberty chain in atari that cannot
  escape (a working ladder or a net);
  ``PL_LADDER_ESCAPE``: extending a chain in atari that still dies in a ladder;
- ``PL_ONES``: every point of the board (the network's zero padding then marks the edge).

The tactical planes reuse the search's own readings (``keima.ai.fastboard``, ``keima.ai.tactics``), so the
network and the hand-written prior agree on what a capture or a ladder is. Colours are read from the side to
move: a shape and its colour-swapped twin look the same to the network when the other side is to play.
Compiled with numba; the board is not changed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from keima.ai.fastboard import (
    COL,
    EMPTY,
    HEAD,
    M_KO,
    M_LAST,
    M_LAST2,
    M_N,
    M_W,
    META,
    in_atari,
    is_legal,
    is_true_eye,
    liberties,
    self_atari_size,
)
from keima.ai.tactics import escape_is_laddered, ladder_atari

(PL_OWN, PL_OPP, PL_EMPTY, PL_OWN_LIBS, _PL_OWN_LIBS2, _PL_OWN_LIBS3, PL_OPP_LIBS, _PL_OPP_LIBS2,
 _PL_OPP_LIBS3, PL_LAST, PL_LAST2, PL_KO, PL_CANDIDATE, PL_CAPTURE, PL_SELF_ATARI, PL_LADDER_ATARI,
 PL_LADDER_ESCAPE, PL_ONES) = range(18)
N_PLANES = 18


@njit(cache=True)
def fill_planes(b: np.ndarray, c: int, x: np.ndarray) -> None:
    """Write the planes of ``c`` to move on ``b`` into ``x`` (float32, ``n * n`` rows, ``N_PLANES`` columns;
    overwritten entirely)."""
    n = b[META, M_N]
    w = b[META, M_W]
    col = b[COL]
    opp = 3 - c
    x[:, :] = 0.0
    # Exact liberties, counted once per chain (by its head).
    libs = np.zeros(b.shape[1], dtype=np.int64)
    for r in range(n):
        for cc in range(n):
            p = (r + 1) * w + cc + 1
            k = r * n + cc
            x[k, PL_ONES] = 1.0
            v = col[p]
            if v == EMPTY:
                x[k, PL_EMPTY] = 1.0
                continue
            h = b[HEAD, p]
            if libs[h] == 0:
                libs[h] = liberties(b, h)
            plane = (PL_OWN_LIBS if v == c else PL_OPP_LIBS) + min(libs[h], 3) - 1
            x[k, PL_OWN if v == c else PL_OPP] = 1.0
            x[k, plane] = 1.0
    for slot, plane in ((M_LAST, PL_LAST), (M_LAST2, PL_LAST2), (M_KO, PL_KO)):
        p = b[META, slot]
        if p > 0 and col[p] != 3:
            x[(p // w - 1) * n + p % w - 1, plane] = 1.0
    for r in range(n):
        for cc in range(n):
            p = (r + 1) * w + cc + 1
            if col[p] != EMPTY or not is_legal(b, p, c) or is_true_eye(b, p, c):
                continue
            k = r * n + cc
            x[k, PL_CANDIDATE] = 1.0
            captures = False
            saves = False
            for q in (p - 1, p + 1, p - w, p + w):
                if col[q] == opp and in_atari(b, b[HEAD, q]):
                    captures = True
                elif col[q] == c and in_atari(b, b[HEAD, q]):
                    saves = True
            if captures:
                x[k, PL_CAPTURE] = 1.0
            elif self_atari_size(b, p, c) > 0:
                x[k, PL_SELF_ATARI] = 1.0
            if not captures:
                if ladder_atari(b, p, c):
                    x[k, PL_LADDER_ATARI] = 1.0
                if saves and escape_is_laddered(b, p, c):
                    x[k, PL_LADDER_ESCAPE] = 1.0
