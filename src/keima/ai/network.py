"""The policy network: which move a strong player would choose, as a small convolutional network.

The network reads the planes of ``keima.ai.planes`` and answers one score (a logit) per point; a softmax over
the candidate moves gives the probability of each. Its shape is a residual tower, the usual one for Go since
the first Go networks: a stem convolution, ``blocks`` residual blocks of two 3x3 convolutions of ``channels``
filters each (with ReLU, the block's input added before the second ReLU), and a 1x1 convolution to one score per
point plus a learned bias per point. There is no batch normalisation, so the stored weights are the whole
network.

Inference runs on the CPU inside the compiled search (numba): each convolution is an ``im2col`` copy and one
matrix product (``np.dot``, BLAS through SciPy), about 110 GFLOP/s on one core of the development machine, so
the shipped 19x19 network (``policy19.npz``) answers in 2 to 3.5 ms and the 9x9 one (``policy9.npz``) in
about 0.4 ms.

``scripts/train_policy.py`` trains it (with PyTorch, which keima itself does not need) on games GNU Go played
against itself here, and writes the weights in the layout below; docs/bot.md says how and what it predicts.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

from keima.ai.planes import N_PLANES


def network_path(size: int) -> Path:
    """Where the network shipped for ``size`` x ``size`` boards lives (``policy<size>.npz`` beside this file)."""
    return Path(__file__).with_name(f"policy{size}.npz")


class Network(NamedTuple):
    """A policy network's weights, each convolution as an ``im2col`` matrix: rows ordered by kernel row, kernel
    column, then input channel; one column per output channel."""

    stem_w: np.ndarray    # float32 (k * k * N_PLANES, C)
    stem_b: np.ndarray    # float32 (C,)
    blocks_w: np.ndarray  # float32 (2 * blocks, 9 * C, C)
    blocks_b: np.ndarray  # float32 (2 * blocks, C)
    head_w: np.ndarray    # float32 (C,)
    head_b: np.ndarray    # float32 (n * n,): the bias of each point's score


def empty_network() -> Network:
    """A network with no weights (``is_empty``): the search then works without one."""
    z = np.zeros((0, 0), np.float32)
    return Network(z, np.zeros(0, np.float32), np.zeros((0, 0, 0), np.float32), z, np.zeros(0, np.float32),
                   np.zeros(0, np.float32))


def is_empty(net: Network) -> bool:
    """True for ``empty_network()``."""
    return bool(net.stem_w.shape[0] == 0)


def save(net: Network, path: Path) -> None:
    """Write ``net`` to ``path`` (a compressed numpy archive)."""
    np.savez_compressed(path, **net._asdict())


def read(path: Path) -> Network:
    """Read a network written by ``save``. Raises ``ValueError`` when the arrays do not fit together."""
    with np.load(path) as z:
        net = Network(*(np.ascontiguousarray(z[name], dtype=np.float32) for name in Network._fields))
    channels = net.stem_b.shape[0]
    taps, rest = divmod(net.stem_w.shape[0], N_PLANES)
    k = int(round(taps ** 0.5))
    size = int(round(net.head_b.shape[0] ** 0.5))
    if (rest or k * k != taps or k % 2 == 0 or net.stem_w.shape[1] != channels
            or net.blocks_w.shape[1:] != (9 * channels, channels) or net.blocks_b.shape[1:] != (channels,)
            or net.blocks_w.shape[0] != net.blocks_b.shape[0] or net.blocks_w.shape[0] % 2
            or net.head_w.shape != (channels,) or size * size != net.head_b.shape[0]):
        raise ValueError(f"{path}: the network's arrays do not fit together")
    return net


def _edge_twin(i: int, n: int, m: int) -> int:
    """The line of an ``m``-line board at the same distance from the nearer edge as line ``i`` of an ``n``-line
    board (a distance past the middle of the ``m`` board reads its middle line)."""
    d = min(i, n - 1 - i, (m - 1) // 2)
    return d if i <= n - 1 - i else m - 1 - d


def resized(net: Network, n: int) -> Network:
    """``net`` made for ``n`` x ``n`` boards: the same convolutions (zero padding reads any board), and each point
    given the per-point bias of the point of ``net``'s board at the same distances from its two nearer edges
    (the bias mostly says how far a point lies from each edge). Raises ``ValueError`` for the empty network."""
    if is_empty(net):
        raise ValueError("the empty network has no board to resize")
    m = board_size(net)
    src = net.head_b.reshape(m, m)
    rows = [_edge_twin(i, n, m) for i in range(n)]
    head_b = np.ascontiguousarray(src[np.ix_(rows, rows)].ravel(), dtype=np.float32)
    return net._replace(head_b=head_b)


@lru_cache(maxsize=1)
def single_threaded_blas() -> object:
    """Limit the BLAS libraries of this process to one thread each, once; returns the limit's handle (kept so
    that it stays in force).

    The network's matrices are small (361 rows): BLAS threads would only compete with the search threads and
    with each other, and each search thread is meant to use one core."""
    import scipy.linalg.cython_blas  # noqa: F401  (loads the BLAS numba calls, so that the limit reaches it)
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController().limit(limits=1, user_api="blas")


@cache
def shipped(size: int) -> Network:
    """The network shipped with keima for ``size`` x ``size`` boards (read once); ``empty_network()`` when there
    is none."""
    path = network_path(size)
    return read(path) if path.exists() else empty_network()


def board_size(net: Network) -> int:
    """The board size ``net`` was made for (0 for the empty network)."""
    return int(round(net.head_b.shape[0] ** 0.5))


@njit(cache=True, nogil=True)
def _im2col(x: np.ndarray, n: int, k: int, cols: np.ndarray) -> None:
    """Copy the ``k`` x ``k`` neighbourhood of every point of ``x`` (``n * n`` rows of channels) into a row of
    ``cols``; points off the board read as zero."""
    ch = x.shape[1]
    half = k // 2
    for r in range(n):
        for c in range(n):
            row = r * n + c
            t = 0
            for dr in range(k):
                rr = r + dr - half
                for dc in range(k):
                    cc = c + dc - half
                    base = t * ch
                    if 0 <= rr < n and 0 <= cc < n:
                        src = rr * n + cc
                        for j in range(ch):
                            cols[row, base + j] = x[src, j]
                    else:
                        for j in range(ch):
                            cols[row, base + j] = 0.0
                    t += 1


@njit(cache=True, nogil=True)
def forward(x: np.ndarray, n: int, stem_w: np.ndarray, stem_b: np.ndarray, blocks_w: np.ndarray,
            blocks_b: np.ndarray, head_w: np.ndarray, head_b: np.ndarray) -> np.ndarray:
    """Return the network's score of every point (``n * n`` float32) for the planes ``x`` (``n * n`` rows,
    ``N_PLANES`` columns, float32; see ``keima.ai.planes.fill_planes``)."""
    channels = stem_b.shape[0]
    k = int(round((stem_w.shape[0] // x.shape[1]) ** 0.5))
    cols = np.empty((n * n, k * k * x.shape[1]), dtype=np.float32)
    _im2col(x, n, k, cols)
    h = np.dot(cols, stem_w)
    cols = np.empty((n * n, 9 * channels), dtype=np.float32)
    for i in range(n * n):
        for j in range(channels):
            h[i, j] = max(h[i, j] + stem_b[j], 0.0)
    for blk in range(blocks_w.shape[0] // 2):
        _im2col(h, n, 3, cols)
        a = np.dot(cols, blocks_w[2 * blk])
        bias = blocks_b[2 * blk]
        for i in range(n * n):
            for j in range(channels):
                a[i, j] = max(a[i, j] + bias[j], 0.0)
        _im2col(a, n, 3, cols)
        y = np.dot(cols, blocks_w[2 * blk + 1])
        bias = blocks_b[2 * blk + 1]
        for i in range(n * n):
            for j in range(channels):
                h[i, j] = max(y[i, j] + bias[j] + h[i, j], 0.0)
    out: np.ndarray = np.dot(h, head_w) + head_b
    return out
