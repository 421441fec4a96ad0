"""How stable the bot's review is: each record reviewed twice, and how many of the five largest mistakes agree.

Usage::

    python bench/review_stability.py [FILE.sgf ...] [--seconds S | --playouts N] [--no-refine] [--runs 2]

Reviews each record (default: two 9x9 and one 19x19 record of ``tests/data``) ``--runs`` times with
``keima.ai.analysis.review_game`` (the path of ``keima review`` and of the server), each run with its own random
seed, at the budget given (default: the review's own, ``DEFAULT_SECONDS`` a position), and prints per record the
five moves that lost the most in each run and how many of the first run's five every other run names too (the
issue's target: 4 of 5), how far the per-move figures a player sees move between the runs (the mean over the
moves of the difference of each move's loss and of Black's lead after it), the searches and seconds each run
took, then the figures of all records and the machine's load (``os.getloadavg``: the review's budget is time, so
a loaded machine gives each position fewer playouts). ``--no-refine`` reviews without the refine pass, to compare.
One search thread, as the server's reviews.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from keima.ai.analysis import DEFAULT_SECONDS, Budget, MoveReview, mistakes, review_game, vertex
from keima.ai.warmup import DEFAULT as WARMUP
from keima.record import load_record

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ["tests/data/sgf/gnugo_9x9_counted.sgf", "bench/results/strength-9x9/game-001.sgf",
           "tests/data/sgf/ogs_19x19_resign.sgf"]


Run = tuple[list[tuple[int, str, float]], float, int, list[MoveReview]]


def top_five(path: Path, budget: Budget, refine: bool, seed: int) -> Run:
    """One review of ``path``: its five largest mistakes (move, vertex, points lost), its seconds, its searches
    and its moves."""
    game = load_record(path).game
    start = time.perf_counter()
    searches = [0]

    def progress(done: int, _total: int) -> None:
        searches[0] = done

    reviews = review_game(game, budget, seed=seed, refine=refine, progress=progress)
    took = time.perf_counter() - start
    top = [(r.n, vertex(r.played, game.size), r.loss or 0.0) for r in mistakes(reviews, 5, min_loss=0.0)]
    return top, took, searches[0], reviews


def drift(a: list[MoveReview], b: list[MoveReview]) -> tuple[float, float]:
    """How far two reviews of one record differ move by move: the mean absolute difference of the points lost
    and of Black's lead after the move."""
    moves = list(zip(a[1:], b[1:], strict=True))
    return (statistics.fmean(abs((x.loss or 0.0) - (y.loss or 0.0)) for x, y in moves),
            statistics.fmean(abs(x.score - y.score) for x, y in moves))


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
    loads = [os.getloadavg()[0]]
    for name in args.files:
        path = Path(name)
        runs = [top_five(path, budget, args.refine, seed=1000 * k + 17) for k in range(args.runs)]
        loads.append(os.getloadavg()[0])
        first = {n for n, _v, _l in runs[0][0]}
        for k, (top, took, searches, _moves) in enumerate(runs):
            listed = ", ".join(f"{n} {v} -{loss:.1f}" for n, v, loss in top)
            print(f"{path.name} run {k + 1} ({took:.0f} s, {searches} searches): {listed}")
        for top, _took, _searches, moves in runs[1:]:
            same = len(first & {n for n, _v, _l in top})
            agreed.append(same)
            loss, lead = drift(runs[0][3], moves)
            print(f"{path.name}: {same} of 5 agree; per move, loss differs by {loss:.2f} points, lead by {lead:.2f}")
    if agreed:
        print(f"all: {sum(agreed)} of {5 * len(agreed)} agree; at least 4 of 5 in {sum(a >= 4 for a in agreed)} "
              f"of {len(agreed)} pairs; load (1 min) {min(loads):.1f} to {max(loads):.1f}")


if __name__ == "__main__":
    main()
