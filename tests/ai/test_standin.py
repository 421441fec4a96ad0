"""The stand-in move policy: its priorities on small positions, and properties over random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keima.ai.standin import Analyzer, PolicyPlayer, board_colors, policy_move
from keima.rules import coords
from keima.rules.board import BLACK, EMPTY
from keima.rules.game import Game
from keima.rules.ruleset import PRESETS


def position(size: int, black: str, white: str, to_move: int = BLACK, rules: str = "french") -> Game:
    game = Game(size=size, rules=rules)
    game.setup(black=black.split(), white=white.split(), to_move=to_move)
    return game


def vertex(game: Game, move: int | None) -> str:
    return coords.to_gtp(move, game.size)


def test_captures_the_largest_chain_in_atari() -> None:
    game = position(5, "B3 C4 D3 C5 D4", "C3 D5 E5")
    # C3: liberty C2 (one stone). D5 E5: liberty E4 (two stones). The bigger capture wins.
    assert vertex(game, policy_move(game, BLACK, random.Random(0))) == "E4"


def test_escapes_atari_when_nothing_can_be_captured() -> None:
    # Black C3 has one liberty (C2); extending there gives it three.
    game = position(5, "C3", "B3 D3 C4")
    assert vertex(game, policy_move(game, BLACK, random.Random(0))) == "C2"


def test_never_fills_its_own_true_eye_and_passes_when_nothing_else_is_left() -> None:
    # 3x3, Black everywhere except its two eyes A3 and C1.
    game = position(3, "B3 C3 A2 B2 C2 A1 B1", "")
    assert sorted(vertex(game, p) for p in game.legal_moves(BLACK)) == ["A3", "C1"]
    assert policy_move(game, BLACK, random.Random(0)) is None
    assert PolicyPlayer(0).genmove(game, BLACK, 1.0) is None


def test_avoids_self_atari() -> None:
    # 3x3 with White at B2: every Black move but a few leaves a lone stone with one liberty.
    game = position(3, "", "B2 A2", to_move=BLACK)
    colors = board_colors(game)
    analyzer = Analyzer(colors, 3)
    for seed in range(30):
        move = policy_move(game, BLACK, random.Random(seed))
        if move is None:
            continue
        assert analyzer.effect(move, BLACK).liberties >= 2, vertex(game, move)
    # A1 would be a lone stone with one liberty (B1): never chosen.
    a1 = coords.from_gtp("A1", 3)
    assert all(policy_move(game, BLACK, random.Random(seed)) != a1 for seed in range(30))


def test_same_seed_same_moves() -> None:
    game = Game(size=9)
    first = [policy_move(game, BLACK, random.Random(42)) for _ in range(3)]
    assert len(set(first)) == 1


def naive_true_eye(game: Game, p: int, color: int) -> bool:
    """An independent eye test written from the definition (neighbours own, few enemy diagonals)."""
    size = game.size
    r, c = divmod(p, size)
    if game.board.get(p) != EMPTY:
        return False
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < size and 0 <= cc < size and game.board.get(rr * size + cc) != color:
            return False
    diagonals = [(r + dr, c + dc) for dr in (1, -1) for dc in (1, -1)]
    inside = [(rr, cc) for rr, cc in diagonals if 0 <= rr < size and 0 <= cc < size]
    enemy = sum(1 for rr, cc in inside if game.board.get(rr * size + cc) == 3 - color)
    return enemy == 0 if len(inside) < 4 else enemy <= 1


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(sorted(PRESETS)), st.integers(4, 6))
def test_policy_games_are_legal_and_keep_the_promises(seed: int, rules: str, size: int) -> None:
    game = Game(size=size, rules=rules)
    rng = random.Random(seed)
    for _ in range(3 * size * size):
        if game.phase != "play":
            break
        color = game.to_move
        legal = game.legal_moves(color)
        analyzer = Analyzer(board_colors(game), size)
        effects = {p: analyzer.effect(p, color) for p in legal}
        move = policy_move(game, color, rng)
        if move is None:
            game.play(None, color)
            continue
        assert move in legal and game.legality(move, color) is None
        assert not naive_true_eye(game, move, color)
        best_capture = max((e.captured for e in effects.values() if e.liberties >= 2 or e.chain_size == 1),
                           default=0)
        record = game.play(move, color)
        assert record.captures == best_capture
        libs = len(game.board.chain(move).libs)
        size_after = len(game.board.chain(move).stones)
        # Never a self-atari of two stones or more; a lone stone in atari only when it captured (a ko).
        assert libs >= 2 or (size_after == 1 and record.captures > 0), (rules, vertex(game, move))
    game.check_consistency()


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_policy_respects_superko_in_every_ruleset(rules: str) -> None:
    # Long policy games on a tiny board run into repetitions; every move must stay legal.
    game = Game(size=4, rules=rules)
    player = PolicyPlayer(5)
    for _ in range(200):
        if game.phase != "play":
            break
        move = player.genmove(game, game.to_move, 0.1)
        assert move != "resign"
        assert game.legality(move, game.to_move) is None
        game.play(move)
