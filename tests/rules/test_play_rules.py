"""The rules of play as small diagram cases: neighbours, chains and liberties, capture, suicide and its capture
exception, ko, eyes, seki.

Each position is drawn for keima to show exactly what the rule named in the comment above it says; the comment
names the public text and, where it has one, its diagram (FFG rules sections and diagrams, the Belgian Go
Federation's leaflet, the Japanese 1989 articles, the EGC 2011 examples; docs/rules.md lists the sources).
"""

from __future__ import annotations

import pytest

import keima
from keima.rules.board import BLACK, EMPTY, WHITE
from keima.rules.ruleset import PRESETS

from .diagram import board_colors, parse, setup_game, show
from .reference import flood

ALL_PRESETS = sorted(PRESETS)


def state_of(game: keima.Game) -> tuple[object, ...]:
    """Everything a refused action must leave unchanged."""
    return (
        board_colors(game),
        game.board.hash,
        game.to_move,
        game.phase,
        dict(game.prisoners),
        dict(game.pass_count),
        game.consecutive_passes,
        len(game.moves),
        len(game.events),
        game.move_number,
        game.result,
    )


def refused(game: keima.Game, p: int, color: int | None = None) -> str:
    """Assert that ``color`` at ``p`` is refused by both ``legality`` and ``play`` with the same reason and that
    the game is unchanged; return the reason."""
    before = state_of(game)
    reason = game.legality(p, color)
    assert reason is not None, f"{p} should be illegal:\n{show(game)}"
    with pytest.raises(keima.IllegalMove) as info:
        game.play(p, color)
    assert info.value.reason == reason
    assert info.value.move == p
    assert str(info.value), "the error must be a sentence"
    assert state_of(game) == before
    game.check_consistency()
    return reason


# ---------------------------------------------------------------- chains and liberties
# Liberties are the empty points next to a chain along the lines (FFG rules, « Chaîne et libertés »; Japanese
# 1989 rules, art. 4): a lone stone has 4 in the centre, 3 on an edge, 2 in a corner; two joined stones have 6, 4
# and 3; the Belgian leaflet (§ 4.2, § 4.3) shows three stones on the edge with 5 and a stone touched by an
# enemy stone with 3. FFG diagram 2: a chain of four white stones with five liberties (here along the edge, from
# the corner).
LIBERTY_CASES = [
    ("centre stone", ".....\n.....\n..O..\n.....\n.....", (2, 2), 1, 4),
    ("edge stone", "..O..\n.....\n.....\n.....\n.....", (0, 2), 1, 3),
    ("corner stone", "O....\n.....\n.....\n.....\n.....", (0, 0), 1, 2),
    ("two in the centre", ".....\n.....\n..OO.\n.....\n.....", (2, 2), 2, 6),
    ("two on the edge", ".OO..\n.....\n.....\n.....\n.....", (0, 1), 2, 4),
    ("two in the corner", "OO...\n.....\n.....\n.....\n.....", (0, 0), 2, 3),
    ("three on the edge", ".XXX.\n.....\n.....\n.....\n.....", (0, 1), 3, 5),
    ("stone touched by an enemy", ".....\n..X..\n..O..\n.....\n.....", (2, 2), 1, 3),
    ("four from the corner (FFG diag 2)", "OOOO.\n.....\n.....\n.....\n.....", (0, 0), 4, 5),
    # Diagonal stones are not neighbours: three stones, three chains (FFG rules, « Chaîne et libertés », diag. 1;
    # Belgian leaflet, § 4.1).
    ("diagonal is not connected", ".....\n.X...\n..X..\n...X.\n.....", (2, 2), 1, 4),
]


@pytest.mark.parametrize(
    ("name", "diagram", "rc", "stones", "libs"), LIBERTY_CASES, ids=[c[0] for c in LIBERTY_CASES]
)
def test_chain_and_liberties(name: str, diagram: str, rc: tuple[int, int], stones: int, libs: int) -> None:
    game, pos = setup_game(diagram)
    p = rc[0] * pos.size + rc[1]
    chain = game.board.chain(p)
    assert len(chain.stones) == stones
    assert len(chain.libs) == libs
    # And the same from the naive flood fill, so the diagram itself says what the comment claims.
    ref_chain, ref_libs = flood(pos.colors(), pos.size, p)
    assert (len(ref_chain), len(ref_libs)) == (stones, libs)
    assert set(chain.stones) == ref_chain and set(chain.libs) == ref_libs


# ---------------------------------------------------------------- capture
# FFG rules, « Capture », diagrams 4-6: a chain of three white stones with one liberty left, at a, is in atari;
# Black playing there takes its last liberty and removes the three stones from the board.
ATARI_THREE = """
.......
..XXX..
.XOOOa.
..XXX..
.......
.......
.......
"""


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_capture_of_a_chain_in_atari(preset: str) -> None:
    game, pos = setup_game(ATARI_THREE, rules=preset)
    a = pos.at("a")
    white = sorted(pos.white)
    assert game.board.chain(white[0]).libs == {a}
    record = game.play(a)
    for p in white:
        assert game.board.colors[p] == EMPTY
    assert game.board.colors[a] == BLACK
    assert game.prisoners[BLACK] == 3
    assert game.prisoners[WHITE] == 0
    assert record.captures == 3
    game.check_consistency()


# Belgian leaflet, § 4.3: White captures a chain of three black stones on the edge by playing on its last
# liberty. Captured stones are kept as prisoners, one point each under territory counting (Japanese 1989 rules,
# art. 5 and 10).
def test_capture_on_the_edge_and_prisoner_count() -> None:
    game, pos = setup_game(
        """
        OXXXO
        .OOaO
        .....
        .....
        .....
        """,
    )
    # Black has nothing useful to do: pass so that White captures.
    game.play(None)
    game.play(pos.at("a"))
    for c in (1, 2, 3):
        assert game.board.colors[c] == EMPTY
    assert game.prisoners[WHITE] == 3


# Several chains captured by one stone, and captures resolved before the played stone's liberties are counted
# (Japanese 1989 rules, art. 5: the move is complete once the captured stones are removed; Tromp-Taylor rule 7:
# the opponent's stones are cleared before one's own): Black at a has no empty neighbour but takes four single
# white stones.
FOUR_CHAINS = """
. . . X . . .
. . X O X . .
. X O a O X .
. . X O X . .
. . . X . . .
. . . . . . .
. . . . . . .
"""


def test_one_stone_captures_four_chains() -> None:
    game, pos = setup_game(FOUR_CHAINS)
    a = pos.at("a")
    white = sorted(pos.white)
    game.play(a)
    assert all(game.board.colors[p] == EMPTY for p in white)
    assert game.prisoners[BLACK] == 4
    assert len(game.board.chain(a).libs) == 4
    game.check_consistency()


# ---------------------------------------------------------------- suicide and its capture exception
# FFG rules, « Capture »: a player may not make a chain without liberty unless the same move captures an
# opposing chain. Belgian leaflet, § 4.4.1: White may play at neither of two such points, while a stone that
# captures (seven black stones for White, one white stone for Black) is not a suicide.
SUICIDE_POINTS = """
a X . . . . .
X X . . . . .
. . . . . . .
. . . X . . .
. . X b X . .
. . . X . . .
. . . . . . .
"""


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("label", ["a", "b"])
def test_single_stone_suicide_is_illegal_everywhere(preset: str, label: str) -> None:
    game, pos = setup_game(SUICIDE_POINTS, rules=preset)
    game.play(None)  # White to move
    assert refused(game, pos.at(label)) == "suicide"


# Belgian leaflet, § 4.4.1: White at 1 captures 7 black stones although 1 has no empty neighbour.
CAPTURE_SEVEN = """
. O O O . . .
O X X X O . .
O X 1 X O . .
O X X O . . .
. O O . . . .
. . . . . . .
. . . . . . .
"""


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_capture_exception_seven_stones(preset: str) -> None:
    text = CAPTURE_SEVEN.replace("1", "a")
    game, pos = setup_game(text, rules=preset)
    black = sorted(pos.black)
    assert len(black) == 7
    game.play(None)
    game.play(pos.at("a"))
    assert all(game.board.colors[p] == EMPTY for p in black)
    assert game.board.colors[pos.at("a")] == WHITE
    assert game.prisoners[WHITE] == 7
    game.check_consistency()


# The capture exception (FFG rules, « Capture »; Japanese 1989 rules, art. 4 and 5): a stone on a point without
# liberty is legal when it captures at once. White at a (the corner) has no empty neighbour; it captures the two
# black stones in atari.
CAPTURE_TWO = """
a X O . . .
X O . . . .
O . . . . .
. . . . . .
. . . . . .
. . . . . .
"""


def test_capture_exception_two_stones() -> None:
    game, pos = setup_game(CAPTURE_TWO)
    game.play(None)
    a = pos.at("a")
    assert game.legality(a) is None
    game.play(a)
    assert game.prisoners[WHITE] == 2
    assert game.board.colors[1] == EMPTY and game.board.colors[6] == EMPTY
    assert len(game.board.chain(a).libs) == 2
    game.check_consistency()


# The rule forbids a chain without liberty, not a stone without an empty neighbour (FFG rules, « Capture »;
# Japanese 1989 rules, art. 4): a stone with no empty neighbour is legal when it joins a chain that keeps a
# liberty, here to save two white stones in atari.
def test_connecting_on_a_point_without_liberty() -> None:
    game, pos = setup_game(
        """
        . . . . . .
        . X X X . .
        X O a O X .
        X O X O X .
        . . X X . .
        . . . . . .
        """,
    )
    game.play(None)
    a = pos.at("a")
    assert game.legality(a) is None
    game.play(a)
    chain = game.board.chain(a)
    assert len(chain.stones) == 5
    assert chain.libs == {4 * 6 + 1}  # the liberty left of the black stones below
    assert game.prisoners == {BLACK: 0, WHITE: 0}


# One eye against two (FFG rules, « Vie et mort »; Belgian leaflet, § 4.4.1): a black chain of 9 stones with a
# single eye in its middle is captured whole by a white stone in the eye; with two eyes A and B White can play in
# neither.
ONE_EYE_NINE = """
. O O O O O .
O X X X X X O
O X X e X X O
O O O O O O O
. . . . . . .
. . . . . . .
. . . . . . .
"""
TWO_EYES = """
. O O O O O O O .
O X X X X X X X O
O X A X X X B X O
O X X X X X X X O
. O O O O O O O .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_one_eye_is_captured(preset: str) -> None:
    game, pos = setup_game(ONE_EYE_NINE, rules=preset)
    black = sorted(pos.black)
    assert len(black) == 9
    game.play(None)
    game.play(pos.at("e"))
    assert game.prisoners[WHITE] == 9
    assert all(game.board.colors[p] == EMPTY for p in black)
    assert game.board.colors[pos.at("e")] == WHITE
    game.check_consistency()


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("label", ["a", "b"])
def test_two_eyes_cannot_be_filled(preset: str, label: str) -> None:
    game, pos = setup_game(TWO_EYES.replace("A", "a").replace("B", "b"), rules=preset)
    game.play(None)
    assert refused(game, pos.at(label)) == "suicide"


# FFG rules, « Vie et mort », diagram 7: with a single eye, a, Black is captured when White plays there;
# diagram 8: with two eyes, b and c, White can play in neither, so Black can never be captured.
CORNER_ONE_EYE = """
a X O . . .
X X O . . .
O O O . . .
. . . . . .
. . . . . .
. . . . . .
"""
CORNER_TWO_EYES = """
b X c X O .
X X X X O .
O O O O O .
. . . . . .
. . . . . .
. . . . . .
"""


def test_corner_one_eye_dies() -> None:
    game, pos = setup_game(CORNER_ONE_EYE)
    game.play(None)
    game.play(pos.at("a"))
    assert game.prisoners[WHITE] == 3


@pytest.mark.parametrize("label", ["b", "c"])
def test_corner_two_eyes_live(label: str) -> None:
    game, pos = setup_game(CORNER_TWO_EYES)
    game.play(None)
    assert refused(game, pos.at(label)) == "suicide"


# Multi-stone suicide (EGC 2011 explanations, example 9; Tromp-Taylor rule 7): legal under egc2011, new-zealand and
# tromp-taylor; the stones leave the board and count as the opponent's prisoners. Forbidden elsewhere. White in
# the corner joins its three stones into a chain without liberty that captures nothing: a four-stone suicide.
SUICIDE_THREE = """
. O X . . .
O O X . . .
X X X . . .
. . . . . .
. . . . . .
. . . . . .
"""


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_three_stone_suicide(preset: str) -> None:
    game, pos = setup_game(SUICIDE_THREE, rules=preset)
    game.play(None)
    corner = 0
    white = sorted(pos.white)
    if PRESETS[preset].suicide != "multi-stone":
        assert refused(game, corner) == "suicide"
        return
    before_moves = len(game.moves)
    game.play(corner)
    assert len(game.moves) == before_moves + 1
    for p in [corner, *white]:
        assert game.board.colors[p] == EMPTY
    assert game.prisoners[BLACK] == 4  # suicided stones are the opponent's prisoners
    assert game.prisoners[WHITE] == 0
    game.check_consistency()


# ---------------------------------------------------------------- ko
# FFG rules, « Répétition », diagrams 10-11: Black captures a white stone in atari at a; White may not take back at
# once at b, since that would give the board the state of diagram 10 again; after a move elsewhere and an answer,
# White may take back. Japanese 1989 rules, art. 6, and the Belgian leaflet, § 4.4.2, say the same. Here a is
# Black's capture, and White's stone is at (2,2).
KO_FIXED = """
. . . . . . .
. . X O . . .
. X O a O . .
. . X O . . .
. . . . . . .
. . . . . . .
. . . . . . .
"""


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_ko_immediate_recapture_forbidden(preset: str) -> None:
    game, pos = setup_game(KO_FIXED, rules=preset)
    a = pos.at("a")
    white_stone = 2 * 7 + 2
    # As in a real game, the position before the ko capture is one White made with a board play (the set-up
    # case is in test_repetition.py).
    game.play(5 * 7 + 0)
    game.play(5 * 7 + 6)
    record = game.play(a)
    assert game.board.colors[white_stone] == EMPTY
    assert game.prisoners[BLACK] == 1
    assert record.captures == 1
    reason = refused(game, white_stone)
    assert reason in ("ko", "superko")
    # White plays a threat elsewhere, Black answers elsewhere: now White may take back.
    game.play(6 * 7 + 6)
    game.play(6 * 7 + 0)
    assert game.legality(white_stone) is None
    game.play(white_stone)
    assert game.board.colors[a] == EMPTY
    assert game.prisoners[WHITE] == 1
    # And now Black may not take back at once.
    assert refused(game, a) in ("ko", "superko")


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_ko_connecting_ends_it(preset: str) -> None:
    """Black may fill the ko instead: the ko fight lasts only until one player connects (FFG rules, diag. 11)."""
    game, pos = setup_game(KO_FIXED, rules=preset)
    a = pos.at("a")
    white_stone = 2 * 7 + 2
    game.play(a)
    game.play(6 * 7 + 6)
    game.play(white_stone)  # Black connects
    assert game.board.colors[white_stone] == BLACK
    assert len(game.board.chain(a).stones) >= 1


def test_ko_diagram_is_a_real_ko() -> None:
    """Guard the diagram itself with the naive flood fill: the capturing stone is alone with one liberty."""
    pos = parse(KO_FIXED)
    a = pos.at("a")
    colors = pos.colors()
    colors[a] = BLACK
    colors[2 * 7 + 2] = EMPTY
    chain, libs = flood(colors, pos.size, a)
    assert chain == {a} and libs == {2 * 7 + 2}


# ---------------------------------------------------------------- seki
# FFG rules, « Vie et mort », diagram 9: whichever player plays first at d or e is captured by the other playing
# at the remaining point, so neither plays there: the stones live in seki and d and e are neutral points.
SEKI = """
X O d X O . O
X O O X O O O
X O e X O . O
X O O X O O O
X X X O O O O
X . X O . O .
. X X O O O O
"""
# The inner white chain (6 stones) and the inner black chain (4 stones) share the liberties d and e and have no
# other; d and e touch nothing else, and the outer walls have two eyes each.
INNER_WHITE = {(0, 1), (1, 1), (1, 2), (2, 1), (3, 1), (3, 2)}
INNER_BLACK = {(0, 3), (1, 3), (2, 3), (3, 3)}


def test_seki_filling_a_shared_liberty_loses() -> None:
    for first, second in (("d", "e"), ("e", "d")):
        game, pos = setup_game(SEKI)
        game.play(pos.at(first))  # Black fills one shared liberty: his inner chain is now in atari
        game.play(pos.at(second))  # White takes it
        assert game.prisoners[WHITE] == 5
        game2, _ = setup_game(SEKI)
        game2.play(None)
        game2.play(pos.at(first))  # White fills one
        game2.play(pos.at(second))  # Black takes the inner white chain and the filling stone
        assert game2.prisoners[BLACK] == 7


def test_seki_points_are_neutral() -> None:
    game, pos = setup_game(SEKI)
    score = game.score()
    d, e = pos.at("d"), pos.at("e")
    assert score.neutral == {d, e}
    assert d not in score.territory[BLACK] and d not in score.territory[WHITE]
    inner = {r * 7 + c for r, c in INNER_WHITE | INNER_BLACK}
    assert inner <= set(score.seki)
    # The outer walls have two eyes each: not in seki.
    assert 4 * 7 + 0 not in score.seki
    assert 0 * 7 + 6 not in score.seki
    # The eyes of the outer walls are territory as usual.
    assert 5 * 7 + 1 in score.territory[BLACK]
    assert 0 * 7 + 5 in score.territory[WHITE]
