"""The rank of keima's ranked levels (issue 48): each level against GNU Go 3.8 at a named level and handicap, its
win rate turned into a rank by the rule of docs/bot.md, « Levels by rank ».

Usage::

    python bench/rank_levels.py --level 15k --games 20                        # 19x19, even, GNU Go level 10
    python bench/rank_levels.py --level 25k --handicap 6 --games 10 --first 11  # keima takes 6 stones; a 2nd part
    python bench/rank_levels.py --level 15k,10k --games 4 --size 13 --out DIR
    python bench/rank_levels.py --level 25k --against 20k --handicap 5 --games 20  # against another keima level

Games go through ``keima match``'s referee (``keima.match.run_match``) under French rules: an even game
alternates colours (komi 7.5); with ``--handicap H`` keima takes Black and H stones (H >= 2, the rules'
handicap komi: 0.5, and White's point per stone of an area count), or, with a negative H, gives -H stones as White. Each game's SGF goes under ``OUT/<level>-h<H>-g<G>/``. The table is
printed as the games end and written to ``OUT.txt``: per level, the games won, the win rate with its 95%
interval (Wilson) and the rank that gives, with the interval's ranks.

``--against LEVEL`` plays another keima level instead of GNU Go (a ladder's rung measured against the one above;
its rank, ``--against-rank``, defaults to the kyu its name says).

The rule (docs/bot.md): GNU Go 3.8 at level 10 counts as ``--gnugo-rank`` (9 kyu: the public servers place it
around 8 to 10 kyu); a handicap of H stones makes up H - 0.5 ranks (komi 0.5 instead of 7.5 is worth half a rank);
and a win rate p, at the handicap played, puts the level 1.5 x ln(p / (1 - p)) ranks above GNU Go's handicapped
rank (the European rating system's winning expectancy between kyu players: 1 / (1 + exp(D / a)) for a rating
gap D, one rank being 100 points and a about 150 there). ``p`` is taken as (wins + 0.5) / (games + 1) so that a
clean sweep still gives a finite rank.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

#: Ranks per unit of log-odds of winning (a / 100 with a = 150: the European rating system near 10 kyu).
RANKS_PER_LOGIT = 1.5


@dataclass(frozen=True)
class Cell:
    """One series: keima's level, the handicap (stones keima takes; negative: it gives them), the opponent (GNU
    Go's level, or a keima level's name)."""

    level: str
    handicap: int
    opponent: int | str

    @property
    def name(self) -> str:
        """The series' folder name."""
        against = f"g{self.opponent}" if isinstance(self.opponent, int) else f"k{self.opponent}"
        return f"{self.level}-h{self.handicap}-{against}"


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate of ``wins`` in ``games`` (0..1 each end)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def kyu_of(rate: float, handicap: int, anchor_kyu: float) -> float:
    """The level's rank in kyu (larger is weaker) from its win ``rate`` (0 < rate < 1) at ``handicap`` against an
    opponent counted as ``anchor_kyu`` (the rule of the module docstring)."""
    made_up = 0.0 if abs(handicap) < 2 else math.copysign(abs(handicap) - 0.5, handicap)
    return anchor_kyu + made_up - RANKS_PER_LOGIT * math.log(rate / (1.0 - rate))


def rank_words(kyu: float) -> str:
    """``kyu`` as a rank: "12.3k", or "1.5d" for a strength above 1 kyu (1 kyu and 1 dan one rank apart)."""
    return f"{kyu:.1f}k" if kyu >= 1.0 else f"{2.0 - kyu:.1f}d"


def play_one(cell: Cell, number: int, size: int, out: str, gnugo: str) -> tuple[Cell, int, str, str]:
    """Play game ``number`` of ``cell``; return the cell, the number, its table line and keima's verdict."""
    from keima.ai.warmup import DEFAULT
    from keima.match import Referee, run_match
    from keima.seat import ComputerPlayer, EnginePlayer, KeimaPlayer

    DEFAULT.run()

    def make_keima() -> ComputerPlayer:
        return KeimaPlayer(cell.level, 2000 + number)

    def make_other() -> ComputerPlayer:
        if isinstance(cell.opponent, str):
            return KeimaPlayer(cell.opponent, 3000 + number)
        # GNU Go seeds its random choices from the clock: two games started in the same second (--jobs) would be
        # the same game. Each game gets its own seed.
        return EnginePlayer("gnugo", [gnugo, "--mode", "gtp", "--level", str(cell.opponent), "--seed",
                                      str(number)])

    stones = abs(cell.handicap) if abs(cell.handicap) >= 2 else 0
    referee = Referee(size=size, rules="french", move_timeout=300.0, handicap=stones)
    keima = (f"keima:{cell.level}", make_keima)
    engine = ("gnugo" if isinstance(cell.opponent, int) else f"keima:{cell.opponent}", make_other)
    if stones == 0:
        pair, keima_black = (keima, engine) if number % 2 == 1 else (engine, keima), number % 2 == 1
    else:
        keima_black = cell.handicap > 0
        pair = (keima, engine) if keima_black else (engine, keima)
    folder = os.path.join(out, cell.name)
    [report] = run_match(pair[0], pair[1], referee, 1, folder, number_from=number, alternate=False)
    mine = "B+" if keima_black else "W+"
    theirs = "W+" if keima_black else "B+"
    verdict = "win" if report.result.startswith(mine) else "loss" if report.result.startswith(theirs) else "other"
    line = (f"{cell.name} game {number}: keima {'Black' if keima_black else 'White'}, {report.result} after "
            f"{report.moves} moves ({verdict})")
    return cell, number, line, verdict


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--level", default="15k", help="keima's levels, comma-separated")
    ap.add_argument("--handicap", type=int, default=0, help="stones keima takes (negative: gives); 0 even")
    ap.add_argument("--gnugo-level", type=int, default=10)
    ap.add_argument("--gnugo-rank", type=float, default=9.0, help="GNU Go's rank at that level, in kyu (9)")
    ap.add_argument("--against", default="gnugo", help="the opponent: gnugo, or a keima level")
    ap.add_argument("--against-rank", type=float, default=None,
                    help="a keima opponent's rank in kyu (default: the kyu of its name)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--first", type=int, default=1, help="number of the first game (a later part of a series)")
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default="bench/out/rank-levels")
    args = ap.parse_args()
    if args.handicap in (1, -1):
        ap.error("a handicap is 2 stones or more (0: an even game)")
    gnugo = shutil.which("gnugo") or ("/usr/games/gnugo" if os.access("/usr/games/gnugo", os.X_OK) else None)
    if gnugo is None:
        print("rank_levels: gnugo is not installed (apt-get install gnugo)", file=sys.stderr)
        return 2
    opponent: int | str = args.gnugo_level if args.against == "gnugo" else args.against
    anchor = args.gnugo_rank
    if isinstance(opponent, str):
        from keima.ai import level_name

        opponent = level_name(opponent)
        if args.against_rank is not None:
            anchor = args.against_rank
        elif opponent.endswith("k") and opponent[:-1].isdigit():
            anchor = float(opponent[:-1])
        else:
            ap.error(f"--against {opponent}: give its rank with --against-rank")
    cells = [Cell(level.strip(), args.handicap, opponent) for level in args.level.split(",")]
    jobs = [(cell, k) for k in range(args.first, args.first + args.games) for cell in cells]
    Path(args.out).mkdir(parents=True, exist_ok=True)
    table = Path(args.out.rstrip("/") + ".txt")
    against = (f"GNU Go 3.8 level {opponent}" if isinstance(opponent, int) else f"keima's level {opponent}")
    header = (f"keima's ranked levels against {against} (counted {anchor:g}k), "
              f"{args.size}x{args.size}, French rules, handicap {args.handicap} (keima's stones; negative: given), "
              f"games {args.first}-{args.first + args.games - 1}")
    print(header, flush=True)
    lines: list[tuple[Cell, int, str]] = []
    tally: dict[Cell, list[int]] = {c: [0, 0] for c in cells}  # games, wins

    def summary(cell: Cell) -> str:
        games, wins = tally[cell]
        low, high = wilson(wins, games)
        rate = (wins + 0.5) / (games + 1)
        eps = 0.5 / (games + 1)
        rank = kyu_of(rate, cell.handicap, anchor)
        # The interval's ends: none past a clean sweep (no win: no bound on the weak side; no loss: on the strong).
        weak = "no bound" if wins == 0 else rank_words(kyu_of(max(low, eps), cell.handicap, anchor))
        strong = "no bound" if wins == games else rank_words(kyu_of(min(high, 1 - eps), cell.handicap, anchor))
        return (f"{cell.name}: {games} games, keima won {wins} ({100 * wins / max(games, 1):.0f}%, 95% interval "
                f"{100 * low:.0f}-{100 * high:.0f}%): rank {rank_words(rank)} (interval {weak} to {strong})")

    def record(cell: Cell, number: int, line: str, verdict: str) -> None:
        print(line, flush=True)
        lines.append((cell, number, line))
        tally[cell][0] += 1
        tally[cell][1] += verdict == "win"
        body = [text for _c, _n, text in sorted(lines, key=lambda x: (cells.index(x[0]), x[1]))]
        table.write_text("\n".join([header, *body, "", *(summary(c) for c in cells if tally[c][0])]) + "\n",
                         encoding="utf-8")

    if args.jobs <= 1:
        for cell, k in jobs:
            record(*play_one(cell, k, args.size, args.out, gnugo))
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(play_one, cell, k, args.size, args.out, gnugo) for cell, k in jobs]
            for future in as_completed(futures):
                record(*future.result())
    for cell in cells:
        print(summary(cell))
    print(f"table: {table}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
