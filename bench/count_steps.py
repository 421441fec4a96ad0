"""What the count step by step costs next to the count itself, in the same run.

Random games on one board size, played to two passes with no dead stones marked; for each, ``Game.score()``
(every method's totals) and, from that same ``Score``, ``count_steps`` + ``steps_as_dict`` (what
``POST /api/positions/count`` and ``GET /api/games/{id}/count`` add). Prints the mean time of each and their ratio.

    python bench/count_steps.py --size 19 --games 5
"""

from __future__ import annotations

import argparse
import random
import timeit

from keima.rules import Game
from keima.rules.count_steps import game_count_steps, steps_as_dict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    rng = random.Random(1)
    t_score = t_steps = 0.0
    for _ in range(args.games):
        game = Game(size=args.size, rules="french")
        for _ in range(args.size * args.size * 2 // 3):
            legal = game.legal_moves()
            if not legal:
                break
            game.play(rng.choice(legal))
        while game.phase == "play":
            game.play(None)
        score = game.score()
        t_score += timeit.timeit(game.score, number=args.repeat) / args.repeat
        t_steps += timeit.timeit(lambda g=game, s=score: steps_as_dict(game_count_steps(g, s)),
                                 number=args.repeat) / args.repeat
    n = args.games
    print(f"{args.size}x{args.size}, {n} random games: score {t_score / n * 1e3:.2f} ms, "
          f"steps from that score {t_steps / n * 1e3:.2f} ms, steps/score {t_steps / t_score:.2f}")


if __name__ == "__main__":
    main()
