"""Start-up time of ``keima gtp`` up to its first ``genmove`` answer, cold and warm, against GNU Go as a peer.

Usage::

    python bench/startup.py [--size 9] [--runs 3]

Cold: a fresh, empty numba cache directory (``NUMBA_CACHE_DIR``), so every compiled function is compiled.
Warm: the same directory again, so the compiled code is loaded from the cache. Each run starts ``keima gtp``,
sends ``boardsize``, ``clear_board`` and ``genmove b`` with a thinking time of 0.1 s (``--seconds 0.1``) and
stops the clock at the answer. The peer is ``gnugo --mode gtp`` doing the same. Wall-clock figures: the machine
may be shared, so the ratios (warm / cold, keima warm / gnugo) say more than the seconds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def first_genmove(cmd: list[str], size: int, env: dict[str, str]) -> float:
    """Seconds from starting ``cmd`` to the answer of its first ``genmove b``."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"boardsize {size}\nclear_board\ngenmove b\n")
    proc.stdin.flush()
    answers = 0
    while answers < 3:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{cmd[0]} stopped before answering genmove")
        if line.startswith(("=", "?")):
            if line.startswith("?"):
                raise RuntimeError(f"{cmd[0]} answered {line.strip()!r}")
            answers += 1
    elapsed = time.perf_counter() - start
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=30)
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    keima = [sys.executable, "-m", "keima", "gtp", "--seconds", "0.1"]
    cold: list[float] = []
    warm: list[float] = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="keima-numba-") as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            cold.append(first_genmove(keima, args.size, env))
            warm.append(first_genmove(keima, args.size, env))
    print(f"keima gtp, first genmove on {args.size}x{args.size} (0.1 s of thinking), {args.runs} runs, median:")
    print(f"  cold (empty numba cache): {statistics.median(cold):6.2f} s   runs: {', '.join(f'{t:.2f}' for t in cold)}")
    print(f"  warm (cached):            {statistics.median(warm):6.2f} s   runs: {', '.join(f'{t:.2f}' for t in warm)}")
    print(f"  warm / cold: {statistics.median(warm) / statistics.median(cold):.2f}")
    gnugo = shutil.which("gnugo") or ("/usr/games/gnugo" if os.access("/usr/games/gnugo", os.X_OK) else None)
    if gnugo:
        peer = [first_genmove([gnugo, "--mode", "gtp", "--level", "10"], args.size, dict(os.environ))
                for _ in range(args.runs)]
        print(f"  peer gnugo --level 10:    {statistics.median(peer):6.2f} s   "
              f"(keima warm / gnugo: {statistics.median(warm) / statistics.median(peer):.1f})")


if __name__ == "__main__":
    main()
