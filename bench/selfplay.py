"""A/B self-play: two searcher configurations against each other at a fixed playout count.

Usage::

    python bench/selfplay.py --size 19 --games 10 --playouts 1000 --moves 200 --a big --b plain
    python bench/selfplay.py --size 19 --games 20 --seconds 1 --moves 150 --a net --b learned

Each game alternates colours. A game stops at two passes or after ``--moves`` moves; an unfinished game is
judged by the mean area margin of heavy playouts from the final position (``keima.ai.estimate_ownership``,
komi included), so the figure is a cheap, noisy A/B signal, not a strength measure. Configurations:
``big`` (fill-board playouts and the wide prior), ``plain`` (neither), ``prior`` / ``fill`` (one of them),
``big2`` / ``plain2`` (with two threads, the playouts shared between them), ``learned`` (``big`` with the learned
prior of ``keima.ai.prediction`` added to the hand-written one; ``big`` and the others have it off);
``learned:W`` sets the learned prior's weight to W instead of ``LEARNED_WEIGHT``; ``net`` (``learned`` with the
policy network of ``keima.ai.network``; every other configuration leaves it out), ``net:W:V`` with the
network's weight W and visit threshold V instead of ``NET_WEIGHT`` and ``NET_VISITS``. ``--seconds S`` gives
each move S seconds instead of a playout count (the fair comparison when one side spends time on the network);
``--a-net FILE`` / ``--b-net FILE`` give a side another network than the shipped one. ``net-lowlib-off`` is
``net`` without the playouts' two-liberty answers (``make_params(low_liberty=False)``).
Prints A's wins with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from keima import Game  # noqa: E402
from keima.ai import estimate_ownership, network  # noqa: E402
from keima.ai.searcher import LEARNED_WEIGHT, NET_VISITS, NET_WEIGHT, Searcher  # noqa: E402
from strength import wilson  # noqa: E402

# name: (fill tries, wide prior, threads, learned prior weight)
CONFIGS = {"big": (4, True, 1, 0.0), "plain": (0, False, 1, 0.0), "prior": (0, True, 1, 0.0), "fill": (4, False, 1, 0.0),
           "big2": (4, True, 2, 0.0), "plain2": (0, False, 2, 0.0), "learned": (4, True, 1, LEARNED_WEIGHT)}


def play(size: int, black: Searcher, white: Searcher, playouts: int | None, seconds: float | None,
         moves: int) -> tuple[int, float, int]:
    """Play one game; return (winner 1/2, Black's margin, moves played)."""
    game = Game(size, komi=7.5, rules="french")
    for s in (black, white):
        s.reset()
    played = 0
    while game.phase == "play" and played < moves:
        color = int(game.to_move)
        searcher = black if color == 1 else white
        legal = [p for p in game.legal_moves(color)]
        res = searcher.search(game, color, seconds, playouts, legal, True)
        move = next((m for m, _v, _w in res.ranked if m is None or game.legality(m, color) is None), None)
        if move is None:
            game.pass_move(color)
        else:
            game.play(move)
        played += 1
    own = estimate_ownership(game, playouts=400, seed=played)
    margin = sum(own) - 7.5
    return (1 if margin > 0 else 2), margin, played


def config(name: str) -> str:
    """Check a configuration name for argparse (``learned:WEIGHT`` or a key of ``CONFIGS``)."""
    base, *numbers = name.split(":")
    allowed = {"learned": (0, 1), "net": (0, 2)}.get(base, (0,))
    if base not in (*CONFIGS, "net", "net-lowlib-off") or len(numbers) not in allowed:
        raise argparse.ArgumentTypeError(f"unknown configuration {name!r} (net takes net or net:WEIGHT:VISITS)")
    for i, number in enumerate(numbers):
        # A ValueError here is reported by argparse as an invalid value; the network's visits are a count.
        int(number) if base == "net" and i == 1 else float(number)
    return name


def searcher(name: str, net_file: Path | None = None) -> Searcher:
    """A searcher of configuration ``name``; ``net_file``: another policy network than the shipped one."""
    base, *numbers = name.split(":")
    if base in ("net", "net-lowlib-off"):
        weight, visits = (float(numbers[0]), int(numbers[1])) if numbers else (NET_WEIGHT, NET_VISITS)
        net = None if net_file is None else network.read(net_file)
        return Searcher(1 << 20, seed=None, net_weight=weight, net_visits=visits, net=net,
                        low_liberty=base == "net")
    fill, wide, threads, learned = CONFIGS[base]
    return Searcher(1 << 20, seed=None, fill=fill, wide_prior=wide, threads=threads,
                    learned=float(numbers[0]) if numbers else learned, net_visits=-1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--playouts", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=None, help="seconds a move instead of --playouts")
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--a", default="big", type=config,
                    help=f"one of {', '.join(CONFIGS)}, net, learned:WEIGHT or net:WEIGHT:VISITS")
    ap.add_argument("--b", default="plain", type=config)
    ap.add_argument("--a-net", type=Path, help="A's policy network file (net configurations; default: the shipped one)")
    ap.add_argument("--b-net", type=Path, help="B's policy network file")
    args = ap.parse_args()
    a, b = (searcher(args.a, args.a_net), searcher(args.b, args.b_net))
    wins = 0
    for i in range(args.games):
        t0 = time.perf_counter()
        a_black = i % 2 == 0
        winner, margin, played = play(args.size, a if a_black else b, b if a_black else a,
                                      None if args.seconds else args.playouts, args.seconds, args.moves)
        a_won = (winner == 1) == a_black
        wins += a_won
        lo, hi = wilson(wins, i + 1)
        print(f"game {i + 1}: {args.a} as {'B' if a_black else 'W'}, Black margin {margin:+.1f} after {played} "
              f"moves, {'A' if a_won else 'B'} wins ({time.perf_counter() - t0:.0f} s); "
              f"{args.a} {wins}/{i + 1} ({100 * lo:.0f}-{100 * hi:.0f}%)", flush=True)


if __name__ == "__main__":
    main()
