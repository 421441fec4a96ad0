"""The bot's moves while its search is being compiled: the search's own root priors, interpreted.

numba compiles keima's search the first time a process needs it: most of a minute on a small machine with an
empty cache (``keima.ai.warmup`` does it in the background). Until then ``QuickSearcher`` answers in its place,
with the code the search itself starts from, run by the interpreter (``keima.ai.interpreted``):

* the root's children as the search's ``expand`` makes them (legal, not an own true eye, the caller's candidates
  only), each with its hand-written prior (captures, saves, self-ataris, ladders, 3x3 shapes, the lines of the
  opening) and, on 19x19, the learned prior's correction;
* where a policy network is shipped for the board size (9x9 and 19x19), the network's opinion on top, as the
  search's ``apply_policy`` adds it at the root (the hand-written prior plus a weight per unit of the network's
  log-probability above a uniform choice), but with the weight ``QUICK_NET_WEIGHT``, a hundred times the
  search's: the network's choice decides, the hand-written prior breaks near-ties. The planes are the search's
  own (``fill_planes``, interpreted); the network runs in numpy (``forward``, the compiled
  ``keima.ai.network.forward``'s twin, vectorised: the interpreter would take seconds over its loops).

The move is the child with the best prior (before clipping to 0.02..0.98; ties go to a seeded random choice).
Nothing is read ahead, so it is far weaker than the search (docs/bot.md gives the figures), but it takes under
20 ms on 9x9 and about 0.15 s on 19x19, and needs no compiler.

``ownership`` is the search's ownership estimate with its playouts interpreted and capped (``quick_playouts``):
rougher, and 0.1 to 0.2 s.
"""

from __future__ import annotations

import random

import numpy as np

from keima.ai import fastboard as fb
from keima.ai import prediction, searcher
from keima.ai import search as S
from keima.ai.interpreted import interpreted
from keima.ai.patterns import PATTERN_TABLE
from keima.ai.planes import N_PLANES, fill_planes
from keima.rules.game import Game

#: The network's weight in the quick move's prior, per unit of its log-probability above a uniform choice: 10,
#: where the search's is 0.1 (``keima.ai.searcher.NET_WEIGHT``), so that the network's choice decides and the
#: hand-written prior only breaks near-ties. The search can afford a light weight, its playouts correct the prior;
#: a move made on the prior alone cannot, and the hand-written bonuses (a capture, a 3x3 shape) then overrule the
#: network too often: against GNU Go 3.8 level 10 on 9x9 the quick move won 26 of 60 games with this weight, 16 of
#: 60 with the search's (docs/bot.md, « The first moves »).
QUICK_NET_WEIGHT = 10.0

#: Playouts of ``ownership`` by board area: 0.1 to 0.2 s of the interpreter's time on the development machine.
QUICK_PLAYOUT_BUDGET = 2600


def quick_playouts(size: int) -> int:
    """The playouts ``ownership`` runs at most on a ``size`` x ``size`` board (32 on 9x9, 8 on 19x19)."""
    return max(8, QUICK_PLAYOUT_BUDGET // (size * size))


def forward(x: np.ndarray, n: int, stem_w: np.ndarray, stem_b: np.ndarray, blocks_w: np.ndarray,
            blocks_b: np.ndarray, head_w: np.ndarray, head_b: np.ndarray) -> np.ndarray:
    """Return the policy network's score of every point (``n * n``), as ``keima.ai.network.forward`` computes
    it, with numpy's vectorised operations instead of compiled loops (float32 throughout; the results agree to
    rounding)."""

    def conv(h: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
        ch = h.shape[1]
        k = int(round((w.shape[0] // ch) ** 0.5))
        half = k // 2
        padded = np.zeros((n + 2 * half, n + 2 * half, ch), dtype=np.float32)
        padded[half:half + n, half:half + n] = h.reshape(n, n, ch)
        # One row per point: its k x k neighbourhood by kernel row, kernel column, then channel (the im2col
        # layout of the weights).
        cols = np.concatenate([padded[dr:dr + n, dc:dc + n].reshape(n * n, ch)
                               for dr in range(k) for dc in range(k)], axis=1)
        out: np.ndarray = cols @ w + b
        return out

    h = np.maximum(conv(x, stem_w, stem_b), 0.0)
    for blk in range(blocks_w.shape[0] // 2):
        a = np.maximum(conv(h, blocks_w[2 * blk], blocks_b[2 * blk]), 0.0)
        h = np.maximum(conv(a, blocks_w[2 * blk + 1], blocks_b[2 * blk + 1]) + h, 0.0)
    scores: np.ndarray = h @ head_w + head_b
    return scores


class QuickSearcher:
    """Answers like ``keima.ai.searcher.Searcher.search`` without compiled code and without playouts (see the
    module's docstring). ``seed`` makes its tie-breaks reproducible."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def reset(self) -> None:
        """Nothing is kept between moves."""

    def search(self, game: Game, color: int, seconds: float | None = None, max_playouts: int | None = None,
               allowed: list[int] | None = None, allow_pass: bool = True,
               extra_komi: float = 0.0) -> searcher.SearchResult:
        """Rank ``color``'s moves in ``game`` by the search's root priors; ``allowed`` (default: the referee's
        legal moves) and ``allow_pass`` as for ``Searcher.search``; ``seconds``, ``max_playouts`` and
        ``extra_komi`` are not needed (it answers at once, with no playout to count). The result has no
        playouts: visits 0, the win rates are the priors, the ownership all zeros. A pass comes last, or first
        when no move is left."""
        n = game.size
        b = searcher.load(game, color, set_stone=interpreted(fb.set_stone))
        params, net, use_net = searcher.search_params(game)
        mask = np.zeros(b.shape[1], dtype=np.int64)
        for p in allowed if allowed is not None else game.legal_moves(color):
            mask[fb.to_fast(p, n)] = 1
        ti, tf = S.new_tree(n * n + 2)
        interpreted(S.expand)(ti, tf, 0, b, PATTERN_TABLE, params, mask, True, *prediction.shipped())
        first, count = int(ti[S.T_FIRST, 0]), int(ti[S.T_NCHILD, 0])
        moves = [int(ti[S.T_MOVE, i]) for i in range(first, first + count) if ti[S.T_MOVE, i] != fb.PASS]
        priors = np.array([float(tf[S.F_PRIOR, i]) for i in range(first, first + count)
                           if ti[S.T_MOVE, i] != fb.PASS])
        if use_net and moves:
            x = np.zeros((n * n, N_PLANES), dtype=np.float32)
            interpreted(fill_planes)(b, color, x)
            scores = forward(x, n, *net).astype(np.float64)
            chosen = np.array([scores[fb.from_fast(mv, n)] for mv in moves])
            top = chosen.max()
            shift = top + np.log(np.exp(chosen - top).sum()) - np.log(len(chosen))
            prior = interpreted(S._prior)
            wide = params[S.P_WIDE_PRIOR] > 0.5
            priors = np.array([prior(b, mv, color, PATTERN_TABLE, wide) for mv in moves]) \
                + QUICK_NET_WEIGHT * (chosen - shift)
        order = sorted(range(len(moves)), key=lambda i: (-priors[i], self._rng.random()))
        ranked: list[tuple[int | None, float, float]] = [
            (fb.from_fast(moves[i], n), 0.0, min(max(float(priors[i]), 0.02), 0.98)) for i in order]
        if allow_pass:
            ranked.append((None, 0.0, 0.1 if ranked else 0.5))
        best = ranked[0] if ranked else (None, 0.0, 0.0)
        return searcher.SearchResult(best[0], best[2], 0, ranked, np.zeros(n * n, dtype=np.float64))


def ownership(game: Game, playouts: int | None = None, seed: int | None = None) -> np.ndarray:
    """Return ``keima.ai.searcher.ownership`` of ``game`` computed by the interpreter, with at most
    ``quick_playouts(game.size)`` playouts (``playouts`` caps it further). A ``seed`` seeds the twins' own
    generator (``keima.ai.interpreted.RANDOM``)."""
    cap = quick_playouts(game.size)
    run = interpreted(S.run_playouts)
    return searcher.ownership(game, cap if playouts is None else min(playouts, cap), seed, run_playouts=run,
                              set_stone=interpreted(fb.set_stone))

