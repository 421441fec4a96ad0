"""Playout speed of the compiled core (one core), against a plain-Python peer in the same run.

Usage::

    python bench/playouts.py [--seconds 3] [--threads-only] [--prior-only]

For 9x9 and 19x19, from the empty board and from a mid-game position (a seeded sequence of random legal moves:
30 on 9x9, 120 on 19x19), it prints playouts per second of the numba core with light (uniform, no own-eye filling)
and heavy (captures, escapes, two-liberty answers, 3x3 patterns, no big self-atari) policies, and of a
plain-Python uniform playout on the referee's board (``keima.rules.board.Board``) as the peer, with the ratio.
Rates are per second of this process's CPU time (``time.process_time``), so that other programs sharing the
machine do not lower them. The target is >= 20,000 heavy playouts per second on the empty 9x9 board and >= 5,500
on the 19x19 mid-game position (docs/bot.md, « Playouts »: the figures of each change).

``--threads-only`` prints instead the 19x19 search rate (iterations per wall-clock second) of the searcher with
one and with two threads (root parallelism, ``keima.ai.searcher.Searcher(threads=2)``), alternating the two so
that both see the same machine load; the ratio is the gain of the second thread on this machine as it is.

``--nakade-only`` prints the heavy playout rate with the nakade self-atari (``make_params(nakade=...)``) off
and on, alternating, on the four positions; ``--low-liberty-only`` the same for the two-liberty answers
(``make_params(low_liberty=...)``).

``--prior-only`` prints the 19x19 search rate of one thread (iterations per second of CPU time) with the learned
prior (``keima.ai.prediction``) off and on, alternating; the ratio is what the prior's features cost the search.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from keima.ai import search as S
from keima.ai.patterns import PATTERN_TABLE
from keima.ai.searcher import load
from keima.rules import Board, Game, is_true_eye


def position(n: int, moves: int, seed: int = 7) -> Game:
    """A seeded position of ``moves`` random legal moves that fill no own eye."""
    rng = random.Random(seed)
    game = Game(n)
    for _ in range(moves):
        legal = [p for p in game.legal_moves() if not is_true_eye(game.board, p, game.to_move)]
        if not legal:
            break
        game.play(rng.choice(legal))
    return game


def fast_rate(game: Game, heavy: bool, seconds: float, **switches: bool) -> float:
    """Playouts per second of the compiled core from ``game``'s position; ``switches``: playout switches of
    ``make_params`` (``nakade``, ``low_liberty``) set otherwise than by default."""
    b = load(game)
    params = S.make_params(7.5, heavy=heavy, **switches)
    own = np.zeros(b.shape[1], dtype=np.float64)
    S.run_playouts(b, 2, PATTERN_TABLE, params, own, 1, False)  # compile or load from cache outside the timing
    done = 0
    start = time.process_time()
    batch = 200 if game.size <= 9 else 40
    while time.process_time() - start < seconds:
        S.run_playouts(b, batch, PATTERN_TABLE, params, own, -1, False)
        done += batch
    return done / (time.process_time() - start)


def python_playout(board: Board, to_move: int, rng: random.Random) -> None:
    """A uniform random playout on the referee's board in plain Python (the peer): no own-eye filling, no
    suicide, simple ko ignored (captures make kos rare enough for a speed peer)."""
    n = board.size
    passes = 0
    color = to_move
    limit = 3 * n * n
    moves = 0
    while passes < 2 and moves < limit:
        empties = [p for p in range(board.npoints) if board.colors[p] == 0]
        rng.shuffle(empties)
        played = False
        for p in empties:
            if is_true_eye(board, p, color):
                continue
            if board.analyse(p, color).suicide:
                continue
            board.play(p, color)
            played = True
            break
        passes = 0 if played else passes + 1
        color = 3 - color
        moves += 1


def python_rate(game: Game, seconds: float) -> float:
    rng = random.Random(1)
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds or done == 0:
        python_playout(game.board.copy(), game.to_move, rng)
        done += 1
    return done / (time.process_time() - start)


def threads_rate(seconds: float) -> None:
    """Print search iterations per wall-clock second of the 19x19 searcher with one and with two threads (root
    parallelism), on the empty board and the mid-game position, alternating so that both see the same load."""
    from keima.ai.searcher import Searcher

    print(f"{'position':<16} {'1 thread/s':>11} {'2 threads/s':>12} {'ratio':>6}")
    for label, moves in (("19x19 empty", 0), ("19x19 mid-game", 120)):
        game = position(19, moves)
        Searcher(1 << 16, threads=2).search(game, int(game.to_move), None, 64)  # compile outside the clock
        rates = {1: 0.0, 2: 0.0}
        for _ in range(2):
            for k in (1, 2):
                res = Searcher(1 << 20, threads=k).search(game, int(game.to_move), seconds, None)
                rates[k] += res.playouts / (2 * seconds)
        print(f"{label:<16} {rates[1]:>11.0f} {rates[2]:>12.0f} {rates[2] / rates[1]:>5.2f}x", flush=True)


def prior_rate(seconds: float) -> None:
    """Print 19x19 search iterations per CPU second with the learned prior off and on, alternating."""
    from keima.ai.searcher import LEARNED_WEIGHT, Searcher

    print(f"{'position':<16} {'prior off/s':>12} {'prior on/s':>11} {'ratio':>6}")
    for label, moves in (("19x19 empty", 0), ("19x19 mid-game", 120)):
        game = position(19, moves)
        for weight in (0.0, LEARNED_WEIGHT):  # compile outside the clock
            Searcher(1 << 16, learned=weight).search(game, int(game.to_move), None, 64)
        rates = {0.0: 0.0, LEARNED_WEIGHT: 0.0}
        for _ in range(2):
            for weight in rates:
                start = time.process_time()
                res = Searcher(1 << 20, learned=weight).search(game, int(game.to_move), seconds, None)
                rates[weight] += res.playouts / (time.process_time() - start) / 2
        off, on = rates[0.0], rates[LEARNED_WEIGHT]
        print(f"{label:<16} {off:>12.0f} {on:>11.0f} {on / off:>5.2f}x", flush=True)


def switch_rate(seconds: float, switch: str) -> None:
    """Print heavy playouts per CPU second with the playout switch ``switch`` of ``make_params`` off and on,
    alternating."""
    print(f"{'position':<16} {switch + ' off/s':>17} {switch + ' on/s':>16} {'ratio':>6}")
    for n, mid in ((9, 30), (19, 120)):
        for label, moves in (("empty", 0), ("mid-game", mid)):
            game = position(n, moves)
            rates = {False: 0.0, True: 0.0}
            for _ in range(2):
                for on in rates:
                    rates[on] += fast_rate(game, True, seconds / 2, **{switch: on}) / 2
            name = f"{n}x{n} {label}"
            print(f"{name:<16} {rates[False]:>17.0f} {rates[True]:>16.0f} {rates[True] / rates[False]:>5.2f}x",
                  flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=3.0, help="measuring time per figure")
    ap.add_argument("--threads-only", action="store_true",
                    help="only the search rate with one and two threads (19x19, wall clock)")
    ap.add_argument("--prior-only", action="store_true",
                    help="only the search rate with the learned prior off and on (19x19, one thread)")
    ap.add_argument("--nakade-only", action="store_true",
                    help="only the heavy playout rate with the nakade self-atari off and on")
    ap.add_argument("--low-liberty-only", action="store_true",
                    help="only the heavy playout rate with the two-liberty answers off and on")
    args = ap.parse_args()
    if args.nakade_only or args.low_liberty_only:
        switch_rate(args.seconds, "nakade" if args.nakade_only else "low_liberty")
        return
    if args.threads_only:
        threads_rate(args.seconds)
        return
    if args.prior_only:
        prior_rate(args.seconds)
        return
    print(f"{'position':<16} {'heavy/s':>10} {'light/s':>10} {'python/s':>9} {'heavy/python':>13} {'light/python':>13}")
    for n, mid in ((9, 30), (19, 120)):
        for label, moves in (("empty", 0), ("mid-game", mid)):
            game = position(n, moves)
            heavy = fast_rate(game, True, args.seconds)
            light = fast_rate(game, False, args.seconds)
            peer = python_rate(game, args.seconds)
            name = f"{n}x{n} {label}"
            print(f"{name:<16} {heavy:>10.0f} {light:>10.0f} {peer:>9.1f} {heavy / peer:>12.0f}x {light / peer:>12.0f}x",
                  flush=True)
    print("target: >= 20,000 heavy playouts per second on 9x9 empty, >= 5,500 on 19x19 mid-game (one core; the machine "
          "may be shared: see ratios)")


if __name__ == "__main__":
    main()
