"""Local shape (``keima.rules.shape``): the true-eye test and the effect of a play, on diagrams and on random
positions checked against actually playing the move."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keima.rules import BLACK, EMPTY, WHITE, Board, PlayEffect, is_true_eye, play_effect
from keima.rules.life import seki_stones
from keima.rules.shape import diagonals_table

from .diagram import parse, random_board


def board_of(text: str, size: int | None = None) -> tuple[Board, dict[str, int]]:
    """The diagram ``text`` as a ``Board``, with its labelled points."""
    pos = parse(text, size)
    board = Board(pos.size)
    board.set_stones([(p, BLACK) for p in pos.black] + [(p, WHITE) for p in pos.white])
    return board, pos.labels


# Each case: a diagram with the point ``a`` under test, and whether ``a`` is a true eye of Black, of White.
EYES = {
    "centre, all diagonals black": ("""
        .....
        .XXX.
        .XaX.
        .XXX.
        .....
        """, True, False),
    "centre, empty diagonals do not matter": ("""
        .....
        ..X..
        .XaX.
        ..X..
        .....
        """, True, False),
    "centre, one white diagonal is safe": ("""
        .....
        .OXX.
        .XaX.
        .XXX.
        .....
        """, True, False),
    "centre, two white diagonals: false eye": ("""
        .....
        .OXX.
        .XaX.
        .XXO.
        .....
        """, False, False),
    "centre, one neighbour empty": ("""
        .....
        .XXX.
        .Xa..
        .XXX.
        .....
        """, False, False),
    "centre, one neighbour white": ("""
        .....
        .XXX.
        .XaO.
        .XXX.
        .....
        """, False, False),
    "edge, no white diagonal": ("""
        XaX..
        .X...
        .....
        .....
        .....
        """, True, False),
    "edge, one white diagonal: false eye": ("""
        XaX..
        OX...
        .....
        .....
        .....
        """, False, False),
    "corner, black diagonal": ("""
        aX...
        XX...
        .....
        .....
        .....
        """, True, False),
    "corner, empty diagonal": ("""
        aX...
        X....
        .....
        .....
        .....
        """, True, False),
    "corner, white diagonal: false eye": ("""
        aX...
        XO...
        .....
        .....
        .....
        """, False, False),
    "white eye in the corner": ("""
        ...Oa
        ...OO
        .....
        .....
        .....
        """, False, True),
    "an empty board has no eye": ("""
        .....
        .....
        ..a..
        .....
        .....
        """, False, False),
}


@pytest.mark.parametrize("name", sorted(EYES))
def test_true_eye_table(name: str) -> None:
    text, black, white = EYES[name]
    board, labels = board_of(text)
    a = labels["a"]
    assert is_true_eye(board, a, BLACK) is black
    assert is_true_eye(board, a, WHITE) is white


def test_eyes_of_a_seki_are_true_eyes() -> None:
    # One eye each (a for Black, b for White) and one shared liberty: whoever fills it is captured, so neither
    # does. The eye test is local and says nothing of life: both eyes are true eyes.
    board, labels = board_of("""
        aXOb
        XXOO
        X.OO
        XXOO
        """)
    assert seki_stones(board) == frozenset(p for p in range(16) if board.get(p) != EMPTY)
    assert is_true_eye(board, labels["a"], BLACK)
    assert is_true_eye(board, labels["b"], WHITE)
    assert not is_true_eye(board, labels["a"], WHITE)


def test_an_occupied_point_is_no_eye_and_a_bad_colour_is_refused() -> None:
    board, _ = board_of("""
        X.
        ..
        """)
    assert not is_true_eye(board, 0, BLACK)
    with pytest.raises(ValueError, match="not a player colour"):
        is_true_eye(board, 1, EMPTY)
    with pytest.raises(ValueError, match="not a player colour"):
        play_effect(board, 1, 3)
    with pytest.raises(ValueError, match="A2 is occupied"):
        play_effect(board, 0, WHITE)


@pytest.mark.parametrize("size", [2, 3, 5, 19])
def test_diagonals_table(size: int) -> None:
    table = diagonals_table(size)
    assert len(table) == size * size
    assert len(table[0]) == 1 and table[0] == (size + 1,)
    for p, diagonals in enumerate(table):
        r, c = divmod(p, size)
        for q in diagonals:
            rq, cq = divmod(q, size)
            assert abs(rq - r) == 1 and abs(cq - c) == 1
    if size >= 3:
        assert len(table[size + 1]) == 4
    with pytest.raises(ValueError, match="board size"):
        diagonals_table(1)


# Each case: a diagram, the point ``a`` Black plays, and the expected (captured, chain_size, liberties, saved,
# ataris, own_eye).
EFFECTS = {
    "capture one, the captured point becomes a liberty, an atari on the side": ("""
        .XO..
        XOa..
        .XO..
        .....
        .....
        """, (1, 1, 2, 0, 1, False)),
    "ko: capture one and stand in atari; no atari counted from there": ("""
        .XO..
        XOaO.
        .XO..
        .....
        .....
        """, (1, 1, 1, 0, 0, False)),
    "escape from atari": ("""
        ..O..
        .OXO.
        ..a..
        .....
        .....
        """, (0, 2, 3, 1, 0, False)),
    "a failed escape saves nothing": ("""
        ..O..
        .OXO.
        .OaO.
        .....
        .....
        """, (0, 2, 1, 0, 0, False)),
    "atari on two stones": ("""
        ..XX.
        .XOOa
        ..X..
        .....
        .....
        """, (0, 1, 2, 0, 2, False)),
    "atari on a stone, own chain safe": ("""
        ..X..
        .XOa.
        .....
        .....
        .....
        """, (0, 1, 3, 0, 1, False)),
    "suicide in the corner": ("""
        aO...
        O....
        .....
        .....
        .....
        """, (0, 1, 0, 0, 0, False)),
    "filling an own true eye": ("""
        .XXX.
        .XaX.
        .XXX.
        .....
        .....
        """, (0, 9, 9, 0, 0, True)),
    "joining two chains": ("""
        .....
        .XaX.
        .....
        .....
        .....
        """, (0, 3, 8, 0, 0, False)),
}


@pytest.mark.parametrize("name", sorted(EFFECTS))
def test_play_effect_table(name: str) -> None:
    text, (captured, chain_size, liberties, saved, ataris, own_eye) = EFFECTS[name]
    board, labels = board_of(text)
    a = labels["a"]
    before = list(board.colors)
    assert play_effect(board, a, BLACK) == PlayEffect(a, captured, chain_size, liberties, saved, ataris, own_eye)
    assert board.colors == before


def expected_effect(board: Board, p: int, color: int) -> tuple[int, int, int, int, int]:
    """(captured, chain_size, liberties, saved, ataris) by playing ``p`` on a copy of ``board``."""
    before = board.copy()
    own_in_atari = {id(ch): len(ch.stones) for q in before.nbrs[p] if (ch := before.chain_at[q]) is not None
                    and ch.color == color and len(ch.libs) == 1}
    opposing_two = {id(ch): ch for q in before.nbrs[p] if (ch := before.chain_at[q]) is not None
                    and ch.color != color and len(ch.libs) == 2}
    after = board.copy()
    rec = after.play(p, color)
    if rec.suicide:
        return 0, len(rec.base.stones), 0, 0, 0
    chain = after.chain(p)
    libs = len(chain.libs)
    saved = sum(own_in_atari.values()) if libs >= 2 else 0
    ataris = sum(len(ch.stones) for ch in opposing_two.values()) if libs >= 2 else 0
    return rec.captured_count, len(chain.stones), libs, saved, ataris


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4, 5, 7, 9]), st.floats(0.2, 0.9))
def test_play_effect_matches_playing_the_move(seed: int, size: int, density: float) -> None:
    rng = random.Random(seed)
    board = random_board(rng, size, density)
    for p in range(size * size):
        if board.get(p) != EMPTY:
            continue
        for color in (BLACK, WHITE):
            eff = play_effect(board, p, color)
            got = (eff.captured, eff.chain_size, eff.liberties, eff.saved, eff.ataris)
            assert got == expected_effect(board, p, color), (p, color, board.to_ascii({p: "*"}))
            assert eff.own_eye == is_true_eye(board, p, color)
    board.check_consistency()
