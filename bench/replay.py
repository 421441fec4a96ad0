"""Replay benchmark: keima's referee (full legality, superko over the whole history) against sgfmill's board
(captures only) on the same moves, in the same run.

The corpus is generated reproducibly by ``bench/make_corpus.py`` (same seed, same games). Both sides read the
moves pre-parsed from the same records, each in its own native coordinates (keima: point index; sgfmill: row and
column), so only the board work is timed. keima also checks turn order and every move's legality (occupied,
suicide, ko/superko under the French natural-situational rule) and keeps the full history (events, move records,
undo), which sgfmill's board does not.

keima is timed twice: with integer points, and with GTP vertex strings (``"D4"``) handed to ``Game.play`` as a
GTP front end does. One run prints the ratio of each to sgfmill, on 9x9 (40 games) and 19x19 (8 games), for
the capture-heavy ``random`` corpus and the ``careful`` one:

    python bench/replay.py
    python bench/replay.py --sizes 9 --policy random --repeat 30
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from sgfmill import boards, sgf

sys.path.insert(0, str(Path(__file__).parent))
from keima import Game  # noqa: E402
from keima.rules.coords import to_gtp  # noqa: E402
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


def gtp_vertices(size: int, moves: list[tuple[int, int | None]]) -> list[tuple[int, str]]:
    """Return the moves as GTP vertex strings (``"D4"``, ``"pass"``), the form a GTP front end hands over."""
    return [(c, to_gtp(p, size)) for c, p in moves]


def replay_keima(size: int, moves: Sequence[tuple[int, int | str | None]]) -> int:
    """Replay through keima's referee (turn order, legality, superko), returning the number of moves."""
    game = Game(size, "french")
    play = game.play
    for colour, move in moves:
        play(move, colour)
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


class Timing(NamedTuple):
    """Best CPU seconds of each replay of one corpus, and its moves."""

    keima_int: float
    keima_gtp: float
    sgfmill: float
    moves: int


def timed(corpus: list[tuple[int, Moves]], repeat: int) -> Timing:
    """Return the best seconds of keima (integer points, then GTP vertices) and of sgfmill over ``repeat``
    interleaved runs of the whole corpus. Times are CPU time of this process (``time.process_time``), so that
    waiting for a core on a shared machine is not counted; interleaving exposes all three to the same cache and
    load conditions."""
    best = [float("inf")] * 3
    n = 0
    native = [(size, native_points(size, moves)) for size, moves in corpus]
    vertices = [(size, gtp_vertices(size, moves)) for size, moves in native]
    for _ in range(repeat):
        t0 = time.process_time()
        n = sum(replay_keima(size, moves) for size, moves in native)
        t1 = time.process_time()
        sum(replay_keima(size, moves) for size, moves in vertices)
        t2 = time.process_time()
        sum(replay_sgfmill(size, moves) for size, moves in corpus)
        t3 = time.process_time()
        for i, t in enumerate((t1 - t0, t2 - t1, t3 - t2)):
            best[i] = min(best[i], t)
    return Timing(best[0], best[1], best[2], n)


def make(size: int, games: int, seed: int, policy: str) -> tuple[list[tuple[int, Moves]], int]:
    """Return the corpus (as sgfmill reads it back from SGF) and the number of stones captured in it."""
    rng = random.Random(seed * 1000 + size)
    corpus = []
    for _ in range(games):
        game = random_game(size, rng, 3 * size * size, policy)
        corpus.append(load_moves(to_sgf_bytes(game)))
    captures = 0
    for size_, moves in corpus:
        board = boards.Board(size_)
        for colour, move in moves:
            if move is not None:
                before = sum(1 for _ in board.list_occupied_points())
                board.play(move[0], move[1], _LETTER[colour])
                captures += before + 1 - sum(1 for _ in board.list_occupied_points())
    return corpus, captures


def main() -> None:
    ap = argparse.ArgumentParser(description="keima vs sgfmill replay speed")
    ap.add_argument("--sizes", "--size", type=int, nargs="+", default=[9, 19])
    ap.add_argument("--games", type=int, default=0, help="games per corpus (default: 40 on 9x9, 8 on 19x19)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument(
        "--policy",
        choices=("careful", "random"),
        nargs="+",
        default=["random", "careful"],
        help="corpus policies (make_corpus); random is the capture-heavy one",
    )
    args = ap.parse_args()
    print("keima: legality + natural-situational superko + history; sgfmill: captures only; best CPU time")
    print(
        f"{'corpus':<16} {'moves':>6} {'captured':>8} {'sgfmill mv/s':>13} {'keima int':>10} {'keima gtp':>10}"
    )
    worst = float("inf")
    for policy in args.policy:
        for size in args.sizes:
            games = args.games or (40 if size <= 9 else 8)
            corpus, captures = make(size, games, args.seed, policy)
            t = timed(corpus, args.repeat)
            r_int = t.sgfmill / t.keima_int
            r_gtp = t.sgfmill / t.keima_gtp
            worst = min(worst, r_int, r_gtp)
            name = f"{policy} {size}x{size}"
            print(
                f"{name:<16} {t.moves:6d} {captures:8d} {t.moves / t.sgfmill:13,.0f} {r_int:9.2f}x {r_gtp:9.2f}x"
            )
    print(
        f"ratios are keima speed / sgfmill speed (seed {args.seed}, best of {args.repeat}); worst {worst:.2f}x "
        "(target >= 3x)"
    )


if __name__ == "__main__":
    main()
