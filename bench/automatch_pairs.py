"""How long automatch's pairing takes for a queue of n waiting players (``keima.server.automatch.pairs.pairs``), which
every server process runs once a second: players at random ranks from 25k to 5d, waiting 0 to 90 s, asking for
one to three board sizes and one of two speeds.

    PYTHONPATH=src python bench/automatch_pairs.py [n ...]
"""

from __future__ import annotations

import random
import sys
import time

from keima.ratings.ranks import rating_of_number
from keima.server.automatch.pairs import Entry, pairs


def queue(n: int, rng: random.Random) -> list[Entry]:
    sizes = [(9,), (19,), (9, 13, 19), (13, 19), (19, 9)]
    return [Entry(player_id=f"p{i}", name=f"p{i}", registered=True, rating=rating_of_number(rng.uniform(5, 35)),
                  sizes=rng.choice(sizes), speed=rng.choice(("blitz", "live")), rules="french",
                  handicap=rng.random() < 0.5, since=-rng.uniform(0, 90)) for i in range(n)]


def main() -> None:
    rng = random.Random(1)
    for n in [int(a) for a in sys.argv[1:]] or [10, 100, 1000, 5000]:
        entries = queue(n, rng)
        runs = max(1, 2000 // n)
        t0 = time.perf_counter()
        for _ in range(runs):
            made = pairs(entries, 0.0)
        ms = (time.perf_counter() - t0) / runs * 1000
        print(f"{n:6d} waiting: {ms:9.3f} ms per sweep, {len(made)} pairs")


if __name__ == "__main__":
    main()
