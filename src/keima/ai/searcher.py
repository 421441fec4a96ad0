"""The Python side of the search: loading a referee position, time slices, tree reuse and move choice.

The compiled search (``keima.ai.search``) knows only simple ko; this layer restricts the root to the moves the
referee accepts (superko of any kind included) and checks the final choice with ``game.legality`` again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from keima.ai import fastboard as fb
from keima.ai import network, prediction
from keima.ai import search as S
from keima.ai.patterns import PATTERN_TABLE
from keima.rules import WHITE
from keima.rules.game import Game
from keima.rules.scoring import handicap_bonus

#: A new child's prior win rate on 19x19 moves by this much per unit of the learned log-probability above a
#: uniform choice (``keima.ai.search.expand``).
LEARNED_WEIGHT = 0.05

#: The policy network sets a node's children's priors once the node has this many visits (the root at once):
#: an evaluation costs about as much as a few playouts, so only nodes the search returns to get one.
NET_VISITS = 16

#: The network's weight in a prior win rate, per unit of its log-probability above a uniform choice.
NET_WEIGHT = 0.1

#: Dynamic komi in a handicap game (« linear handicap »): White, having given the stones, searches as if it
#: received this many more points per handicap stone at the first move (about half what a stone gives: a move is
#: worth about twice the komi, on every board size) ...
HANDICAP_KOMI_PER_STONE = 8.0
#: ... and the extra points shrink linearly to none at this move on 19x19 (in proportion to the board's area on
#: smaller boards, whose games are shorter).
HANDICAP_KOMI_MOVES = 200


def effective_komi(game: Game) -> float:
    """Return the points White receives in an area count of ``game``: komi plus the handicap bonus.

    Area rulesets give their own bonus (``keima.rules.scoring.handicap_bonus``). Territory rulesets are searched
    as area counts too: with pass stones the two differ by the handicap stones minus one, which is added."""
    stones = game.handicap if game.handicap >= 2 else 0
    if game.rules.scoring == "area":
        return float(game.komi) + handicap_bonus(game.rules, game.handicap)
    return float(game.komi) + max(stones - 1, 0)


def handicap_komi(game: Game, color: int) -> float:
    """Return the points added to White's komi when the search chooses ``color``'s move in ``game`` (0.0 but
    for White in a handicap game of two stones or more, before the move where the extra points run out).

    Searching the true count, White sees most playouts lost once the position settles (at the first moves the
    playouts are still too noisy to tell: about 44% won on an empty 19x19 board with three stones): all moves
    look alike and the search drifts into moves that only lose more slowly. With the extra points it looks for
    the moves that keep the game close, and the points shrink as the stones' advantage should be made up.
    Black's search, the count, resignation and the reported score keep the true komi."""
    if color != WHITE or game.handicap < 2:
        return 0.0
    left = 1.0 - game.move_number / (HANDICAP_KOMI_MOVES * game.size * game.size / 361)
    return HANDICAP_KOMI_PER_STONE * game.handicap * left if left > 0 else 0.0


def load(game: Game, color: int | None = None, set_stone: Callable[..., Any] = fb.set_stone) -> np.ndarray:
    """Return a fast board holding ``game``'s current position, side to move, simple-ko point and last two
    moves. ``color``: the side to move on the board when it is not ``game``'s (GTP ``genmove`` may ask out of
    turn; the ko point, which binds the side to move, is then dropped). ``set_stone``: the kernel that sets the
    stones up (its interpreted twin before the search is compiled, ``keima.ai.quick``)."""
    n = game.size
    b = fb.new_board(n, suicide_allowed=game.rules.suicide != "forbidden")
    colors = game.board.colors
    for p, c in enumerate(colors):
        if c:
            set_stone(b, fb.to_fast(p, n), int(c))
    meta = b[fb.META]
    meta[fb.M_TOMOVE] = int(game.to_move)
    ko = game.ko_point
    meta[fb.M_KO] = fb.to_fast(ko, n) if ko is not None else -1
    # The last two moves (the learned prior and the policy network read both; a pass is PASS).
    for slot, record in zip((fb.M_LAST, fb.M_LAST2), reversed(game.moves[-2:]), strict=False):
        meta[slot] = fb.PASS if record.point is None else fb.to_fast(record.point, n)
    meta[fb.M_PASSES] = min(int(game.consecutive_passes), 1)
    if color is not None and color != meta[fb.M_TOMOVE]:
        meta[fb.M_TOMOVE] = color
        meta[fb.M_KO] = -1
    return b


def search_params(game: Game, heavy: bool = True, fill: int | None = None, wide_prior: bool | None = None,
                  learned: float | None = None, model: prediction.Model | None = None,
                  net: network.Network | None = None, net_visits: int = NET_VISITS,
                  net_weight: float = NET_WEIGHT,
                  extra_komi: float = 0.0, low_liberty: bool = True) -> tuple[np.ndarray, network.Network, bool]:
    """Return the search parameters for ``game`` (``keima.ai.search.make_params``), the policy network and
    whether the search uses it (a network made for another board size is not used). The arguments are
    ``Searcher``'s (None: the board size's default; ``model``, ``net``: the shipped ones); ``extra_komi`` is added
    to White's komi (``handicap_komi``)."""
    n = game.size
    big = n >= 13
    fill = (4 if big else 0) if fill is None else fill
    wide = big if wide_prior is None else wide_prior
    if model is None:
        model = prediction.shipped()
    if learned is None:
        learned = LEARNED_WEIGHT if n == 19 and len(model.small) else 0.0
    if net is None:
        net = network.shipped(n)
    use_net = not network.is_empty(net) and network.board_size(net) == n
    params = S.make_params(effective_komi(game) + extra_komi, heavy=heavy, expand=2 if n <= 13 else 4, fill=fill,
                           wide_prior=wide, learned=learned, net_visits=net_visits if use_net else -1,
                           net_weight=net_weight, low_liberty=low_liberty)
    return params, net, use_net


@dataclass
class SearchResult:
    """What one search found at the root."""

    move: int | None  # referee point or None (pass)
    winrate: float  # for the side to move, of the chosen move
    playouts: int
    ranked: list[tuple[int | None, float, float]]  # (move, visits, winrate) best first
    ownership: np.ndarray  # per referee point, +1 black .. -1 white
    score: float = 0.0  # Black's expected area margin, komi deducted (the playouts' mean)
    #: Black's expected margin after each root move (the mean over its playouts, komi deducted; a move without
    #: playouts of its own has none): what a review says each candidate loses.
    scores: dict[int | None, float] = field(default_factory=dict)


class _Tree:
    """One search tree: its node arrays (allocated once, reused between moves), its root and the root's board."""

    def __init__(self, max_nodes: int) -> None:
        self.max_nodes = max_nodes
        self.ti, self.tf = S.new_tree(max_nodes)
        self.root = 0
        self.root_board: np.ndarray | None = None

    def reset(self) -> None:
        self.ti[S.T_META, 0] = 1
        self.ti[S.T_NCHILD, 0] = -1
        self.ti[S.T_NET, 0] = 0
        self.tf[:, 0] = 0.0
        self.root = 0
        self.root_board = None

    def reuse(self, b: np.ndarray) -> int:
        """Return the node whose position equals ``b`` two plies (or one) below the previous root, else -1."""
        old = self.root_board
        if old is None or old.shape != b.shape or self.ti[S.T_META, 0] > 0.6 * self.max_nodes:
            return -1
        ti = self.ti
        stack = [(self.root, old, 0)]
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


class Searcher:
    """A reusable MCTS searcher (tree arrays are allocated once and reused between moves).

    With ``threads`` > 1 it searches with root parallelism: one independent tree per thread (the compiled
    iterations release the GIL), each reused between moves on its own, and the root statistics of all trees
    summed to choose the move."""

    def __init__(self, max_nodes: int = 1 << 20, heavy: bool = True, seed: int | None = None,
                 threads: int = 1, fill: int | None = None, wide_prior: bool | None = None,
                 learned: float | None = None, model: prediction.Model | None = None,
                 net: network.Network | None = None, net_visits: int | None = None,
                 net_weight: float | None = None, low_liberty: bool = True) -> None:
        if threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}")
        #: The big-board knowledge (fill-board tries in the playouts, the wide prior): None turns each on from
        #: 13x13 up (4 fill tries); a value forces it on every board size (for A/B tests).
        self.fill = fill
        self.wide_prior = wide_prior
        #: The learned prior's weight (``keima.ai.search.make_params``): None uses ``LEARNED_WEIGHT`` on 19x19,
        #: the board its model was trained on, when the model is shipped; 0 turns it off. ``model``: another
        #: model than the shipped one (tests).
        self.learned = learned
        self._model = prediction.shipped() if model is None else model
        #: The policy network (``keima.ai.network``), used on the board size it was trained for: None the one
        #: shipped for the board's size, if any; ``net_visits`` / ``net_weight`` override ``NET_VISITS`` /
        #: ``NET_WEIGHT`` (-1 visits: never).
        self._net = net
        self.net_visits = NET_VISITS if net_visits is None else net_visits
        self.net_weight = NET_WEIGHT if net_weight is None else net_weight
        #: The playouts' two-liberty answers (``keima.ai.search.make_params``); off only for A/B tests.
        self.low_liberty = low_liberty
        self.max_nodes = max_nodes
        self.heavy = heavy
        self.trees = [_Tree(max_nodes) for _ in range(threads)]
        self.seed = seed if seed is not None else -1
        self._size = 0
        self._pool: ThreadPoolExecutor | None = None

    @property
    def ti(self) -> np.ndarray:
        """The first tree's integer arrays (kept for callers that inspect one tree)."""
        return self.trees[0].ti

    @property
    def tf(self) -> np.ndarray:
        """The first tree's float arrays."""
        return self.trees[0].tf

    @property
    def _root(self) -> int:
        """The first tree's current root node."""
        return self.trees[0].root

    def reset(self) -> None:
        """Forget the trees."""
        for tree in self.trees:
            tree.reset()

    def _reuse(self, b: np.ndarray) -> int:
        """The first tree's reusable node for position ``b`` (see ``_Tree.reuse``), else -1."""
        return self.trees[0].reuse(b)

    def _run(self, tree: _Tree, b: np.ndarray, params: np.ndarray, net: network.Network, start: float,
             seconds: float | None, max_playouts: int | None, seed: int,
             stop: Callable[[], bool] | None = None) -> tuple[int, np.ndarray]:
        """Search ``tree`` from its root (position ``b``) until the time (one slice of iterations at least) or the
        playout limit, or until ``stop`` answers True (asked between slices of iterations); returns the iterations done and the owners added up
        over their playouts."""
        own = np.zeros(b.shape[1], dtype=np.float64)
        scratch = b.copy()
        done = 0
        slice_n = 64 if int(b[fb.META, fb.M_N]) <= 9 else 16
        while True:
            if max_playouts is not None and done >= max_playouts:
                break
            # A timed search runs one slice at least: its setup (a first network load on a busy machine) may take
            # the whole budget, and a search that returns no playout has nothing to say about its moves.
            if seconds is not None and done > 0 and time.perf_counter() - start >= seconds:
                break
            if stop is not None and stop():
                break
            k = slice_n if max_playouts is None else min(slice_n, max_playouts - done)
            S.run_iterations(b, tree.ti, tree.tf, tree.root, k, PATTERN_TABLE, params, own, scratch, seed,
                             *self._model, *net)
            seed = -1
            done += k
        return done, own

    def search(self, game: Game, color: int, seconds: float | None, max_playouts: int | None,
               allowed: list[int] | None = None, allow_pass: bool = True,
               stop: Callable[[], bool] | None = None, extra_komi: float = 0.0) -> SearchResult:
        """Search ``game`` for ``color`` (must be the side to move on the fast board) for at most ``seconds``
        (None: no time limit) and ``max_playouts`` (None: no limit; shared between the threads); at least one
        limit must be set. ``allowed``: referee points the root may play (default: the referee's legal moves).
        ``stop``: asked between slices of playouts; the search ends early once it answers True (a cancelled
        review). ``extra_komi``: points added to White's komi in the playouts (``handicap_komi``); the win rates
        are then those of that count, but the result's ``score`` is Black's mean area margin over the playouts with
        the true komi deducted. Raises ``RuntimeError`` when the tree cannot hold the root's children."""
        start = time.perf_counter()
        n = game.size
        b = load(game, color)
        params, net, use_net = search_params(game, self.heavy, self.fill, self.wide_prior, self.learned,
                                             self._model, self._net, self.net_visits, self.net_weight,
                                             extra_komi, self.low_liberty)
        if use_net:
            network.single_threaded_blas()
        mask = np.zeros(b.shape[1], dtype=np.int64)
        legal = allowed if allowed is not None else game.legal_moves(color)
        for p in legal:
            mask[fb.to_fast(p, n)] = 1
        for tree in self.trees:
            root = tree.reuse(b) if self._size == n else -1
            if root < 0:
                tree.reset()
                root = 0
                if not S.expand(tree.ti, tree.tf, 0, b, PATTERN_TABLE, params, mask, True, *self._model):
                    raise RuntimeError("search tree too small for this board")
            # Apply the referee's verdict to the root's children (superko, the caller's restrictions).
            ti = tree.ti
            first = int(ti[S.T_FIRST, root])
            for i in range(first, first + int(ti[S.T_NCHILD, root])):
                mv = int(ti[S.T_MOVE, i])
                ok = allow_pass if mv == fb.PASS else bool(mask[mv])
                ti[S.T_COLOR, i] = color if ok else 0
            tree.root = root
            tree.root_board = b
        self._size = n
        k = len(self.trees)
        seeds = [self.seed + i if self.seed >= 0 else -1 for i in range(k)]
        if k == 1:
            runs = [self._run(self.trees[0], b, params, net, start, seconds, max_playouts, seeds[0], stop)]
        else:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=k, thread_name_prefix="keima-search")
            shares = [None if max_playouts is None else max_playouts // k + (1 if i < max_playouts % k else 0)
                      for i in range(k)]
            futures = [self._pool.submit(self._run, tree, b, params, net, start, seconds, shares[i], seeds[i], stop)
                       for i, tree in enumerate(self.trees)]
            runs = [f.result() for f in futures]
        done = sum(r[0] for r in runs)
        own = sum((r[1] for r in runs), np.zeros(b.shape[1], dtype=np.float64))
        # Root statistics of every tree, by move. Each tree starts a child at the same prior (virtual visits at
        # the prior win rate); the sum counts that prior once, as one tree would, so that a win rate is not
        # pulled towards the prior by the number of threads.
        stats: dict[int, list[float]] = {}
        prior_n = float(params[S.P_PRIOR])
        for tree in self.trees:
            ti, tf = tree.ti, tree.tf
            first = int(ti[S.T_FIRST, tree.root])
            for i in range(first, first + int(ti[S.T_NCHILD, tree.root])):
                if ti[S.T_COLOR, i] == 0:
                    continue
                entry = stats.setdefault(int(ti[S.T_MOVE, i]), [0.0, 0.0, 0, 0.0, 0.0])
                entry[0] += float(tf[S.F_VIS, i]) - prior_n
                entry[1] += float(tf[S.F_WIN, i])
                entry[2] += 1
                entry[3] = float(tf[S.F_PRIOR, i])
                entry[4] += float(tf[S.F_SCORE, i])
        ranked: list[tuple[int | None, float, float]] = []
        scores: dict[int | None, float] = {}
        for mv, (visits, wins, trees, p0, margins) in stats.items():
            point = None if mv == fb.PASS else fb.from_fast(mv, n)
            if visits >= 1:
                # The playouts counted the search's komi (``extra_komi`` included): back to the true count.
                scores[point] = margins / visits + extra_komi
            if trees > 1:
                wins -= (trees - 1) * prior_n * p0
            vis = visits + prior_n
            ranked.append((point, visits, wins / vis if vis > 0 else 0.0))
        ranked.sort(key=lambda t: (-t[1], -t[2]))
        own_pts = np.zeros(n * n, dtype=np.float64)
        if done:
            for p in range(n * n):
                own_pts[p] = own[fb.to_fast(p, n)] / done
        best = ranked[0] if ranked else (None, 0.0, 0.0)
        # Every playout ends with each point owned by one side (or by neither, in seki), so the owners summed
        # are Black's area minus White's: the mean over the playouts, komi deducted, is Black's expected lead.
        score = float(own.sum()) / done - (float(params[S.P_KOMI]) - extra_komi) if done else 0.0
        return SearchResult(best[0], best[2], done, ranked, own_pts, score, scores)

    def principal_variation(self, move: int | None, n: int, length: int = 8, min_visits: int = 2) -> list[int | None]:
        """Return the line the first tree expects after the root move ``move`` (a referee point or None for a
        pass, on an ``n`` x ``n`` board): ``move`` itself, then at each node its most visited child, while that
        child has at least ``min_visits`` playouts of its own, at most ``length`` moves in all. Returns ``[]``
        when ``move`` is not a child of the root."""
        tree = self.trees[0]
        ti, tf = tree.ti, tree.tf
        prior_n = float(S.make_params(0.0)[S.P_PRIOR])
        want = fb.PASS if move is None else fb.to_fast(move, n)
        node = -1
        first = int(ti[S.T_FIRST, tree.root])
        for i in range(first, first + max(int(ti[S.T_NCHILD, tree.root]), 0)):
            if int(ti[S.T_MOVE, i]) == want and ti[S.T_COLOR, i] != 0:
                node = i
                break
        if node < 0:
            return []
        line: list[int | None] = [move]
        while len(line) < length and ti[S.T_NCHILD, node] > 0:
            first = int(ti[S.T_FIRST, node])
            children = range(first, first + int(ti[S.T_NCHILD, node]))
            child = max(children, key=lambda i: float(tf[S.F_VIS, i]))
            if float(tf[S.F_VIS, child]) - prior_n < min_visits:
                break
            mv = int(ti[S.T_MOVE, child])
            line.append(None if mv == fb.PASS else fb.from_fast(mv, n))
            node = child
        return line


def ownership(game: Game, playouts: int | None = None, seed: int | None = None,
              run_playouts: Callable[..., Any] = S.run_playouts,
              set_stone: Callable[..., Any] = fb.set_stone) -> np.ndarray:
    """Return each point's expected owner in ``game``'s position (+1 Black .. -1 White) from heavy playouts,
    half of them with each side to move. The game is not changed. ``run_playouts``, ``set_stone``: the kernels
    (their interpreted twins before the search is compiled, ``keima.ai.quick``)."""
    n = game.size
    b = load(game, set_stone=set_stone)
    b[fb.META, fb.M_PASSES] = 0
    if playouts is None:
        playouts = 600 if n <= 9 else 300 if n <= 13 else 160
    params = S.make_params(effective_komi(game), heavy=True)
    own = np.zeros(b.shape[1], dtype=np.float64)
    run_playouts(b, playouts, PATTERN_TABLE, params, own, -1 if seed is None else seed, True)
    out = np.zeros(n * n, dtype=np.float64)
    for p in range(n * n):
        out[p] = own[fb.to_fast(p, n)] / playouts
    return out
