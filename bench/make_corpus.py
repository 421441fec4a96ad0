"""Generate a reproducible corpus of legal Go game records for the replay benchmark.

Each game is played by a seeded random policy through keima's referee (French rules, so every move is legal
under natural-situational superko), and passes when nothing else is left. Two policies:

``careful`` (default)
    random legal moves that neither fill a point all of whose neighbours are the player's own stones nor put
    the played chain in atari without capturing (when another move exists). Chains grow and captures are
    occasional, closer to real game records.
``random``
    random legal moves that only avoid filling such eye points: very many small captures.

Records are written as SGF FF[4] with sgfmill.

    python bench/make_corpus.py --seed 1 --games 40 --size 19 --out bench/out/corpus19
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from sgfmill import sgf

from keima import Game
from keima.rules.board import BLACK, EMPTY

_COLOUR = {1: "b", 2: "w"}


def _self_atari(game: Game, p: int, color: int) -> bool:
    """True if ``color`` at ``p`` captures nothing and leaves the played chain with one liberty or none."""
    board = game.board
    if board.analyse(p, color).captures:
        return False
    libs = {q for q in board.nbrs[p] if board.colors[q] == EMPTY}
    for q in board.nbrs[p]:
        if board.colors[q] == color:
            libs |= board.chain(q).libs
    libs.discard(p)
    return len(libs) <= 1


def random_game(size: int, rng: random.Random, max_moves: int, policy: str = "careful") -> Game:
    """Return a finished (two passes) or long random legal game on a ``size`` board (see the module doc)."""
    game = Game(size, "french")
    board = game.board
    while game.phase == "play" and game.move_number < max_moves:
        color = game.to_move
        candidates = [
            p
            for p in range(board.npoints)
            if board.colors[p] == EMPTY and not all(board.colors[q] == color for q in board.nbrs[p])
        ]
        rng.shuffle(candidates)
        fallback = None
        for p in candidates:
            if game.legality(p) is not None:
                continue
            if policy == "careful" and _self_atari(game, p, color):
                fallback = p if fallback is None else fallback
                continue
            game.play(p)
            break
        else:
            game.play(fallback)
    return game


def to_sgf_bytes(game: Game) -> bytes:
    """Return the game's moves as an SGF record written by sgfmill."""
    record = sgf.Sgf_game(size=game.size)
    root = record.get_root()
    root.set("KM", game.komi)
    root.set("RU", "French")
    for mv in game.moves:
        node = record.extend_main_sequence()
        if mv.point is None:
            node.set_move(_COLOUR[mv.color], None)
        else:
            row, col = divmod(mv.point, game.size)
            node.set_move(_COLOUR[mv.color], (game.size - 1 - row, col))
    return bytes(record.serialise())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--max-moves", type=int, default=0, help="default: 3 x points")
    ap.add_argument("--policy", choices=("careful", "random"), default="careful")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed * 1000 + args.size)
    args.out.mkdir(parents=True, exist_ok=True)
    limit = args.max_moves or 3 * args.size * args.size
    total = 0
    for i in range(args.games):
        game = random_game(args.size, rng, limit, args.policy)
        total += game.move_number
        (args.out / f"game{i:03d}.sgf").write_bytes(to_sgf_bytes(game))
    print(f"wrote {args.games} games, {total} moves, to {args.out} (black moves first: {BLACK == 1})")


if __name__ == "__main__":
    main()
