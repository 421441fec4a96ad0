"""Strength benchmark: keima's strongest level against GNU Go 3.8 through ``keima match``.

Usage::

    python bench/strength.py --size 9 --games 50          # 9x9, komi 7.5, French rules, 1 s per move
    python bench/strength.py --size 19 --games 6

Plays ``keima match``'s referee (``keima.match.run_match``, the code behind the command) between keima
(in-process, ``keima:strong``) and ``gnugo --mode gtp --level 10``, alternating colours. It drives the referee
through its Python API rather than the command line only to set the bot's search threads (``--threads``); each
game process compiles keima's search (or loads it from numba's cache) before its game starts, so that every move
measured is the compiled search's (``--while-compiling`` measures the quick move instead). SGF
files go under ``bench/out/strength-<size>/``; each finished game is appended to ``bench/out/strength-<size>.txt``
as it ends, and the script prints keima's wins, losses and win rate (with a 95% Wilson interval) so far, and at
the end how many games keima passed first in (a pass right after a stone of GNU Go's) and lost, and how many of
those losses followed a first pass made while keima was ahead on the estimated count (a pass that gave the game
away; a pass in a game already lost is not one). It can be stopped at any time: the games that finished are in the table.
``--target P`` is the sequential test: after each game (from ``--min-games`` decided games on) the series stops
when the 95% Wilson interval of keima's win rate lies wholly above or wholly below P; the games under way finish
and count. ``--before W/N`` names the earlier parts of the same series (keima won W of N decided games there):
the running figures and the sequential test then count the whole series, not this part alone. ``--jobs N`` plays
N games at a time, one process each (for a machine with a core per game and one more for GNU Go's turns);
``--first K`` numbers the games from K, so that a long match can be played in parts.

Dead-stone agreement::

    python bench/strength.py --dead-stones bench/out/strength-9 [more SGF folders]

For every game of the folders that ended by counting, compares ``keima.ai.estimate_dead`` on the final position
with GNU Go's ``final_status_list dead`` (after ``loadsgf``), prints the agreement (games with identical sets,
and stones on which they differ) and writes each differing position as a diagram to
``bench/out/deadstones.txt`` for a human to judge.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def parse_before(text: str | None) -> tuple[int, int]:
    """``--before W/N`` as (W, N); (0, 0) for None. Raises ``ValueError`` naming what is wrong."""
    if text is None:
        return 0, 0
    wins, sep, games = text.partition("/")
    if not sep or not wins.strip().isdigit() or not games.strip().isdigit():
        raise ValueError(f"--before {text!r}: write keima's wins and the decided games as W/N, e.g. 146/171")
    w, n = int(wins), int(games)
    if w > n:
        raise ValueError(f"--before {text!r}: {w} wins of {n} games")
    return w, n


def gnugo_dead(gnugo: str, path: Path, size: int) -> frozenset[int]:
    """GNU Go's ``final_status_list dead`` for the final position of the SGF file ``path``."""
    from keima.rules import from_gtp

    script = f"loadsgf {path}\nfinal_status_list dead\nquit\n"
    out = subprocess.run([gnugo, "--mode", "gtp", "--level", "10"], input=script, capture_output=True, text=True,
                         timeout=600, check=True).stdout
    answers = [block.strip() for block in out.split("\n\n") if block.strip()]
    if len(answers) < 2 or not answers[1].startswith("="):
        raise RuntimeError(f"gnugo: unexpected answer for {path}: {out!r}")
    points = answers[1][1:].split()
    return frozenset(p for p in (from_gtp(v, size) for v in points) if p is not None)


def dead_stone_agreement(folders: list[str], gnugo: str, out: Path) -> int:
    """Compare keima's and GNU Go's dead stones on every counted game of ``folders``; prints the figures."""
    from keima.ai import estimate_dead
    from keima.record import load_record
    from keima.rules import to_gtp
    from keima.rules.render import board_diagram

    out.mkdir(parents=True, exist_ok=True)  # a fresh --out folder, as the matches make theirs
    report = out / "deadstones.txt"
    games = same = stones_total = stones_diff = 0
    keima_only = gnugo_only = keima_dead = gnugo_dead_total = 0
    with report.open("w") as log:
        for folder in folders:
            for path in sorted(Path(folder).glob("*.sgf")):
                rec = load_record(path)
                game = rec.game
                result = rec.result_text or ""
                if result[:2] not in ("B+", "W+") or result[2:3] in ("R", "T", "F"):
                    continue  # resignations, time, forfeits: no final position to judge
                n = game.size
                ours = estimate_dead(game, seed=1)
                theirs = gnugo_dead(gnugo, path, n)
                games += 1
                keima_dead += len(ours)
                gnugo_dead_total += len(theirs)
                stones = sum(1 for c in game.board.colors if c)
                stones_total += stones
                diff = ours ^ theirs
                if not diff:
                    same += 1
                    continue
                stones_diff += len(diff)
                keima_only += len(ours - theirs)
                gnugo_only += len(theirs - ours)
                # Disputed stones in lower case (x black, o white); the header says who calls them dead.
                marks = {p: ("x" if game.board.colors[p] == 1 else "o") for p in diff}
                log.write(f"{path.name} ({result}): keima only {sorted(to_gtp(p, n) for p in ours - theirs)}, "
                          f"gnugo only {sorted(to_gtp(p, n) for p in theirs - ours)}\n")
                log.write(board_diagram(game.board, marks=marks) + "\n\n")
    pct = 100 * same / max(games, 1)
    print(f"dead stones, keima estimate_dead vs gnugo final_status_list dead: {same}/{games} counted games "
          f"identical ({pct:.0f}%); stones in dispute {stones_diff} of {stones_total} on the boards "
          f"({keima_only} dead for keima only, {gnugo_only} dead for gnugo only); dead stones found: keima "
          f"{keima_dead}, gnugo {gnugo_dead_total}; diagrams in {report}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dead-stones", nargs="+", metavar="DIR", help="compare dead stones on the SGF files of DIR")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=1.0, help="keima's thinking time per move")
    ap.add_argument("--level", default="strong", help="keima level")
    ap.add_argument("--threads", type=int, default=None,
                    help="keima's search threads (default: the level's, e.g. 2 for strong)")
    ap.add_argument("--while-compiling", action="store_true",
                    help="keima plays as it does while its search compiles (keima.ai.quick), all game long")
    ap.add_argument("--gnugo-level", type=int, default=10)
    ap.add_argument("--komi", type=float, default=None, help="komi (default: the ruleset's, its handicap komi "
                    "with --handicap)")
    ap.add_argument("--handicap", type=int, default=0, metavar="N",
                    help="GNU Go takes Black with N stones on the fixed points in every game, keima White")
    ap.add_argument("--rules", default="french")
    ap.add_argument("--out", default="bench/out")
    ap.add_argument("--first", type=int, default=1,
                    help="number of the first game (keima is Black in the odd ones), to play a match in parts")
    ap.add_argument("--jobs", type=int, default=1,
                    help="games played at a time, one process each (give each a core of its own)")
    ap.add_argument("--target", type=float, default=None, metavar="P",
                    help="stop early (no new game starts; the games under way finish) once, after at least "
                    "--min-games decided games, the 95%% Wilson interval of keima's win rate lies wholly above "
                    "or wholly below P (e.g. 0.8)")
    ap.add_argument("--min-games", type=int, default=10, help="decided games before --target may stop (10)")
    ap.add_argument("--before", default=None, metavar="W/N",
                    help="the earlier parts of this series: keima won W of N decided games (counted in the running "
                         "figures and the sequential test)")
    args = ap.parse_args()
    if args.target is not None and not 0 < args.target < 1:
        ap.error("--target must lie between 0 and 1")
    try:
        before = parse_before(args.before)
    except ValueError as exc:
        ap.error(str(exc))
    gnugo = shutil.which("gnugo") or ("/usr/games/gnugo" if os.access("/usr/games/gnugo", os.X_OK) else None)
    if gnugo is None:
        print("strength: gnugo is not installed (apt-get install gnugo)", file=sys.stderr)
        return 2
    out = Path(args.out)
    if args.dead_stones:
        return dead_stone_agreement(args.dead_stones, gnugo, out)
    sgf_dir = out / f"strength-{args.size}"
    sgf_dir.mkdir(parents=True, exist_ok=True)
    table = out / f"strength-{args.size}.txt"
    keima = f"keima:{args.level}" + (" while compiling" if args.while_compiling else "")
    threads_note = "" if args.threads is None else f", {args.threads} thread(s)"
    gnugo_argv = [gnugo, "--mode", "gtp", "--level", str(args.gnugo_level)]
    if args.komi is None:
        from keima.rules.game import Game

        args.komi = Game(size=args.size, rules=args.rules, handicap=args.handicap).komi
    colours = f"gnugo Black with {args.handicap} stones" if args.handicap else "colours alternating"
    print(f"{keima} ({args.seconds} s/move{threads_note}) vs {' '.join(gnugo_argv)}, {args.size}x{args.size}, komi {args.komi}, "
          f"{args.rules}, {args.games} games, {colours}, {args.jobs} at a time", flush=True)
    start = time.time()
    tally = {"wins": 0, "losses": 0, "other": 0, "passed_first": 0, "lost_after_passing_first": 0,
             "lost_after_passing_first_ahead": 0}
    with table.open("a") as log:
        log.write(f"# {time.strftime('%Y-%m-%d %H:%M:%S')} {keima} {args.seconds} s/move{threads_note} vs "
                  f"{' '.join(gnugo_argv)}, {args.size}x{args.size}, komi {args.komi}, {args.rules}, {colours}\n")

    def series() -> tuple[int, int]:
        """keima's wins and the decided games of the whole series (the earlier parts of ``--before`` included)."""
        return tally["wins"] + before[0], tally["wins"] + tally["losses"] + before[1]

    def on_game(line: str, verdict: str, first: bool, ahead: bool) -> None:
        tally[verdict] += 1
        tally["passed_first"] += first
        tally["lost_after_passing_first"] += first and verdict == "losses"
        tally["lost_after_passing_first_ahead"] += ahead and verdict == "losses"
        with table.open("a") as log:
            log.write(line + "\n")
        wins, n = series()
        lo, hi = wilson(wins, n)
        print(f"{line} -> keima {wins}/{n}{' in the series' if args.before else ''} ({100 * wins / max(n, 1):.0f}%, "
              f"95% CI {100 * lo:.0f}-{100 * hi:.0f}%), {time.time() - start:.0f} s", flush=True)

    def settled() -> str | None:
        """The sequential test's verdict once the interval is clear of ``--target`` (else None)."""
        wins, n = series()
        if args.target is None or n < args.min_games:
            return None
        lo, hi = wilson(wins, n)
        if lo > args.target:
            return f"the 95% interval ({100 * lo:.0f}-{100 * hi:.0f}%) lies above the target {100 * args.target:.0f}%"
        if hi < args.target:
            return f"the 95% interval ({100 * lo:.0f}-{100 * hi:.0f}%) lies below the target {100 * args.target:.0f}%"
        return None

    numbers = range(args.first, args.first + args.games)
    verdict = None
    if args.jobs <= 1:
        for number in numbers:
            on_game(*play_game(args, gnugo_argv, str(sgf_dir), number))
            if (verdict := settled()) is not None:
                break
    else:
        # One process per game under way: each keima searches on its own core, as in a one-core match.
        with ProcessPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(play_game, args, gnugo_argv, str(sgf_dir), k) for k in numbers]
            for future in as_completed(futures):
                if future.cancelled():
                    continue
                on_game(*future.result())
                if verdict is None and (verdict := settled()) is not None:
                    for f in futures:
                        f.cancel()  # the games not started; those under way finish and are counted
    if verdict is not None:
        print(f"stopped early: {verdict}", flush=True)
        with table.open("a") as log:
            log.write(f"# stopped early: {verdict}\n")
    wins, losses, other = tally["wins"], tally["losses"], tally["other"]
    n = wins + losses
    lo, hi = wilson(wins, n)
    summary = (f"keima:{args.level} vs gnugo level {args.gnugo_level}, {args.size}x{args.size}, komi {args.komi}, "
               f"{colours}, "
               f"{args.rules}, {args.seconds} s/move{threads_note}: keima won {wins} of {n} decided games "
               f"({100 * wins / max(n, 1):.1f}%, 95% CI {100 * lo:.0f}-{100 * hi:.0f}%), {other} without winner; "
               f"keima passed first in {tally['passed_first']} games and lost {tally['lost_after_passing_first']} "
               f"of them, {tally['lost_after_passing_first_ahead']} after passing first while ahead")
    if args.before:
        wins, n = series()
        lo, hi = wilson(wins, n)
        summary += (f"; with the earlier parts ({before[0]}/{before[1]}), the series: {wins} of {n} "
                    f"({100 * wins / max(n, 1):.1f}%, 95% CI {100 * lo:.1f}-{100 * hi:.1f}%)")
    print(summary)
    with table.open("a") as log:
        log.write(f"# {summary}\n")
    return 0


def passed_first(moves: list[tuple[int, int | None]], color: int) -> bool:
    """True when ``color`` passed at least once right after a stone of the other side (or at the start): it was
    the first to pass, not answering a pass. ``moves``: (colour, point or None) in order."""
    return any(c == color and p is None and (i == 0 or moves[i - 1][1] is not None)
               for i, (c, p) in enumerate(moves))


def first_passes_ahead(game: Any, color: int) -> int:
    """How many times ``color`` passed first in ``game`` (see :func:`passed_first`) while the count of that
    position, with ``keima.ai.estimate_dead``'s dead stones off, favoured it: a pass that gave a won game away is
    one of these, a pass in a game already lost is not."""
    from keima.ai import estimate_dead

    moves = list(game.moves)
    count = 0
    for i, m in enumerate(moves):
        if m.color != color or m.point is not None or (i > 0 and moves[i - 1].point is None):
            continue
        before = game.copy()
        while len(before.moves) > i:
            before.undo()
        margin = float(before.score(dead=estimate_dead(before, seed=1)).margin)
        count += (margin > 0) == (color == 1)
    return count


def play_game(args: argparse.Namespace, gnugo_argv: list[str], sgf_dir: str,
              number: int) -> tuple[str, str, bool, bool]:
    """Play game ``number`` of the match (keima is Black in the odd-numbered games) and write its SGF; return its
    table line, ``"wins"``, ``"losses"`` or ``"other"`` from keima's side, whether keima passed first, and whether
    it did so while ahead on the estimated count."""
    from keima.match import Referee, run_match
    from keima.seat import ComputerPlayer, EnginePlayer, KeimaPlayer

    keima = f"keima:{args.level}"

    def make_keima() -> ComputerPlayer:
        if args.while_compiling:
            # A compilation that never ends, for this process's players and estimates alike.
            import threading

            from keima.ai import player as player_module
            from keima.ai.warmup import Warmup

            never = Warmup(lambda heard: (heard(False), threading.Event().wait()))
            never.start()
            player_module.DEFAULT_WARMUP = never
        else:
            # The series measures the compiled search: compile (or load from numba's cache) before the game, or
            # the match's background warm-up would let the first moves come from the quick move while it runs
            # (minutes on a loaded machine with an empty cache).
            from keima.ai.warmup import DEFAULT

            DEFAULT.run()
        player = KeimaPlayer(args.level, 1000 + number)
        if args.threads is not None:
            import dataclasses

            player.player.config = dataclasses.replace(player.player.config, threads=args.threads)
        return player

    def make_gnugo() -> ComputerPlayer:
        # Its own seed a game: GNU Go seeds from the clock, and two games started in the same second (--jobs)
        # would draw alike.
        return EnginePlayer("gnugo", [*gnugo_argv, "--seed", str(number)])

    referee = Referee(size=args.size, rules=args.rules, komi=args.komi, move_timeout=120.0, seconds=args.seconds,
                      handicap=args.handicap, log=lambda message: print(message, file=sys.stderr, flush=True))
    players = ((keima, make_keima), ("gnugo", make_gnugo))
    if args.handicap:
        players = players[::-1]  # the stones go to GNU Go: keima gives them as White
    [report] = run_match(*players, referee, 1, sgf_dir, number_from=number, alternate=not args.handicap)
    keima_color = "B" if report.black == keima else "W"
    result = report.result
    if result.startswith(keima_color + "+"):
        verdict, said = "wins", "keima wins"
    elif result[:2] in ("B+", "W+"):
        verdict, said = "losses", "gnugo wins"
    else:
        verdict, said = "other", "no winner"
    note = f" - {report.reason}" if report.reason else ""
    color = 1 if keima_color == "B" else 2
    first = passed_first([(int(m.color), m.point) for m in report.game.moves], color)
    ahead = first and first_passes_ahead(report.game, color) > 0
    said_first = (", keima passed first" + (" while ahead" if ahead else " while behind")) if first else ""
    return (f"game {report.number}: {report.black} (B) vs {report.white} (W): {result}{note}, "
            f"{report.moves} moves{said_first}  [{said}]"), verdict, first, ahead


if __name__ == "__main__":
    sys.exit(main())
