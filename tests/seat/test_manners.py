"""The seat's manners when the game is won (issue 28): on a settled board where passing cannot lose it passes, also
as the first to pass, at every level; it answers a fresh invasion; it leaves a seki alone; it does not capture dead
stones the marking removes, unless the ruleset counts every stone (Tromp-Taylor).

Boards are ASCII diagrams (``X`` black, ``O`` white, ``.`` empty; the top row first). The real positions are the
final positions (before the two closing passes) of counted games of ``bench/results``: keima against GNU Go 3.8
under the French rules, and the corpus of ``tests/data/sgf``."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from tests.positions import SEKI

from keima.ai.player import Player
from keima.record import load_record
from keima.rules import coords
from keima.rules.board import BLACK, WHITE, opponent
from keima.rules.game import Game
from keima.rules.scoring import open_points, settlement
from keima.seat import KeimaPlayer, Seat

from .boards import at, board

ROOT = Path(__file__).parent.parent.parent
LEVELS = ["beginner", "intermediate", "strong"]


def decide(game: Game, color: int, level: str, seconds: float = 0.3, seed: int = 5) -> tuple[str, int | None]:
    d = Seat(KeimaPlayer(level, seed=seed)).move(game, color, seconds)
    return d.action, d.point


# Black owns the left five columns, White the right four: no point is open. Black leads by 45 - 36 - 7.5 = 1.5.
WALLS = """
....XO...
....XO...
....XO...
....XO...
....XO...
....XO...
....XO...
....XO...
....XO...
"""

# Black's living group has a 9-point eye space in the corner (A7-C9); White owns everything else, in one-point
# eyes, and leads by 56.5 points. Heavy playouts call the empty 3x3 corner unsettled (White's stones there
# sometimes live in them), but no point on the board is worth a move: White passes.
CORNER = """
...XO.O.O
...XOO.OO
...XO.O.O
XXXXOOOOO
OOOOO.O.O
O.O.OO.OO
OO.OO.O.O
O.O.O.O.O
OO.O.O.O.
"""

# Small territories everywhere (White leads by 16.5 with komi 7.5); with the colours swapped, Black leads by 1.5.
DENSE = """
.X.XO.O.O
X.XXOO.OO
.X.XO.O.O
XXXXOOOOO
.X.XO.O.O
X.XXOO.OO
.X.XO.O.O
XX.XOO.OO
.X.XO.O.O
"""
DENSE_SWAPPED = DENSE.replace("X", "o").replace("O", "X").replace("o", "O")

# A settled 5x5 board: Black owns the left, White the right (komi 0.5); Black has just filled the last dame, C4.
SETTLED_5 = """
.X.O.
XXXOO
.XXO.
XX.OO
.X.O.
"""

# A lone white stone deep in Black's area on 7x7; three dame on the E column are still open.
DEAD_WHITE = """
...X.O.
.O.X.O.
...X.O.
XXXXOO.
...XO..
...XO..
...XO..
"""

# The same dead stone B6, on a board with no dame left and small territories (Black leads by 6.5 with komi 0.5).
DEAD_SETTLED = """
...XO.O
.O.XOO.
...XO.O
XXXXOOO
.X.XO.O
X.XXOO.
.X.XO.O
"""


# ------------------------------------------------------------------------------------ the board facts (rules)
@pytest.mark.parametrize(("diagram", "dead", "open_"), [
    (WALLS, [], []),
    (CORNER, [], []),  # the 9-point corner is Black's territory: nothing open
    (SEKI, [], []),  # C2 and B1 are seki points: a move there loses or gains nothing
    (WALLS.replace("....XO...", "....X.O..", 1), [], ["F9"]),  # a dame between the walls
    (DEAD_WHITE, ["B6"], ["E5", "E6", "E7"]),  # with B6 off the board, as the marking would have it: the dame
    (DEAD_SETTLED, [], ["A5", "A6", "A7", "B5", "B7", "C5", "C6", "C7"]),  # with the stone B6 standing
    (DEAD_SETTLED, ["B6"], []),
])
def test_open_points(diagram: str, dead: list[str], open_: list[str]) -> None:
    game = board(diagram)
    found = open_points(game.board, frozenset(at(game, v) for v in dead))
    assert sorted(coords.to_gtp(p, game.size) for p in found) == sorted(open_)


@pytest.mark.parametrize(("diagram", "dead", "closed"), [
    (CORNER, [], 9 + 21),  # the 3x3 corner and White's twenty-one one-point eyes
    (WALLS, [], 0),  # two wide areas: nothing closed
    (DEAD_SETTLED, ["B6"], 9 + 5 + 6),  # Black's A5-C7 with B6's point, its five one-point eyes, White's six
])
def test_closed_regions(diagram: str, dead: list[str], closed: int) -> None:
    game = board(diagram)
    found = settlement(game.board, frozenset(at(game, v) for v in dead))
    assert found.settled and len(found.closed) == closed
    if diagram == CORNER:
        assert {at(game, v) for v in ("A9", "B8", "C7")} <= found.closed


# ------------------------------------------------------------------------------------ won and settled: pass
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("diagram", "color"), [(DENSE_SWAPPED, BLACK), (DENSE, WHITE)])
def test_passes_first_on_a_won_settled_board(level: str, diagram: str, color: int) -> None:
    game = board(diagram, komi=7.5, to_move=color)
    assert (game.score().margin > 0) == (color == BLACK)
    assert decide(game, color, level) == ("pass", None)


@pytest.mark.parametrize("level", ["intermediate", "strong"])
def test_does_not_pass_first_where_a_wide_area_is_still_open_to_an_invasion(level: str) -> None:
    # Every point is bordered by one colour, and Black leads by 1.5, but the areas are 45 and 36 points wide: the
    # playouts do not give them to one side (an invasion might live), so they are no territory yet.
    action, _point = decide(board(WALLS, komi=7.5), BLACK, level)
    assert action == "play"


@pytest.mark.parametrize("level", LEVELS)
def test_a_9_point_corner_is_settled_white_passes(level: str) -> None:
    game = board(CORNER, to_move=WHITE)
    assert game.score(dead=()).margin < -50
    assert decide(game, WHITE, level) == ("pass", None)


@pytest.mark.parametrize("level", LEVELS)
def test_a_seki_is_left_alone(level: str) -> None:
    game = board(SEKI, to_move=WHITE)
    action, point = decide(game, WHITE, level)
    assert (action, point) == ("pass", None)
    # The loser passes too at the beginner level (it never fills a seki point: that would put it in atari).
    black = board(SEKI, to_move=BLACK)
    assert decide(black, BLACK, "beginner")[0] == "pass"


def test_passes_after_the_last_dame_is_filled() -> None:
    game = board(SETTLED_5, komi=0.5, to_move=WHITE)
    game.pass_move(WHITE)
    assert decide(game, BLACK, "strong", 0.2, seed=4) == ("pass", None)


def test_white_passes_last_under_egc() -> None:
    """Under EGC 2011 rules (pass stones, White passes last) the game ends with White's pass: White, winning on a
    settled board, answers Black's pass with a pass and the game reaches the dead-stone phase with no stone owed."""
    game = board(SETTLED_5.replace("XX.OO\n.X.O.\n", "XXOOO\n.X.O.\n"), rules="egc2011", komi=20.5)
    game.pass_move(BLACK)
    assert game.score().margin < 0
    assert decide(game, WHITE, "strong", 0.2, seed=6) == ("pass", None)
    game.pass_move(WHITE)
    assert game.phase == "scoring"


# ------------------------------------------------------------------------------------ dead stones after a pass
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("diagram", "komi"), [(DEAD_SETTLED, 0.5), (DEAD_WHITE, 7.5)])
def test_does_not_capture_dead_stones_the_marking_removes(level: str, diagram: str, komi: float) -> None:
    # After White's pass: settled (no dame), or with dame open but a count that already wins with B6 off.
    game = board(diagram, komi=komi, to_move=WHITE)
    game.pass_move(WHITE)
    assert game.score(dead=[at(game, "B6")]).margin > 0
    assert decide(game, BLACK, level) == ("pass", None)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("invasion", ["C5", "A7"])
def test_does_not_answer_a_hopeless_invasion_of_a_closed_region(level: str, invasion: str) -> None:
    # White's fresh stone lands next to its dead B6, in Black's 9-point region A5-C7: it cannot live there however
    # Black plays, and answering would only fill Black's own territory.
    game = board(DEAD_SETTLED, komi=0.5, to_move=WHITE)
    game.play(at(game, invasion), WHITE)
    assert decide(game, BLACK, level) == ("pass", None)


@pytest.mark.parametrize("level", LEVELS)
def test_passes_first_on_a_settled_board_with_dead_stones_in_its_area(level: str) -> None:
    # White's last move was elsewhere (a pass is no invasion): B6 has been dead for a while, nothing needs an
    # answer, and Black is ahead.
    game = board(DEAD_SETTLED, komi=0.5, to_move=WHITE)
    game.play(at(game, "G2"), WHITE)  # White fills one of its own eyes
    assert decide(game, BLACK, level) == ("pass", None)


def test_tromp_taylor_captures_dead_stones_before_passing() -> None:
    """Tromp-Taylor counts every stone on the board: after White's pass, Black does not pass while White's dead
    stone in its area would count, and passing then loses."""
    game = board(DEAD_WHITE, komi=7.5, rules="tromp-taylor", to_move=WHITE)
    game.pass_move(WHITE)
    assert game.score(dead=()).margin < 0 < game.score(dead=[at(game, "B6")]).margin
    action, point = decide(game, BLACK, "strong", seed=14)
    assert action == "play" and point is not None


# ------------------------------------------------------------------------------------ a fresh invasion: answer
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("invasion", ["C3", "C7", "B5"])
def test_answers_a_fresh_invasion(level: str, invasion: str) -> None:
    game = board(WALLS, komi=7.5, to_move=WHITE)
    game.play(at(game, invasion), WHITE)
    action, point = decide(game, BLACK, level)
    assert action == "play" and point is not None
    assert point % 9 <= 4, coords.to_gtp(point, 9)  # an answer in Black's own area (columns A to E)


# ------------------------------------------------------------------------------------ real games
# Counted games whose side to move at the end wins the count: (file, moves before the closing passes).
REAL = [
    ("bench/results/strength-9x9-v3/game-004.sgf", 63),
    ("bench/results/strength-9x9-v3/game-005.sgf", 62),
    ("bench/results/strength-9x9-v3/game-011.sgf", 32),
    ("bench/results/strength-9x9-v3/game-015.sgf", 52),
    ("bench/results/strength-9x9-v3/game-017.sgf", 62),
    ("bench/results/strength-9x9-v3/game-022.sgf", 71),
    ("bench/results/strength-9x9-v3/game-023.sgf", 50),
    ("bench/results/strength-9x9-v3/game-027.sgf", 54),
    ("bench/results/strength-9x9-v3/game-031.sgf", 50),
    ("bench/results/strength-9x9-v3/game-042.sgf", 61),
    ("bench/results/strength-9x9-v3/game-051.sgf", 40),
    ("bench/results/strength-9x9-v3/game-062.sgf", 57),
    ("bench/results/strength-9x9-v3/game-084.sgf", 47),
    ("bench/results/strength-9x9-v3/game-092.sgf", 45),
    ("bench/results/strength-9x9-v3/game-095.sgf", 40),
    ("bench/results/strength-9x9/game-041.sgf", 44),
    ("bench/results/strength-9x9/game-049.sgf", 40),
]
#: Those where the winner owns an empty region of more than 9 points (an invasion there may live) ...
ROOMY = [REAL[i] for i in (1, 3, 5, 15)]
#: ... and of exactly 9 points (closed: an invasion there is hopeless).
CLOSED = [REAL[i] for i in (8, 12)]


def final_position(path: str, moves: int) -> Game:
    game = load_record(ROOT / path).game
    while len(game.moves) > moves:
        game.undo()
    assert game.phase == "play" and game.moves[-1].point is not None
    return game


@pytest.mark.parametrize(("path", "moves"), REAL)
def test_real_games_end_with_the_winner_passing_first(path: str, moves: int) -> None:
    game = final_position(path, moves)
    color = game.to_move
    assert decide(game, color, "beginner", 0.2) == ("pass", None)
    assert decide(game, color, "strong", 0.3) == ("pass", None)


def test_a_real_fresh_invasion_is_answered() -> None:
    # keima's own game: White's last stone, C5, landed inside Black's left side; Black won the count after
    # passing, but a pass there lets White play a second stone in a 36-point area. The seat answers it.
    game = final_position("tests/data/sgf/keima_9x9_counted.sgf", 20)
    assert coords.to_gtp(game.moves[-1].point, 9) == "C5" and game.to_move == BLACK
    for level in LEVELS:
        action, point = decide(game, BLACK, level)
        assert action == "play" and point is not None and point % 9 <= 3, (level, point)


class Answering(Player):
    """keima's bot with a fixed, confident search: it answers next to the opponent's last stone (or at ``fallback``)
    and reports a 98% win rate. What the seat then plays is its manners' decision alone."""

    def __init__(self, fallback: int) -> None:
        super().__init__("strong", seed=1)
        self.fallback = fallback

    def genmove(self, game: Any, color: int | None = None, seconds: float | None = None) -> int | None:
        assert color is not None
        self.last_result = SimpleNamespace(playouts=1000, winrate=0.98)
        last = game.moves[-1].point if game.moves else None
        near = [q for q in game.board.nbrs[last]] if last is not None else []
        return next((q for q in [*near, self.fallback] if game.legality(q, color) is None), None)


@pytest.mark.parametrize(("path", "moves", "answers"), [(*r, True) for r in ROOMY] + [(*r, False) for r in CLOSED])
def test_real_games_a_fresh_invasion_of_the_winners_largest_area(path: str, moves: int, answers: bool) -> None:
    # The final position as it was: the search's move (a stone inside the winner's own area) is replaced by a pass.
    game = final_position(path, moves)
    color = game.to_move
    region = max(_regions(game, color), key=len)
    # The point of the region farthest inside it: the fewest neighbours outside the region.
    target = min(region, key=lambda p: sum(q not in region for q in game.board.nbrs[p]) * 100 + p)
    settled = Seat(KeimaPlayer(player=Answering(target))).move(game, color, 0.3)
    assert settled.action == "pass", settled
    # The loser has just played into the middle of that area: a fresh invasion. The seat keeps the answer where the
    # area leaves the invader room; in a closed region (9 points) the invasion is hopeless and it still passes.
    game.pass_move(color)
    game.play(target, opponent(color))
    answer = Seat(KeimaPlayer(player=Answering(target))).move(game, color, 0.3)
    if answers:
        assert answer.action == "play" and answer.point in game.board.nbrs[target], answer
    else:
        assert answer.action == "pass", answer


def _regions(game: Game, color: int) -> list[set[int]]:
    """The empty regions of ``game`` bordered by ``color`` alone."""
    out = []
    for pts, border in game.board.regions((0,)):
        if {game.board.colors[q] for q in border} == {color} and len(pts) >= 3:
            out.append(set(pts))
    return out


# Move 37 of a game against GNU Go (bench/strength.py, 9x9, keima Black): every empty point was bordered by one
# colour once the estimator's dead stones (B5 C5 C3) were off, and the seat, reading territory from the borders
# alone, passed first; Black lost. The frameworks on both sides are wide open: no level passes.
FRAMEWORKS = """
..XO.....
..XOO....
...XOOO..
.XXXOXXO.
.OO.X.XO.
......XO.
..OXXXO..
..XXOOO..
...XXO...
"""


@pytest.mark.parametrize("level", LEVELS)
def test_does_not_pass_first_in_the_middle_game_with_wide_frameworks(level: str) -> None:
    game = board(FRAMEWORKS, komi=7.5)
    assert open_points(game.board, frozenset(at(game, v) for v in ("B5", "C5", "C3"))) == frozenset()
    assert decide(game, BLACK, level, 1.0)[0] == "play"
