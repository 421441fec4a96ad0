"""How long the bot's review of a game takes (``keima.ai.analysis.review_game``), and how much it searches.

Usage::

    python bench/review.py [FILE.sgf] [--seconds S | --playouts N]

Reviews the main line of FILE (default: ``tests/data/sgf/gnugo_9x9_counted.sgf``, a 52-move 9x9 game) at the
budget given (default: the review's own, ``default_budget``: playouts by board size under a time cap) in this process and prints: the moves,
the wall-clock time of the whole review (the search compiled or loaded from numba's cache first, not counted),
the time and playouts per position (median, least, most), and the largest mistakes found. One search thread: the
figure is what one core does, the server's reviews run the same way.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from keima.ai.analysis import Analyst, Budget, assemble, default_budget, mistakes, positions, vertex
from keima.ai.warmup import DEFAULT as WARMUP
from keima.record import load_record

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(ROOT / "tests/data/sgf/gnugo_9x9_counted.sgf"))
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--playouts", type=int, default=None)
    args = parser.parse_args()
    given = args.seconds is not None or args.playouts is not None
    budget = Budget(seconds=args.seconds, playouts=args.playouts) if given else None  # None: the review's default
    game = load_record(Path(args.file)).game
    WARMUP.run()
    line = positions(game)
    analyst = Analyst(budget)
    times: list[float] = []
    evals = []
    start = time.perf_counter()
    for position, _color, _point in line:
        t0 = time.perf_counter()
        evals.append(analyst.evaluate(position))
        times.append(time.perf_counter() - t0)
    total = time.perf_counter() - start
    reviews = assemble(line, evals)
    playouts = [e.playouts for e in evals]
    print(f"record: {args.file} ({game.size}x{game.size}, {len(line) - 1} moves)")
    shown = budget or default_budget(game.size)
    print(f"budget: {shown.seconds} s, {shown.playouts} playouts a position")
    print(f"review: {total:.1f} s for {len(line)} positions")
    print(f"per position: {statistics.median(times):.2f} s median ({min(times):.2f}..{max(times):.2f}), "
          f"{statistics.median(playouts):.0f} playouts median ({min(playouts)}..{max(playouts)})")
    for r in mistakes(reviews):
        best = vertex(r.best[0].move, game.size) if r.best else "-"
        print(f"mistake: move {r.n} {vertex(r.played, game.size)} lost {r.loss:.1f} points (best {best})")


if __name__ == "__main__":
    main()
