"""The big-board knowledge of the search (19x19): the wide prior, fill-board playouts, root parallelism."""

from __future__ import annotations

import dataclasses

import numpy as np

from keima.ai import fastboard as fb
from keima.ai import make_player
from keima.ai import search as S
from keima.ai import tactics as T
from keima.ai.patterns import PATTERN_TABLE
from keima.ai.searcher import Searcher, load
from keima.rules import Game, from_gtp, to_gtp

# Corners taken, one fight in the centre: White's K10 is in atari (Black captures at K9).
CAPTURE = [
    "...................",  # 19
    "...................",  # 18
    "...................",  # 17
    "...O...........X...",  # 16
    "...................",  # 15
    "...................",  # 14
    "...................",  # 13
    "...................",  # 12
    ".........X.........",  # 11
    "........XOX........",  # 10
    "...................",  # 9
    "...................",  # 8
    "...................",  # 7
    "...................",  # 6
    "...................",  # 5
    "...X...........O...",  # 4
    "...................",  # 3
    "...................",  # 2
    "...................",  # 1
]
# The same with the colours of the fight swapped: Black's K10 is in atari and escapes at K9.
ESCAPE = [row.replace("X", "x").replace("O", "X").replace("x", "O") if i in (8, 9) else row
          for i, row in enumerate(CAPTURE)]


def _game(rows: list[str], to_move: int) -> Game:
    game = Game(len(rows))
    n = game.size
    black = [r * n + c for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "X"]
    white = [r * n + c for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "O"]
    game.setup(black=black, white=white, to_move=to_move)
    return game


def _ranked_by_prior(game: Game, color: int) -> list[str]:
    b = load(game)
    n = game.size
    scored = [(S._prior(b, fb.to_fast(p, n), color, PATTERN_TABLE, True), p) for p in game.legal_moves(color)]
    scored.sort(reverse=True)
    return [to_gtp(p, n) for _v, p in scored]


def test_prior_ranks_the_capture_first() -> None:
    assert _ranked_by_prior(_game(CAPTURE, 1), 1)[0] == "K9"


def test_prior_ranks_the_atari_escape_first() -> None:
    assert _ranked_by_prior(_game(ESCAPE, 1), 1)[0] == "K9"


def test_prior_prefers_open_corners_to_low_moves_in_the_opening() -> None:
    """On an empty 19x19 board the best priors are the corner points of the third and fourth lines, and no
    point of the first two lines scores above the centre."""
    game = Game(19)
    b = load(game)
    prior = {to_gtp(p, 19): S._prior(b, fb.to_fast(p, 19), 1, PATTERN_TABLE, True) for p in range(361)}
    best = max(prior.values())
    assert {k for k, v in prior.items() if v == best} == {
        f"{c}{r}" for c in "CDQR" for r in (3, 4, 16, 17)}
    low = [k for k in prior if min("ABCDEFGHJKLMNOPQRST".index(k[0]), int(k[1:]) - 1,
                                   18 - "ABCDEFGHJKLMNOPQRST".index(k[0]), 19 - int(k[1:])) <= 1]
    assert max(prior[k] for k in low) < prior["K10"]


def test_opening_moves_stay_off_the_first_two_lines() -> None:
    """Self-play on an empty 19x19 board at a fixed playout count: the first moves are never on lines 1-2."""
    game = Game(19)
    player = make_player("strong", seed=3)
    player.config = dataclasses.replace(player.config, playouts=1500)
    for _ in range(6):
        move = player.genmove(game, game.to_move, seconds=60.0)
        assert isinstance(move, int)
        r, c = divmod(move, 19)
        assert min(r, c, 18 - r, 18 - c) >= 2, to_gtp(move, 19)
        game.play(move)


def test_fill_board_playouts_prefer_open_points() -> None:
    """With fill tries, a heavy playout's opening move on an empty board lies off the edge with an empty
    neighbourhood almost always (uniform drawing puts a fifth of them on the first line)."""
    cand = np.zeros(64, dtype=np.int64)
    rates = []
    for fill in (0, 4):
        params = S.make_params(7.5, heavy=True, fill=fill)
        b = fb.new_board(19)
        np.random.seed(1)
        edge = 0
        for _ in range(2000):
            p = S.playout_move(b, 1, True, PATTERN_TABLE, params, cand)
            r, c = divmod(fb.from_fast(p, 19), 19)
            edge += min(r, c, 18 - r, 18 - c) == 0
        rates.append(edge / 2000)
    assert rates[0] > 0.15
    assert rates[1] < 0.01


def test_root_parallel_search_shares_the_playouts_and_is_reproducible() -> None:
    game = Game(9)
    game.play(from_gtp("E5", 9))
    results = []
    for _ in range(2):
        searcher = Searcher(1 << 16, seed=7, threads=2)
        res = searcher.search(game, 2, None, 600)
        assert res.playouts == 600
        # Both trees searched: each root holds its share of the playouts.
        for tree in searcher.trees:
            assert tree.tf[S.F_VIS, tree.root] >= 300
        assert abs(sum(v for _m, v, _w in res.ranked) - 600) < 1e-6
        results.append([(m, v) for m, v, _w in res.ranked[:5]])
    assert results[0] == results[1]


def _setup(black: list[str], white: list[str], to_move: int) -> Game:
    game = Game(19)
    game.setup(black=[from_gtp(v, 19) for v in black], white=[from_gtp(v, 19) for v in white], to_move=to_move)
    return game


def _prior_of(game: Game, color: int, point: str) -> float:
    b = load(game)
    return float(S._prior(b, fb.to_fast(from_gtp(point, 19), 19), color, PATTERN_TABLE, True))


# White's K10 with two liberties (K9, L10) against Black's K11, J10 and L9: either atari starts a ladder, the one
# at K9 running up and right (L10, M11, ...), the one at L10 down and left. White's O13 breaks the first.
LADDER_BLACK = ["K11", "J10", "L9"]


def test_prior_rewards_an_atari_that_ladders() -> None:
    game = _setup(LADDER_BLACK, ["K10"], 1)
    quiet = _prior_of(game, 1, "K12")
    assert _prior_of(game, 1, "K9") >= quiet + 0.2
    assert _prior_of(game, 1, "L10") >= quiet + 0.2
    broken = _setup(LADDER_BLACK, ["K10", "O13"], 1)
    assert _prior_of(broken, 1, "K9") < _prior_of(broken, 1, "L10") - 0.1


def test_prior_discourages_running_into_a_ladder() -> None:
    """Black's K10 is in atari (White K9); extending at L10 leaves two liberties and a ladder, unless Black's own
    stone at O13 stands in the ladder's path."""
    caught = _setup(["K10"], ["K11", "J10", "L9", "K9"], 1)
    free = _setup(["K10", "O13"], ["K11", "J10", "L9", "K9"], 1)
    assert _prior_of(caught, 1, "L10") < _prior_of(free, 1, "L10") - 0.2
    b = load(caught)
    t = b.copy()
    fb.place(t, fb.to_fast(from_gtp("L10", 19), 19), 1)
    assert T.ladder_captures(t, fb.to_fast(from_gtp("L10", 19), 19))
    t = load(free)
    fb.place(t, fb.to_fast(from_gtp("L10", 19), 19), 1)
    assert not T.ladder_captures(t, fb.to_fast(from_gtp("L10", 19), 19))
