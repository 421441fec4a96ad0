"""The learned prior: move features (``keima.ai.features``), the model (``keima.ai.prediction``), its training
script (``scripts/train_prior.py``) and its use in the search."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keima.ai import fastboard as fb
from keima.ai import prediction as P
from keima.ai import search as S
from keima.ai.features import (
    F_LARGE,
    F_LAST,
    F_LAST2,
    F_LINE,
    F_SMALL,
    F_TACTICS,
    N_FEATURES,
    TACTICS,
    move_features,
)
from keima.ai.searcher import Searcher, load
from keima.rules import Game, from_gtp, to_gtp

ROOT = Path(__file__).resolve().parents[2]


def _setup(size: int, black: list[str], white: list[str], to_move: int) -> Game:
    game = Game(size)
    game.setup(black=[from_gtp(v, size) for v in black], white=[from_gtp(v, size) for v in white], to_move=to_move)
    return game


def _features(game: Game, point: str, color: int) -> np.ndarray:
    raw = np.zeros(N_FEATURES, dtype=np.int64)
    move_features(load(game), fb.to_fast(from_gtp(point, game.size), game.size), color, raw)
    return raw


def _tactics(game: Game, point: str, color: int) -> set[str]:
    bits = int(_features(game, point, color)[F_TACTICS])
    return {name for i, name in enumerate(TACTICS) if bits & (1 << i)}


# White's K10 with two liberties against Black's K11, J10, L9: the atari at K9 runs White up and right into a
# ladder, which White's O13 breaks (the same shapes as tests/ai/test_big_board.py).
LADDER_BLACK = ["K11", "J10", "L9"]

CASES = [
    # (size, black, white, to move, point, expected tactical facts)
    (9, ["A7", "B6", "C6", "D7", "B8"], ["B7", "C7"], 1, "C8", {"captures", "captures-big"}),
    (9, ["D5"], ["B7"], 1, "F3", set()),
    (9, [], ["H1"], 1, "J1", {"self-atari-one"}),
    (9, ["H1"], ["G1", "H2"], 1, "J1", {"saves", "saves-into-ladder", "self-atari-big"}),
    (19, LADDER_BLACK, ["K10"], 1, "K9", {"atari-ladder"}),
    (19, LADDER_BLACK, ["K10", "O13"], 1, "K9", {"atari"}),
    (19, ["K10"], ["K11", "J10", "L9", "K9"], 1, "L10", {"saves", "saves-into-ladder"}),
    (19, ["K10", "O13"], ["K11", "J10", "L9", "K9"], 1, "L10", {"saves"}),
]


@pytest.mark.parametrize(("size", "black", "white", "to_move", "point", "expected"), CASES)
def test_tactical_facts(size: int, black: list[str], white: list[str], to_move: int, point: str,
                        expected: set[str]) -> None:
    assert _tactics(_setup(size, black, white, to_move), point, to_move) == expected


def test_capturing_the_last_move_and_the_distances() -> None:
    game = _setup(9, ["D5", "F5", "E4"], [], 2)
    game.play(from_gtp("E5", 9))  # White's E5 has one liberty left, E6
    assert _tactics(game, "E6", 1) == {"captures", "captures-last"}
    raw = _features(game, "F6", 1)
    assert raw[F_LAST] == 3  # dx 1, dy 1: 1 + 1 + max(1, 1)
    assert raw[F_LAST2] == 0  # the set-up position has no move before White's
    assert _features(game, "E7", 1)[F_LAST] == 4  # dx 0, dy 2


def test_line_feature_tells_edge_open_ground_and_phase() -> None:
    empty = Game(19)
    lines = {v: int(_features(empty, v, 1)[F_LINE]) for v in ("A1", "B2", "C3", "D4", "E5", "K10")}
    # (line * 2 + empty window) * 3 + phase: all in the first phase, all with an empty 5x5 window.
    assert lines == {"A1": 3, "B2": 9, "C3": 15, "D4": 21, "E5": 27, "K10": 27}
    near = _setup(19, ["D4"], [], 2)
    assert int(_features(near, "E5", 2)[F_LINE]) == (4 * 2 + 0) * 3 + 0


def _random_board(size: int, moves: int, seed: int) -> list[tuple[int, int]]:
    """A random legal move sequence on the fast board: (referee point, colour)."""
    rng = random.Random(seed)
    b = fb.new_board(size)
    played: list[tuple[int, int]] = []
    c = fb.BLACK
    for _ in range(moves):
        empties = [p for p in range(size * size) if b[fb.COL, fb.to_fast(p, size)] == fb.EMPTY]
        rng.shuffle(empties)
        for p in empties:
            q = fb.to_fast(p, size)
            if fb.is_legal(b, q, c) and not fb.is_true_eye(b, q, c):
                fb.place(b, q, c)
                played.append((p, c))
                break
        c = 3 - c
    return played


def _transform(p: int, size: int, s: int) -> int:
    r, c = divmod(p, size)
    if s & 1:
        r = size - 1 - r
    if s & 2:
        c = size - 1 - c
    if s & 4:
        r, c = c, r
    return r * size + c


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 60), s=st.integers(1, 7))
def test_features_do_not_depend_on_the_boards_orientation(seed: int, moves: int, s: int) -> None:
    """The same position rotated or reflected gives every point the same features (shapes are canonical)."""
    size = 9
    seq = _random_board(size, moves, seed)
    boards = []
    for sym in (0, s):
        b = fb.new_board(size)
        for p, c in seq:
            fb.place(b, fb.to_fast(_transform(p, size, sym), size), c)
        boards.append(b)
    c = fb.BLACK if len(seq) % 2 == 0 else fb.WHITE
    raw = np.zeros(N_FEATURES, dtype=np.int64)
    turned = np.zeros(N_FEATURES, dtype=np.int64)
    for p in range(size * size):
        q = fb.to_fast(p, size)
        if boards[0][fb.COL, q] != fb.EMPTY:
            continue
        move_features(boards[0].copy(), q, c, raw)
        move_features(boards[1].copy(), fb.to_fast(_transform(p, size, s), size), c, turned)
        assert list(raw) == list(turned), to_gtp(p, size)


def test_shapes_tell_colours_apart() -> None:
    """Own and opposing stones are different features: a hane and its mirror in colours have different codes."""
    black = _setup(9, ["E5"], ["E6"], 1)
    white = _setup(9, ["E6"], ["E5"], 1)
    assert _features(black, "F6", 1)[F_SMALL] != _features(white, "F6", 1)[F_SMALL]
    assert _features(black, "F6", 1)[F_LARGE] != _features(white, "F6", 1)[F_LARGE]


def _tiny_model() -> P.Model:
    offsets = P.layout(2, 1)
    weights = np.arange(int(offsets[P.O_END]), dtype=np.float64) / 100
    return P.Model(np.array([3, 9], np.int64), np.array([5], np.int64), weights, offsets)


def test_a_model_survives_saving_and_reading(tmp_path: Path) -> None:
    model = _tiny_model()
    P.save(model, tmp_path / "m.npz")
    back = P.read(tmp_path / "m.npz")
    assert list(back.small) == [3, 9] and list(back.large) == [5]
    assert np.allclose(back.weights, model.weights, atol=1e-6)
    bad = model._replace(offsets=P.layout(3, 1))
    P.save(bad, tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="offsets"):
        P.read(tmp_path / "bad.npz")
    unsorted = model._replace(small=np.array([9, 3], np.int64))
    P.save(unsorted, tmp_path / "unsorted.npz")
    with pytest.raises(ValueError, match="sorted"):
        P.read(tmp_path / "unsorted.npz")


def test_feature_ids_pick_the_weights_of_known_codes() -> None:
    model = _tiny_model()
    raw = np.zeros(N_FEATURES, dtype=np.int64)
    raw[F_SMALL], raw[F_LARGE], raw[F_LAST], raw[F_LAST2], raw[F_LINE], raw[F_TACTICS] = 9, 4, 2, 0, 5, 0b101
    out = np.zeros(16, dtype=np.int64)
    k = P.feature_ids(raw, model.small, model.large, model.offsets, out)
    o = model.offsets
    # 9 is the second small code; 4 is not a large code (no weight); then the distances, the line, two tactics.
    assert list(out[:k]) == [o[P.O_SMALL] + 1, o[P.O_LAST] + 2, o[P.O_LAST2] + 0, o[P.O_LINE] + 5,
                             o[P.O_TACTICS] + 0, o[P.O_TACTICS] + 2]


SHIPPED = P.MODEL_PATH.exists()


@pytest.mark.skipif(not SHIPPED, reason="no model shipped")
def test_the_shipped_model_opens_on_the_third_and_fourth_lines() -> None:
    game = Game(19)
    b = load(game)
    moves = [fb.to_fast(p, 19) for p in range(361)]
    logp = P.log_probabilities(b, moves, 1, P.shipped())
    assert abs(np.exp(logp).sum() - 1.0) < 1e-9
    best = [fb.from_fast(moves[i], 19) for i in np.argsort(-logp)[:8]]
    for p in best:
        r, c = divmod(p, 19)
        assert min(r, c, 18 - r, 18 - c) in (2, 3), to_gtp(p, 19)


@pytest.mark.skipif(not SHIPPED, reason="no model shipped")
def test_the_shipped_model_captures_a_stone_in_atari() -> None:
    """Black has just played K10 into atari among White's J10, L10, K11: the capture at K9 comes first."""
    game = _setup(19, ["D4", "Q16"], ["D16", "Q4", "J10", "L10", "K11"], 1)
    game.play(from_gtp("K10", 19))
    b = load(game)
    legal = [fb.to_fast(p, 19) for p in game.legal_moves(2)]
    logp = P.log_probabilities(b, legal, 2, P.shipped())
    ranked = [to_gtp(fb.from_fast(legal[i], 19), 19) for i in np.argsort(-logp)]
    assert ranked[0] == "K9"


def test_the_search_uses_the_learned_prior_on_19x19() -> None:
    """With the learned prior on, the root's children's prior win rates move from the hand-written ones (and stay
    within 0.02 .. 0.98)."""
    game = Game(19)
    game.play(from_gtp("Q16", 19))
    priors = []
    for learned in (0.0, 0.05):
        searcher = Searcher(1 << 16, seed=3, learned=learned, model=_tiny_model(), net_visits=-1)
        searcher.search(game, 2, None, 50)
        ti, tf = searcher.ti, searcher.tf
        first, k = int(ti[S.T_FIRST, 0]), int(ti[S.T_NCHILD, 0])
        values = {int(ti[S.T_MOVE, i]): float(tf[S.F_PRIOR, i]) for i in range(first, first + k)}
        assert all(0.0 < v < 1.0 for v in values.values())
        priors.append(values)
    assert priors[0] != priors[1]
    assert all(0.02 - 1e-6 <= v <= 0.98 + 1e-6 for v in priors[1].values())


def _load_script(name: str) -> object:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_training_learns_a_habit_from_games(tmp_path: Path) -> None:
    """Games in which the player always answers next to the last move teach a model that prefers such moves
    to far ones on held-out positions; random-opening moves are not examples."""
    rng = random.Random(5)
    for g in range(20):
        game = Game(9)
        nodes = []
        for i in range(30):
            c = int(game.to_move)
            legal = game.legal_moves(c)
            last = game.last_move.point if game.last_move is not None else None
            if last is not None:
                lr, lc = divmod(last, 9)
                near = [p for p in legal if max(abs(p // 9 - lr), abs(p % 9 - lc)) == 1]
                legal = near or legal
            p = rng.choice(legal)
            game.play(p)
            r, cc = divmod(p, 9)
            comment = "C[random]" if i < 2 else ""
            nodes.append(f";{'B' if c == 1 else 'W'}[{chr(97 + cc)}{chr(97 + r)}]{comment}")
        (tmp_path / f"g{g:02d}.sgf").write_text(f"(;GM[1]FF[4]SZ[9]{''.join(nodes)})")
    train = _load_script("train_prior")
    out = tmp_path / "model.npz"
    assert train.main([str(tmp_path), "--size", "9", "--epochs", "3", "--out", str(out)]) == 0  # type: ignore[attr-defined]
    model = P.read(out)
    o = model.offsets
    near_weight = model.weights[o[P.O_LAST] + 2]  # orthogonally next to the last move
    far_weight = model.weights[o[P.O_LAST] + 8]  # e.g. three columns and two rows away
    assert near_weight > far_weight + 0.5
