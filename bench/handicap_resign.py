"""Resignation in handicap games (issue 44): keima White gives GNU Go 3.8 stones on 9x9; does it resign, when,
and what did GNU Go think of the position then?

Usage::

    python bench/handicap_resign.py --games 20                                # the full series: 240 games
    python bench/handicap_resign.py --games 4 --levels beginner,intermediate --gnugo-levels 1 --out DIR
    python bench/handicap_resign.py --levels strong --games 10 --first 11 --out DIR2   # a second part

For each keima level of ``--levels``, each handicap of ``--handicaps`` (stones on the fixed points, the
ruleset's handicap komi) and each GNU Go level of ``--gnugo-levels``, plays ``--games`` games through
``keima match``'s referee (``keima.match.run_match``): GNU Go Black with the stones, keima White at the level's
own time per move (``--seconds`` to override). Each game's SGF goes under ``OUT/<level>-h<H>-g<L>/``; for a game
keima resigned, the final position (the one it resigned in) is loaded into GNU Go (``loadsgf``) and its
``estimate_score`` is printed beside the move number of the resignation and keima's own words (``Decision.say``,
kept in the record's root comment). The table is printed as the games end and written to ``OUT.txt``; the last
lines count, per cell, keima's wins, losses and resignations. ``--jobs N`` plays N games at a time (one process
each).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Cell:
    """One cell of the series: keima's level, the stones it gives, GNU Go's level."""

    level: str
    handicap: int
    gnugo_level: int

    @property
    def name(self) -> str:
        """The cell's folder name."""
        return f"{self.level}-h{self.handicap}-g{self.gnugo_level}"


def gnugo_estimate(gnugo: str, sgf: Path) -> str:
    """GNU Go's ``estimate_score`` of the last position of the record ``sgf`` (e.g. ``B+14.0 (upper bound: ...)``)."""
    script = f"loadsgf {sgf}\nestimate_score\nquit\n"
    out = subprocess.run([gnugo, "--mode", "gtp", "--level", "10"], input=script, capture_output=True, text=True,
                         timeout=300, check=False).stdout
    answers = [block[2:].strip() for block in out.split("\n\n") if block.startswith("=")]
    return answers[1] if len(answers) > 1 else f"? ({out.strip()[:80]})"


def play_one(cell: Cell, number: int, size: int, seconds: float | None, out: str,
             gnugo: str) -> tuple[Cell, int, str, bool, str]:
    """Play game ``number`` of ``cell`` and write its SGF; return the cell, the number, the table line, whether
    keima resigned, and the game's verdict from keima's side ("win", "loss", "other")."""
    from keima.ai.warmup import DEFAULT
    from keima.match import Referee, run_match
    from keima.seat import ComputerPlayer, EnginePlayer, KeimaPlayer

    # Every move measured is the compiled search's (loaded from numba's cache, or compiled once).
    DEFAULT.run()

    def make_keima() -> ComputerPlayer:
        return KeimaPlayer(cell.level, 1000 + number)

    def make_gnugo() -> ComputerPlayer:
        return EnginePlayer("gnugo", [gnugo, "--mode", "gtp", "--level", str(cell.gnugo_level)])

    referee = Referee(size=size, rules="french", move_timeout=120.0, seconds=seconds, handicap=cell.handicap)
    folder = os.path.join(out, cell.name)
    [report] = run_match(("gnugo", make_gnugo), (f"keima:{cell.level}", make_keima), referee, 1, folder,
                         number_from=number, alternate=False)
    result = report.result
    verdict = "win" if result.startswith("W+") else "loss" if result.startswith("B+") else "other"
    resigned = report.reason == "White resigned"
    if resigned:
        said = next((c for c in report.comments if "resigns:" in c), "")
        estimate = gnugo_estimate(gnugo, Path(report.sgf_path or ""))
        what = f"keima resigned at move {report.moves + 1}; GNU Go's estimate then: {estimate}; {said.strip()}"
    else:
        what = "no resignation"
    line = f"{cell.name} game {number}: {result} after {report.moves} moves, {what}"
    return cell, number, line, resigned, verdict


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20, help="games per cell (20)")
    ap.add_argument("--levels", default="beginner,intermediate,strong")
    ap.add_argument("--handicaps", default="2,4")
    ap.add_argument("--gnugo-levels", default="1,5")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--seconds", type=float, default=None, help="keima's time per move (default: the level's)")
    ap.add_argument("--first", type=int, default=1,
                    help="number of the first game of each cell (a later part of a series: its seeds follow on)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default="bench/out/handicap-resign")
    args = ap.parse_args()
    gnugo = shutil.which("gnugo") or ("/usr/games/gnugo" if os.access("/usr/games/gnugo", os.X_OK) else None)
    if gnugo is None:
        print("handicap_resign: gnugo is not installed (apt-get install gnugo)", file=sys.stderr)
        return 2
    cells = [Cell(level, int(h), int(g)) for level in args.levels.split(",") for h in args.handicaps.split(",")
             for g in args.gnugo_levels.split(",")]
    # Game-major order: a series stopped early (run in parts: ``--first``) has every cell's first games.
    jobs = [(cell, k) for k in range(args.first, args.first + args.games) for cell in cells]
    Path(args.out).mkdir(parents=True, exist_ok=True)
    table = Path(args.out.rstrip("/") + ".txt")
    header = (f"keima White giving stones to GNU Go 3.8 (Black), {args.size}x{args.size}, French rules, handicap komi, "
              f"games {args.first}-{args.first + args.games - 1} of each cell, keima's time per move: "
              f"{'the level default' if args.seconds is None else f'{args.seconds} s'}")
    print(header, flush=True)
    lines: list[tuple[Cell, int, str]] = []
    tally: dict[Cell, list[int]] = {c: [0, 0, 0, 0] for c in cells}  # games, wins, losses, resignations

    def record(cell: Cell, number: int, line: str, resigned: bool, verdict: str) -> None:
        print(line, flush=True)
        lines.append((cell, number, line))
        t = tally[cell]
        t[0] += 1
        t[1] += verdict == "win"
        t[2] += verdict == "loss"
        t[3] += resigned
        write()

    def write() -> None:
        body = [line for _c, _n, line in sorted(lines, key=lambda x: (cells.index(x[0]), x[1]))]
        summary = [f"{c.name}: {t[0]} games, keima won {t[1]}, lost {t[2]}, resigned {t[3]}"
                   for c, t in tally.items() if t[0]]
        table.write_text("\n".join([header, *body, "", *summary]) + "\n", encoding="utf-8")

    if args.jobs <= 1:
        for cell, k in jobs:
            record(*play_one(cell, k, args.size, args.seconds, args.out, gnugo))
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(play_one, cell, k, args.size, args.seconds, args.out, gnugo) for cell, k in jobs]
            for future in as_completed(futures):
                record(*future.result())
    for c, t in tally.items():
        print(f"{c.name}: {t[0]} games, keima won {t[1]}, lost {t[2]}, resigned {t[3]}")
    print(f"table: {table}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
