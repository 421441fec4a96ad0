"""Train the learned prior (``keima.ai.prediction``) on SGF games and write it as a model file.

Usage::

    python scripts/train_prior.py GAMES_DIR [--out src/keima/ai/prior19.npz] [--epochs 10] [--size 19]

Every move of every game in GAMES_DIR (sub-folders included) is a training example, except passes and moves
whose node has a comment starting "random" (the random openings of ``scripts/gnugo_selfplay.py``, which are
played on the board but are not a player's choice). The candidates of an example are the moves the search would
consider: every legal point but the player's own true eyes. One game in ten (by file name order) is held out;
the script prints, for the held-out moves, how often the model's first choice is the move played (top-1) and
is among its first five (top-5), the same for the hand-written prior of the search as a peer, and the mean
log-likelihood of the played move.

The model is a conditional logit ("Bradley-Terry" in Coulom's 2007 paper): a move's score is the sum of its
features' weights and the probability of a move is the softmax of the scores over the candidates. It is fitted
by stochastic gradient ascent on the log-likelihood of the played moves, with a small L2 penalty. A 3x3 code
gets a weight when it occurs 10 times or more among the candidates; a 5x5 code when it was played 3 times or
more.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from numba import njit
from sgfmill import sgf

from keima.ai import fastboard as fb
from keima.ai import prediction as P
from keima.ai import search as S
from keima.ai.features import F_LARGE, F_SMALL, N_FEATURES, N_TACTICS, move_features
from keima.ai.patterns import PATTERN_TABLE

MAX_IDS = 5 + N_TACTICS

# No numba cache here: the tests load this file under another module name than a run as a script, and a cache
# written by one cannot be read by the other (numba then fails with "No module named '<dynamic>'").


@njit
def candidates(b: np.ndarray, c: int, points: np.ndarray, raw: np.ndarray) -> int:
    """Write the search's candidate moves of ``c`` (legal, not an own true eye) and their raw features."""
    k = 0
    el = b[fb.EMPTY_LIST]
    for i in range(b[fb.META, fb.M_NEMPTY]):
        p = el[i]
        if not fb.is_legal(b, p, c) or fb.is_true_eye(b, p, c):
            continue
        points[k] = p
        move_features(b, p, c, raw[k])
        k += 1
    return k


def read_games(folder: Path, size: int, skip_player: str | None = None) \
        -> list[tuple[str, list[tuple[int, int, bool]]]]:
    """(name, [(colour, fast point or PASS, is_example)]) of every SGF game of ``size`` under ``folder``.

    The root's setup stones (``AB``/``AW``: handicap stones) come first, as moves that are not examples. With
    ``skip_player``, the moves of a player whose name (``PB``/``PW``) starts with it are played but are not
    examples either (to learn one side of a match only)."""
    games = []
    for path in sorted(folder.rglob("*.sgf")):
        try:
            game = sgf.Sgf_game.from_bytes(path.read_bytes())
        except ValueError as exc:
            print(f"skipped {path}: {exc}", file=sys.stderr)
            continue
        if game.get_size() != size:
            continue
        root = game.get_root()
        skipped = {colour for colour, prop in (("b", "PB"), ("w", "PW"))
                   if skip_player is not None and root.has_property(prop)
                   and str(root.get(prop)).startswith(skip_player)}
        moves = []
        blacks, whites, _empty = root.get_setup_stones()
        for colour, stones in (("b", blacks), ("w", whites)):
            for row, col in sorted(stones):
                c = fb.BLACK if colour == "b" else fb.WHITE
                moves.append((c, fb.to_fast((size - 1 - row) * size + col, size), False))
        for node in game.get_main_sequence()[1:]:
            colour, move = node.get_move()
            if colour is None:
                continue
            c = fb.BLACK if colour == "b" else fb.WHITE
            comment = node.get("C") if node.has_property("C") else ""
            if move is None:
                moves.append((c, fb.PASS, False))
            else:
                row, col = move
                p = (size - 1 - row) * size + col
                example = not comment.startswith("random") and colour not in skipped
                moves.append((c, fb.to_fast(p, size), example))
        games.append((path.name, moves))
    return games


def replay(moves: list[tuple[int, int, bool]], size: int) -> Iterator[tuple[np.ndarray, int, int]]:
    """Replay one game of ``read_games`` on a new fast board: yields (board, colour, fast point) for each example
    move before it is played (the caller must not change the board), and stops at a move the fast board refuses
    (a superko it does not know), since the rest of the record is then not replayable."""
    b = fb.new_board(size)
    for c, p, is_example in moves:
        b[fb.META, fb.M_TOMOVE] = c
        if p == fb.PASS:
            fb.play_pass(b)
            continue
        if not fb.is_legal(b, p, c):
            return
        if is_example:
            yield b, c, p
        fb.place(b, p, c)


def examples(games: list[tuple[str, list[tuple[int, int, bool]]]], size: int) \
        -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]]:
    """Replay ``games``: (raw features of all candidates, first candidate of each example, index of the move
    played among its candidates, the hand-written prior's rank-1 hit per example, the boards' candidate points)."""
    w = size + 2
    points = np.zeros(w * w, dtype=np.int64)
    raw_buf = np.zeros((w * w, N_FEATURES), dtype=np.int64)
    raws: list[np.ndarray] = []
    starts = [0]
    targets: list[int] = []
    peer_hits: list[int] = []
    cand_points: list[np.ndarray] = []
    total = 0
    for _name, moves in games:
        for b, c, p in replay(moves, size):
            k = candidates(b, c, points, raw_buf)
            where = np.nonzero(points[:k] == p)[0]
            if len(where):
                raws.append(raw_buf[:k].copy())
                total += k
                starts.append(total)
                targets.append(int(where[0]))
                priors = [S._prior(b, int(q), c, PATTERN_TABLE, True) for q in points[:k]]
                peer_hits.append(int(int(np.argmax(priors)) == int(where[0])))
                cand_points.append(points[:k].copy())
    raw = np.concatenate(raws) if raws else np.zeros((0, N_FEATURES), np.int64)
    return raw, np.array(starts, np.int64), np.array(targets, np.int64), np.array(peer_hits, np.int64), cand_points


@njit
def ids_of(raw: np.ndarray, small: np.ndarray, large: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The weight indices of every row of ``raw`` (padded with -1)."""
    out = np.full((raw.shape[0], MAX_IDS), -1, dtype=np.int64)
    for i in range(raw.shape[0]):
        P.feature_ids(raw[i], small, large, offsets, out[i])
    return out


@njit
def _scores(ids: np.ndarray, weights: np.ndarray, a: int, z: int, s: np.ndarray) -> None:
    for i in range(a, z):
        v = 0.0
        for j in range(ids.shape[1]):
            f = ids[i, j]
            if f < 0:
                break
            v += weights[f]
        s[i - a] = v


@njit
def train_epoch(ids: np.ndarray, starts: np.ndarray, targets: np.ndarray, order: np.ndarray, weights: np.ndarray,
                rate: float, l2: float) -> float:
    """One pass of stochastic gradient ascent over the examples in ``order``; returns the mean log-likelihood."""
    s = np.zeros(2048, dtype=np.float64)
    total = 0.0
    for e in order:
        a = starts[e]
        z = starts[e + 1]
        _scores(ids, weights, a, z, s)
        top = s[: z - a].max()
        norm = 0.0
        for i in range(z - a):
            s[i] = np.exp(s[i] - top)
            norm += s[i]
        total += np.log(s[targets[e]] / norm)
        for i in range(z - a):
            g = -rate * s[i] / norm
            if i == targets[e]:
                g += rate
            for j in range(ids.shape[1]):
                f = ids[a + i, j]
                if f < 0:
                    break
                weights[f] += g
    for f in range(len(weights)):
        weights[f] *= 1.0 - l2
    return total / max(len(order), 1)


@njit
def evaluate(ids: np.ndarray, starts: np.ndarray, targets: np.ndarray, weights: np.ndarray) \
        -> tuple[float, float, float]:
    """(top-1, top-5, mean log-likelihood) of the played moves."""
    s = np.zeros(2048, dtype=np.float64)
    top1 = 0
    top5 = 0
    ll = 0.0
    n = len(targets)
    for e in range(n):
        a = starts[e]
        z = starts[e + 1]
        _scores(ids, weights, a, z, s)
        t = s[targets[e]]
        better = 0
        for i in range(z - a):
            if s[i] > t:
                better += 1
        top1 += better == 0
        top5 += better < 5
        m = s[: z - a].max()
        ll += t - m - np.log(np.exp(s[: z - a] - m).sum())
    return top1 / max(n, 1), top5 / max(n, 1), ll / max(n, 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", type=Path)
    ap.add_argument("--out", type=Path, default=P.MODEL_PATH)
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--rate", type=float, default=0.03)
    ap.add_argument("--l2", type=float, default=1e-4)
    args = ap.parse_args(argv)
    t0 = time.time()
    games = read_games(args.games, args.size)
    held = games[::10]
    train = [g for i, g in enumerate(games) if i % 10]
    raw, starts, targets, _peer, _pts = examples(train, args.size)
    vraw, vstarts, vtargets, vpeer, _vpts = examples(held, args.size)
    print(f"{len(train)} games, {len(targets)} examples ({len(raw)} candidates); held out {len(held)} games, "
          f"{len(vtargets)} examples; {time.time() - t0:.0f} s", flush=True)
    codes, counts = np.unique(raw[:, F_SMALL], return_counts=True)
    small = codes[counts >= 10]
    played = raw[starts[:-1] + targets]
    codes, counts = np.unique(played[:, F_LARGE], return_counts=True)
    large = codes[counts >= 3]
    offsets = P.layout(len(small), len(large))
    weights = np.zeros(int(offsets[P.O_END]), dtype=np.float64)
    ids = ids_of(raw, small, large, offsets)
    vids = ids_of(vraw, small, large, offsets)
    print(f"{len(small)} 3x3 codes, {len(large)} 5x5 codes, {len(weights)} weights", flush=True)
    rng = np.random.default_rng(1)
    for epoch in range(args.epochs):
        rate = args.rate / (1 + epoch)
        ll = train_epoch(ids, starts, targets, rng.permutation(len(targets)), weights, rate, args.l2)
        top1, top5, vll = evaluate(vids, vstarts, vtargets, weights)
        print(f"epoch {epoch + 1}: train log-likelihood {ll:.3f}; held out: top-1 {top1:.1%}, top-5 {top5:.1%}, "
              f"log-likelihood {vll:.3f}; {time.time() - t0:.0f} s", flush=True)
    print(f"peer, the search's hand-written prior: top-1 {vpeer.mean():.1%} of the held-out moves")
    uniform = -np.mean(np.log(np.diff(vstarts))) if len(vtargets) else 0.0
    print(f"peer, all candidates equally likely: log-likelihood {uniform:.3f}")
    P.save(P.Model(small, large, weights, offsets), args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
