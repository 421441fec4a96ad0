"""How stable the bot's review is: each record reviewed twice, and how many of the five largest mistakes agree.

Usage::

    python bench/review_stability.py [FILE.sgf ...] [--seconds S | --playouts N] [--no-refine] [--runs 2]

Reviews each record (default: two 9x9 and one 19x19 record of ``tests/data``) ``--runs`` times with
``keima.ai.analysis.review_game`` (the path of ``keima review`` and of the server), each run with its own random
seed, at the budget given (default: the review's own, ``DEFAULT_SECONDS`` a position), and prints per record the
five moves that lost the most in each run and how many of the first run's five every other run names too (the
issue's target: 4 of 5), then the figures of all records. ``--no-refine`` reviews without the refine pass, to
compare. One search thread, as the server's reviews.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from keima.ai.analysis import DEFAULT_SECONDS, Budget, mistakes, review_game, vertex
from keima.ai.warmup import DEFAULT as WARMUP
from keima.record import load_record

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ["tests/data/sgf/gnugo_9x9_counted.sgf", "bench/results/strength-9x9/game-001.sgf",
           "tests/data/sgf/ogs_19x19_resign.sgf"]


def top_five(path: Path, budget: Budget, refine: bool, seed: int) -> tuple[list[tuple[int, str, float]], float]:
    """The five largest mistakes of one review of ``path`` (move, vertex, points lost) and its seconds."""
    game = load_record(path).game
    start = time.perf_counter()
    reviews = review_game(game, budget, seed=seed, refine=refine)
    took = time.perf_counter() - start
    return [(r.n, vertex(r.played, game.size), r.loss or 0.0) for r in mistakes(reviews, 5, min_loss=0.0)], took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", default=[str(ROOT / f) for f in RECORDS])
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--playouts", type=int, default=None)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--no-refine", dest="refine", action="store_false")
    args = parser.parse_args()
    seconds = args.seconds if args.seconds is not None or args.playouts is not None else DEFAULT_SECONDS
    budget = Budget(seconds=seconds, playouts=args.playouts)
    WARMUP.run()
    print(f"budget: {budget.seconds} s, {budget.playouts} playouts a position; refine: {args.refine}")
    agreed = []
    for name in args.files:
        path = Path(name)
        runs = [top_five(path, budget, args.refine, seed=1000 * k + 17) for k in range(args.runs)]
        first = {n for n, _v, _l in runs[0][0]}
        for k, (top, took) in enumerate(runs):
            listed = ", ".join(f"{n} {v} -{loss:.1f}" for n, v, loss in top)
            print(f"{path.name} run {k + 1} ({took:.0f} s): {listed}")
        for top, _took in runs[1:]:
            same = len(first & {n for n, _v, _l in top})
            agreed.append(same)
            print(f"{path.name}: {same} of 5 agree")
    if agreed:
        print(f"all: {sum(agreed)} of {5 * len(agreed)} agree; at least 4 of 5 in {sum(a >= 4 for a in agreed)} "
              f"of {len(agreed)} pairs")


if __name__ == "__main__":
    main()
