"""The counts worked out in the public rule texts, reproduced on positions drawn for keima: each position is
built to give the numbers a text states for one of its diagrams or examples, and names that diagram or example
(the FFG rules and quick-count page, the EGC 2011 explanations; docs/rules.md lists the sources).

Where a text's count depends on the game's history (captures, passes, who played last), the test plays that
history through the referee: a set-up position, then the capturing moves and the passes, then the dead-stone
agreement, so that prisoners and pass stones come from real play.
"""

from __future__ import annotations

import pytest

import keima
from keima.rules.board import BLACK, WHITE

from .diagram import parse, setup_game

METHODS = ("area", "territory", "quick-count", "japanese")


def rc(row: int, col: int, size: int) -> int:
    return row * size + col


def finish(game: keima.Game, dead: list[int]) -> None:
    """Mark the chains at ``dead`` and have both players accept: the game must then be finished."""
    assert game.phase == "scoring"
    game.set_dead(dead)
    game.accept(BLACK)
    assert game.phase == "scoring"
    game.accept(WHITE)
    assert game.phase == "finished"


def bd(score: keima.Score, method: str, color: int) -> keima.rules.scoring.Breakdown:
    return score.methods[method].breakdown[color]


# ---------------------------------------------------------------- FFG rules, « Fin de la partie », diagram 12
# Area count of an even game: Black has 10 points of territory (8 in one corner, 2 in another) and 33 stones, 43
# in all; White has 11 (2 and 9) and 27 stones, 38 in all; Black leads by 5 on the board and White wins by 2.5
# with the 7.5 komi. A 9x9 position drawn with exactly those regions and stone counts.
DIAGRAM_12 = """
. . O O X X X . .
O O O O X X X X X
O O O O X X X X X
O O O O X X X X X
O O O O X X X X X
O O X X X O O O O
X X X X X O . . .
. . . . X O . . .
. . . . X O . . .
"""


def test_ffg_area_count_even_game_won_by_komi() -> None:
    game, pos = setup_game(DIAGRAM_12, rules="french")
    assert game.komi == 7.5
    score = game.score()
    area = score.methods["area"]
    b, w = area.breakdown[BLACK], area.breakdown[WHITE]
    assert (b.stones, b.territory) == (33, 10)
    assert (w.stones, w.territory) == (27, 11)
    assert b.stones + b.territory == 43
    assert w.stones + w.territory == 38
    assert area.margin == pytest.approx(43 - 38 - 7.5)
    assert score.method == "area"
    assert score.result == "W+2.5"
    # The four regions of the diagram: 8 and 2 points for Black, 2 and 9 for White.
    n = pos.size
    assert {rc(0, 7, n), rc(0, 8, n)} <= score.territory[BLACK]
    assert {rc(r, c, n) for r in (7, 8) for c in range(4)} <= score.territory[BLACK]
    assert {rc(0, 0, n), rc(0, 1, n)} <= score.territory[WHITE]
    assert {rc(r, c, n) for r in (6, 7, 8) for c in (6, 7, 8)} <= score.territory[WHITE]
    assert not score.neutral


# ---------------------------------------------------------------- FFG rules, diagrams 14-16 (quick count)
# Even game in which Black placed the last stone; 5 white stones and 2 black ones were captured during play, and 2
# dead stones of each colour are removed. Area count (diagram 15): Black 23 + 24, White 14 + 20 + 7.5 komi, B+5.5.
# Quick count (diagram 16): Black holds 9 white stones (5 captured, 2 dead, the extra stone because Black played
# last, White's pass stone), White holds 5 (2 captured, 2 dead, Black's pass stone); once they fill the other's
# territory Black has 18 empty points and White 5, so again B+5.5 with komi. The same game is on the FFG's
# quick-count page. A 9x9 position drawn for it: White's five stones in the top-left corner are in atari (Black
# captures them at (3,0)), Black's two stones in the top-right corner are in atari (White captures them at (2,8));
# (5,1)-(6,1) are dead white stones and (5,7)-(6,7) dead black stones. White moves first from the set-up so that
# Black plays last.
DIAGRAM_14 = """
O O O X X X O O X
O X X X X X O O X
O X . X X O O . .
. . . X X O O . .
. . . X X O O . .
. O . X X O O X .
. O . X X O O X .
. . . X X O O . .
. . . X X O O . O
"""


def play_diagram_14(rules: str = "french") -> keima.Game:
    pos = parse(DIAGRAM_14)
    n = pos.size
    game = keima.Game(size=n, rules=rules)
    game.setup(black=sorted(pos.black), white=sorted(pos.white), to_move=WHITE)
    game.play(rc(2, 8, n))  # White captures the two black stones
    game.play(rc(3, 0, n))  # Black captures the five white stones: the last stone placed
    game.play(None)  # White passes
    game.play(None)  # Black passes: play stops
    finish(game, [rc(5, 1, n), rc(5, 7, n)])
    return game


def test_ffg_quick_count_even_game_equals_area() -> None:
    game = play_diagram_14()
    assert game.prisoners == {BLACK: 5, WHITE: 2}
    assert game.pass_count == {BLACK: 1, WHITE: 1}
    assert game.result == "B+5.5"
    score = game.score()
    area_b, area_w = bd(score, "area", BLACK), bd(score, "area", WHITE)
    assert (area_b.territory, area_b.stones) == (23, 24)
    assert (area_w.territory, area_w.stones, area_w.komi) == (14, 20, 7.5)
    assert score.methods["area"].margin == pytest.approx((23 + 24) - (14 + 20 + 7.5))
    # Quick count: the stones each player holds.
    qb, qw = bd(score, "quick-count", BLACK), bd(score, "quick-count", WHITE)
    assert (qb.captures, qb.dead, qb.extra_pass_stone, qb.pass_stones) == (5, 2, 1, 1)
    assert (qw.captures, qw.dead, qw.extra_pass_stone, qw.pass_stones) == (2, 2, 0, 1)
    # Black's 9 white stones go into White's 14 points, White's 5 black stones into Black's 23.
    assert qw.territory - qw.filled == 5
    assert qb.territory - qb.filled == 18
    assert score.methods["quick-count"].margin == pytest.approx(18 - (5 + 7.5))
    assert score.methods["quick-count"].result == "B+5.5"
    assert score.methods["area"].result == "B+5.5"


# ---------------------------------------------------------------- FFG rules, diagrams 17-19 (quick count)
# Three-stone handicap game in which White played the last move; White captured 5 stones, Black none, and 2 dead
# black stones are removed after the passes. Area count (diagram 18): Black 28 + 16, White 16 + 21 + 2.5 (2 points
# for the handicap, n-1, and the half point), B+4.5. Quick count (diagram 19): Black holds 1 white stone, White 8;
# after filling, Black has 20 empty points and White 15 + 0.5, B+4.5 again. A 9x9 position drawn around the GTP
# fixed handicap stones C7, G7 and C3 ((2,2), (2,6), (6,2)): the C3 stone and its neighbour (6,3) die inside White's
# area; five black stones on the bottom edge are captured by White's (8,5), the last stone placed. Then Black passes
# and White passes.
DIAGRAM_17 = """
. . . . . . . . .
. X X . . . X X .
. . X . . . X . .
. . . . X . . . X
X X X X X X X X O
O O O O O O O O O
. . X X . . . . .
O O O O O O O O O
X X X X X . . . O
"""


def play_diagram_17(rules: str = "french") -> keima.Game:
    pos = parse(DIAGRAM_17)
    n = pos.size
    game = keima.Game(size=n, rules=rules, handicap=3)
    hcap = set(game.handicap_stones)
    assert hcap == {rc(2, 2, n), rc(2, 6, n), rc(6, 2, n)}
    assert game.to_move == WHITE
    game.setup(black=sorted(pos.black - hcap), white=sorted(pos.white))
    assert game.to_move == WHITE
    game.play(rc(8, 5, n))  # White captures five: the last stone placed
    game.play(None)  # Black passes
    game.play(None)  # White passes
    finish(game, [rc(6, 2, n)])
    return game


def test_ffg_quick_count_handicap_game_equals_area() -> None:
    game = play_diagram_17()
    assert game.komi == 0.5
    assert game.prisoners == {BLACK: 0, WHITE: 5}
    assert game.result == "B+4.5"
    score = game.score()
    ab, aw = bd(score, "area", BLACK), bd(score, "area", WHITE)
    assert (ab.territory, ab.stones) == (28, 16)
    assert (aw.territory, aw.stones, aw.handicap_bonus, aw.komi) == (16, 21, 2, 0.5)
    assert score.methods["area"].margin == pytest.approx((28 + 16) - (16 + 21 + 2.5))
    qb, qw = bd(score, "quick-count", BLACK), bd(score, "quick-count", WHITE)
    held_by_black = qb.captures + qb.dead + qb.pass_stones + qb.extra_pass_stone
    held_by_white = qw.captures + qw.dead + qw.pass_stones + qw.extra_pass_stone
    assert held_by_black == 1
    assert held_by_white == 8
    assert (qw.captures, qw.dead, qw.pass_stones) == (5, 2, 1)
    assert qb.territory - qb.filled == 20
    assert qw.territory - qw.filled == 15
    assert qw.komi == 0.5  # a handicap game adds only half a point
    assert score.methods["quick-count"].margin == pytest.approx(20 - 15.5)


# ---------------------------------------------------------------- EGC 2011 explanations, example 1
# Area count on 9x9 with dame: Black 37 points, White 41, three neutral points counted for nobody, so White wins
# by 4 without komi. A 9x9 position drawn with three dame points between the walls.
EXAMPLE_1 = """
. . . X X O . . .
. . . X . O . . .
. . . X . O . . .
. . . X . O . . .
. . . X O O . . .
. . . X O O . . .
. . . X O O . . .
. . . X O O . . .
. . . X O O . . .
"""


def test_egc2011_area_count_leaves_dame_uncounted() -> None:
    game, pos = setup_game(EXAMPLE_1, komi=0)
    score = game.score()
    area = score.methods["area"]
    assert area.black == 37
    assert area.white == 41
    assert len(score.neutral) == 3
    assert score.neutral == {rc(r, 4, pos.size) for r in (1, 2, 3)}
    assert pos.size * pos.size == 37 + 41 + 3
    assert score.result == "W+4"


# ---------------------------------------------------------------- EGC 2011 explanations, example 6 (seki)
# A seki on 5x5 counted by area: Black 12 points, White 11, the two shared liberties counted for nobody, so Black
# wins by 1 without komi. Drawn for keima: each side has one eye and they share two liberties, so neither chain
# lives on its own. (The example's seki is "asymmetric", White's side holding no territory; the numbers are the
# same here. Japanese counting gives the eyes of chains in seki to nobody, Japanese 1989 rules, art. 8, which the
# last assertions check.)
EXAMPLE_6 = """
. X O O .
X X O O O
X X s O O
X X X t O
X X X O O
"""


def test_egc2011_seki_area_count() -> None:
    game, pos = setup_game(EXAMPLE_6, rules="french", komi=0)
    score = game.score()
    area = score.methods["area"]
    assert (area.black, area.white) == (12, 11)
    assert score.neutral == {pos.at("s"), pos.at("t")}
    assert score.result == "B+1"
    # Every stone on the board belongs to a chain in seki.
    assert pos.black | pos.white <= set(score.seki)


def test_seki_eyes_are_nobodys_under_japanese_counting() -> None:
    game, pos = setup_game(EXAMPLE_6, rules="french", komi=0)
    score = game.score()
    jap = score.methods["japanese"]
    assert jap.breakdown[BLACK].territory == 0
    assert jap.breakdown[WHITE].territory == 0
    # Area counting (French) does count them.
    assert bd(score, "area", BLACK).territory == 1
    assert bd(score, "area", WHITE).territory == 1
    # Under the Japanese preset the seki eyes are nobody's, whatever the method.
    game_j, _ = setup_game(EXAMPLE_6, rules="japanese", komi=0)
    sj = game_j.score()
    assert sj.method == "japanese"
    assert sj.methods["japanese"].margin == 0
    assert sj.result == "0"
    assert not sj.territory[BLACK] and not sj.territory[WHITE]


# ---------------------------------------------------------------- EGC 2011 explanations, example 8
# Area against traditional territory counting, komi 7.5: by area Black has 16 points and White 9, W+0.5; by
# territory minus prisoners Black has 8 and White 2, W+1.5; with pass stones and White passing last, Black keeps
# 7 points after filling and White none, W+0.5 again. A 5x5 game drawn for keima: Black places one stone more
# than White, then both pass.
EXAMPLE_8_FINAL = """
. . X O .
. . X O .
. . X O O
. . X O O
X X X X O
"""
EXAMPLE_8_MOVES = [
    (0, 2), (0, 3), (1, 2), (1, 3), (2, 2), (2, 3), (3, 2), (3, 3),
    (4, 2), (3, 4), (4, 0), (2, 4), (4, 1), (4, 4), (4, 3),
]  # fmt: skip


@pytest.mark.parametrize("rules", ["french", "egc2011", "aga"])
def test_egc2011_area_and_japanese_counts_differ_by_one(rules: str) -> None:
    game = keima.Game(size=5, rules=rules, komi=7.5)
    for r, c in EXAMPLE_8_MOVES:
        game.play(rc(r, c, 5))
    assert list(game.board.colors) == parse(EXAMPLE_8_FINAL).colors()
    game.play(None)  # White passes
    game.play(None)  # Black passes
    finish(game, [])
    score = game.score()
    area = score.methods["area"]
    assert (area.black, area.white - 7.5) == (16, 9)
    assert area.result == "W+0.5"
    jap = score.methods["japanese"]
    assert (jap.black, jap.white - 7.5) == (8, 2)
    assert jap.result == "W+1.5"
    # Territory with pass stones, White passing last: Black holds White's pass stone and the extra stone.
    tps = score.methods["territory"]
    assert tps.breakdown[BLACK].pass_stones == 1
    assert tps.breakdown[BLACK].extra_pass_stone == 1
    assert tps.breakdown[WHITE].pass_stones == 1
    assert tps.result == "W+0.5"
    # Quick count: after filling, Black 7 points, White none.
    qb, qw = bd(score, "quick-count", BLACK), bd(score, "quick-count", WHITE)
    assert (qb.territory - qb.filled, qw.territory - qw.filled) == (7, 0)
    assert score.methods["quick-count"].result == "W+0.5"
    assert game.result == "W+0.5"


def test_no_extra_stone_when_white_passes_last() -> None:
    """EGC 2011 explanations, « méthode des territoires »: when Black passes first and White's pass ends the game,
    each has received one pass stone and no extra stone is owed."""
    game = keima.Game(size=5, rules="egc2011", komi=7.5)
    for r, c in EXAMPLE_8_MOVES:
        game.play(rc(r, c, 5))
    game.play(rc(0, 4, 5))  # White fills its own point: now Black and White placed 8 stones each
    game.play(None)  # Black passes
    game.play(None)  # White passes last
    score = game.score()
    tps = score.methods["territory"]
    assert tps.breakdown[BLACK].extra_pass_stone == 0
    assert tps.breakdown[BLACK].pass_stones == 1
    assert tps.breakdown[WHITE].pass_stones == 1
    # Area: Black 16, White 9 (a stone replaced a point of territory): still W+0.5, and the territory count agrees.
    assert score.methods["area"].result == "W+0.5"
    assert tps.result == "W+0.5"


# ---------------------------------------------------------------- Japanese 1989 rules, art. 10
# Territory minus prisoners: dead stones join the prisoners taken during play, and each side's territory is reduced
# by the stones it lost. Here White has 36 points of territory and lost 19 + 7 stones (10 points); Black has 33 and
# lost 14 + 1 (18 points); Black wins by 8 without komi. A 13x13 position drawn for these numbers: a 19-stone white
# chain along the top is in atari (Black captures it at (2,0)), a 14-stone black chain in the bottom-left corner is
# in atari (White captures it at (12,7)); 7 dead white stones lie in Black's area, 1 dead black stone in White's;
# four dame points separate the walls.
JAPANESE_13X13 = """
O O O O O O O O O O O O O
O O O O O O X X X X X X X
. X X X X X . O O O . . .
O . . . . X . O O O O . .
O O O O O O X X X X X X X
O O O O O O O O O O O O O
O O O O O O O O O O O O O
O O O O O O O O O O O O O
O O O O O O O O O O O O O
. . . X . . . . . . . . .
O O O O O O O O O O O O O
X X X X X X X O . . . . .
X X X X X X X . . . . . O
"""


def test_japanese_territory_minus_prisoners() -> None:
    pos = parse(JAPANESE_13X13)
    n = pos.size
    game = keima.Game(size=n, rules="japanese", komi=0)
    game.setup(black=sorted(pos.black), white=sorted(pos.white))
    game.play(rc(2, 0, n))  # Black captures 19
    assert game.prisoners[BLACK] == 19
    game.play(rc(12, 7, n))  # White captures 14
    assert game.prisoners[WHITE] == 14
    game.play(None)
    game.play(None)
    finish(game, [rc(2, 7, n), rc(9, 3, n)])
    score = game.score()
    assert score.method == "japanese"
    jb, jw = bd(score, "japanese", BLACK), bd(score, "japanese", WHITE)
    assert (jb.territory, jb.captures, jb.dead) == (33, 19, 7)
    assert (jw.territory, jw.captures, jw.dead) == (36, 14, 1)
    # Japanese arithmetic: each territory minus the stones that player lost.
    white_points = jw.territory - (jb.captures + jb.dead)
    black_points = jb.territory - (jw.captures + jw.dead)
    assert (white_points, black_points) == (10, 18)
    assert score.methods["japanese"].margin == black_points - white_points
    assert game.result == "B+8"
    assert len(score.neutral) == 4


# ---------------------------------------------------------------- territory and prisoners
# Territory counting as the Belgian Go Federation's leaflet teaches it (§ 5: each empty point of territory and
# each captured or hopeless stone is a point): Black 9 points of territory, White 6 plus 2 for two black stones
# that cannot escape. A 6x6 position: a 3x3 black corner, and two dead black stones inside White's
# six points on the right edge.
TERRITORY_6X6 = """
. . . X O .
. . . X O X
. . . X O X
X X X X O .
O O O O O .
O O O O O .
"""


def test_territory_plus_captures_and_dead_stones() -> None:
    game, pos = setup_game(TERRITORY_6X6, rules="japanese", komi=0)
    n = pos.size
    game.play(None)
    game.play(None)
    finish(game, [rc(1, 5, n)])
    score = game.score()
    jb, jw = bd(score, "japanese", BLACK), bd(score, "japanese", WHITE)
    assert jb.territory == 9
    assert (jw.territory, jw.dead) == (6, 2)
    assert (jb.total, jw.total) == (9, 8)
    assert game.result == "B+1"


# ---------------------------------------------------------------- every method's breakdown adds up
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("which", ["even", "handicap"])
def test_breakdowns_add_up(method: str, which: str) -> None:
    game = play_diagram_14() if which == "even" else play_diagram_17()
    score = game.score()
    ms = score.methods[method]
    for color, total in ((BLACK, ms.black), (WHITE, ms.white)):
        b = ms.breakdown[color]
        assert b.total == pytest.approx(total)
        if method == "area":
            parts = b.stones + b.territory + b.komi + b.handicap_bonus
        elif method == "territory":
            parts = b.territory + b.captures + b.dead + b.pass_stones + b.extra_pass_stone + b.komi
        elif method == "quick-count":
            parts = b.territory - b.filled + b.overflow + b.komi
        else:
            parts = b.territory + b.captures + b.dead + b.komi
        assert parts == pytest.approx(b.total), f"{method} {color}: {b}"
    assert ms.margin == pytest.approx(ms.black - ms.white)


# -------------------------------------------------------- EGC 2011 explanations, example 2 (pass stones)
# Each pass hands a stone to the opponent (White's pass at move 2, Black's at move 3); the players agree that one
# black and five white stones are dead; White must pass last (move 4) and hands one more stone, so Black holds 7
# prisoners and White 4; after filling, Black keeps 7 points and White none: B+7. A 9x9 position drawn for it: White
# first captures two black stones (White's 2 prisoners), Black fills the last dame (move 1), White passes, Black
# passes; five white stones and one black stone are agreed dead; Black's pass ended play, so White owes the extra
# stone. Black's territory is 11 points, White's 7. (Set-up stones are not moves, so only the territory-based counts
# are checked here: the area count of a set-up position is not comparable.)
EXAMPLE_2 = """
O O O O O . . . .
X X X X X X X . .
X X X X X X X X X
X X X X X X X X .
O O O O O O O O O
O O O O O O O O O
O O O O O O O O O
O O O O O O O O O
O . . X . . . X X
"""


def test_egc2011_pass_stones_and_white_passes_last() -> None:
    pos = parse(EXAMPLE_2)
    game = keima.Game(size=9, rules="egc2011", komi=0)
    game.setup(black=sorted(pos.black), white=sorted(pos.white), to_move=WHITE)
    game.play(rc(8, 6, 9))  # White captures two black stones
    game.play(rc(3, 8, 9))  # move 1: Black fills the last dame
    game.play(None)  # move 2: White passes, a stone to Black
    game.play(None)  # move 3: Black passes, a stone to White
    finish(game, [rc(0, 0, 9), rc(8, 3, 9)])
    score = game.score()
    tb, tw = bd(score, "territory", BLACK), bd(score, "territory", WHITE)
    held_black = tb.captures + tb.dead + tb.pass_stones + tb.extra_pass_stone
    held_white = tw.captures + tw.dead + tw.pass_stones + tw.extra_pass_stone
    assert (tb.dead, tb.pass_stones, tb.extra_pass_stone) == (5, 1, 1)
    assert (tw.captures, tw.dead, tw.pass_stones) == (2, 1, 1)
    assert (held_black, held_white) == (7, 4)
    assert (tb.territory, tw.territory) == (11, 7)
    # Filling: Black 11 - 4 = 7 points, White 7 - 7 = none.
    qb, qw = bd(score, "quick-count", BLACK), bd(score, "quick-count", WHITE)
    assert (qb.territory - qb.filled, qw.territory - qw.filled) == (7, 0)
    assert score.methods["quick-count"].result == "B+7"
    assert score.methods["territory"].result == "B+7"
