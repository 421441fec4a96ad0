"""The end of the game (FFG rules, « Fin de la partie »; EGC 2011 explanations, « Fin de partie »; AGA rules):
two passes, the dead-stone agreement that both players must accept, resumption of play on disagreement (which
loses no points, as the EGC 2011 explanations show), Tromp-Taylor's all-alive end, resignation and the other
results."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

import keima
from keima.rules.board import BLACK, EMPTY, WHITE

from .diagram import parse, setup_game
from .test_counting import DIAGRAM_14


def rc(row: int, col: int, size: int = 9) -> int:
    return row * size + col


DEAD_WHITE = rc(5, 1)
DEAD_BLACK = rc(5, 7)


def diagram_14_at_scoring(rules: str) -> keima.Game:
    """The game of the FFG rules' diagram 14 (see test_counting.py), stopped after the two passes."""
    pos = parse(DIAGRAM_14)
    game = keima.Game(size=9, rules=rules)
    game.setup(black=sorted(pos.black), white=sorted(pos.white), to_move=WHITE)
    game.play(rc(2, 8))
    game.play(rc(3, 0))
    game.play(None)
    game.play(None)
    return game


@pytest.mark.parametrize("rules", ["french", "egc2011", "aga"])
def test_resumption_loses_no_points(rules: str) -> None:
    """EGC 2011 explanations, second example and the note on why resuming loses no points: White disputes the
    marking, play resumes (White first: the opponent of the last passer), both sides capture the stones they
    claimed dead, giving pass stones as they pass, and the count is the same as with the agreement. Black's pass
    ends play, so White hands the extra stone; Black then holds more white stones than White's territory has
    points, as in that example, and the quick count credits the stones that do not fit to Black (overflow)."""
    agreed = diagram_14_at_scoring(rules)
    agreed.set_dead([DEAD_WHITE, DEAD_BLACK])
    agreed.accept(BLACK)
    agreed.accept(WHITE)
    assert agreed.result == "B+5.5"

    game = diagram_14_at_scoring(rules)
    game.set_dead([DEAD_WHITE, DEAD_BLACK])
    game.accept(BLACK)
    game.resume(WHITE)
    assert game.phase == "play"
    assert game.to_move == WHITE
    assert game.dead == frozenset()
    sequence = [
        rc(4, 7), rc(4, 1), rc(7, 7), rc(7, 1), rc(5, 8), rc(5, 0), rc(6, 8), rc(6, 0),
        None, rc(5, 2), None, rc(6, 2), None, None,
    ]  # fmt: skip
    for m in sequence:
        game.play(m)
    assert game.board.colors[DEAD_WHITE] == EMPTY and game.board.colors[DEAD_BLACK] == EMPTY
    assert game.prisoners == {BLACK: 7, WHITE: 4}
    assert game.pass_count == {BLACK: 2, WHITE: 4}
    assert game.phase == "scoring"
    game.accept(WHITE)
    game.accept(BLACK)
    assert game.phase == "finished"
    assert game.result == agreed.result
    score, before = game.score(), agreed.score()
    for method in ("area", "territory", "quick-count"):
        assert score.methods[method].margin == before.methods[method].margin, method
    q = score.methods["quick-count"].breakdown
    assert q[BLACK].captures + q[BLACK].pass_stones + q[BLACK].extra_pass_stone == 7 + 4 + 1
    assert q[WHITE].territory == 10
    assert q[WHITE].filled == 10
    assert q[BLACK].overflow == 2


def test_both_must_accept_the_same_marking() -> None:
    game = diagram_14_at_scoring("french")
    game.set_dead([DEAD_WHITE])
    game.accept(BLACK)
    assert game.accepted == {BLACK}
    # White changes the marking: Black's acceptance is withdrawn.
    game.toggle_dead(DEAD_BLACK, WHITE)
    assert game.dead == {rc(5, 1), rc(6, 1), rc(5, 7), rc(6, 7)}
    assert game.accepted == frozenset()
    game.accept(WHITE)
    assert game.phase == "scoring"
    game.accept(BLACK)
    assert game.phase == "finished"
    assert game.result == "B+5.5"
    # Toggling a chain twice gives it back.
    other = diagram_14_at_scoring("french")
    other.toggle_dead(DEAD_WHITE)
    other.toggle_dead(rc(6, 1))
    assert other.dead == frozenset()


def test_undo_through_the_scoring_phase() -> None:
    game = diagram_14_at_scoring("french")
    at_scoring = (game.phase, game.dead, game.accepted, len(game.events))
    game.set_dead([DEAD_WHITE, DEAD_BLACK])
    game.accept(BLACK)
    game.accept(WHITE)
    assert game.phase == "finished"
    game.undo()
    assert game.phase == "scoring" and game.accepted == {BLACK}
    game.undo()
    game.undo()
    assert (game.phase, game.dead, game.accepted, len(game.events)) == at_scoring
    game.undo()  # Black's pass
    assert game.phase == "play" and game.to_move == BLACK and game.consecutive_passes == 1


def test_tromp_taylor_scores_at_once_with_every_stone_alive() -> None:
    game = diagram_14_at_scoring("tromp-taylor")
    assert game.phase == "finished"
    assert game.dead == frozenset()
    score = game.score()
    # The "dead" stones stand: (5,1)-(6,1) are white stones inside Black's area, so that area is nobody's.
    assert rc(5, 0) in score.neutral
    assert game.result == score.result


def test_aga_two_passes_opening_a_resumption_end_with_every_stone_alive() -> None:
    game = diagram_14_at_scoring("aga")
    game.set_dead([DEAD_WHITE, DEAD_BLACK])
    game.resume(BLACK)
    game.play(None)
    game.play(None)
    assert game.phase == "finished"
    assert game.dead == frozenset()
    assert game.result == game.score(dead=[]).result


@pytest.mark.parametrize(
    ("action", "result"),
    [
        (lambda g: g.resign(BLACK), "W+R"),
        (lambda g: g.resign(WHITE), "B+R"),
        (lambda g: g.timeout(BLACK), "W+T"),
        (lambda g: g.timeout(WHITE), "B+T"),
        (lambda g: g.forfeit(WHITE, "absent"), "B+F"),
        (lambda g: g.declare_no_result("cycle"), "Void"),
    ],
)
def test_other_endings(action: Callable[[keima.Game], None], result: str) -> None:
    game = keima.Game(size=9)
    game.play("E5")
    action(game)
    assert game.phase == "finished"
    assert game.result == result
    game.undo()
    assert game.phase == "play" and game.result is None


# FFG rules, « Fin de la partie », diagram 13: Black can capture the white stones at a; if White defends at a,
# Black captures them at b all the same, so after the passes Black simply removes them. The same section lets the
# players remove dead stones by agreement instead of playing the captures out: removing them by agreement gives
# the same area count as capturing them.
DIAGRAM_13 = """
. X X X . . O
X O a b X . O
. X X X . . O
. . . . . . O
O O O O O O O
. . . . . . .
. . . . . . .
"""


def test_ffg_dead_stones_removed_or_captured_count_the_same() -> None:
    game, pos = setup_game(DIAGRAM_13, komi=0)
    a, b = pos.at("a"), pos.at("b")
    white = 1 * 7 + 1
    by_agreement = game.score(dead=[white]).methods["area"].margin
    # Black captures at once.
    g1, _ = setup_game(DIAGRAM_13, komi=0)
    g1.play(a)
    assert g1.prisoners[BLACK] == 1
    g1.play(None)
    assert g1.score().methods["area"].margin == by_agreement
    # White tries to save them at a; Black captures anyway at b.
    g2, _ = setup_game(DIAGRAM_13, komi=0)
    g2.play(None)
    g2.play(a)
    g2.play(b)
    assert g2.prisoners[BLACK] == 2
    assert g2.board.colors[white] == EMPTY and g2.board.colors[a] == EMPTY
    g2.play(None)
    # White's extra stone at a changed nothing in Black's area: same margin.
    assert g2.score().methods["area"].margin == by_agreement


def test_undo_of_setup_and_handicap() -> None:
    game = keima.Game(size=9, handicap=2, placement="free")
    game.place_handicap(["C3", "G7"])
    game.setup(black=["A1"], white=["J9"])
    game.play("E5")
    game.undo()  # White's move
    game.undo()  # the setup
    assert game.board.count(BLACK) == 2 and game.board.count(WHITE) == 0
    assert game.to_move == WHITE and game.phase == "play"
    game.undo()  # the handicap placement
    assert game.phase == "handicap"
    assert game.board.count(BLACK) == 0
    assert game.events == []


def test_scores_are_json_safe() -> None:
    game = diagram_14_at_scoring("french")
    game.set_dead([DEAD_WHITE, DEAD_BLACK])
    data = json.loads(json.dumps(game.score().as_dict()))
    assert data["result"] == "B+5.5"
    assert set(data["methods"]) == {"area", "territory", "quick-count", "japanese"}
    assert data["methods"]["area"]["breakdown"]["B"]["stones"] == 24
