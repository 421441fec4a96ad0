"""``keima review``: the bot reviews an SGF record, move by move (``keima.ai.analysis``).

It prints a progress bar on stderr, then either the per-move list as JSON (``--json``) or a summary of the
largest mistakes; with ``-o OUT.sgf`` it writes the record with the analysis on each move's node: a comment
(Black's win rate and lead, what the move lost, the best moves), the best moves for the next move as labels
(A, B, C...), a triangle where the best move was when the move played was not it, and the ``SBKV`` (Black's win
rate in percent, the property Sabaki draws its graph from) and ``SBKS`` (Black's lead) properties.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TextIO

from keima.ai.analysis import DEFAULT_SECONDS, MoveReview, vertex
from keima.cli import Subparsers, UsageError, add_command, error_line
from keima.record import SgfError, load_record
from keima.record.annotate import NodeNote, annotated_sgf
from keima.rules.board import BLACK

LETTERS = "ABCDEFGHIJ"


def register(subparsers: Subparsers) -> None:
    """Add the ``review`` sub-command."""
    p = add_command(
        subparsers,
        "review",
        "the bot reviews an SGF record: win rate, score and best moves at each move",
        "Search every position of FILE's main line with keima's bot and report, for each move, Black's win "
        "rate and expected lead after it, what it lost against the bot's best move, and the bot's best moves "
        "with their win rates, playouts and lines. -o writes an annotated SGF (comments, labels, SBKV win "
        "rates for Sabaki's graph).",
        run,
    )
    p.add_argument("file", metavar="FILE.sgf", help="the SGF record")
    p.add_argument("--seconds", type=float, default=None, metavar="S",
                   help="search time per position (default 1 s; with --playouts alone, no time limit)")
    p.add_argument("--playouts", type=int, default=None, metavar="N", help="playouts per position")
    p.add_argument("--top", type=int, default=5, metavar="K", help="best moves kept per position (1..10, default 5)")
    p.add_argument("--json", action="store_true", help="print the per-move list as JSON")
    p.add_argument("-o", "--output", default=None, metavar="OUT.sgf", help="write the annotated record here")
    p.add_argument("--seed", type=int, default=None, help=argparse.SUPPRESS)  # repeatable tests


class ProgressBar:
    """A one-line progress bar on ``out``, redrawn in place on a terminal and printed every tenth otherwise."""

    def __init__(self, out: TextIO, width: int = 30) -> None:
        self.out = out
        self.width = width
        self.start = time.monotonic()
        self.tty = out.isatty()
        self._last_tenth = -1

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // max(total, 1)
        elapsed = time.monotonic() - self.start
        line = f"reviewing [{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} positions, {elapsed:.0f} s"
        if self.tty:
            self.out.write("\r" + line + ("\n" if done >= total else ""))
        else:
            tenth = 10 * done // max(total, 1)
            if tenth == self._last_tenth and done < total:
                return
            self._last_tenth = tenth
            self.out.write(line + "\n")
        self.out.flush()


def _pct(winrate: float) -> str:
    return f"{100 * winrate:.1f}%"


def _lead(score: float) -> str:
    return f"B+{score:.1f}" if score >= 0 else f"W+{-score:.1f}"


def notes(reviews: list[MoveReview], size: int) -> dict[int, NodeNote]:
    """The SGF notes of a review (``keima.ai.analysis.review_game``'s list) on an ``size`` board, keyed by move
    number: entry ``n``'s node gets its evaluation, what the move lost, a triangle where the best move was (when
    it was not played), and the candidates of the next move (entry ``n + 1``'s) as labels."""
    out: dict[int, NodeNote] = {}
    for i, r in enumerate(reviews):
        lines: list[str] = []
        if r.n:
            who = "B" if r.color == BLACK else "W"
            lines.append(f"Move {r.n} ({who} {vertex(r.played, size)}): Black {_pct(r.winrate)}, {_lead(r.score)}")
        else:
            lines.append(f"Start: Black {_pct(r.winrate)}, {_lead(r.score)}")
        triangles: tuple[int, ...] = ()
        if r.n and r.best:
            top = r.best[0]
            if top.move == r.played:
                lines.append("The bot's choice.")
            else:
                lines.append(f"Loss: {r.loss or 0:.1f} points ({_pct(r.winrate_loss or 0.0)} win rate); "
                             f"best was {vertex(top.move, size)} (Black {_pct(top.winrate)})")
                if top.move is not None:
                    triangles = (top.move,)
        labels: dict[int, str] = {}
        following = reviews[i + 1].best if i + 1 < len(reviews) else []
        if following:
            lines.append("Best next moves:")
        for letter, cand in zip(LETTERS, following, strict=False):
            if cand.move is not None:
                labels[cand.move] = letter
            pv = " ".join(vertex(p, size) for p in cand.pv)
            lines.append(f"{letter} {vertex(cand.move, size)}: Black {_pct(cand.winrate)}, {cand.visits} playouts"
                         f" ({pv})")
        out[r.n] = NodeNote(comment="\n".join(lines), labels=labels, triangles=triangles,
                            properties={"SBKV": f"{100 * r.winrate:.2f}", "SBKS": f"{r.score:.2f}"})
    return out


def run(args: argparse.Namespace) -> int:
    """Run ``keima review`` with the parsed ``args``; returns the exit code."""
    from keima.ai.analysis import Budget, mistakes, review_game

    seconds, playouts = args.seconds, args.playouts
    if seconds is None and playouts is None:
        seconds = DEFAULT_SECONDS
    if not 1 <= args.top <= len(LETTERS):
        raise UsageError(f"--top must be from 1 to {len(LETTERS)}")
    try:
        budget = Budget(seconds=seconds, playouts=playouts)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        record = load_record(Path(args.file))
    except SgfError as exc:
        print(f"keima review: {error_line(exc)}", file=sys.stderr)
        return 2
    game = record.game
    reviews = review_game(game, budget, top=args.top, seed=args.seed, progress=ProgressBar(sys.stderr))
    size = game.size
    if args.output:
        text = annotated_sgf(record, notes(reviews, size))
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"keima review: cannot write {args.output}: {error_line(exc)}", file=sys.stderr)
            return 1
    if args.json:
        json.dump({"size": size, "moves": [r.as_dict(size) for r in reviews]}, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    last = reviews[-1]
    print(f"{len(reviews) - 1} moves reviewed; at the end Black {_pct(last.winrate)}, {_lead(last.score)}")
    worst = mistakes(reviews)
    if not worst:
        print("No move lost 2 points or more.")
    for r in worst:
        who = "B" if r.color == BLACK else "W"
        best = f"; best was {vertex(r.best[0].move, size)}" if r.best else ""
        print(f"  move {r.n} ({who} {vertex(r.played, size)}): lost {r.loss or 0:.1f} points{best}")
    return 0
