"""The learned prior: how likely a player is to choose each move, from the features of ``keima.ai.features``.

A model is four arrays (``Model``): the sorted 3x3 codes and 5x5 codes that have a weight, the weights, and the
offsets of each feature's block in the weights. A move's score is the sum of its features' weights (a shape code
without a weight adds nothing); ``move_score`` gives the score of one move and ``log_probabilities`` the
softmax over many. The search (``keima.ai.search.expand``) turns them into each new child's prior win rate on big
boards.

The shipped model, ``prior19.npz`` beside this file, was trained by ``scripts/train_prior.py`` on games that GNU Go
played against itself on this project's machines (``scripts/gnugo_selfplay.py``); docs/bot.md says how and what it
predicts. Only the numbers are stored: the feature code that reads them is this package's.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

from keima.ai.features import (
    F_LARGE,
    F_LAST,
    F_LAST2,
    F_LINE,
    F_SMALL,
    F_TACTICS,
    N_DIST,
    N_FEATURES,
    N_LINE,
    N_TACTICS,
    move_features,
)

MODEL_PATH = Path(__file__).with_name("prior19.npz")

# Offsets of the blocks in ``Model.offsets``: small shapes, large shapes, the two distances, line, tactics, end.
O_SMALL, O_LARGE, O_LAST, O_LAST2, O_LINE, O_TACTICS, O_END = range(7)


class Model(NamedTuple):
    """A learned prior's numbers (see the module docstring)."""

    small: np.ndarray    # int64, sorted: 3x3 codes with a weight
    large: np.ndarray    # int64, sorted: 5x5 codes with a weight
    weights: np.ndarray  # float64
    offsets: np.ndarray  # int64, O_SMALL .. O_END


def layout(n_small: int, n_large: int) -> np.ndarray:
    """Return the offsets of a model with ``n_small`` 3x3 and ``n_large`` 5x5 codes."""
    sizes = [n_small, n_large, N_DIST, N_DIST, N_LINE, N_TACTICS]
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


def empty_model() -> Model:
    """A model with no shape codes and every weight zero (all moves equally likely)."""
    offsets = layout(0, 0)
    return Model(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(int(offsets[O_END]), np.float64), offsets)


def save(model: Model, path: Path) -> None:
    """Write ``model`` to ``path`` (a compressed numpy archive)."""
    np.savez_compressed(path, small=model.small, large=model.large, weights=model.weights.astype(np.float32),
                        offsets=model.offsets)


def read(path: Path) -> Model:
    """Read a model written by ``save``. Raises ``ValueError`` when the arrays do not fit together."""
    with np.load(path) as z:
        model = Model(z["small"].astype(np.int64), z["large"].astype(np.int64), z["weights"].astype(np.float64),
                      z["offsets"].astype(np.int64))
    expected = layout(len(model.small), len(model.large))
    if not np.array_equal(expected, model.offsets) or len(model.weights) != expected[O_END]:
        raise ValueError(f"{path}: the model's offsets do not match its codes and weights")
    if np.any(np.diff(model.small) <= 0) or np.any(np.diff(model.large) <= 0):
        raise ValueError(f"{path}: the model's shape codes are not sorted")
    return model


@lru_cache(maxsize=1)
def shipped() -> Model:
    """The model shipped with keima (read once); the empty model when the file is missing."""
    return read(MODEL_PATH) if MODEL_PATH.exists() else empty_model()


@njit(cache=True)
def feature_ids(raw: np.ndarray, small: np.ndarray, large: np.ndarray, offsets: np.ndarray,
                out: np.ndarray) -> int:
    """Write the weight indices of the raw features ``raw`` (``keima.ai.features.move_features``) into ``out``;
    return how many."""
    k = 0
    i = np.searchsorted(small, raw[F_SMALL])
    if i < len(small) and small[i] == raw[F_SMALL]:
        out[k] = offsets[O_SMALL] + i
        k += 1
    i = np.searchsorted(large, raw[F_LARGE])
    if i < len(large) and large[i] == raw[F_LARGE]:
        out[k] = offsets[O_LARGE] + i
        k += 1
    out[k] = offsets[O_LAST] + raw[F_LAST]
    out[k + 1] = offsets[O_LAST2] + raw[F_LAST2]
    out[k + 2] = offsets[O_LINE] + raw[F_LINE]
    k += 3
    bits = raw[F_TACTICS]
    for t in range(N_TACTICS):
        if bits & (1 << t):
            out[k] = offsets[O_TACTICS] + t
            k += 1
    return k


@njit(cache=True)
def move_score(b: np.ndarray, p: int, c: int, small: np.ndarray, large: np.ndarray, weights: np.ndarray,
               offsets: np.ndarray) -> float:
    """The model's score of ``c`` playing the empty point ``p`` of fast board ``b``."""
    raw = np.zeros(N_FEATURES, dtype=np.int64)
    ids = np.zeros(5 + N_TACTICS, dtype=np.int64)
    move_features(b, p, c, raw)
    k = feature_ids(raw, small, large, offsets, ids)
    s = 0.0
    for j in range(k):
        s += weights[ids[j]]
    return s


def log_probabilities(b: np.ndarray, moves: list[int], c: int, model: Model) -> np.ndarray:
    """Return the log-probability of each fast-board point of ``moves`` being ``c``'s choice among them."""
    scores = np.array([move_score(b, p, c, *model) for p in moves], dtype=np.float64)
    if len(scores) == 0:
        return scores
    top = float(scores.max())
    out: np.ndarray = scores - top - float(np.log(np.exp(scores - top).sum()))
    return out
