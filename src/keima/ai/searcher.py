"""The Python side of the search: loading a referee position, time slices, tree reuse and move choice.

The compiled search (``keima.ai.search``) knows only simple ko; this layer restricts the root to the moves the
referee accepts (superko of any kind included) and checks the final choice with ``game.legality`` again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from keima.ai import fastboard as fb
from keima.ai import search as S
from keima.ai.patterns import PATTERN_TABLE
from keima.rules.game import Game
from keima.rules.scoring import handicap_bonus


def effective_komi(game: Game) -> float:
    """Return the points White receives in an area count of ``game``: komi plus the handicap bonus.

    Area rulesets give their own bonus (``keima.rules.scoring.handicap_bonus``). Territory rulesets are searched
    as area counts too: with pass stones the two differ by the handicap stones minus one, which is added."""
    stones = game.handicap if game.handicap >= 2 else 0
    if game.rules.scoring == "area":
        return float(game.komi) + handicap_bonus(game.rules, game.handicap)
    return float(game.komi) + max(stones - 1, 0)


def load(game: Game) -> np.ndarray:
    """Return a fast board holding ``game``'s current position, side to move, simple-ko point and last move."""
    n = game.size
    b = fb.new_board(n, suicide_allowed=game.rules.suicide != "forbidden")
    colors = game.board.colors
    for p, c in enumerate(colors):
        if c:
            fb.set_stone(b, fb.to_fast(p, n), int(c))
    meta = b[fb.META]
    meta[fb.M_TOMOVE] = int(game.to_move)
    ko = game.ko_point
    meta[fb.M_KO] = fb.to_fast(ko, n) if ko is not None else -1
    last = game.last_move
    if last is not None:
        meta[fb.M_LAST] = fb.PASS if last.point is None else fb.to_fast(last.point, n)
    meta[fb.M_PASSES] = min(int(game.consecutive_passes), 1)
    return b


@dataclass
class SearchResult:
    """What one search found at the root."""

    move: int | None  # referee point or None (pass)
    winrate: float  # for the side to move, of the chosen move
    playouts: int
    ranked: list[tuple[int | None, float, float]]  # (move, visits, winrate) best first
    ownership: np.ndarray  # per referee point, +1 black .. -1 white


class Searcher:
    """A reusable MCTS searcher (tree arrays are allocated once and reused between moves)."""

    def __init__(self, max_nodes: int = 1 << 20, heavy: bool = True, seed: int | None = None) -> None:
        self.max_nodes = max_nodes
        self.heavy = heavy
        self.ti, self.tf = S.new_tree(max_nodes)
        self.seed = seed if seed is not None else -1
        self._root = 0
        self._root_board: np.ndarray | None = None
        self._size = 0

    def reset(self) -> None:
        """Forget the tree."""
        self.ti[S.T_META, 0] = 1
        self.ti[S.T_NCHILD, 0] = -1
        self.tf[:, 0] = 0.0
        self._root = 0
        self._root_board = None

    def _reuse(self, b: np.ndarray) -> int:
        """Return the node whose position equals ``b`` two plies (or one) below the previous root, else -1."""
        old = self._root_board
        if old is None or old.shape != b.shape or self.ti[S.T_META, 0] > 0.6 * self.max_nodes:
            return -1
        ti = self.ti
        stack = [(self._root, old, 0)]
        while stack:
            node, board, depth = stack.pop()
            if depth > 0 and np.array_equal(board[fb.COL], b[fb.COL]) and \
                    board[fb.META, fb.M_TOMOVE] == b[fb.META, fb.M_TOMOVE] and ti[S.T_NCHILD, node] > 0:
                return node
            if depth >= 2 or ti[S.T_NCHILD, node] <= 0:
                continue
            first = int(ti[S.T_FIRST, node])
            for i in range(first, first + int(ti[S.T_NCHILD, node])):
                mv = int(ti[S.T_MOVE, i])
                c = int(ti[S.T_COLOR, i])
                if c == 0:
                    continue
                nb = board.copy()
                if mv == fb.PASS:
                    fb.play_pass(nb)
                else:
                    fb.place(nb, mv, c)
                if depth == 0 or ti[S.T_NCHILD, i] > 0:
                    stack.append((i, nb, depth + 1))
        return -1

    def search(self, game: Game, color: int, seconds: float | None, max_playouts: int | None,
               allowed: list[int] | None = None, allow_pass: bool = True) -> SearchResult:
        """Search ``game`` for ``color`` (must be the side to move on the fast board) for at most ``seconds``
        (None: no time limit) and ``max_playouts`` (None: no limit); at least one limit must be set.
        ``allowed``: referee points the root may play (default: the referee's legal moves)."""
        start = time.perf_counter()
        n = game.size
        b = load(game)
        if color != b[fb.META, fb.M_TOMOVE]:
            # Out of turn (GTP genmove may ask): the ko point binds the side to move, not this colour.
            b[fb.META, fb.M_TOMOVE] = color
            b[fb.META, fb.M_KO] = -1
        params = S.make_params(effective_komi(game), heavy=self.heavy, expand=2 if n <= 13 else 4)
        mask = np.zeros(b.shape[1], dtype=np.int64)
        legal = allowed if allowed is not None else game.legal_moves(color)
        for p in legal:
            mask[fb.to_fast(p, n)] = 1
        root = self._reuse(b) if self._size == n else -1
        if root < 0:
            self.reset()
            root = 0
            if not S.expand(self.ti, self.tf, 0, b, PATTERN_TABLE, params, mask, True):
                raise RuntimeError("search tree too small for this board")
        self._size = n
        ti, tf = self.ti, self.tf
        # Apply the referee's verdict to the root's children (superko, the caller's restrictions).
        first = int(ti[S.T_FIRST, root])
        nch = int(ti[S.T_NCHILD, root])
        for i in range(first, first + nch):
            mv = int(ti[S.T_MOVE, i])
            ok = allow_pass if mv == fb.PASS else bool(mask[mv])
            ti[S.T_COLOR, i] = color if ok else 0
        self._root = root
        self._root_board = b
        own = np.zeros(b.shape[1], dtype=np.float64)
        scratch = b.copy()
        done = 0
        slice_n = 64 if n <= 9 else 16
        seed = self.seed
        while True:
            if max_playouts is not None and done >= max_playouts:
                break
            if seconds is not None and time.perf_counter() - start >= seconds:
                break
            k = slice_n if max_playouts is None else min(slice_n, max_playouts - done)
            S.run_iterations(b, ti, tf, root, k, PATTERN_TABLE, params, own, scratch, seed)
            seed = -1
            done += k
        ranked: list[tuple[int | None, float, float]] = []
        prior = float(params[S.P_PRIOR])
        for i in range(first, first + nch):
            if ti[S.T_COLOR, i] == 0:
                continue
            mv = int(ti[S.T_MOVE, i])
            vis = float(tf[S.F_VIS, i])
            wr = float(tf[S.F_WIN, i]) / vis if vis > 0 else 0.0
            point = None if mv == fb.PASS else fb.from_fast(mv, n)
            ranked.append((point, vis - prior, wr))
        ranked.sort(key=lambda t: (-t[1], -t[2]))
        own_pts = np.zeros(n * n, dtype=np.float64)
        if done:
            for p in range(n * n):
                own_pts[p] = own[fb.to_fast(p, n)] / done
        best = ranked[0] if ranked else (None, 0.0, 0.0)
        return SearchResult(best[0], best[2], done, ranked, own_pts)


def ownership(game: Game, playouts: int | None = None, seed: int | None = None) -> np.ndarray:
    """Return each point's expected owner in ``game``'s position (+1 Black .. -1 White) from heavy playouts,
    half of them with each side to move. The game is not changed."""
    n = game.size
    b = load(game)
    b[fb.META, fb.M_PASSES] = 0
    if playouts is None:
        playouts = 600 if n <= 9 else 300 if n <= 13 else 160
    params = S.make_params(effective_komi(game), heavy=True)
    own = np.zeros(b.shape[1], dtype=np.float64)
    S.run_playouts(b, playouts, PATTERN_TABLE, params, own, -1 if seed is None else seed, True)
    out = np.zeros(n * n, dtype=np.float64)
    for p in range(n * n):
        out[p] = own[fb.to_fast(p, n)] / playouts
    return out
