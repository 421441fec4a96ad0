"""The count step by step (rules/count_steps.py): hand-checked positions, and on random finished games that the
steps replay to exactly the totals of every method.

The hand-checked counts follow the public texts (docs/rules.md, « Public sources »): the FFG quick count (each
side's prisoners, pass stones and the extra stone when Black played last go into the other's territory, then the
empty points are counted), the EGC 2011 explanations (example 2: stones that do not fit count for their holder;
example 6: an asymmetric seki), the AGA rule 7 pass stones, and the Japanese 1989 art. 8 (seki eyes count for
nobody).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from keima.rules import Game
from keima.rules.board import BLACK, EMPTY, WHITE, Board
from keima.rules.count_steps import Step, count_steps, game_count_steps, steps_as_dict
from keima.rules.ruleset import PRESETS, get_ruleset
from keima.rules.scoring import METHODS, score_position

from .diagram import parse

# A 5x5 wall: Black owns the two left columns (10 points), White the right column (5 points).
WALL = """
. . X O .
. . X O .
. . X O .
. . X O .
. . X O .
"""

# EGC 2011 explanations, example 6 shape (drawn for keima): every stone is in seki; a and b are the eyes
# (one each), s and t the shared liberties.
SEKI = """
a X O O b
X X O O O
X X s O O
X X X t O
X X X O O
"""

# A dead white stone (row 1, column 1) inside Black's area, and a dead black stone (row 2, column 5) inside White's.
DEAD = """
. . . X O . .
. O . X O . .
. . . X O X .
. . . X O . .
. . . X O . .
. . . X O . .
. . . X O . .
"""


def board_of(text: str) -> tuple[Board, dict[str, int]]:
    pos = parse(text)
    board = Board(pos.size)
    board.set_stones([(p, BLACK) for p in pos.black] + [(p, WHITE) for p in pos.white])
    return board, pos.labels


def steps_for(text: str, rules: str = "french", *, komi: float = 0.5, handicap: int = 0,
              dead: frozenset[int] = frozenset(), prisoners: tuple[int, int] = (0, 0),
              passes: tuple[int, int] = (0, 0), last: int | None = WHITE,
              ) -> tuple[dict[str, tuple[Step, ...]], Board]:
    board, _ = board_of(text)
    ruleset = get_ruleset(rules)
    score = score_position(
        board, ruleset, komi=komi, handicap_stones=handicap, dead=dead,
        prisoners={BLACK: prisoners[0], WHITE: prisoners[1]}, pass_count={BLACK: passes[0], WHITE: passes[1]},
        last_mover=last,
    )
    steps = count_steps(board, ruleset, score, handicap_stones=handicap)
    return steps, board


def kinds(seq: tuple[Step, ...]) -> list[str]:
    return [s.kind for s in seq]


def final(seq: tuple[Step, ...]) -> tuple[float, float]:
    return seq[-1].totals[BLACK], seq[-1].totals[WHITE]


def test_quick_count_with_pass_stones_and_black_last() -> None:
    # Black captured 2, White 1; Black passed once, White twice; Black moved last (White hands one more stone).
    steps, _ = steps_for(WALL, prisoners=(2, 1), passes=(1, 2), last=BLACK)
    qc = steps["quick-count"]
    assert kinds(qc) == ["qc-prisoners", "qc-pass-stones", "qc-black-last", "qc-dead", "qc-fill", "qc-fill",
                         "qc-count", "qc-komi"]
    held = [(s.held[BLACK], s.held[WHITE]) for s in qc]
    # 2+2+1 = 5 white stones in Black's hands, 1+1 = 2 black stones in White's.
    assert held[:4] == [(2, 1), (4, 2), (5, 2), (5, 2)]
    fill_b, fill_w = qc[4], qc[5]
    assert fill_b.color == BLACK and len(fill_b.placed) == 5 and {c for _, c in fill_b.placed} == {WHITE}
    # White's right column is filled completely; two of Black's points, the first in reading order.
    assert sorted(p for p, _ in fill_b.placed) == [4, 9, 14, 19, 24]
    assert [p for p, _ in fill_w.placed] == [0, 1] and {c for _, c in fill_w.placed} == {BLACK}
    assert (fill_w.held[BLACK], fill_w.held[WHITE]) == (0, 0)
    count = qc[6]
    assert len(count.counted) == 8 and all(owner == BLACK for _, owner in count.counted)
    assert final(qc) == (8, 0.5)
    # The other methods, by hand: area 5+10 against 5+5+0.5; territory 10+2+2+1 against 5+1+1+0.5;
    # Japanese 10+2 against 5+1+0.5 (no pass stones).
    assert final(steps["area"]) == (15, 10.5)
    assert final(steps["territory"]) == (15, 7.5)
    assert final(steps["japanese"]) == (12, 6.5)
    tps = {s.kind: s for s in steps["territory"]}
    assert tps["tps-white-last"].values == {"B": 1}
    assert dict(tps["tps-pass-stones"].values) == {"B": 2, "W": 1}


def test_quick_count_prisoners_that_do_not_fit_count_for_their_holder() -> None:
    # Black holds 8 + 2 + 1 = 11 white stones; White's territory has 5 points: 6 stay in Black's hands.
    steps, _ = steps_for(WALL, prisoners=(8, 0), passes=(0, 2), last=BLACK)
    qc = {s.kind: s for s in steps["quick-count"]}
    assert len(qc["qc-fill"].placed) == 0  # the dict keeps the last qc-fill: White's (nothing to place)
    fills = [s for s in steps["quick-count"] if s.kind == "qc-fill"]
    assert len(fills[0].placed) == 5 and fills[0].held[BLACK] == 6
    over = qc["qc-overflow"]
    assert over.values == {"B": 6, "W": 0} and (over.held[BLACK], over.held[WHITE]) == (0, 0)
    assert final(steps["quick-count"]) == (10 + 6, 0.5)


def test_seki_eyes_are_not_counted_in_the_japanese_steps() -> None:
    steps, board = steps_for(SEKI, komi=0)
    _, labels = board_of(SEKI)
    jp = {s.kind: s for s in steps["japanese"]}
    assert jp["jp-seki"].counted == tuple(sorted(((labels["a"], EMPTY), (labels["b"], EMPTY))))
    assert jp["jp-seki"].values == {"B": 1, "W": 1}
    assert jp["jp-territory"].counted == ()
    assert final(steps["japanese"]) == (0, 0)
    # Area counting gives each eye to its owner; the shared liberties s and t are dame.
    area = {s.kind: s for s in steps["area"]}
    assert sorted(area["area-territory"].counted) == [(labels["a"], BLACK), (labels["b"], WHITE)]
    assert sorted(area["area-neutral"].counted) == [(labels["s"], EMPTY), (labels["t"], EMPTY)]
    assert final(steps["area"]) == (12, 11)


def test_dead_stones_are_removed_and_become_prisoners() -> None:
    dead = frozenset({1 * 7 + 1, 2 * 7 + 5})
    steps, _ = steps_for(DEAD, komi=7.5, dead=dead)
    qc = {s.kind: s for s in steps["quick-count"]}
    assert qc["qc-dead"].removed == tuple(sorted(dead))
    assert (qc["qc-dead"].held[BLACK], qc["qc-dead"].held[WHITE]) == (1, 1)
    # Black: 21 points of territory (d's point included), 1 filled by White's prisoner; White: 14 - 1.
    assert final(steps["quick-count"]) == (20, 13 + 7.5)
    assert final(steps["area"]) == (7 + 21, 7 + 14 + 7.5)
    area = {s.kind: s for s in steps["area"]}
    assert area["area-dead"].values == {"B": 1, "W": 1} and area["area-dead"].removed == tuple(sorted(dead))
    assert final(steps["japanese"]) == (22, 15 + 7.5)


def test_handicap_compensation_and_half_point() -> None:
    steps, _ = steps_for(WALL, komi=0.5, handicap=3)
    area = {s.kind: s for s in steps["area"]}
    assert area["area-komi"].values == {"W": 0.5, "handicap": 3}
    assert area["area-handicap"].values["W"] == 2  # FFG: n-1 points
    assert area["area-handicap"].rule.article == "« Partie à handicap »"
    qc = steps["quick-count"]
    assert qc[-1].kind == "qc-komi" and qc[-1].rule.article.endswith("diagrams 17-19")
    chinese, _ = steps_for(WALL, "chinese", komi=0.5, handicap=3)
    assert {s.kind: s for s in chinese["area"]}["area-handicap"].values["W"] == 3
    even, _ = steps_for(WALL)
    assert "area-handicap" not in kinds(even["area"])


def test_steps_as_dict_is_json_shaped() -> None:
    steps, _ = steps_for(SEKI, komi=0)
    data = steps_as_dict(steps)
    assert set(data) == set(METHODS)
    seki = next(s for s in data["japanese"] if s["kind"] == "jp-seki")
    assert seki["counted"][0][1] == "N"
    assert seki["rule"] == {"source": "japanese-1989", "article": "art. 8"}
    assert set(seki["totals"]) == {"B", "W"}


def test_a_score_of_another_board_is_refused() -> None:
    board, _ = board_of(WALL)
    rules = get_ruleset("french")
    args = dict(komi=0.5, handicap_stones=0, prisoners={BLACK: 0, WHITE: 0}, pass_count={BLACK: 0, WHITE: 0},
                last_mover=None)
    score = score_position(board, rules, dead=frozenset({2}), **args)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not stones of this board"):
        count_steps(Board(5), rules, score, handicap_stones=0)


def random_finished_game(seed: int, size: int, preset: str, handicap: int) -> Game:
    rng = random.Random(seed)
    rules = PRESETS[preset]
    placement = "fixed" if handicap >= 2 and size >= 7 and rules.handicap_placement != "free" else None
    if handicap >= 2 and placement is None:
        handicap = 0
    game = Game(size=size, rules=rules, handicap=handicap, placement=placement)
    for _ in range(3 * size * size):
        if game.phase != "play":
            break
        legal = game.legal_moves()
        if not legal or rng.random() < 0.04:
            game.play(None)
        else:
            game.play(rng.choice(legal))
    while game.phase == "play":
        game.play(None)
    return game


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(5, 9),
    preset=st.sampled_from(sorted(PRESETS)),
    handicap=st.sampled_from([0, 0, 2, 3]),
)
def test_last_step_totals_are_the_method_totals(seed: int, size: int, preset: str, handicap: int) -> None:
    game = random_finished_game(seed, size, preset, handicap)
    if game.result == "Void":
        return
    rng = random.Random(seed + 1)
    chains = {id(ch): ch for ch in game.board.chain_at if ch is not None}.values()
    dead = [p for ch in chains if rng.random() < 0.25 for p in ch.stones]
    score = game.score(dead)
    steps = game_count_steps(game, score)
    colors = list(game.board.colors)
    for name in METHODS:
        seq = steps[name]
        m = score.methods[name]
        assert final(seq) == (m.black, m.white), name
        # Replaying the board changes is consistent: a removed point held a stone, a stone goes on an empty
        # point, a counted point is counted once.
        board = list(colors)
        counted: set[int] = set()
        for s in seq:
            for p in s.removed:
                assert board[p] != EMPTY
                board[p] = EMPTY
            for p, c in s.placed:
                assert board[p] == EMPTY
                board[p] = c
            for p, _owner in s.counted:
                assert p not in counted
                counted.add(p)
        assert seq[-1].held == {BLACK: 0, WHITE: 0}
    # The empty points the quick count counts are the territory not filled.
    qc = {s.kind: s for s in steps["quick-count"]}
    for c in (BLACK, WHITE):
        b = score.methods["quick-count"].breakdown[c]
        assert sum(1 for _, o in qc["qc-count"].counted if o == c) == b.territory - b.filled
    area = {s.kind: s for s in steps["area"]}
    for c in (BLACK, WHITE):
        b = score.methods["area"].breakdown[c]
        assert sum(1 for _, o in area["area-stones"].counted if o == c) == b.stones
        assert sum(1 for _, o in area["area-territory"].counted if o == c) == b.territory
