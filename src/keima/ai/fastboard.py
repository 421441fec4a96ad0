"""The compiled playout board: a compact Go board in one numpy array, played by numba-compiled functions.

Layout. The board of ``n`` x ``n`` points is padded with a one-point border, so a point is ``(row + 1) * w +
(col + 1)`` with ``w = n + 2`` and its neighbours are ``p - 1, p + 1, p - w, p + w`` without bound checks.
Point 0 is always border, so ``PASS = 0``. The whole state is one ``int64`` array ``B`` of shape ``(ROWS, m)``
so that a copy for a new playout is one ``B.copy()`` (or ``B[:] = root``):

- ``B[COL]``: colour (0 empty, 1 black, 2 white, 3 border);
- ``B[NXT]``: the next stone of the same chain (chains are circular linked lists);
- ``B[HEAD]``: the chain's representative stone; ``B[PLIB]``, ``B[LSUM]``, ``B[LSQ]`` (at the head): pseudo-
  liberties (stone / empty-neighbour pairs), their sum and their sum of squares. A chain is in atari exactly when
  all its pseudo-liberties are the same point, i.e. ``PLIB * LSQ == LSUM ** 2``, and that point is
  ``LSUM / PLIB`` (the classic trick of Libego and Fuego: exact atari detection without liberty sets);
- ``B[SIZE]`` (at the head): number of stones;
- ``B[EMPTY_LIST]`` / ``B[EMPTY_POS]``: the empty points in an unordered list, and each one's index in it, so a
  random empty point is drawn in O(1);
- ``B[MARK]``: scratch marks for exact liberty counts (a stamp per use, never cleared);
- ``B[META]``: scalars (indices ``M_*`` below).

Ko: the fast board knows only simple ko (``M_KO``: the point the side to move may not play). The referee remains
the authority on superko; the search only uses this board below the root, whose moves the referee filters.
"""

from __future__ import annotations

import numpy as np
from numba import njit

ROWS = 11
COL, NXT, HEAD, PLIB, LSUM, LSQ, SIZE, EMPTY_LIST, EMPTY_POS, MARK, META = range(ROWS)

# META indices
M_N, M_W, M_KO, M_NEMPTY, M_TOMOVE, M_SUICIDE, M_LAST, M_LAST2, M_CAPS_B, M_CAPS_W, M_PASSES, M_STAMP = range(12)
M_MOVES = 12
N_META = 16

EMPTY = 0
BLACK = 1
WHITE = 2
BORDER = 3
PASS = 0


def new_board(n: int, suicide_allowed: bool = False) -> np.ndarray:
    """Return an empty fast board of ``n`` x ``n`` (2..25) with Black to move.

    ``suicide_allowed`` follows the ruleset: multi-stone suicide allowed (single-stone suicide never is)."""
    w = n + 2
    m = max(w * w, N_META)
    b = np.zeros((ROWS, m), dtype=np.int64)
    b[COL, :] = BORDER
    k = 0
    for r in range(n):
        for c in range(n):
            p = (r + 1) * w + c + 1
            b[COL, p] = EMPTY
            b[EMPTY_LIST, k] = p
            b[EMPTY_POS, p] = k
            k += 1
    meta = b[META]
    meta[M_N] = n
    meta[M_W] = w
    meta[M_KO] = -1
    meta[M_NEMPTY] = n * n
    meta[M_TOMOVE] = BLACK
    meta[M_SUICIDE] = 1 if suicide_allowed else 0
    meta[M_LAST] = -1
    meta[M_LAST2] = -1
    return b


def to_fast(p: int, n: int) -> int:
    """Return the fast-board index of referee point ``p`` (``row * n + col``) on an ``n`` x ``n`` board."""
    r, c = divmod(p, n)
    return (r + 1) * (n + 2) + c + 1


def from_fast(q: int, n: int) -> int:
    """Return the referee point of fast-board index ``q`` (must be on the board)."""
    r, c = divmod(q, n + 2)
    return (r - 1) * n + (c - 1)


# ---------------------------------------------------------------------------------------------- primitives
@njit(cache=True, inline="always")
def _add_lib(b: np.ndarray, h: int, p: int) -> None:
    b[PLIB, h] += 1
    b[LSUM, h] += p
    b[LSQ, h] += p * p


@njit(cache=True, inline="always")
def _del_lib(b: np.ndarray, h: int, p: int) -> None:
    b[PLIB, h] -= 1
    b[LSUM, h] -= p
    b[LSQ, h] -= p * p


@njit(cache=True, inline="always")
def in_atari(b: np.ndarray, h: int) -> bool:
    """True when the chain headed by ``h`` has exactly one liberty."""
    pl = b[PLIB, h]
    return bool(pl > 0 and pl * b[LSQ, h] == b[LSUM, h] * b[LSUM, h])


@njit(cache=True, inline="always")
def atari_lib(b: np.ndarray, h: int) -> int:
    """The single liberty of a chain in atari (only meaningful when ``in_atari``)."""
    return int(b[LSUM, h] // b[PLIB, h])


@njit(cache=True)
def _remove_empty(b: np.ndarray, p: int) -> None:
    meta = b[META]
    last = meta[M_NEMPTY] - 1
    i = b[EMPTY_POS, p]
    q = b[EMPTY_LIST, last]
    b[EMPTY_LIST, i] = q
    b[EMPTY_POS, q] = i
    meta[M_NEMPTY] = last


@njit(cache=True)
def _push_empty(b: np.ndarray, p: int) -> None:
    meta = b[META]
    k = meta[M_NEMPTY]
    b[EMPTY_LIST, k] = p
    b[EMPTY_POS, p] = k
    meta[M_NEMPTY] = k + 1


@njit(cache=True)
def _remove_chain(b: np.ndarray, h: int) -> int:
    """Remove the chain headed by ``h``; give its points back as liberties to the chains around. Returns its size."""
    w = b[META, M_W]
    col = b[COL]
    count = 0
    s = h
    while True:
        col[s] = EMPTY
        _push_empty(b, s)
        count += 1
        s = b[NXT, s]
        if s == h:
            break
    s = h
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            k = col[q]
            if 0 < k < BORDER:
                _add_lib(b, b[HEAD, q], s)
        nx = b[NXT, s]
        b[NXT, s] = s
        b[HEAD, s] = s
        s = nx
        if s == h:
            break
    return count


@njit(cache=True)
def _merge(b: np.ndarray, h1: int, h2: int) -> int:
    """Merge chains headed by ``h1`` and ``h2``; returns the surviving head."""
    if b[SIZE, h1] < b[SIZE, h2]:
        h1, h2 = h2, h1
    s = h2
    while True:
        b[HEAD, s] = h1
        s = b[NXT, s]
        if s == h2:
            break
    n1 = b[NXT, h1]
    b[NXT, h1] = b[NXT, h2]
    b[NXT, h2] = n1
    b[PLIB, h1] += b[PLIB, h2]
    b[LSUM, h1] += b[LSUM, h2]
    b[LSQ, h1] += b[LSQ, h2]
    b[SIZE, h1] += b[SIZE, h2]
    return h1


@njit(cache=True)
def place(b: np.ndarray, p: int, c: int) -> int:
    """Put a stone of colour ``c`` on the empty point ``p``, capture, and remove the played chain if it is left
    without liberty (suicide: the caller checks legality first). Updates simple ko, turn and move history.
    Returns the number of opposing stones captured."""
    w = b[META, M_W]
    col = b[COL]
    meta = b[META]
    _remove_empty(b, p)
    col[p] = c
    b[HEAD, p] = p
    b[NXT, p] = p
    b[SIZE, p] = 1
    b[PLIB, p] = 0
    b[LSUM, p] = 0
    b[LSQ, p] = 0
    opp = 3 - c
    for q in (p - 1, p + 1, p - w, p + w):
        k = col[q]
        if k == EMPTY:
            _add_lib(b, p, q)
        elif 0 < k < BORDER:
            _del_lib(b, b[HEAD, q], p)
    h = p
    for q in (p - 1, p + 1, p - w, p + w):
        if col[q] == c:
            hq = b[HEAD, q]
            if hq != h:
                h = _merge(b, h, hq)
    captured = 0
    ko = -1
    for q in (p - 1, p + 1, p - w, p + w):
        if col[q] == opp:
            hq = b[HEAD, q]
            if b[PLIB, hq] == 0:
                if b[SIZE, hq] == 1:
                    ko = hq
                captured += _remove_chain(b, hq)
    if b[PLIB, h] == 0:
        _remove_chain(b, h)  # multi-stone suicide (legality was checked by the caller)
        ko = -1
    # Simple ko: one stone captured by a lone stone that now has that point as its only liberty.
    if captured == 1 and b[SIZE, h] == 1 and col[p] == c and in_atari(b, h) and atari_lib(b, h) == ko:
        meta[M_KO] = ko
    else:
        meta[M_KO] = -1
    if c == BLACK:
        meta[M_CAPS_B] += captured
    else:
        meta[M_CAPS_W] += captured
    meta[M_TOMOVE] = opp
    meta[M_LAST2] = meta[M_LAST]
    meta[M_LAST] = p
    meta[M_PASSES] = 0
    meta[M_MOVES] += 1
    return captured


@njit(cache=True)
def play_pass(b: np.ndarray) -> None:
    """The side to move passes."""
    meta = b[META]
    meta[M_KO] = -1
    meta[M_TOMOVE] = 3 - meta[M_TOMOVE]
    meta[M_LAST2] = meta[M_LAST]
    meta[M_LAST] = PASS
    meta[M_PASSES] += 1
    meta[M_MOVES] += 1


@njit(cache=True)
def set_stone(b: np.ndarray, p: int, c: int) -> None:
    """Add a stone as setup (no ko, no turn change). The caller keeps the position legal (every chain a liberty)."""
    meta = b[META]
    ko, tm, l1, l2, mv = meta[M_KO], meta[M_TOMOVE], meta[M_LAST], meta[M_LAST2], meta[M_MOVES]
    cb, cw = meta[M_CAPS_B], meta[M_CAPS_W]
    place(b, p, c)
    meta[M_KO], meta[M_TOMOVE], meta[M_LAST], meta[M_LAST2], meta[M_MOVES] = ko, tm, l1, l2, mv
    meta[M_CAPS_B], meta[M_CAPS_W] = cb, cw


@njit(cache=True)
def is_legal(b: np.ndarray, p: int, c: int) -> bool:
    """True when colour ``c`` may play at ``p`` under this board's rules (occupied, simple ko, suicide)."""
    col = b[COL]
    if col[p] != EMPTY:
        return False
    meta = b[META]
    if p == meta[M_KO] and c == meta[M_TOMOVE]:
        return False
    w = meta[M_W]
    own_nb = False
    for q in (p - 1, p + 1, p - w, p + w):
        k = col[q]
        if k == EMPTY:
            return True
        if k == c:
            own_nb = True
            if not in_atari(b, b[HEAD, q]):
                return True
        elif k != BORDER and in_atari(b, b[HEAD, q]):
            return True
    # No liberty, no capture: a suicide. Multi-stone suicide may be allowed; single-stone never is.
    return own_nb and meta[M_SUICIDE] == 1


@njit(cache=True)
def liberties(b: np.ndarray, p: int) -> int:
    """Exact number of liberties of the chain at ``p`` (0 for an empty point)."""
    col = b[COL]
    if not 0 < col[p] < BORDER:
        return 0
    meta = b[META]
    w = meta[M_W]
    meta[M_STAMP] += 1
    stamp = meta[M_STAMP]
    mark = b[MARK]
    h = b[HEAD, p]
    s = h
    n = 0
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if col[q] == EMPTY and mark[q] != stamp:
                mark[q] = stamp
                n += 1
        s = b[NXT, s]
        if s == h:
            break
    return n


@njit(cache=True)
def stones_near(b: np.ndarray, p: int) -> int:
    """The number of stones, of either colour, within two points of ``p`` (its 5x5 window, clipped to the board)."""
    w = b[META, M_W]
    n = b[META, M_N]
    col = b[COL]
    r = p // w - 1
    c = p % w - 1
    count = 0
    for rr in range(max(r - 2, 0), min(r + 3, n)):
        for cc in range(max(c - 2, 0), min(c + 3, n)):
            if col[(rr + 1) * w + cc + 1] != EMPTY:
                count += 1
    return count


@njit(cache=True)
def is_true_eye(b: np.ndarray, p: int, c: int) -> bool:
    """True when the empty point ``p`` is an eye of ``c`` that filling would only harm: all four neighbours are ``c``
    (or border) and the diagonals hold at most one opposing stone (none on the edge)."""
    col = b[COL]
    w = b[META, M_W]
    for q in (p - 1, p + 1, p - w, p + w):
        k = col[q]
        if k != c and k != BORDER:
            return False
    bad = 0
    edge = 0
    for q in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
        k = col[q]
        if k == BORDER:
            edge = 1
        elif k == 3 - c:
            bad += 1
    return bad + edge < 2


@njit(cache=True)
def self_atari_size(b: np.ndarray, p: int, c: int) -> int:
    """If ``c`` playing at ``p`` captures nothing and leaves its chain with one liberty, return that chain's size;
    otherwise 0. (Used to refuse self-ataris of big groups in playouts and to lower their priors.)"""
    col = b[COL]
    meta = b[META]
    w = meta[M_W]
    opp = 3 - c
    lib = -1
    size = 1
    for q in (p - 1, p + 1, p - w, p + w):
        k = col[q]
        if k == EMPTY:
            if lib == -1:
                lib = q
            elif lib != q:
                return 0
        elif k == opp and in_atari(b, b[HEAD, q]):
            return 0
    # Own neighbouring chains: their liberties other than p join the new chain.
    meta[M_STAMP] += 1
    stamp = meta[M_STAMP]
    mark = b[MARK]
    for q in (p - 1, p + 1, p - w, p + w):
        if col[q] == c:
            h = b[HEAD, q]
            if mark[h] == stamp:
                continue
            mark[h] = stamp
            size += b[SIZE, h]
            s = h
            while True:
                for r in (s - 1, s + 1, s - w, s + w):
                    if col[r] == EMPTY and r != p:
                        if lib == -1:
                            lib = r
                        elif lib != r:
                            return 0
                s = b[NXT, s]
                if s == h:
                    break
    if lib == -1:
        return 0  # a suicide, handled by legality
    return size


NAKADE_MAX = 6  # the largest chain a nakade self-atari may fill (the rabbity six)


@njit(cache=True)
def _holds(pts: np.ndarray, k: int, q: int) -> bool:
    """Whether ``q`` is among ``pts[:k]``."""
    return bool((pts[:k] == q).any())


@njit(cache=True)
def is_nakade_self_atari(b: np.ndarray, p: int, c: int) -> bool:
    """True when ``c`` at ``p`` is a self-atari that kills as a nakade: the chain it makes (at most ``NAKADE_MAX``
    stones) and its one liberty fill a region that the opponent alone encloses, with chains each larger than it,
    and once the opponent captures, the space the chain leaves is a shape with one vital point (two or three
    points; the square, or the pyramid four; the bulky or crossed five; the rabbity six), so ``c`` can play there
    again and leave one eye.

    False for any move that is not a self-atari, or whose chain is larger (see ``self_atari_size``)."""
    size = self_atari_size(b, p, c)
    if size == 0 or size > NAKADE_MAX:
        return False
    col = b[COL]
    w = b[META, M_W]
    pts = np.empty(NAKADE_MAX, dtype=np.int64)
    pts[0] = p
    k = 1
    for q in (p - 1, p + 1, p - w, p + w):
        if col[q] == c:
            s = b[HEAD, q]
            if _holds(pts, k, s):
                continue
            h = s
            while True:
                pts[k] = s
                k += 1
                s = b[NXT, s]
                if s == h:
                    break
    # The liberty left, and the region's closure: the liberty touches only the opponent, the border or the chain.
    lib = -1
    for i in range(k):
        s = pts[i]
        for q in (s - 1, s + 1, s - w, s + w):
            if col[q] == EMPTY and q != p:
                lib = q
    for q in (lib - 1, lib + 1, lib - w, lib + w):
        if col[q] == EMPTY and q != p:
            return False
        if col[q] == c and not _holds(pts, k, q):
            return False
    # The owner: each opposing chain around the region is larger than the chain, as a group is around the stones
    # played into its eye space. Otherwise the region is more likely the chain's own (its eye, or its last
    # liberties in a race), where the self-atari only throws the chain away.
    opp = 3 - c
    for i in range(k + 1):
        s = pts[i] if i < k else lib
        for q in (s - 1, s + 1, s - w, s + w):
            if col[q] == opp and b[SIZE, b[HEAD, q]] <= k:
                return False
    if k <= 3:
        return True
    # The shape: neighbours inside the chain (the most of any stone) and the bounding box.
    top = 0
    r0, r1, c0, c1 = 1 << 30, -1, 1 << 30, -1
    for i in range(k):
        s = pts[i]
        r, cc = s // w, s % w
        r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, cc), max(c1, cc)
        deg = 0
        for j in range(k):
            d = pts[j] - s
            if d == 1 or d == -1 or d == w or d == -w:
                deg += 1
        top = max(top, deg)
    h, wd = r1 - r0 + 1, c1 - c0 + 1
    if k == 4:
        return top == 3 or (h == 2 and wd == 2)  # the pyramid, the square
    if k == 5:
        if top == 4:
            return True  # the crossed five
        if h * wd != 6:
            return False
        # The bulky five: a 2x3 box less a corner (less the middle of a long side, it is the U, which lives).
        for rr in (r0, r1):
            for ccol in (c0, c1):
                if not _holds(pts, k, rr * w + ccol):
                    return True
        return False
    return top == 4 and h == 3 and wd == 3  # the rabbity six: a cross and one corner of its 3x3 box


@njit(cache=True)
def area_score(b: np.ndarray, komi: float, own: np.ndarray) -> float:
    """Score a finished playout by area (stones + empty points whose neighbours are all one colour), Black minus
    White minus ``komi``; adds each point's owner to ``own`` (+1 black, -1 white)."""
    n = b[META, M_N]
    w = b[META, M_W]
    col = b[COL]
    s = 0.0
    for r in range(n):
        for cc in range(n):
            p = (r + 1) * w + cc + 1
            k = col[p]
            o = 0
            if k == BLACK:
                o = 1
            elif k == WHITE:
                o = -1
            else:
                seen_b = False
                seen_w = False
                for q in (p - 1, p + 1, p - w, p + w):
                    if col[q] == BLACK:
                        seen_b = True
                    elif col[q] == WHITE:
                        seen_w = True
                if seen_b and not seen_w:
                    o = 1
                elif seen_w and not seen_b:
                    o = -1
            s += o
            own[p] += o
    return s - komi
