"""The review's refine plan replayed on stored searches: how often two reviews agree, a hundred pairs a record.

Usage::

    python bench/review_replay.py [FILE.sgf ...] [--searches 4] [--seconds S] [--pairs 100] [--store OUT.json]
                                  [--first-round-only]

A pair of real reviews (``bench/review_stability.py``) says little: one pair a record, and the load of a shared
machine moves between them. Here every position of each record is searched ``--searches`` times with the
review's own search (``keima.ai.analysis.Analyst``, ``--seconds`` a position or, by default, the review's default budget, a seed each) and the evaluations are
stored (``--store``; an existing store is read instead of searching again). Then ``ReviewRun``, the review's own
plan, is replayed ``2 * --pairs`` times a record: each search it asks for is one of the stored ones drawn at
random, its lead moved to the position's mean plus that search's difference from the mean, widened to the spread
of a single search. Printed per record: the mean agreement of the two top fives of a pair, the pairs agreeing on
4 of 5 or more, the searches a review took, and the mean difference of a move's loss between the two reviews.
``--first-round-only``: the plan without its settling rounds (``keima.ai.analysis.unsettled``), to compare.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

from keima.ai import analysis
from keima.ai.analysis import Analyst, Budget, Evaluation, ReviewRun, mistakes, positions
from keima.ai.warmup import DEFAULT as WARMUP
from keima.record import load_record
from keima.rules.game import Game

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ["tests/data/sgf/keima_9x9_counted.sgf", "bench/results/strength-9x9/game-002.sgf",
           "tests/data/sgf/ogs_19x19_resign.sgf"]


def collect(files: list[str], searches: int, seconds: float | None) -> dict[str, list[list[dict[str, Any]]]]:
    """``searches`` evaluations (``Evaluation.as_dict``) of every position of each record, by file name, each
    search ``seconds`` long (None: the review's default budget, playouts by board size)."""
    WARMUP.run()
    analyst = Analyst(Budget(seconds=seconds) if seconds is not None else None, seed=5)
    out: dict[str, list[list[dict[str, Any]]]] = {}
    for name in files:
        line = positions(load_record(Path(name)).game)
        out[name] = [[analyst.evaluate(game, salt=k).as_dict() for k in range(searches)] for game, _c, _p in line]
        print(f"{Path(name).name}: {len(line)} positions searched {searches} times", flush=True)
    return out


class Drawn:
    """An analyst whose searches are drawn from stored ones (see the module docstring)."""

    top = analysis.DEFAULT_TOP

    def __init__(self, stored: list[list[Evaluation]], index: dict[int, int], rng: random.Random) -> None:
        self.stored = stored
        self.index = index
        self.rng = rng

    def evaluate(self, position: Game, stop: Callable[[], bool] | None = None, salt: int = 0) -> Evaluation:
        """One of the position's stored searches, its lead set about the stored searches' mean."""
        evals = self.stored[self.index[id(position)]]
        mean = statistics.fmean(e.score for e in evals)
        drawn = self.rng.choice(evals)
        widen = (len(evals) / (len(evals) - 1)) ** 0.5 if len(evals) > 1 else 1.0
        score = mean + (drawn.score - mean) * widen
        return Evaluation(drawn.winrate, score, drawn.best, drawn.playouts, samples=(score,))


def replay(name: str, stored: list[list[Evaluation]], pairs: int, seed: int) -> tuple[float, int, float, float]:
    """Mean agreement, pairs of 4 of 5 or more, mean searches and mean loss difference over ``pairs`` pairs."""
    line = positions(load_record(Path(name)).game)
    index = {id(game): i for i, (game, _c, _p) in enumerate(line)}
    rng = random.Random(seed)
    agree, searches, drift = [], [], []
    for _ in range(pairs):
        runs = []
        for _twice in range(2):
            run = ReviewRun(line)
            while run.step(Drawn(stored, index, rng)):  # type: ignore[arg-type]
                pass
            runs.append(run.reviews())
            searches.append(run.done)
        a, b = ({r.n for r in mistakes(rs, 5, min_loss=0.0)} for rs in runs)
        agree.append(len(a & b))
        drift += [abs((x.loss or 0.0) - (y.loss or 0.0)) for x, y in zip(runs[0][1:], runs[1][1:], strict=True)]
    return (statistics.fmean(agree), sum(x >= 4 for x in agree), statistics.fmean(searches),
            statistics.fmean(drift))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", default=[str(ROOT / f) for f in RECORDS])
    parser.add_argument("--searches", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--store", type=Path, default=None)
    parser.add_argument("--first-round-only", action="store_true")
    args = parser.parse_args()
    if args.searches < 2:
        parser.error("--searches must be 2 or more (a spread needs two searches)")
    if args.store is not None and args.store.exists():
        data = json.loads(args.store.read_text())
    else:
        data = collect(args.files, args.searches, args.seconds)
        if args.store is not None:
            args.store.write_text(json.dumps(data))
    if args.first_round_only:
        analysis.unsettled = lambda *_a, **_k: []
    for name in args.files:
        stored = [[Evaluation.from_dict(d) for d in position] for position in data[name]]
        mean, good, searches, drift = replay(name, stored, args.pairs, seed=7)
        print(f"{Path(name).name}: agree {mean:.2f} of 5, 4 of 5 or more in {good} of {args.pairs} pairs, "
              f"{searches:.1f} searches a review, loss differs by {drift:.2f} points a move", flush=True)


if __name__ == "__main__":
    main()
