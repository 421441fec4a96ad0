"""Replay benchmark: keima's referee (full legality, superko over the whole history) against sgfmill's board
(captures only) on the same moves, in the same run.

The corpus is generated reproducibly by ``bench/make_corpus.py`` (same seed, same games). Both sides read the
moves pre-parsed from the same records, each in its own native coordinates (keima: point index; sgfmill: row and
column), so only the board work is timed. keima also checks turn order and every move's legality (occupied,
suicide, ko/superko under the French natural-situational rule) and keeps the full history (events, move records,
undo), which sgfmill's board does not.

    python bench/replay.py --size 9 --games 40
    python bench/replay.py --size 19 --games 8
    python bench/replay.py --size 9 --games 40 --policy random   # capture-heavy games
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from sgfmill import boards, sgf

sys.path.insert(0, str(Path(__file__).parent))
from keima import Game  # noqa: E402
from make_corpus import random_game, to_sgf_bytes  # noqa: E402

Moves = list[tuple[int, tuple[int, int] | None]]
_COLOUR = {"b": 1, "w": 2}
_LETTER = {1: "b", 2: "w"}


def load_moves(data: bytes) -> tuple[int, Moves]:
    """Return (size, [(colour 1 = black / 2 = white, (row, col) from the bottom, or None)]) of one record."""
    game = sgf.Sgf_game.from_bytes(data)
    moves: Moves = []
    for node in game.get_main_sequence()[1:]:
        colour, move = node.get_move()
        if colour is not None:
            moves.append((_COLOUR[colour], move))
    return game.get_size(), moves


def native_points(size: int, moves: Moves) -> list[tuple[int, int | None]]:
    """Return the moves in keima's own coordinates (point index, None for a pass), as sgfmill gets its own."""
    return [(c, None if m is None else (size - 1 - m[0]) * size + m[1]) for c, m in moves]


def replay_keima(size: int, moves: list[tuple[int, int | None]]) -> int:
    """Replay through keima's referee (turn order, legality, superko), returning the number of moves."""
    game = Game(size, "french")
    play = game.play
    for colour, point in moves:
        play(point, colour)
    return len(moves)


def replay_sgfmill(size: int, moves: Moves) -> int:
    """Replay with sgfmill's board (captures only, no ko or superko check)."""
    board = boards.Board(size)
    letter = _LETTER
    play = board.play
    for colour, move in moves:
        if move is not None:
            play(move[0], move[1], letter[colour])
    return len(moves)


def timed_pair(corpus: list[tuple[int, Moves]], repeat: int) -> tuple[float, float, int]:
    """Return the best seconds of keima and of sgfmill over ``repeat`` interleaved runs of the whole corpus,
    and the moves per run. Times are CPU time of this process (``time.process_time``), so that waiting for a
    core on a shared machine is not counted; interleaving exposes both to the same cache and load conditions."""
    best_k = best_s = float("inf")
    n = 0
    native = [(size, native_points(size, moves)) for size, moves in corpus]
    for _ in range(repeat):
        t0 = time.process_time()
        n = sum(replay_keima(size, moves) for size, moves in native)
        t1 = time.process_time()
        sum(replay_sgfmill(size, moves) for size, moves in corpus)
        t2 = time.process_time()
        best_k = min(best_k, t1 - t0)
        best_s = min(best_s, t2 - t1)
    return best_k, best_s, n


def main() -> None:
    ap = argparse.ArgumentParser(description="keima vs sgfmill replay speed")
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--policy", choices=("careful", "random"), default="careful", help="corpus policy (make_corpus)")
    args = ap.parse_args()
    rng = random.Random(args.seed * 1000 + args.size)
    corpus = []
    for _ in range(args.games):
        game = random_game(args.size, rng, 3 * args.size * args.size, args.policy)
        corpus.append(load_moves(to_sgf_bytes(game)))
    captures = 0
    for size, moves in corpus:
        board = boards.Board(size)
        for colour, move in moves:
            if move is not None:
                before = sum(1 for _ in board.list_occupied_points())
                board.play(move[0], move[1], _LETTER[colour])
                captures += before + 1 - sum(1 for _ in board.list_occupied_points())
    k_time, s_time, n = timed_pair(corpus, args.repeat)
    print(
        f"corpus: {args.games} games on {args.size}x{args.size}, seed {args.seed}, policy {args.policy}, "
        f"{n} moves, {captures} stones captured"
    )
    print(f"keima   (legality + natural-situational superko): {n / k_time:12,.0f} moves/s  ({k_time:.3f} s)")
    print(f"sgfmill (captures only)                         : {n / s_time:12,.0f} moves/s  ({s_time:.3f} s)")
    print(f"ratio keima / sgfmill: {s_time / k_time:.2f}x  (target >= 3x)")


if __name__ == "__main__":
    main()
