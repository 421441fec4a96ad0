"""The dead-stone estimate lets other threads run while it plays out.

A server asks for the estimate from a worker thread (a game reaching its count, the position tool); its event loop
serves every other game of the process meanwhile. The playouts are compiled code: unless they give up Python's
interpreter lock, the loop waits for the whole estimate (a 19x19 estimate held up every game of a loaded server by
30 ms or more, bench/server_load.py)."""

from __future__ import annotations

import random
import threading
import time

from keima.ai import searcher
from keima.rules import Game


def middle_game(seed: int = 3, moves: int = 120) -> Game:
    """A 19x19 game after ``moves`` random legal moves."""
    game = Game(size=19)
    rng = random.Random(seed)
    for _ in range(moves):
        for _try in range(50):
            try:
                game.play(rng.randrange(361))
                break
            except Exception:  # an occupied point or an illegal move: draw again
                continue
    return game


def test_the_ownership_playouts_let_the_other_threads_run() -> None:
    game = middle_game()
    searcher.ownership(game, 8, 1)  # compiled (or loaded from the cache) before anything is timed
    start = time.perf_counter()
    searcher.ownership(game, 200, 1)
    per_playout = (time.perf_counter() - start) / 200
    playouts = max(200, int(1.0 / max(per_playout, 1e-6)))  # about a second of playouts in the thread

    done = threading.Event()
    took: list[float] = []

    def estimate() -> None:
        t = time.perf_counter()
        searcher.ownership(game, playouts, 1)
        took.append(time.perf_counter() - t)
        done.set()

    worker = threading.Thread(target=estimate)
    longest = 0.0
    worker.start()
    last = time.perf_counter()
    while not done.is_set():
        time.sleep(0.001)
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    worker.join()
    # Holding the lock, the thread would keep this loop from running until it ended: the longest gap would be
    # the whole estimate.
    assert took and took[0] > 0.3
    assert longest < 0.5 * took[0], (longest, took[0])
