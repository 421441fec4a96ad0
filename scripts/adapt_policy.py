"""Make a policy network for another board size from a trained one (``keima.ai.network``).

Usage::

    python scripts/adapt_policy.py src/keima/ai/policy19.npz --size 13 --out src/keima/ai/policy13.npz

The network is a stack of convolutions with zero padding, so its weights read any board: a 3x3 shape near an edge
looks the same on 13x13 as on 19x19. Only the last term depends on the size: a learned bias per point, which
mostly says how far a point is from each edge (the third and fourth lines, the corners). ``keima.ai.network.resized``
keeps every convolution and gives each point of the new board the bias of the source point at the same distances
from its two nearer edges (a distance larger than the source board's middle reads the middle).

``--check GAMES_DIR`` prints, for the games of the new size under the folder, how often the move played is the
adapted network's first choice (top-1) and among its first five (top-5), beside the same for the source network's
convolutions with a flat bias (zero everywhere): what the remapped bias adds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from keima.ai import fastboard as fb
from keima.ai import network as N
from keima.ai.planes import N_PLANES, PL_CANDIDATE, fill_planes

sys.path.insert(0, str(Path(__file__).parent))
from train_prior import read_games, replay  # noqa: E402  (the same SGF reading as the other training scripts)


def check(nets: dict[str, N.Network], folder: Path, n: int) -> None:
    """Print each network's top-1 and top-5 on the moves of the ``n`` x ``n`` games under ``folder`` (the random
    openings and passes are not counted, as in training)."""
    games = read_games(folder, n)
    x = np.zeros((n * n, N_PLANES), dtype=np.float32)
    top1 = dict.fromkeys(nets, 0)
    top5 = dict.fromkeys(nets, 0)
    count = 0
    for _name, moves in games:
        for b, c, p in replay(moves, n):
            fill_planes(b, c, x)
            point = fb.from_fast(p, n)
            cand = x[:, PL_CANDIDATE] == 1.0
            if not cand[point]:
                continue
            count += 1
            for label, net in nets.items():
                scores = N.forward(x, n, *net)
                scores = np.where(cand, scores, -np.inf)
                rank = int((scores > scores[point]).sum())
                top1[label] += rank == 0
                top5[label] += rank < 5
    print(f"{len(games)} games of {n}x{n}, {count} moves")
    for label in nets:
        print(f"  {label}: top-1 {top1[label] / max(count, 1):.1%}, top-5 {top5[label] / max(count, 1):.1%}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("source", type=Path, help="a network file (policy<size>.npz)")
    ap.add_argument("--size", type=int, required=True, help="the board size of the new network")
    ap.add_argument("--out", type=Path, help="where to write it (default: only --check)")
    ap.add_argument("--check", type=Path, metavar="GAMES_DIR", help="top-1/top-5 on the games of the size there")
    args = ap.parse_args(argv)
    if not 5 <= args.size <= 25:
        ap.error("--size 5..25")
    source = N.read(args.source)
    adapted = N.resized(source, args.size)
    if args.out:
        N.save(adapted, args.out)
        N.read(args.out)  # the written file reads back as a network of the new size
        print(f"{args.source} ({N.board_size(source)}x{N.board_size(source)}) -> {args.out} "
              f"({args.size}x{args.size})")
    if args.check:
        flat = source._replace(head_b=np.zeros(args.size * args.size, np.float32))
        check({"adapted": adapted, "flat bias": flat}, args.check, args.size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
