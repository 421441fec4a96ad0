"""How stable the bot's review is: each record reviewed twice, and how many of the five largest mistakes agree.

Usage::

    python bench/review_stability.py [FILE.sgf ...] [--seconds S | --playouts N] [--no-refine] [--runs 2] [--first K]

Reviews each record (default: two 9x9 and one 19x19 record of ``tests/data``) ``--runs`` times with
``keima.ai.analysis.review_game`` (the path of ``keima review`` and of the server), each run with its own random
seed, at the budget given (default: the review's own, ``default_budget``: playouts by board size under a time cap), and prints per record the
five moves that lost the most in each run and how many of the first run's five every other run names too (the
issue's target: 4 of 5), how far the per-move figures a player sees move between the runs (the mean over the
moves of the difference of each move's loss and of Black's lead after it), the searches and seconds each run
took, then the figures of all records and the machine's load (``os.getloadavg``: a budget in seconds gives a
loaded machine's positions fewer playouts; one in playouts makes its reviews slower). ``--no-refine`` reviews without the refine pass, to compare.
One search thread, as the server's reviews.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from keima.ai.analysis import Budget, MoveReview, default_budget, mistakes, review_game, vertex
from keima.ai.warmup import DEFAULT as WARMUP
from keima.record import load_record

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ["tests/data/sgf/gnugo_9x9_counted.sgf", "bench/results/strength-9x9/game-001.sgf",
           "tests/data/sgf/ogs_19x19_resign.sgf"]


Run = tuple[list[tuple[int, str, float]], float, int, list[MoveReview]]


def top_five(path: Path, budget: Budget | None, refine: bool, seed: int) -> Run:
    """One review of ``path`` (``budget`` None: the review's default for its board size): its five largest
    mistakes (move, vertex, points lost), its seconds, its searches and its moves."""
    game = load_record(path).game
    start = time.perf_counter()
    searches = [0]

    def progress(done: int, total: int) -> None:
        searches[0] = done
        if done % 25 == 0:  # a long 19x19 review shows its pace on stderr as it goes
            print(f"  {path.name} seed {seed}: {done}/{total} searches, {time.perf_counter() - start:.0f} s",
                  file=sys.stderr)

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
    # Run k's seed is 1000 * (k + first) + 17: two processes of one run each, --first 0 and --first 1, are the
    # two runs of one process, side by side (a long 19x19 review on two cores).
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--no-refine", dest="refine", action="store_false")
    args = parser.parse_args()
    given = args.seconds is not None or args.playouts is not None
    budget = Budget(seconds=args.seconds, playouts=args.playouts) if given else None
    WARMUP.run()
    shown = budget or default_budget(19)
    print(f"budget: {shown.seconds} s, {'by board size' if budget is None else shown.playouts} playouts a "
          f"position; refine: {args.refine}")
    agreed = []
    loads = [os.getloadavg()[0]]
    for name in args.files:
        path = Path(name)
        runs = [top_five(path, budget, args.refine, seed=1000 * (k + args.first) + 17)
                for k in range(args.runs)]
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
