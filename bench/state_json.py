"""Cost of the state a server sends after each change: one 19x19 game of ``--moves`` moves with a byo-yomi
clock, its ``GameState`` JSON made for the three kinds of viewer (Black, White, spectators) after every change.

Prints the time per change (min and median of ``--rounds`` rounds of ``--changes`` changes). It also runs on the
tree before ``keima.server.games.view`` existed (``PYTHONPATH=<old tree>/src``), to compare the two in one sitting.

    python bench/state_json.py
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import time
from typing import Any

from keima.rules.game import Game
from keima.server.games import clock as clock_module
from keima.server.games import session as session_module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--moves", type=int, default=200, help="moves in the game (default 200)")
    ap.add_argument("--changes", type=int, default=1000, help="changes per round (default 1000)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    args = ap.parse_args()
    rng = random.Random(1)
    g = Game(size=19)
    for _ in range(args.moves):
        g.play(rng.choice(g.legal_moves()), g.to_move)
    # GameClock since keima.server.games.view; Clock before.
    clock_cls: Any = getattr(clock_module, "GameClock", None) or clock_module.Clock  # type: ignore[attr-defined]
    spec = clock_module.ClockSpec.from_dict({"type": "byoyomi", "main": 600, "period": 30, "periods": 5})
    s: Any = session_module.GameSession(
        id="bench", created_at=datetime.datetime.now(datetime.UTC), params={}, mode="invite", game=g,
        clock=clock_cls(spec), seats=session_module.Seats("b", "w"))
    s.sync_clock(time.monotonic())
    viewers: tuple[frozenset[int], ...] = (frozenset(), frozenset({1}), frozenset({2}))
    old_with_you = getattr(session_module, "with_you", None)

    def change() -> None:
        s.version += 1
        if old_with_you is None:
            for v in viewers:
                s.state_json(time.monotonic(), v)
        else:
            s._state_cache = None
            text = s.state_json(time.monotonic())
            for v in viewers:
                old_with_you(text, v)

    per_change = []
    for _ in range(args.rounds):
        t0 = time.perf_counter()
        for _ in range(args.changes):
            change()
        per_change.append((time.perf_counter() - t0) / args.changes * 1e6)
    kind = "keima.server.games.view" if old_with_you is None else "before keima.server.games.view"
    print(f"{kind}: state JSON for 3 kinds of viewer per change, {args.moves}-move 19x19 game: "
          f"min {min(per_change):.1f} us, median {statistics.median(per_change):.1f} us")


if __name__ == "__main__":
    main()
