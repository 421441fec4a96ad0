"""The computer seat (``keima.seat``): its manners and its answers, tested once for every front end.

Boards are ASCII diagrams (``X`` black, ``O`` white, ``.`` empty; the top row first)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from keima.ai.standin import PolicyPlayer
from keima.rules import coords
from keima.rules.board import BLACK, WHITE, opponent
from keima.rules.game import Game
from keima.seat import (
    Decision,
    EnginePlayer,
    GeneratorPlayer,
    KeimaPlayer,
    Review,
    Seat,
    apply_answer,
    make_seat,
)
from keima.timecontrol import TimeBudget

from .boards import at, board

GNUGO = "/usr/games/gnugo"
FAKE = Path(__file__).parent.parent / "gtp" / "fake_engine.py"

# A finished 9x9 game: every empty point is enclosed by one side (Black 45, White 36 points).
SETTLED = """
..X.XO.O.
..X.XO.O.
..XXXOOO.
XXX.XO.OO
..X.XO.O.
..XXXOOO.
XXX.XO.OO
..X.XO.O.
..X.XO.O.
"""

# White has a few stones in Black's area and no way to live: the game is lost for White.
LOST_FOR_WHITE = """
.X.X.X.X.
XXXXXXXXX
..X...X..
XXXXXXXXX
.X..O..X.
XXXXXXXXX
..X...X..
XXXXXXXXX
.X.X.X.X.
"""


@pytest.mark.parametrize(("level", "color"), [("beginner", BLACK), ("beginner", WHITE)])
def test_passes_on_a_settled_board_instead_of_filling_territory(level: str, color: int) -> None:
    # No move on this board gains a point: the beginner passes, winning or losing, instead of filling its own
    # area or throwing stones into the other side's. (The heavy levels wait for the opponent's pass, the next
    # test; their own search passes on a decided board, tests/ai/test_player.py.)
    game = board(SETTLED, to_move=color)
    seat = Seat(KeimaPlayer(level, seed=3))
    assert seat.move(game, color, 0.3).action == "pass"


@pytest.mark.parametrize("level", ["beginner", "intermediate", "strong"])
@pytest.mark.parametrize("color", [BLACK, WHITE])
def test_answers_a_pass_with_a_pass_when_playing_on_gains_nothing(level: str, color: int) -> None:
    # The winner (Black) and the loser (White, by 1.5 points) alike.
    game = board(SETTLED, to_move=opponent(color))
    game.pass_move(opponent(color))
    assert game.consecutive_passes == 1
    assert Seat(KeimaPlayer(level, seed=5)).move(game, color, 0.3).action == "pass"


@pytest.mark.parametrize("level", ["beginner", "intermediate", "strong"])
@pytest.mark.parametrize("color", [BLACK, WHITE])
def test_keeps_playing_where_a_point_is_still_open(level: str, color: int) -> None:
    # The same board without White's stone at F9: F9 touches both sides, the one point left to fill (a point
    # under area counting). Whoever moves takes it instead of passing.
    game = board(SETTLED.replace("..X.XO.O.", "..X.X..O.", 1), to_move=color)
    decision = Seat(KeimaPlayer(level, seed=2)).move(game, color, 0.5)
    assert decision == Decision("play", at(game, "F9"))


@pytest.mark.parametrize(("to_move", "passes"), [(WHITE, True), (BLACK, False)])
def test_the_stand_in_policy_passes_back_only_when_the_count_wins(to_move: int, passes: bool) -> None:
    # Black's wall owns the whole 5x5 board: Black counts 25 - 7.5 with every stone alive. After the other
    # side's pass, Black passes back (the seat's manners, not the policy's); White, losing, plays on.
    rows = "..X..\n..X..\n..X..\n..X..\n..X..\n"
    game = board(rows, to_move=to_move)
    game.pass_move(to_move)
    mover = opponent(to_move)
    policy = PolicyPlayer(0)
    assert policy.genmove(game, mover, 1.0) is not None  # the policy alone would play on
    decision = Seat(GeneratorPlayer(policy, lambda g: frozenset())).move(game, mover, 1.0)
    assert (decision.action == "pass") == passes, decision


@pytest.mark.parametrize("level", ["beginner", "intermediate", "strong"])
def test_resigns_a_lost_game_after_several_hopeless_moves_at_every_level(level: str) -> None:
    game = board(LOST_FOR_WHITE, to_move=WHITE, komi=-10.5)
    seat = Seat(KeimaPlayer(level, seed=8))
    decisions: list[Decision] = []
    filler = [at(game, v) for v in ("A9", "C9", "E9", "G9", "J9", "A1", "C1")]
    while len(decisions) < seat.patience + 2:
        d = seat.move(game, WHITE, 0.3)
        decisions.append(d)
        if d.action == "resign":
            break
        assert d.action in ("play", "pass")
        if d.action == "play":
            game.play(d.point, WHITE)
        else:
            game.pass_move(WHITE)
        # Black answers inside its own area (no pass, so that the game goes on).
        game.play(next(p for p in filler if game.legality(p, BLACK) is None), BLACK)
    actions = [d.action for d in decisions]
    assert actions[-1] == "resign", actions
    # Never on the first hopeless verdict: a streak of them (the beginner waits longest).
    assert len(actions) >= seat.patience
    assert seat.patience == (5 if level == "beginner" else 3)


def test_never_resigns_in_the_opening() -> None:
    # 19x19, White has given away a hopeless komi: still no resignation before move 30.
    game = Game(19, komi=-150.0)
    seat = Seat(KeimaPlayer("strong", seed=1), patience=1)
    for vertex in ("D4", "Q16", "D16", "Q4", "K10"):
        game.play(at(game, vertex), game.to_move)
    assert seat.move(game, WHITE, 0.2).action != "resign"


def test_the_bots_refused_move_is_replaced_by_a_legal_one() -> None:
    class Broken(KeimaPlayer):
        def genmove(self, game: Game, color: int, seconds: float) -> object:  # type: ignore[override]
            return 0 if game.board.colors[0] else -7  # an occupied point or nonsense

    game = Game(9)
    game.play(0, BLACK)
    d = Seat(Broken("beginner")).move(game, WHITE, 0.1)
    assert d.action == "play" and d.point is not None and game.legality(d.point, WHITE) is None
    assert d.note is not None and "refused" in d.note


def test_review_accepts_its_own_marking_and_disputes_another_with_reasons() -> None:
    game = board(SETTLED)
    game.pass_move(BLACK)
    game.pass_move(WHITE)
    assert game.phase == "scoring"
    seat = Seat(KeimaPlayer("strong", seed=4))
    assert seat.review(game).accept
    # White marks Black's living wall dead: keima (whichever colour it plays) names it and why.
    game.toggle_dead(at(game, "C9"), WHITE)
    review = seat.review(game)
    assert not review.accept
    assert review.message is not None and "keima thinks C9 is alive" in review.message
    assert "%" in review.message
    assert {o.thinks for o in review.disputes} == {"alive"}


def test_think_time_comes_from_the_clock() -> None:
    game = Game(9)
    assert Seat.think_time(game, BLACK, None, 2.0) == 2.0
    clock = TimeBudget()
    clock.set_canadian(0, 30, 10)  # 3 s a stone
    clock.left[BLACK] = (30.0, 10)
    assert 1.5 < Seat.think_time(game, BLACK, clock, 2.0) < 3.0
    clock.left[BLACK] = (1.0, 1)
    assert Seat.think_time(game, BLACK, clock, 2.0) < 1.0


def test_make_seat_names() -> None:
    assert make_seat("beginner").name == "keima"
    with pytest.raises(ValueError, match="no engine named 'x'"):
        make_seat("engine:x", {})
    with pytest.raises(ValueError):
        make_seat("grandmaster")


# ------------------------------------------------------------------------------------ GTP engines
def fake(mode: str, *args: str) -> str:
    return " ".join([sys.executable, str(FAKE), mode, *args])


def test_an_engines_illegal_move_forfeits() -> None:
    game = Game(9)
    game.play(at(game, "E5"), BLACK)
    seat = Seat(EnginePlayer("fake", fake("illegal")))
    try:
        d = seat.move(game, WHITE, 1.0)
    finally:
        seat.close()
    assert d.action == "forfeit" and d.note is not None and "illegal move E5" in d.note


def test_an_engine_that_keeps_crashing_is_restarted_then_forfeits() -> None:
    player = EnginePlayer("fake", fake("crash"))
    seat = Seat(player)
    try:
        d = seat.move(Game(9), BLACK, 1.0)
    finally:
        seat.close()
    assert d.action == "forfeit" and d.note is not None and "stopped answering" in d.note
    assert player.restarts == 2


def test_engine_dead_stones_from_final_status_list() -> None:
    game = board(SETTLED)
    player = EnginePlayer("fake", fake("pass", "dead=A1"))
    try:
        assert player.dead_stones(game) == frozenset()  # A1 is empty: not a stone
        game2 = board(SETTLED.replace("..X.XO.O.\n..X.XO.O.\n", "..X.XO.O.\nX.X.XO.O.\n", 1))
        assert Seat(player).review(game2).accept is not None
    finally:
        player.close()


@pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason="GNU Go is not installed")
def test_gnugo_plays_under_keimas_refereeing_and_is_restarted_when_killed() -> None:
    player = EnginePlayer("GNU Go", f"{GNUGO} --mode gtp --level 1")
    seat = Seat(player)
    game = Game(9, rules="french")
    try:
        for _ in range(6):
            d = seat.move(game, game.to_move, 1.0)
            assert d.action in ("play", "pass"), d
            if d.action == "play":
                game.play(d.point, game.to_move)
            else:
                game.pass_move(game.to_move)
            if player._engine is not None and len(game.moves) == 3:
                player._engine.proc.kill()  # the engine dies: the next move starts it again
        assert player.restarts == 1
        assert len(game.moves) == 6
        # Its dead stones come from final_status_list (stones only, whatever GNU Go thinks of them).
        assert all(game.board.colors[p] for p in seat.propose_dead(game))
    finally:
        seat.close()


@pytest.mark.parametrize(("size", "expected"), [(19, "D4"), (5, "C3")])
def test_a_refused_handicap_stone_is_replaced_by_the_usual_placement(size: int, expected: str) -> None:
    class Passer:
        def genmove(self, game: Game, color: int, seconds: float) -> None:
            return None  # no stone at all: the seat must still place one

    game = Game(size, handicap=2, placement="free", rules="chinese")
    d = Seat(GeneratorPlayer(Passer(), lambda g: frozenset())).move(game, BLACK, 0.1)
    assert d == Decision("play", at(game, expected))


# ------------------------------------------------------------------------------------ carrying answers out
@pytest.mark.parametrize(("answer", "phase", "result", "moves"), [
    (Decision("play", 40), "play", None, ["E5"]),
    (Decision("pass"), "play", None, ["pass"]),
    (Decision("resign"), "finished", "B+R", []),
    (Decision("forfeit", note="illegal move E5 (occupied)", failure="error"), "finished", "B+F", []),
])
def test_apply_answer_carries_a_decision_out_on_the_game(answer: Decision, phase: str, result: str | None,
                                                        moves: list[str]) -> None:
    game = Game(9)
    game.play(at(game, "C3"), BLACK)
    apply_answer(game, WHITE, answer)
    assert game.phase == phase and (None if game.result is None else str(game.result)) == result
    assert [coords.to_gtp(m.point, 9) for m in game.moves[1:]] == moves
    if answer.action == "forfeit":
        assert game.end_reason == "forfeit"


@pytest.mark.parametrize(("accept", "phase"), [(True, "scoring"), (False, "play")])
def test_apply_answer_carries_a_review_out(accept: bool, phase: str) -> None:
    game = board(SETTLED)
    game.pass_move(BLACK)
    game.pass_move(WHITE)
    assert game.phase == "scoring"
    apply_answer(game, WHITE, Review(accept))
    # Accepting leaves the marking to the other side's acceptance; a dispute resumes play.
    assert game.phase == phase
    assert (WHITE in game.accepted) == accept
