"""Time to the bot's first move from a fresh start, with an empty numba cache (cold) and a filled one (warm).

Usage::

    python bench/startup.py [--size 9] [--seconds 1] [--level strong] [--runs 3]

Each run takes a fresh, empty numba cache directory (``NUMBA_CACHE_DIR``, so nothing compiled before is found)
and measures, each in a new process:

1. cold ``keima gtp --seconds S``: from starting the process to the answer of its first ``genmove b`` (after
   ``boardsize`` and ``clear_board``), and which move it was;
2. cold ``keima serve``: from starting the server (fresh SQLite database) to the bot's answer, in a game against
   keima at ``--level`` created as soon as the server answers, to the human's first move (E5, the centre), by
   polling the game's state every 20 ms; the figure that counts is from the human's move to the bot's;
3. the whole compilation, alone, in a process that fills the cache (``keima.ai.warmup.compile_search``), as the
   background thread of 1 and 2 does while they answer;
4. and 5. the same as 1 and 2 with that cache (warm): the processes then load the compiled code from the cache.

Wall-clock figures on a machine that may be shared: the runs and their median are printed. ``gnugo --mode gtp
--level 10`` doing 1 is the peer, when installed. Every process is stopped by its pid; nothing leaves the
machine.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import httpx


def first_genmove(cmd: list[str], size: int, env: dict[str, str]) -> tuple[float, str]:
    """Seconds from starting ``cmd`` to the answer of its first ``genmove b``, and that answer."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(f"boardsize {size}\nclear_board\ngenmove b\n")
        proc.stdin.flush()
        answers = 0
        line = ""
        while answers < 3:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError(f"{cmd[0]} stopped before answering genmove")
            if line.startswith("?"):
                raise RuntimeError(f"{cmd[0]} answered {line.strip()!r}")
            if line.startswith("="):
                answers += 1
        elapsed = time.perf_counter() - start
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return elapsed, line[1:].strip()


def first_bot_move(size: int, level: str, env: dict[str, str], db: str) -> tuple[float, float, str]:
    """Start ``keima serve``; as soon as it answers, create a game against keima at ``level`` (the human Black),
    play E5 and wait for the bot's move. Returns (seconds from the server's start to the human's move, seconds
    from the human's move to the bot's, the bot's move)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "keima", "serve", "--no-open", "--host", "127.0.0.1", "--port", "0", "--db", db],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(env, PYTHONUNBUFFERED="1"))
    assert proc.stdout is not None
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://[^/:]+:(\d+)/", line)
        if not m:
            raise RuntimeError(f"keima serve did not start: {line!r}")
        url = f"http://127.0.0.1:{m.group(1)}"
        with httpx.Client(base_url=url, timeout=30) as http:
            for _ in range(1200):
                try:
                    if http.get("/api/info").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                time.sleep(0.02)
            g = http.post("/api/games", json={"size": size, "opponent": "bot", "bot_level": level,
                                               "color": "B"}).json()
            gid, head = g["game"]["id"], {"X-Keima-Seat": g["seat"]["token"]}
            centre = (size // 2) * size + size // 2
            played = time.perf_counter()
            http.post(f"/api/games/{gid}/actions", json={"type": "play", "move": centre},
                      headers=head).raise_for_status()
            while time.perf_counter() - played < 300:
                moves = http.get(f"/api/games/{gid}").json()["moves"]
                if len(moves) >= 2:
                    answered = time.perf_counter()
                    return played - start, answered - played, str(moves[1].get("vertex", moves[1]))
                time.sleep(0.02)
        raise RuntimeError("the bot did not answer within 300 s")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def fill_cache(env: dict[str, str]) -> float:
    """Seconds a new process takes to compile everything into the cache (``compile_search``), imports included."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from keima.ai.warmup import compile_search; compile_search()"],
                   env=env, check=True)
    return time.perf_counter() - start


def line(label: str, values: list[float], extra: str = "") -> str:
    runs = ", ".join(f"{v:.2f}" for v in values)
    return f"  {label:<44} {statistics.median(values):7.2f} s   runs: {runs}{extra}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--seconds", type=float, default=1.0, help="keima gtp's thinking time per move")
    ap.add_argument("--level", default="strong", help="the server's bot level")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    keima = [sys.executable, "-m", "keima", "gtp", "--seconds", f"{args.seconds:g}"]
    rows: dict[str, list[float]] = {}
    moves: dict[str, list[str]] = {}

    def note(key: str, value: float, move: str | None = None) -> None:
        rows.setdefault(key, []).append(value)
        if move is not None:
            moves.setdefault(key, []).append(move)

    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="keima-startup-") as tmp:
            cache = os.path.join(tmp, "numba")
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            t, mv = first_genmove(keima, args.size, env)
            note("gtp cold", t, mv)
            boot, t, mv = first_bot_move(args.size, args.level, env, f"sqlite:///{tmp}/cold.db")
            note("serve cold: start to the human's move", boot)
            note("serve cold", t, mv)
            note("compile", fill_cache(env))
            t, mv = first_genmove(keima, args.size, env)
            note("gtp warm", t, mv)
            boot, t, mv = first_bot_move(args.size, args.level, env, f"sqlite:///{tmp}/warm.db")
            note("serve warm: start to the human's move", boot)
            note("serve warm", t, mv)
        print(f"run {run + 1} of {args.runs} done", file=sys.stderr)

    def played(key: str) -> str:
        return f"   moves: {' '.join(moves[key])}"

    print(f"First move on {args.size}x{args.size}, {args.runs} runs (median, then each run):")
    print(f"keima gtp --seconds {args.seconds:g}, from the process's start to the answer of genmove b:")
    print(line("cold (empty numba cache)", rows["gtp cold"], played("gtp cold")))
    print(line("warm (cache filled)", rows["gtp warm"], played("gtp warm")))
    print(f"keima serve, bot level {args.level}, from the human's first move to the bot's answer:")
    print(line("cold (empty numba cache)", rows["serve cold"], played("serve cold")))
    print(line("warm (cache filled)", rows["serve warm"], played("serve warm")))
    print(line("(cold: from the server's start to that move)", rows["serve cold: start to the human's move"]))
    print(line("(warm: from the server's start to that move)", rows["serve warm: start to the human's move"]))
    print("the whole compilation alone, in a new process:")
    print(line("compile_search with an empty cache", rows["compile"]))
    gnugo = shutil.which("gnugo") or ("/usr/games/gnugo" if os.access("/usr/games/gnugo", os.X_OK) else None)
    if gnugo:
        peer = [first_genmove([gnugo, "--mode", "gtp", "--level", "10"], args.size, dict(os.environ))[0]
                for _ in range(args.runs)]
        print(line("peer: gnugo --level 10, first genmove", peer))


if __name__ == "__main__":
    main()
