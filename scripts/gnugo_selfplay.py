"""Games for the learned prior and the policy network: GNU Go plays itself from short random openings, one SGF
file a game.

Usage::

    python scripts/gnugo_selfplay.py OUT_DIR --level 1 --first 1000 --games 400 [--gnugo /usr/games/gnugo] \
        [--jobs N] [--seconds S] [--size 19]

``--size`` sets the board (19 by default; on smaller boards the random opening is 1 to 3 stones off the first
line). Game ``k`` (``--first`` .. ``--first + --games - 1``) uses ``k`` as the seed of its random opening and of GNU Go
(``--seed``), so a game can be played again exactly. The opening is 2 to 6 stones, alternating colours, mostly on
the third to fifth lines near a corner or a side; those moves carry the comment ``random`` and are not training
examples (``scripts/train_prior.py`` skips them). Then GNU Go chooses every move for both sides, komi 7.5, until two
passes, a resignation or 400 moves (2 x size x size on small boards). GNU Go is deterministic: without the random openings every game would be the
same. Level 1 plays about 3 moves a second on 19x19 on this project's machines, level 10 about 1.

``--jobs N`` plays N games at a time (one GNU Go process each). ``--seconds S`` stops after S seconds: no game
starts after that, and the games under way end where they are and are written with ``RE[Void]`` (their moves are
still GNU Go's choices, so they are still examples).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

COLUMNS = "ABCDEFGHJKLMNOPQRST"


class Gnugo:
    """A GNU Go process driven over GTP (only what this script needs)."""

    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, command: str) -> str:
        """Send one GTP command; return the answer's text. Raises RuntimeError on a failure answer or exit."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines: list[str] = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise RuntimeError(f"gnugo exited during {command!r}")
            if not line.strip():
                if lines:
                    break
                continue
            lines.append(line.strip())
        answer = " ".join(lines)
        if not answer.startswith("="):
            raise RuntimeError(f"gnugo refused {command!r}: {answer}")
        return answer[1:].strip()

    def close(self) -> None:
        with contextlib.suppress(RuntimeError):
            self.ask("quit")
        self.proc.wait(timeout=10)


def sgf_point(vertex: str, size: int) -> str:
    """A GTP vertex as SGF coordinates ('' for a pass)."""
    if vertex.lower() == "pass":
        return ""
    x = COLUMNS.index(vertex[0].upper())
    y = size - int(vertex[1:])
    return chr(97 + x) + chr(97 + y)


def random_opening(rng: random.Random, size: int) -> list[str]:
    """On 19x19, 2 to 6 distinct vertices, mostly on lines 3-5 near a corner or a side; on smaller boards, 1 to 3
    anywhere off the first line."""
    vertices: list[str] = []
    if size < 19:
        for _ in range(rng.randint(1, 3)):
            while (vertex := COLUMNS[rng.randint(1, size - 2)] + str(rng.randint(2, size - 1))) in vertices:
                pass
            vertices.append(vertex)
        return vertices
    for _ in range(rng.randint(2, 6)):
        while True:
            x, y = rng.randint(2, 16), rng.randint(2, 16)
            near_edge = min(x, 18 - x) <= 4 and min(y, 18 - y) <= 4
            vertex = COLUMNS[x] + str(y + 1)
            if (near_edge or rng.random() < 0.15) and vertex not in vertices:
                vertices.append(vertex)
                break
    return vertices


def play_game(gnugo: str, level: int, seed: int, deadline: float = float("inf"), size: int = 19) -> str:
    """Play one game (cut short at ``deadline``, a ``time.time()``); return its SGF text."""
    rng = random.Random(seed)
    cut = False
    engine = Gnugo([gnugo, "--mode", "gtp", "--level", str(level), "--seed", str(seed)])
    moves: list[tuple[str, str, bool]] = []
    try:
        engine.ask(f"boardsize {size}")
        engine.ask("clear_board")
        engine.ask("komi 7.5")
        color = "B"
        for vertex in random_opening(rng, size):
            engine.ask(f"play {color} {vertex}")
            moves.append((color, vertex, True))
            color = "W" if color == "B" else "B"
        passes = 0
        while passes < 2 and len(moves) < min(400, 2 * size * size):
            if time.time() > deadline:
                cut = True
                break
            vertex = engine.ask(f"genmove {color}")
            if vertex.lower() == "resign":
                break
            moves.append((color, vertex, False))
            passes = passes + 1 if vertex.lower() == "pass" else 0
            color = "W" if color == "B" else "B"
    finally:
        engine.close()
    nodes = "".join(f";{c}[{sgf_point(v, size)}]" + ("C[random]" if r else "") for c, v, r in moves)
    result = "RE[Void]" if cut else ""
    return f"(;GM[1]FF[4]SZ[{size}]KM[7.5]PB[GNU Go level {level}]PW[GNU Go level {level}]{result}{nodes})\n"


def play_and_write(gnugo: str, level: int, seed: int, out: Path, deadline: float, size: int) -> None:
    """Play game ``seed`` into ``out``/g``seed``.sgf unless it is there, or the deadline has passed."""
    path = out / f"g{seed}.sgf"
    if path.exists() or time.time() > deadline:
        return
    path.write_text(play_game(gnugo, level, seed, deadline, size))
    print(time.strftime("%H:%M:%S"), path, flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--level", type=int, default=1)
    ap.add_argument("--first", type=int, default=1000)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--gnugo", default=shutil.which("gnugo") or "/usr/games/gnugo")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--seconds", type=float, default=float("inf"))
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    deadline = time.time() + args.seconds
    seeds = range(args.first, args.first + args.games)
    with ThreadPoolExecutor(args.jobs) as pool:  # each game's work is in its own GNU Go process
        for future in [pool.submit(play_and_write, args.gnugo, args.level, s, args.out, deadline, args.size) for s in seeds]:
            future.result()
    return 0


if __name__ == "__main__":
    sys.exit(main())
