"""Compiled playouts and Monte-Carlo tree search (UCT with RAVE / AMAF and heuristic priors).

Everything here runs under numba on the fast board of ``keima.ai.fastboard``. The tree lives in two preallocated
arrays (``TI`` integers, ``TF`` floats, one column per node) so that the whole descent / playout / backup loop is
compiled; Python only calls ``run_iterations`` in slices and watches the clock between slices.

Node fields: ``TI[T_MOVE]`` the move that leads to the node (fast-board point, ``PASS`` = 0), ``TI[T_COLOR]`` the
colour that played it (0 = disabled: the referee forbids it at the root), ``TI[T_FIRST]`` / ``TI[T_NCHILD]`` the
children (contiguous; ``T_NCHILD == -1`` while unexpanded); ``TF[F_VIS]`` / ``TF[F_WIN]`` visits and wins for the
player who made the move (priors included), ``TF[F_RVIS]`` / ``TF[F_RWIN]`` the AMAF statistics, ``TF[F_PRIOR]``
the node's prior win rate (set at expansion; replaced once if the policy network evaluates its parent),
``TF[F_SCORE]`` the sum of the playouts' margins through the node (Black's area minus White's, the search's komi
deducted; the real visits, ``F_VIS`` less the prior's, divide it: a review's points per move), ``TI[T_NET]`` 1 once the policy network has set the priors of the node's children.
``TI[T_META, 0]`` holds the number of nodes in use.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from keima.ai.fastboard import (
    BLACK,
    BORDER,
    COL,
    EMPTY,
    EMPTY_LIST,
    EMPTY_POS,
    HEAD,
    M_KO,
    M_LAST,
    M_LAST2,
    M_N,
    M_NEMPTY,
    M_PASSES,
    M_TOMOVE,
    M_W,
    META,
    NXT,
    PASS,
    PLIB,
    WHITE,
    area_score,
    atari_lib,
    in_atari,
    is_legal,
    is_nakade_self_atari,
    is_true_eye,
    place,
    play_pass,
    self_atari_size,
    stones_near,
)
from keima.ai.network import forward
from keima.ai.planes import N_PLANES, fill_planes
from keima.ai.prediction import move_score
from keima.ai.tactics import escape_is_laddered, ladder_atari, liberties_after, two_libs

T_MOVE, T_COLOR, T_FIRST, T_NCHILD = range(4)
T_META = 4
T_NET = 5  # 1 once the policy network has set the node's children's priors
F_VIS, F_WIN, F_RVIS, F_RWIN, F_PRIOR, F_SCORE = range(6)

# Search parameters (``params`` array indices).
(P_KOMI, P_HEAVY, P_EXPAND, P_PRIOR, P_RAVE_BIAS, P_UCT_C, P_SELF_ATARI, P_PATTERN_PROB, P_FILL,
 P_WIDE_PRIOR, P_LEARNED, P_NET_VISITS, P_NET_WEIGHT, P_NAKADE, P_LOW_LIBERTY) = range(15)
N_PARAMS = 15


def new_tree(max_nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """Return empty tree arrays with room for ``max_nodes`` nodes (node 0 is the root)."""
    ti = np.zeros((6, max_nodes), dtype=np.int32)
    tf = np.zeros((6, max_nodes), dtype=np.float32)
    ti[T_NCHILD, 0] = -1
    ti[T_META, 0] = 1
    return ti, tf


def make_params(komi: float, heavy: bool = True, expand: int = 2, prior: float = 10.0, rave_bias: float = 0.04,
                uct_c: float = 0.05, self_atari: int = 2, pattern_prob: float = 0.9, fill: int = 0,
                wide_prior: bool = False, learned: float = 0.0, net_visits: int = -1,
                net_weight: float = 0.0, nakade: bool = True, low_liberty: bool = True) -> np.ndarray:
    """Return the search parameter vector (komi from Black's point of view: Black's margin minus ``komi``).

    ``fill``: before a heavy playout's random move, how many random empty points to try for one whose 3x3
    neighbourhood is empty and off the edge (fills open areas first, as a player would; 0: off).
    ``wide_prior``: the big-board prior terms of ``_prior`` (opening lines over a 5x5 window, nearness to the
    last move, no low moves in the opening without a tactical reason).
    ``learned``: the weight of the learned prior (``keima.ai.prediction``) in a new child's prior win rate,
    per unit of log-probability above a uniform choice; 0 keeps the hand-written prior.
    ``net_visits``: the policy network (``keima.ai.network``) sets the priors of a node's children once the node
    has this many visits of its own (the root at once); -1: never. ``net_weight``: its weight, as ``learned``'s,
    in place of the learned prior's at the nodes it has seen. ``nakade``: a heavy playout may make a self-atari of
    ``self_atari`` stones or more when it kills as a nakade (``keima.ai.fastboard.is_nakade_self_atari``);
    without it, a group whose eye space holds opposing stones could never be killed in a playout.
    ``low_liberty``: a heavy playout answers a move that leaves a chain with two liberties (``_low_liberty_moves``:
    the attacker's atari that the chain cannot simply run from, the defender's move that gains liberties) before
    its patterns, so that fights and ladders are played out rather than left to chance."""
    p = np.zeros(N_PARAMS, dtype=np.float64)
    p[P_KOMI] = komi
    p[P_HEAVY] = 1.0 if heavy else 0.0
    p[P_EXPAND] = expand
    p[P_PRIOR] = prior
    p[P_RAVE_BIAS] = rave_bias
    p[P_UCT_C] = uct_c
    p[P_SELF_ATARI] = self_atari
    p[P_PATTERN_PROB] = pattern_prob
    p[P_FILL] = fill
    p[P_WIDE_PRIOR] = 1.0 if wide_prior else 0.0
    p[P_LEARNED] = learned
    p[P_NET_VISITS] = net_visits
    p[P_NET_WEIGHT] = net_weight
    p[P_NAKADE] = 1.0 if nakade else 0.0
    p[P_LOW_LIBERTY] = 1.0 if low_liberty else 0.0
    return p


# ------------------------------------------------------------------------------------------------ playouts
@njit(cache=True)
def pattern_code(b: np.ndarray, p: int, c: int) -> int:
    """The 16-bit 3x3 code of point ``p`` (see ``keima.ai.patterns``), read as Black sees it. The table holds each
    pattern with the colours swapped too, so the code matches for ``c`` exactly when it matches for Black: the
    board's colour values (1 black, 2 white, 3 border) are the code's own, read without a branch."""
    w = b[META, M_W]
    col = b[COL]
    return int(col[p - w - 1] | (col[p - w] << 2) | (col[p - w + 1] << 4) | (col[p - 1] << 6)
               | (col[p + 1] << 8) | (col[p + w - 1] << 10) | (col[p + w] << 12) | (col[p + w + 1] << 14))


@njit(cache=True)
def _acceptable(b: np.ndarray, p: int, c: int, self_atari: int, nakade: bool) -> bool:
    """A playout may play ``p``: legal, not an own true eye, not a self-atari of ``self_atari`` stones or more
    unless ``nakade`` and it kills as a nakade."""
    if not is_legal(b, p, c):
        return False
    if is_true_eye(b, p, c):
        return False
    if self_atari > 0 and self_atari_size(b, p, c) >= self_atari:
        return nakade and is_nakade_self_atari(b, p, c)
    return True


@njit(cache=True)
def _add_capture(b: np.ndarray, h: int, c: int, cand: np.ndarray, n: int) -> int:
    """Append to ``cand[:n]`` the capture of the chain headed by ``h`` when it is in atari and ``c`` may play
    there (and ``cand`` has room). Returns the new count."""
    if in_atari(b, h):
        lib = atari_lib(b, h)
        if is_legal(b, lib, c) and n < cand.shape[0]:
            cand[n] = lib
            return n + 1
    return n


@njit(cache=True)
def _add_captures_around(b: np.ndarray, h: int, c: int, cand: np.ndarray, n: int) -> int:
    """Append to ``cand[:n]`` the captures of the opposing chains in atari next to the chain headed by ``h`` (of
    colour ``c``): how a chain short of liberties gains some. Returns the new count."""
    w = b[META, M_W]
    col = b[COL]
    opp = 3 - c
    s = h
    while True:
        for r in (s - 1, s + 1, s - w, s + w):
            if col[r] == opp:
                n = _add_capture(b, b[HEAD, r], c, cand, n)
        s = b[NXT, s]
        if s == h:
            break
    return n


@njit(cache=True)
def _tactical_moves(b: np.ndarray, c: int, cand: np.ndarray, self_atari: int) -> int:
    """Fill ``cand`` with urgent moves around the last move: captures of chains in atari, escapes of own chains put
    in atari. Returns how many were found."""
    last = b[META, M_LAST]
    n = 0
    if last <= 0:
        return 0
    w = b[META, M_W]
    col = b[COL]
    opp = 3 - c
    # Capture: the chain just played, if in atari. Its capture goes in once for the stone played and once for each
    # of its stones next to it, a weight against the escapes below (read once: they are all that chain).
    if col[last] == opp:
        h = b[HEAD, last]
        if in_atari(b, h):
            lib = atari_lib(b, h)
            if is_legal(b, lib, c):
                for q in (last, last - 1, last + 1, last - w, last + w):
                    if col[q] == opp and n < cand.shape[0]:
                        cand[n] = lib
                        n += 1
    # Escape: own chains next to the last move now in atari: capture a neighbour in atari, or extend.
    for q in (last - 1, last + 1, last - w, last + w):
        if col[q] == c:
            h = b[HEAD, q]
            if not in_atari(b, h):
                continue
            n = _add_captures_around(b, h, c, cand, n)
            lib = atari_lib(b, h)
            if is_legal(b, lib, c) and self_atari_size(b, lib, c) == 0 and n < cand.shape[0]:
                cand[n] = lib
                n += 1
    return n


@njit(cache=True)
def _low_liberty_moves(b: np.ndarray, c: int, cand: np.ndarray) -> int:
    """Fill ``cand`` with the moves of a two-liberty fight around the last move. First, the capture of an opposing
    chain the player's own previous move put in atari, if the opponent left it there. Against the chain just played,
    when it has two liberties: an atari (not a self-atari) whose other liberty gives the chain at most two
    liberties if it runs there, so the chase goes on or the chain dies (a ladder is read out this way, one atari
    a move). Only when there is none, for own chains next to the last move with two liberties: the capture of a
    neighbouring opposing chain in atari, or a liberty where the chain reaches three liberties or more. Returns how
    many were found."""
    last = b[META, M_LAST]
    if last <= 0:
        return 0
    w = b[META, M_W]
    col = b[COL]
    opp = 3 - c
    n = 0
    # An atari of the player's own last move that the opponent left: take the chain (the end of a chase).
    mine = b[META, M_LAST2]
    if mine > 0 and col[mine] == c:
        for q in (mine - 1, mine + 1, mine - w, mine + w):
            if col[q] == opp:
                n = _add_capture(b, b[HEAD, q], c, cand, n)
        if n > 0:
            return n
    # A chain of two liberties has at most eight pseudo-liberties (four stones around each): a cheap filter
    # before its liberties are walked.
    if col[last] == opp and b[PLIB, b[HEAD, last]] <= 8:
        k, l1, l2 = two_libs(b, last)
        if k == 2:
            for i in range(2):
                x = l1 if i == 0 else l2
                y = l2 if i == 0 else l1
                if (n < cand.shape[0] and is_legal(b, x, c) and self_atari_size(b, x, c) == 0
                        and liberties_after(b, y, opp, x, 3) <= 2):
                    cand[n] = x
                    n += 1
        if n > 0:
            return n  # the chase first: the own chains it leaves short of liberties are safe while it lasts
    h0 = -1
    for q in (last - 1, last + 1, last - w, last + w):
        if col[q] != c:
            continue
        h = b[HEAD, q]
        if h == h0 or b[PLIB, h] > 8:
            continue  # the same chain seen from another side, or more than two liberties
        h0 = h
        k, l1, l2 = two_libs(b, q)
        if k != 2:
            continue
        n = _add_captures_around(b, h, c, cand, n)
        for x in (l1, l2):
            if n < cand.shape[0] and is_legal(b, x, c) and liberties_after(b, x, c, -1, 3) >= 3:
                cand[n] = x
                n += 1
    return n


@njit(cache=True)
def playout_move(b: np.ndarray, c: int, heavy: bool, pat: np.ndarray, params: np.ndarray, cand: np.ndarray) -> int:
    """Pick the playout move for colour ``c`` (the side to move); ``PASS`` when nothing acceptable remains."""
    self_atari = int(params[P_SELF_ATARI]) if heavy else 0
    nakade = params[P_NAKADE] > 0.5
    if heavy:
        n = _tactical_moves(b, c, cand, self_atari)
        if n > 0:
            return int(cand[np.random.randint(n)])
        if params[P_LOW_LIBERTY] > 0.5:
            n = _low_liberty_moves(b, c, cand)
            if n > 0:
                return int(cand[np.random.randint(n)])
        last = b[META, M_LAST]
        if last > 0 and np.random.random() < params[P_PATTERN_PROB]:
            w = b[META, M_W]
            n = 0
            for q in (last - w - 1, last - w, last - w + 1, last - 1, last + 1, last + w - 1, last + w, last + w + 1):
                if (b[COL, q] == EMPTY and pat[pattern_code(b, q, c)] == 1
                        and _acceptable(b, q, c, self_atari, nakade)):
                    cand[n] = q
                    n += 1
            if n > 0:
                return int(cand[np.random.randint(n)])
        tries = int(params[P_FILL])
        k = b[META, M_NEMPTY]
        if tries > 0 and k > 0:
            w = b[META, M_W]
            col = b[COL]
            el = b[EMPTY_LIST]
            for _ in range(tries):
                p = el[np.random.randint(k)]
                if (col[p - w - 1] == EMPTY and col[p - w] == EMPTY and col[p - w + 1] == EMPTY
                        and col[p - 1] == EMPTY and col[p + 1] == EMPTY and col[p + w - 1] == EMPTY
                        and col[p + w] == EMPTY and col[p + w + 1] == EMPTY and is_legal(b, p, c)):
                    return int(p)
    # Uniform among the acceptable empty points: draw, and swap rejected points out of the live range.
    meta = b[META]
    el = b[EMPTY_LIST]
    k = meta[M_NEMPTY]
    while k > 0:
        i = np.random.randint(k)
        p = el[i]
        if _acceptable(b, p, c, self_atari, nakade):
            return int(p)
        k -= 1
        # Move the rejected point past the live range; EMPTY_POS stays consistent for both points.
        q = el[k]
        el[i] = q
        el[k] = p
        b[EMPTY_POS, q] = i
        b[EMPTY_POS, p] = k
    return PASS


@njit(cache=True)
def _play_recorded(b: np.ndarray, p: int, c: int, amaf_col: np.ndarray, amaf_ply: np.ndarray, ply: int) -> None:
    """Play ``p`` (or a pass) for ``c`` and note, for RAVE, the first colour and ply at which ``p`` was played."""
    if p == PASS:
        play_pass(b)
    else:
        place(b, p, c)
        if amaf_col[p] == 0:
            amaf_col[p] = c
            amaf_ply[p] = ply


@njit(cache=True)
def playout(b: np.ndarray, pat: np.ndarray, params: np.ndarray, own: np.ndarray, amaf_col: np.ndarray,
            amaf_ply: np.ndarray, ply: int, cand: np.ndarray) -> float:
    """Play the position out to two consecutive passes (or a move limit) and return Black's area margin minus komi.
    Records the first colour to play each point in ``amaf_col`` / ``amaf_ply`` (AMAF) and adds the final owners to
    ``own``."""
    heavy = params[P_HEAVY] > 0.5
    n = b[META, M_N]
    limit = 3 * n * n + 20
    moves = 0
    while b[META, M_PASSES] < 2 and moves < limit:
        c = b[META, M_TOMOVE]
        p = playout_move(b, c, heavy, pat, params, cand)
        _play_recorded(b, p, c, amaf_col, amaf_ply, ply)
        ply += 1
        moves += 1
    return area_score(b, params[P_KOMI], own)


# ---------------------------------------------------------------------------------------------------- tree
@njit(cache=True)
def _prior(b: np.ndarray, p: int, c: int, pat: np.ndarray, wide: bool) -> float:
    """Heuristic prior win rate of ``c`` playing ``p`` (0..1); ``wide`` adds the big-board terms."""
    w = b[META, M_W]
    col = b[COL]
    n = b[META, M_N]
    v = 0.5
    opp = 3 - c
    tactical = False
    saves = False
    for q in (p - 1, p + 1, p - w, p + w):
        k = col[q]
        if k == opp and in_atari(b, b[HEAD, q]):
            v += 0.3  # capture
            tactical = True
        elif k == c and in_atari(b, b[HEAD, q]):
            v += 0.15  # save
            tactical = True
            saves = True
    if wide and not tactical:
        if ladder_atari(b, p, c):
            v += 0.2
            tactical = True
    elif wide and saves and escape_is_laddered(b, p, c):
        v -= 0.25  # running out into a ladder only loses more stones
    sa = self_atari_size(b, p, c)
    if sa >= 2:
        v -= 0.3
    if pat[pattern_code(b, p, c)] == 1:
        v += 0.1
    r = p // w - 1
    cc = p % w - 1
    line = min(min(r, cc), min(n - 1 - r, n - 1 - cc))
    if wide:
        # Stones within two points (a 5x5 window): an empty window is open ground, where the first two lines
        # are slow and the third and fourth are where territory and bases are made.
        if stones_near(b, p) == 0:
            if line == 0:
                v -= 0.25
            elif line == 1:
                v -= 0.15
            elif line == 2 or line == 3:
                v += 0.1
                other = max(min(r, n - 1 - r), min(cc, n - 1 - cc))
                if other == 2 or other == 3:
                    v += 0.1  # an open corner point (3-3, 3-4, 4-4): corners first, then sides
        stones = n * n - b[META, M_NEMPTY]
        if not tactical and line <= 1 and 5 * stones < n * n:
            # The opening (under a fifth of the board covered): low moves only for a tactical reason.
            v -= 0.1 if line == 0 else 0.05
        last = b[META, M_LAST]
        if last > 0:
            lr = last // w - 1
            lc = last % w - 1
            if abs(lr - r) <= 2 and abs(lc - cc) <= 2:
                v += 0.05  # answer near the last move: most urgent points are local
    elif n >= 9:
        empty_around = True
        for q in (p - w - 1, p - w, p - w + 1, p - 1, p + 1, p + w - 1, p + w, p + w + 1):
            k = col[q]
            if 0 < k < BORDER:
                empty_around = False
        if empty_around:
            if line == 0:
                v -= 0.2
            elif line == 1:
                v -= 0.05
            elif line == 2 or line == 3:
                v += 0.05
    return min(max(v, 0.02), 0.98)


@njit(cache=True)
def _uniform_shift(scores: np.ndarray) -> float:
    """The log-sum-exp of ``scores`` minus the log of their number: a score minus this is the log of its softmax
    probability above that of a uniform choice (0 for a move exactly as likely as a uniform choice)."""
    top = scores.max()
    norm = 0.0
    for v in scores:
        norm += math.exp(v - top)
    return float(top + math.log(norm) - math.log(len(scores)))


@njit(cache=True)
def expand(ti: np.ndarray, tf: np.ndarray, node: int, b: np.ndarray, pat: np.ndarray, params: np.ndarray,
           mask: np.ndarray, use_mask: bool, small: np.ndarray, large: np.ndarray, weights: np.ndarray,
           offsets: np.ndarray) -> bool:
    """Give ``node`` (whose position is ``b``) one child per acceptable move plus a pass. Returns False when the
    tree is full (the node stays a leaf). The children's prior win rates come from ``_prior``; with
    ``params[P_LEARNED]`` > 0 the learned model (``small`` .. ``offsets``, see ``keima.ai.prediction.Model``)
    moves them by ``params[P_LEARNED]`` per unit of log-probability above a uniform choice."""
    c = b[META, M_TOMOVE]
    meta = b[META]
    k = meta[M_NEMPTY]
    el = b[EMPTY_LIST]
    start = ti[T_META, 0]
    cap = ti.shape[1]
    if start + k + 1 > cap:
        return False
    prior_n = params[P_PRIOR]
    wide = params[P_WIDE_PRIOR] > 0.5
    learned = params[P_LEARNED]
    m = start
    for i in range(k):
        p = el[i]
        if use_mask and mask[p] == 0:
            continue
        if not is_legal(b, p, c) or is_true_eye(b, p, c):
            continue
        ti[T_MOVE, m] = p
        ti[T_COLOR, m] = c
        ti[T_NCHILD, m] = -1
        ti[T_NET, m] = 0
        tf[F_PRIOR, m] = _prior(b, p, c, pat, wide)
        if learned > 0.0:
            tf[F_WIN, m] = move_score(b, p, c, small, large, weights, offsets)
        tf[F_RVIS, m] = 0.0
        tf[F_RWIN, m] = 0.0
        tf[F_SCORE, m] = 0.0
        m += 1
    if learned > 0.0 and m > start:
        # The model's scores (in F_WIN for now) to log-probabilities, a softmax over the children; a move
        # exactly as likely as a uniform choice among them keeps its hand-written prior, a likelier one gains.
        shift = _uniform_shift(tf[F_WIN, start:m])
        for i in range(start, m):
            tf[F_PRIOR, i] = min(max(tf[F_PRIOR, i] + learned * (tf[F_WIN, i] - shift), 0.02), 0.98)
    for i in range(start, m):
        tf[F_VIS, i] = prior_n
        tf[F_WIN, i] = prior_n * tf[F_PRIOR, i]
    # Passing: a poor prior while moves remain; even once the board is full of eyes.
    ti[T_MOVE, m] = PASS
    ti[T_COLOR, m] = c
    ti[T_NCHILD, m] = -1
    ti[T_NET, m] = 0
    tf[F_PRIOR, m] = 0.1 if m > start else 0.5
    tf[F_VIS, m] = prior_n
    tf[F_WIN, m] = prior_n * tf[F_PRIOR, m]
    tf[F_RVIS, m] = 0.0
    tf[F_RWIN, m] = 0.0
    tf[F_SCORE, m] = 0.0
    m += 1
    ti[T_FIRST, node] = start
    ti[T_NCHILD, node] = m - start
    ti[T_META, 0] = m
    return True


@njit(cache=True, nogil=True)
def apply_policy(ti: np.ndarray, tf: np.ndarray, node: int, b: np.ndarray, pat: np.ndarray, params: np.ndarray,
                 x: np.ndarray, stem_w: np.ndarray, stem_b: np.ndarray, blocks_w: np.ndarray, blocks_b: np.ndarray,
                 head_w: np.ndarray, head_b: np.ndarray) -> None:
    """Set the priors of the expanded ``node``'s children (its position is ``b``) from the policy network: the
    hand-written prior moved by ``params[P_NET_WEIGHT]`` per unit of the network's log-probability above a
    uniform choice among the enabled children, replacing the learned prior's move (``expand``). The children
    keep their visits; their virtual wins follow the new prior. ``x`` is scratch for the planes."""
    ti[T_NET, node] = 1
    c = b[META, M_TOMOVE]
    n = b[META, M_N]
    w = b[META, M_W]
    fill_planes(b, c, x)
    scores = forward(x, n, stem_w, stem_b, blocks_w, blocks_b, head_w, head_b)
    first = ti[T_FIRST, node]
    nch = ti[T_NCHILD, node]
    # The enabled stone-playing children and their scores (the network's points are the referee's).
    children = np.empty(nch, dtype=np.int64)
    child_scores = np.empty(nch, dtype=np.float64)
    k = 0
    for i in range(first, first + nch):
        mv = ti[T_MOVE, i]
        if mv != PASS and ti[T_COLOR, i] != 0:
            children[k] = i
            child_scores[k] = scores[(mv // w - 1) * n + mv % w - 1]
            k += 1
    if k == 0:
        return
    shift = _uniform_shift(child_scores[:k])
    weight = params[P_NET_WEIGHT]
    wide = params[P_WIDE_PRIOR] > 0.5
    prior_n = params[P_PRIOR]
    for j in range(k):
        i = children[j]
        v = _prior(b, ti[T_MOVE, i], c, pat, wide) + weight * (child_scores[j] - shift)
        v = min(max(v, 0.02), 0.98)
        tf[F_WIN, i] += prior_n * (v - tf[F_PRIOR, i])
        tf[F_PRIOR, i] = v


@njit(cache=True)
def select_child(ti: np.ndarray, tf: np.ndarray, node: int, params: np.ndarray) -> int:
    """The child of ``node`` with the best RAVE-blended value plus a small UCT exploration term."""
    first = ti[T_FIRST, node]
    nch = ti[T_NCHILD, node]
    parent_n = 0.0
    for i in range(first, first + nch):
        parent_n += tf[F_VIS, i]
    logn = math.log(parent_n + 1.0)
    bias = params[P_RAVE_BIAS]
    cexp = params[P_UCT_C]
    best = -1
    best_v = -1e9
    for i in range(first, first + nch):
        if ti[T_COLOR, i] == 0:
            continue
        v = tf[F_VIS, i]
        q = tf[F_WIN, i] / v
        rv = tf[F_RVIS, i]
        if rv > 0:
            beta = rv / (rv + v + rv * v * bias)
            q = (1.0 - beta) * q + beta * tf[F_RWIN, i] / rv
        q += cexp * math.sqrt(logn / v)
        if q > best_v:
            best_v = q
            best = i
    return best


@njit(cache=True, nogil=True)
def run_iterations(root_b: np.ndarray, ti: np.ndarray, tf: np.ndarray, root: int, iters: int, pat: np.ndarray,
                   params: np.ndarray, own: np.ndarray, b: np.ndarray, seed: int, small: np.ndarray,
                   large: np.ndarray, weights: np.ndarray, offsets: np.ndarray, stem_w: np.ndarray,
                   stem_b: np.ndarray, blocks_w: np.ndarray, blocks_b: np.ndarray, head_w: np.ndarray,
                   head_b: np.ndarray) -> int:
    """Run ``iters`` search iterations from ``root`` (whose position is ``root_b``; the root must be expanded).
    ``b`` is scratch of the same shape. Adds final owners to ``own``. ``small`` .. ``offsets``: the learned
    prior's model (see ``expand``); ``stem_w`` .. ``head_b``: the policy network (``keima.ai.network``), used
    as ``params[P_NET_VISITS]`` says (``apply_policy``). Returns the iterations done."""
    if seed >= 0:
        np.random.seed(seed)
    m = root_b.shape[1]
    amaf_col = np.zeros(m, dtype=np.int64)
    amaf_ply = np.zeros(m, dtype=np.int64)
    path = np.zeros(1024, dtype=np.int64)
    cand = np.zeros(64, dtype=np.int64)
    dummy = np.zeros(1, dtype=np.int64)
    expand_at = params[P_EXPAND]
    net_at = params[P_NET_VISITS]
    n = root_b[META, M_N]
    x = np.zeros((n * n, N_PLANES), dtype=np.float32)
    for _ in range(iters):
        b[:, :] = root_b
        amaf_col[:] = 0
        node = root
        depth = 0
        path[0] = root
        while ti[T_NCHILD, node] > 0 and depth < 1000 and b[META, M_PASSES] < 2:
            if net_at >= 0 and ti[T_NET, node] == 0 and \
                    (node == root or tf[F_VIS, node] - params[P_PRIOR] >= net_at):
                apply_policy(ti, tf, node, b, pat, params, x, stem_w, stem_b, blocks_w, blocks_b, head_w, head_b)
            child = select_child(ti, tf, node, params)
            if child < 0:
                break
            mv = ti[T_MOVE, child]
            c = ti[T_COLOR, child]
            _play_recorded(b, mv, c, amaf_col, amaf_ply, depth)
            depth += 1
            path[depth] = child
            node = child
        if b[META, M_PASSES] >= 2:
            # Two passes in the tree: play on in the playout so that dead stones are resolved, not counted.
            b[META, M_PASSES] = 0
        elif ti[T_NCHILD, node] < 0 and tf[F_VIS, node] - params[P_PRIOR] >= expand_at:
            expand(ti, tf, node, b, pat, params, dummy, False, small, large, weights, offsets)
        margin = playout(b, pat, params, own, amaf_col, amaf_ply, depth, cand)
        winner = BLACK if margin > 0 else WHITE
        for d in range(depth + 1):
            nd = path[d]
            tf[F_VIS, nd] += 1.0
            tf[F_SCORE, nd] += margin
            if ti[T_COLOR, nd] == winner:
                tf[F_WIN, nd] += 1.0
            nch = ti[T_NCHILD, nd]
            if nch > 0:
                first = ti[T_FIRST, nd]
                for i in range(first, first + nch):
                    mv = ti[T_MOVE, i]
                    c = ti[T_COLOR, i]
                    if mv != PASS and c != 0 and amaf_col[mv] == c and amaf_ply[mv] >= d:
                        tf[F_RVIS, i] += 1.0
                        if c == winner:
                            tf[F_RWIN, i] += 1.0
    return iters


@njit(cache=True, nogil=True)  # the estimator runs it in a server's worker thread: the event loop goes on
def run_playouts(root_b: np.ndarray, n: int, pat: np.ndarray, params: np.ndarray, own: np.ndarray,
                 seed: int, alternate: bool) -> float:
    """Run ``n`` playouts from ``root_b`` (no tree), adding owners to ``own``; with ``alternate`` every other
    playout starts with the other side to move (removes the tempo bias of an estimate). Returns the mean margin."""
    if seed >= 0:
        np.random.seed(seed)
    b = root_b.copy()
    m = root_b.shape[1]
    amaf_col = np.zeros(m, dtype=np.int64)
    amaf_ply = np.zeros(m, dtype=np.int64)
    cand = np.zeros(64, dtype=np.int64)
    total = 0.0
    for i in range(n):
        b[:, :] = root_b
        b[META, M_PASSES] = 0
        if alternate and i % 2 == 1:
            b[META, M_TOMOVE] = 3 - b[META, M_TOMOVE]
            b[META, M_LAST] = -1
            b[META, M_KO] = -1
        total += playout(b, pat, params, own, amaf_col, amaf_ply, 0, cand)
    return total / max(n, 1)
