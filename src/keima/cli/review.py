"""``keima review``: the bot reviews an SGF record, move by move (``keima.ai.analysis``).

It reviews as the server does (``keima.ai.analysis.ReviewRun``: the same passes and, by default, the same
seconds a position) and prints a progress bar with the time left on stderr, then either the per-move list as
JSON (``--json``, with each player's ``summary``) or each player's accuracy and classed moves; with ``-o OUT.sgf``
it writes the record with the analysis on each move's node: a comment (Black's win rate and lead, what the move
lost and its class, the best next moves with the points each loses), those moves as labels (A, B, C...) on the
node where they can be played, the better line at each classed move as a variation beside it (its first node's
comment says what it gains), and the ``SBKV`` (Black's win rate in percent, the property Sabaki draws its graph
from) and ``SBKS`` (Black's lead) properties. A record reviewed before keeps one analysis: the earlier one is
replaced (``keima.record.annotate``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TextIO

from keima.ai.analysis import (
    CAP_SECONDS,
    DEFAULT_PLAYOUTS,
    MoveReview,
    candidate_losses,
    move_class,
    summary,
    vertex,
)
from keima.cli import Subparsers, UsageError, add_command, error_line
from keima.record import SgfError, load_record
from keima.record.annotate import NodeNote, Variation, annotated_sgf
from keima.rules.board import BLACK, WHITE

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
                   help=f"search time per position at most (default: {CAP_SECONDS:g} s with the default playouts; "
                   "with --playouts alone, no time limit)")
    p.add_argument("--playouts", type=int, default=None, metavar="N",
                   help="playouts per position (default by board size: "
                   + ", ".join(f"{n}x{n} {count:,}" for n, count in sorted(DEFAULT_PLAYOUTS.items()))
                   + "; with --seconds alone, no playout limit)")
    p.add_argument("--top", type=int, default=5, metavar="K", help="best moves kept per position (1..10, default 5)")
    p.add_argument("--json", action="store_true", help="print the per-move list as JSON")
    p.add_argument("-o", "--output", default=None, metavar="OUT.sgf", help="write the annotated record here")
    p.add_argument("--seed", type=int, default=None, help=argparse.SUPPRESS)  # repeatable tests


class ProgressBar:
    """A one-line progress bar on ``out`` with the time left (from the searches done so far), redrawn in place on a
    terminal and printed every tenth otherwise."""

    def __init__(self, out: TextIO, width: int = 30) -> None:
        self.out = out
        self.width = width
        self.start = time.monotonic()
        self.tty = out.isatty()
        self._last_tenth = -1

    def __call__(self, done: int, total: int) -> None:
        filled = min(self.width, self.width * done // max(total, 1))
        elapsed = time.monotonic() - self.start
        left = elapsed / max(done, 1) * max(total - done, 0)
        line = (f"reviewing [{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} searches, {elapsed:.0f} s"
                + (f", about {left:.0f} s left" if done < total else ""))
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


def _who(color: int | None) -> str:
    return "B" if color == BLACK else "W"


def notes(reviews: list[MoveReview], size: int) -> dict[int, NodeNote]:
    """The SGF notes of a review (``keima.ai.analysis.review_game``'s list) on an ``size`` board, keyed by move
    number: entry ``n``'s node gets its evaluation, what the move lost (and its class), and the candidates of the
    next move (entry ``n + 1``'s, which are played from this node's position) as labels, with the points each
    loses against the first. The better move instead of move ``n`` is not marked here: it is a variation
    (``variations``)."""
    out: dict[int, NodeNote] = {}
    for i, r in enumerate(reviews):
        lines: list[str] = []
        if r.n:
            lines.append(f"Move {r.n} ({_who(r.color)} {vertex(r.played, size)}): Black {_pct(r.winrate)}, "
                         f"{_lead(r.score)}")
        else:
            lines.append(f"Start: Black {_pct(r.winrate)}, {_lead(r.score)}")
        if r.n and r.best:
            top = r.best[0]
            if top.move == r.played:
                lines.append("The bot's choice.")
            else:
                kind = move_class(r.loss)
                lines.append(f"Loss: {r.loss or 0:.1f} points ({_pct(r.winrate_loss or 0.0)} win rate)"
                             + (f", {kind}" if kind else "") + f"; best was {vertex(top.move, size)}")
        labels: dict[int, str] = {}
        following = reviews[i + 1] if i + 1 < len(reviews) else None
        if following is not None and following.best:
            lines.append(f"Best next moves for {_who(following.color)}:")
            losses = candidate_losses(following.best, following.color)
            for letter, cand, lost in zip(LETTERS, following.best, losses, strict=False):
                if cand.move is not None:
                    labels[cand.move] = letter
                pv = " ".join(vertex(p, size) for p in cand.pv)
                cost = "" if lost is None else f", loses {lost:.1f}"
                lines.append(f"{letter} {vertex(cand.move, size)}: Black {_pct(cand.winrate)}{cost}, "
                             f"{cand.visits} playouts ({pv})")
        out[r.n] = NodeNote(comment="\n".join(lines), labels=labels,
                            properties={"SBKV": f"{100 * r.winrate:.2f}", "SBKS": f"{r.score:.2f}"})
    return out


def variations(reviews: list[MoveReview], size: int) -> list[Variation]:
    """The better line at each classed move (``move_class``) as a variation beside it: the first candidate of the
    position before the move and the line the search expects after it, the comment saying what it gains."""
    out: list[Variation] = []
    for r in reviews:
        if not r.n or not r.best or move_class(r.loss) is None or r.best[0].move == r.played:
            continue
        top = r.best[0]
        line = top.pv or [top.move]
        color = r.color if r.color in (BLACK, WHITE) else BLACK
        moves = tuple((color if k % 2 == 0 else BLACK + WHITE - color, p) for k, p in enumerate(line))
        gain = f"{r.loss or 0:.1f}"
        out.append(Variation(r.n - 1, moves, f"Better than {_who(r.color)} {vertex(r.played, size)} (move {r.n}, "
                             f"{move_class(r.loss)}): {vertex(top.move, size)} gains about {gain} points "
                             f"(Black {_pct(top.winrate)} instead of {_pct(r.winrate)}). "
                             f"The bot's line: {' '.join(vertex(p, size) for p in line)}"))
    return out


def run(args: argparse.Namespace) -> int:
    """Run ``keima review`` with the parsed ``args``; returns the exit code."""
    from keima.ai.analysis import Budget, review_game

    seconds, playouts = args.seconds, args.playouts
    if not 1 <= args.top <= len(LETTERS):
        raise UsageError(f"--top must be from 1 to {len(LETTERS)}")
    try:
        # Neither given: the review's default (``default_budget``, by the record's board size).
        budget = None if seconds is None and playouts is None else Budget(seconds=seconds, playouts=playouts)
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
        text = annotated_sgf(record, notes(reviews, size), variations(reviews, size))
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"keima review: cannot write {args.output}: {error_line(exc)}", file=sys.stderr)
            return 1
    moves = [r.as_dict(size) for r in reviews]
    figures = summary(moves)
    if args.json:
        json.dump({"size": size, "moves": moves, "summary": figures}, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    last = reviews[-1]
    print(f"{len(reviews) - 1} moves reviewed; at the end Black {_pct(last.winrate)}, {_lead(last.score)}")
    limits = ", ".join(f"{k} {v:g}" for k, v in figures["thresholds"].items())
    print(f"Classes by points lost: {limits} or more.")
    for color, name in (("B", "Black"), ("W", "White")):
        mine = figures[color]
        if not mine["moves"]:
            continue
        print(f"{name}: accuracy {mine['accuracy']:.1f}, {mine['mean_loss']:.1f} points lost a move; "
              + ", ".join(f"{count} {kind}" for kind, count in mine["counts"].items()))
        for m in mine["list"]:
            print(f"  move {m['n']} ({color} {m['played']}): lost {m['loss']:.1f} points, {m['class']}")
    return 0
