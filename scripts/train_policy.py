"""Train the policy network (``keima.ai.network``) on SGF games and write it as a network file.

Usage::

    python scripts/train_policy.py extract GAMES_DIR [GAMES_DIR ...] --out examples.npz [--jobs 16] [--size 19] \
        [--skip-player NAME]
    python scripts/train_policy.py train examples.npz [more.npz ...] [--out src/keima/ai/policy19.npz] \
        [--blocks 6] [--channels 64] [--epochs 30] [--device cuda] [--init NETWORK.npz]

``extract`` replays every game of the board size (19 by default) under the folders (sub-folders included) on the search's fast board and
writes, for each move a player chose, the planes of ``keima.ai.planes`` (bit-packed) and the point played.
Passes and moves whose node has a comment starting "random" (the random openings of
``scripts/gnugo_selfplay.py``) are played on the board but are not examples, as in ``scripts/train_prior.py``.
The examples keep the index of their game, so that ``train`` can hold whole games out. A game's setup stones
(handicap) are placed first. ``--skip-player NAME`` leaves out the moves of the player whose ``PB``/``PW``
starts with NAME, to learn one side of a match record (GNU Go's moves, or keima's, in ``bench/results/``).

``extract`` also notes, as a peer, the rank of the played move under the learned linear prior
(``keima.ai.prediction``), which ``train`` reports on the same held-out moves. ``train`` needs PyTorch (keima
itself does not). It holds out one game in ten (by index), and trains the residual
tower of ``keima.ai.network`` on the others: the cross-entropy of the played move among the candidate moves
(the ``PL_CANDIDATE`` plane), each batch turned by one of the 8 rotations and reflections of the board, AdamW
with a cosine learning rate. After each epoch it prints the held-out top-1 and top-5 (how often the move played
is the network's first choice, or among its first five) and mean log-likelihood, and it keeps the epoch with
the best held-out log-likelihood. Several examples files are trained on together, each holding out one game in
ten of its own, and the held-out figures of each are printed before and after training. The weights are written
in the layout ``keima.ai.network.read`` expects, and the script checks that keima's compiled forward pass gives
the same scores as PyTorch's on held-out positions before it writes them. ``--init`` starts from a network file instead of fresh weights (its shape then
replaces ``--blocks``, ``--channels`` and ``--stem``), for example to fine-tune on 13x13 games the 19x19 network
resized by ``scripts/adapt_policy.py`` (docs/bot.md); the held-out figures before the first epoch are printed, and the starting
weights are kept when no epoch beats them.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from keima.ai import fastboard as fb
from keima.ai import network as N
from keima.ai import prediction as P
from keima.ai.planes import N_PLANES, PL_CANDIDATE, fill_planes

sys.path.insert(0, str(Path(__file__).parent))
from train_prior import read_games, replay  # noqa: E402  (the same SGF reading as the learned prior's)


def extract_game(moves: list[tuple[int, int, bool]], n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(bit-packed planes, played point, the learned linear prior's rank of it) of each example of one game of
    ``n`` x ``n``, replayed on the fast board."""
    x = np.zeros((n * n, N_PLANES), dtype=np.float32)
    packed: list[np.ndarray] = []
    targets: list[int] = []
    peer_ranks: list[int] = []
    model = P.shipped()
    for b, c, p in replay(moves, n):
        fill_planes(b, c, x)
        point = fb.from_fast(p, n)
        if x[point, PL_CANDIDATE] == 1.0:
            packed.append(np.packbits(x.T.astype(np.uint8)))
            targets.append(point)
            cands = [fb.to_fast(int(q), n) for q in np.nonzero(x[:, PL_CANDIDATE])[0]]
            logp = P.log_probabilities(b, cands, c, model)
            peer_ranks.append(int((logp > logp[cands.index(p)]).sum()))
    if not packed:
        return np.zeros((0, (n * n * N_PLANES + 7) // 8), np.uint8), np.zeros(0, np.int16), np.zeros(0, np.int16)
    return np.stack(packed), np.array(targets, np.int16), np.array(peer_ranks, np.int16)


def extract(folders: list[Path], out: Path, jobs: int, size: int, skip_player: str | None = None) -> None:
    """Write the examples of every ``size`` x ``size`` game under ``folders`` to ``out`` (without the moves of
    a player whose name starts with ``skip_player``, see ``train_prior.read_games``)."""
    t0 = time.time()
    games = [g for folder in folders for g in read_games(folder, size, skip_player)]
    args = ([moves for _name, moves in games], [size] * len(games))
    if jobs <= 1:
        results = list(map(extract_game, *args))
    else:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(extract_game, *args, chunksize=4))
    planes = np.concatenate([r[0] for r in results])
    targets = np.concatenate([r[1] for r in results])
    peer = np.concatenate([r[2] for r in results])
    game = np.concatenate([np.full(len(r[1]), i, np.int32) for i, r in enumerate(results)])
    np.savez(out, planes=planes, targets=targets, game=game, peer=peer, size=size,
             names=np.array([name for name, _ in games]))
    print(f"{len(games)} games, {len(targets)} examples, {time.time() - t0:.0f} s -> {out}", flush=True)


def unpack(packed: np.ndarray, size: int) -> np.ndarray:
    """Bit-packed examples to uint8 planes of shape (count, N_PLANES, size, size)."""
    bits = np.unpackbits(packed, axis=1, count=size * size * N_PLANES)
    return bits.reshape(-1, N_PLANES, size, size)


def load_weights(model: Any, net: N.Network, torch: Any) -> None:
    """Set the PyTorch ``model`` of ``train`` to the weights of ``net`` (the inverse of the layout written)."""

    def conv(m: np.ndarray, inputs: int) -> Any:
        k = int(round((m.shape[0] // inputs) ** 0.5))
        return torch.from_numpy(m.reshape(k, k, inputs, m.shape[1]).transpose(3, 2, 0, 1).copy())

    channels = net.stem_b.shape[0]
    with torch.no_grad():
        model.stem.weight.copy_(conv(net.stem_w, N_PLANES))
        model.stem.bias.copy_(torch.from_numpy(net.stem_b))
        for i, blk in enumerate(model.blocks):
            for j, c in enumerate((blk.a, blk.b)):
                c.weight.copy_(conv(net.blocks_w[2 * i + j], channels))
                c.bias.copy_(torch.from_numpy(net.blocks_b[2 * i + j]))
        model.head.weight.copy_(torch.from_numpy(net.head_w).view(1, channels, 1, 1))
        model.point_bias.copy_(torch.from_numpy(net.head_b))


def train(data: Path | list[Path], out: Path | None, blocks: int, channels: int, epochs: int, device_name: str,
          batch: int, rate: float, stem: int, init: Path | None = None) -> None:
    """Train a network on the examples of ``data`` (one file or several of one board size, trained on
    together; each holds out one game in ten of its own) and write the best epoch's weights to ``out``.
    ``init``: a network file of the data's board size to start from (its shape replaces ``blocks``, ``channels``
    and ``stem``); the held-out figures before the first epoch are then printed as the peer. With several
    files, the held-out figures of each are printed too.

    Raises SystemExit when the files' board sizes differ, or ``init`` is for another size."""
    import torch
    from torch import nn

    t0 = time.time()
    device = torch.device(device_name)
    torch.manual_seed(1)
    files = [data] if isinstance(data, Path) else list(data)
    parts: list[tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]] = []
    for f in files:
        with np.load(f) as z:
            parts.append((int(z["size"]) if "size" in z else 19, z["planes"], z["targets"].astype(np.int64),
                          z["game"], z.get("peer", None)))
    size = parts[0][0]
    if any(part[0] != size for part in parts):
        raise SystemExit(f"the examples files are of different board sizes: {sorted({part[0] for part in parts})}")
    planes = unpack(np.concatenate([part[1] for part in parts]), size)
    targets = np.concatenate([part[2] for part in parts])
    game = np.concatenate([part[3] for part in parts])
    source = np.concatenate([np.full(len(part[2]), i, np.int32) for i, part in enumerate(parts)])
    peer = None if any(part[4] is None for part in parts) else np.concatenate([part[4] for part in parts])
    held = game % 10 == 0  # one game in ten of each file
    held_source = torch.from_numpy(source[held])
    out = N.network_path(size) if out is None else out
    start = None
    if init is not None:
        start = N.read(init)
        if N.board_size(start) != size:
            raise SystemExit(f"{init} is a network for {N.board_size(start)}x{N.board_size(start)}, the examples "
                             f"are {size}x{size}")
        channels = start.stem_b.shape[0]
        blocks = start.blocks_w.shape[0] // 2
        stem = int(round((start.stem_w.shape[0] // N_PLANES) ** 0.5))
    x_train = torch.from_numpy(planes[~held]).to(device)
    y_train = torch.from_numpy(targets[~held]).to(device)
    x_held = torch.from_numpy(planes[held]).to(device)
    y_held = torch.from_numpy(targets[held]).to(device)
    held_games = len(np.unique(source[held].astype(np.int64) << 32 | game[held]))
    print(f"{len(y_train)} training examples, {len(y_held)} held out, from {held_games} games; "
          f"{time.time() - t0:.0f} s", flush=True)
    if peer is not None and held.any() and size == 19:  # the learned prior was made for 19x19
        print(f"peer, the learned linear prior (keima.ai.prediction) on the held-out moves: "
              f"top-1 {np.mean(peer[held] == 0):.1%}, top-5 {np.mean(peer[held] < 5):.1%}", flush=True)

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.a = nn.Conv2d(channels, channels, 3, padding=1)
            self.b = nn.Conv2d(channels, channels, 3, padding=1)
            nn.init.zeros_(self.b.weight)  # each block starts as the identity: a deep tower trains without norms
            nn.init.zeros_(self.b.bias)

        def forward(self, h: torch.Tensor) -> torch.Tensor:
            return torch.relu(h + self.b(torch.relu(self.a(h))))

    class Policy(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Conv2d(N_PLANES, channels, stem, padding=stem // 2)
            self.blocks = nn.ModuleList(Block() for _ in range(blocks))
            self.head = nn.Conv2d(channels, 1, 1, bias=False)
            self.point_bias = nn.Parameter(torch.zeros(size * size))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            h = torch.relu(self.stem(x))
            for blk in self.blocks:
                h = blk(h)
            return self.head(h).flatten(1) + self.point_bias

    model = Policy()
    if start is not None:
        load_weights(model, start, torch)
    model = model.to(device)
    steps = epochs * ((len(y_train) + batch - 1) // batch)
    opt = torch.optim.AdamW(model.parameters(), lr=rate, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=rate, total_steps=steps, pct_start=0.1)

    def logits_of(xb: torch.Tensor) -> torch.Tensor:
        xf = xb.float()
        scores = model(xf)
        return scores.masked_fill(xf[:, PL_CANDIDATE].flatten(1) == 0, -1e9)

    def transform(xb: torch.Tensor, yb: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
        """The k-th of the 8 symmetries of the board, applied to the planes and to the played points."""
        target = torch.zeros(len(yb), size * size, dtype=torch.uint8, device=xb.device)
        target[torch.arange(len(yb)), yb] = 1
        t = target.view(-1, 1, size, size)
        if k & 4:
            xb, t = xb.transpose(2, 3), t.transpose(2, 3)
        xb, t = torch.rot90(xb, k & 3, (2, 3)), torch.rot90(t, k & 3, (2, 3))
        return xb.contiguous(), t.flatten(1).argmax(1)

    def held_out(per_file: bool = False) -> tuple[float, float, float]:
        """(top-1, top-5, mean log-likelihood) on all the held-out moves; ``per_file`` prints each file's."""
        model.eval()
        ranks, lls = [], []
        with torch.no_grad():
            for i in range(0, len(y_held), 1024):
                xb, yb = x_held[i:i + 1024], y_held[i:i + 1024]
                lp = torch.log_softmax(logits_of(xb), 1)
                played = lp.gather(1, yb[:, None])
                lls.append(played[:, 0].cpu())
                ranks.append((lp > played).sum(1).cpu())
        model.train()
        rank = torch.cat(ranks) if ranks else torch.zeros(0)
        ll = torch.cat(lls) if lls else torch.zeros(0)
        if per_file and len(files) > 1:
            for i, f in enumerate(files):
                m = held_source == i
                k = max(int(m.sum()), 1)
                print(f"  {f}: {int(m.sum())} held-out moves, top-1 {float((rank[m] == 0).sum()) / k:.1%}, "
                      f"top-5 {float((rank[m] < 5).sum()) / k:.1%}, log-likelihood {float(ll[m].sum()) / k:.3f}",
                      flush=True)
        count = max(len(y_held), 1)
        return float((rank == 0).sum()) / count, float((rank < 5).sum()) / count, float(ll.sum()) / count

    best: tuple[float, dict[str, torch.Tensor]] | None = None
    if start is not None:
        top1, top5, ll = held_out(per_file=True)
        print(f"before training ({init}): held out: top-1 {top1:.1%}, top-5 {top5:.1%}, log-likelihood {ll:.3f}",
              flush=True)
        best = (ll, {k: v.detach().clone() for k, v in model.state_dict().items()})
    gen = torch.Generator(device="cpu").manual_seed(2)
    for epoch in range(epochs):
        order = torch.randperm(len(y_train), generator=gen).to(device)
        total = 0.0
        for i in range(0, len(order), batch):
            idx = order[i:i + batch]
            xb, yb = transform(x_train[idx], y_train[idx], int(torch.randint(8, (1,), generator=gen)))
            loss = nn.functional.cross_entropy(logits_of(xb), yb)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        top1, top5, ll = held_out()
        print(f"epoch {epoch + 1}: train loss {total / len(order):.3f}; held out: top-1 {top1:.1%}, "
              f"top-5 {top5:.1%}, log-likelihood {ll:.3f}; {time.time() - t0:.0f} s", flush=True)
        if best is None or ll > best[0]:
            best = (ll, {k: v.detach().clone() for k, v in model.state_dict().items()})
    assert best is not None
    model.load_state_dict(best[1])
    print(f"kept the epoch with held-out log-likelihood {best[0]:.3f}", flush=True)
    held_out(per_file=True)

    def mat(conv: nn.Conv2d) -> np.ndarray:
        w = conv.weight.detach().cpu().numpy()  # (out, in, kh, kw)
        return np.ascontiguousarray(w.transpose(2, 3, 1, 0).reshape(-1, w.shape[0]), dtype=np.float32)

    def vec(t: torch.Tensor) -> np.ndarray:
        return np.ascontiguousarray(t.detach().cpu().numpy(), dtype=np.float32)

    net = N.Network(
        stem_w=mat(model.stem), stem_b=vec(model.stem.bias),
        blocks_w=np.stack([mat(c) for blk in model.blocks for c in (blk.a, blk.b)]) if blocks
        else np.zeros((0, 9 * channels, channels), np.float32),
        blocks_b=np.stack([vec(c.bias) for blk in model.blocks for c in (blk.a, blk.b)]) if blocks
        else np.zeros((0, channels), np.float32),
        head_w=vec(model.head.weight.flatten()), head_b=vec(model.point_bias))
    # keima's compiled forward pass must give PyTorch's scores.
    model.eval()
    with torch.no_grad():
        sample = x_held[:8] if len(y_held) else x_train[:8]
        expected = model(sample.float()).cpu().numpy()
    for i in range(len(sample)):
        x = sample[i].cpu().numpy().reshape(N_PLANES, -1).T.astype(np.float32).copy()
        got = N.forward(x, size, *net)
        err = float(np.abs(got - expected[i]).max())
        if err > 1e-3 * max(1.0, float(np.abs(expected[i]).max())):
            raise SystemExit(f"keima's forward pass differs from PyTorch's by {err}")
    N.save(net, out)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB); {time.time() - t0:.0f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("extract")
    ex.add_argument("folders", type=Path, nargs="+")
    ex.add_argument("--out", type=Path, required=True)
    ex.add_argument("--jobs", type=int, default=2)
    ex.add_argument("--size", type=int, default=19)
    ex.add_argument("--skip-player", default=None,
                    help="the moves of a player whose PB/PW starts with this are played but are not examples")
    tr = sub.add_parser("train")
    tr.add_argument("data", type=Path, nargs="+", help="examples files of one board size, trained on together")
    tr.add_argument("--out", type=Path, default=None, help="default: the shipped network of the data's board size")
    tr.add_argument("--blocks", type=int, default=6)
    tr.add_argument("--channels", type=int, default=64)
    tr.add_argument("--stem", type=int, default=5)
    tr.add_argument("--epochs", type=int, default=30)
    tr.add_argument("--batch", type=int, default=256)
    tr.add_argument("--rate", type=float, default=2e-3)
    tr.add_argument("--device", default="cuda")
    tr.add_argument("--init", type=Path, default=None,
                    help="a network file to start from (fine-tuning; e.g. the resized 19x19 network for 13x13)")
    args = ap.parse_args(argv)
    if args.command == "extract":
        extract(args.folders, args.out, args.jobs, args.size, args.skip_player)
    else:
        train(args.data, args.out, args.blocks, args.channels, args.epochs, args.device, args.batch, args.rate,
              args.stem, args.init)
    return 0


if __name__ == "__main__":
    sys.exit(main())
