"""Strength benchmark: keima's strongest level against GNU Go 3.8 through ``keima match``.

Usage::

    python bench/strength.py --size 9 --games 50          # 9x9, komi 7.5, French rules, 1 s per move
    python bench/strength.py --size 19 --games 6

Runs ``keima match`` with keima (in-process, ``keima:strong``) and ``gnugo --mode gtp --level 10`` alternating
colours, keeps the SGF files under ``bench/out/strength-<size>/``, appends each finished game to
``bench/out/strength-<size>.txt`` as it ends, and prints keima's wins, losses and win rate (with a 95% Wilson
interval) so far. It can be stopped at any time: the games that finished are in the table.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

LINE = re.compile(r"^game (\d+): (\S+) \(B\) vs (\S+) \(W\): (\S+)(.*)$")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=1.0, help="keima's thinking time per move")
    ap.add_argument("--level", default="strong", help="keima level")
    ap.add_argument("--gnugo-level", type=int, default=10)
    ap.add_argument("--komi", type=float, default=7.5)
    ap.add_argument("--rules", default="french")
    ap.add_argument("--out", default="bench/out")
    args = ap.parse_args()
    gnugo = shutil.which("gnugo") or ("/usr/games/gnugo" if os.access("/usr/games/gnugo", os.X_OK) else None)
    if gnugo is None:
        print("strength: gnugo is not installed (apt-get install gnugo)", file=sys.stderr)
        return 2
    out = Path(args.out)
    sgf_dir = out / f"strength-{args.size}"
    sgf_dir.mkdir(parents=True, exist_ok=True)
    table = out / f"strength-{args.size}.txt"
    keima = f"keima:{args.level}"
    cmd = [sys.executable, "-m", "keima", "match", "--black", keima, "--white",
           f"{gnugo} --mode gtp --level {args.gnugo_level}", "--size", str(args.size), "--komi", str(args.komi),
           "--rules", args.rules, "--games", str(args.games), "--sgf", str(sgf_dir),
           "--keima-seconds", str(args.seconds), "--move-time", "120"]
    print("running:", " ".join(cmd), flush=True)
    start = time.time()
    wins = losses = other = 0
    with table.open("a") as log:
        log.write(f"# {time.strftime('%Y-%m-%d %H:%M:%S')} {' '.join(cmd)}\n")
        proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert proc.stderr is not None
        for raw in proc.stderr:
            line = raw.rstrip("\n")
            m = LINE.match(line)
            if not m:
                print(line, file=sys.stderr, flush=True)
                continue
            number, black, _white, result = m.group(1), m.group(2), m.group(3), m.group(4)
            keima_color = "B" if black == keima else "W"
            if result.startswith(keima_color + "+"):
                wins += 1
                verdict = "keima wins"
            elif result[:2] in ("B+", "W+"):
                losses += 1
                verdict = "gnugo wins"
            else:
                other += 1
                verdict = "no winner"
            log.write(f"{line}  [{verdict}]\n")
            log.flush()
            n = wins + losses
            lo, hi = wilson(wins, n)
            print(f"game {number}: keima {keima_color}: {result}{m.group(5)} -> keima {wins}/{n} "
                  f"({100 * wins / max(n, 1):.0f}%, 95% CI {100 * lo:.0f}-{100 * hi:.0f}%), "
                  f"{other} without winner, {time.time() - start:.0f} s", flush=True)
        proc.wait()
        assert proc.stdout is not None
        print(proc.stdout.read())
    n = wins + losses
    lo, hi = wilson(wins, n)
    summary = (f"keima:{args.level} vs gnugo level {args.gnugo_level}, {args.size}x{args.size}, komi {args.komi}, "
               f"{args.rules}, {args.seconds} s/move: keima won {wins} of {n} decided games "
               f"({100 * wins / max(n, 1):.1f}%, 95% CI {100 * lo:.0f}-{100 * hi:.0f}%), {other} without winner")
    print(summary)
    with table.open("a") as log:
        log.write(f"# {summary}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
