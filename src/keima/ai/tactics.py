"""Tactical reading on the fast board: exact liberty counts of small chains and ladders.

Used by the search's priors and by the learned move features (``keima.ai.features``); compiled with numba like
the board itself. Every function reads on the board it is given or on a copy, never changing it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from keima.ai.fastboard import (
    COL,
    EMPTY,
    HEAD,
    M_STAMP,
    M_W,
    MARK,
    META,
    NXT,
    PLIB,
    atari_lib,
    in_atari,
    is_legal,
    liberties,
    place,
)


@njit(cache=True)
def two_libs(b: np.ndarray, p: int) -> tuple[int, int, int]:
    """Up to three liberties of the chain at ``p``: (count capped at 3, first, second)."""
    w = b[META, M_W]
    col = b[COL]
    h = b[HEAD, p]
    s = h
    l1 = -1
    l2 = -1
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if col[q] == EMPTY and q != l1 and q != l2:
                if l1 < 0:
                    l1 = q
                elif l2 < 0:
                    l2 = q
                else:
                    return 3, l1, l2
        s = b[NXT, s]
        if s == h:
            break
    return (2 if l2 >= 0 else 1 if l1 >= 0 else 0), l1, l2


@njit(cache=True)
def can_capture_around(b: np.ndarray, p: int) -> bool:
    """True when the chain at ``p`` touches an opposing chain in atari (it escapes by capturing)."""
    w = b[META, M_W]
    col = b[COL]
    opp = 3 - col[p]
    h = b[HEAD, p]
    s = h
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if col[q] == opp and in_atari(b, b[HEAD, q]):
                return True
        s = b[NXT, s]
        if s == h:
            break
    return False


#: Positions a ladder reading may visit (about two per step of a ladder: the atari that works and the one that
#: lets the chain out); a ladder across the whole board needs about 80.
LADDER_NODES = 256


@njit(cache=True)
def ladder_captures(b: np.ndarray, p: int) -> bool:
    """True when the chain at ``p`` (two liberties or fewer, its opponent to play) dies in a ladder: the attacker
    keeps it in atari at every step, the defender extends, and it never reaches three liberties or escapes by
    capturing. Reads on copies (``b`` is not changed). The attacker's two ataris are both read at every step, so
    the answer does not depend on the order of the liberties (nor on the board's orientation) unless the reading
    runs past ``LADDER_NODES`` positions, which counts as an escape."""
    d = b[COL, p]
    a = 3 - d
    stack = [b.copy()]
    nodes = 0
    while len(stack) > 0 and nodes < LADDER_NODES:
        cur = stack.pop()
        nodes += 1
        n_libs, l1, l2 = two_libs(cur, p)
        if n_libs <= 1:
            return True
        if n_libs >= 3:
            continue
        for k in range(2):
            x = l1 if k == 0 else l2
            y = l2 if k == 0 else l1
            if not is_legal(cur, x, a):
                continue
            trial = cur.copy()
            place(trial, x, a)
            if liberties(trial, x) <= 1 or can_capture_around(trial, p):
                continue  # the atari stone can be taken, or the chain captures its way out
            if not is_legal(trial, y, d):
                return True
            place(trial, y, d)
            libs = liberties(trial, p)
            if libs <= 1:
                return True
            if libs == 2:
                stack.append(trial)
    return False


@njit(cache=True)
def escape_is_laddered(b: np.ndarray, p: int, c: int) -> bool:
    """``c`` extends at ``p`` to save a chain in atari: True when the extended chain still dies in a ladder."""
    t = b.copy()
    place(t, p, c)
    if t[COL, p] != c:
        return True
    libs = liberties(t, p)
    if libs <= 1:
        return True
    return libs == 2 and not can_capture_around(t, p) and ladder_captures(t, p)


@njit(cache=True)
def atari_ladders(b: np.ndarray, p: int, c: int, h: int) -> bool:
    """``c`` plays ``p``, putting the two-liberty opposing chain ``h`` in atari: True when the chain cannot escape
    (capturing a stone in atari or extending leads into a working ladder)."""
    t = b.copy()
    place(t, p, c)
    if t[COL, p] != c or liberties(t, p) <= 1:
        return False
    if t[COL, h] != 3 - c:
        return True  # captured outright
    if not in_atari(t, t[HEAD, h]) or can_capture_around(t, h):
        return False
    lib = atari_lib(t, t[HEAD, h])
    if not is_legal(t, lib, 3 - c):
        return True
    place(t, lib, 3 - c)
    libs = liberties(t, h)
    if libs <= 1:
        return True
    return libs == 2 and not can_capture_around(t, h) and ladder_captures(t, h)


@njit(cache=True)
def ladder_atari(b: np.ndarray, p: int, c: int) -> bool:
    """True when ``c`` playing ``p`` puts a neighbouring two-liberty opposing chain in atari that cannot escape
    (``atari_ladders``): a working ladder or a net, a capture in waiting."""
    w = b[META, M_W]
    col = b[COL]
    for q in (p - 1, p + 1, p - w, p + w):
        # Pseudo-liberties first (a chain of two liberties has at most eight): exact counts walk the chain.
        if col[q] == 3 - c and b[PLIB, b[HEAD, q]] <= 8 and two_libs(b, q)[0] == 2 \
                and atari_ladders(b, p, c, b[HEAD, q]):
            return True
    return False


@njit(cache=True)
def liberties_after(b: np.ndarray, p: int, c: int, skip: int, cap: int) -> int:
    """The liberties, counted up to ``cap``, of the chain ``c`` would make by playing the empty point ``p``, with
    the point ``skip`` taken as occupied (an opposing stone about to be played there; -1: none). Captures the move
    would make are not counted: the figure is a lower bound when one is made."""
    col = b[COL]
    meta = b[META]
    w = meta[M_W]
    meta[M_STAMP] += 1
    stamp = meta[M_STAMP]
    mark = b[MARK]
    mark[p] = stamp  # neither a liberty of the new chain nor counted twice
    if skip >= 0:
        mark[skip] = stamp
    n = 0
    for q in (p - 1, p + 1, p - w, p + w):
        if col[q] == EMPTY and mark[q] != stamp:
            mark[q] = stamp
            n += 1
    # Own neighbouring chains join the new chain with their liberties (heads are marked so each is walked once;
    # a head is a stone, never a liberty, so one stamp serves both).
    for q in (p - 1, p + 1, p - w, p + w):
        if col[q] != c:
            continue
        h = b[HEAD, q]
        if mark[h] == stamp:
            continue
        mark[h] = stamp
        s = h
        while True:
            for r in (s - 1, s + 1, s - w, s + w):
                if col[r] == EMPTY and mark[r] != stamp:
                    mark[r] = stamp
                    n += 1
                    if n >= cap:
                        return cap
            s = b[NXT, s]
            if s == h:
                break
    return min(n, cap)
