"""Territory as the rule texts define it: empty points bounded by one colour's stones, the board edge being a
natural border (FFG rules, « Territoire », diagram 3); points between both colours are dame, counted for nobody
(EGC 2011 explanations, example 1; Japanese 1989 rules, art. 8); dead stones are removed before territory is
found (EGC 2011 explanations, « méthode des aires »)."""

from __future__ import annotations

import pytest

from keima.rules.board import BLACK, WHITE

from .diagram import setup_game
from .reference import regions

# A lone white stone in the far corner makes the outside of each black enclosure bordered by both colours, so
# only the enclosed points are Black's territory.
CASES = [
    # FFG rules, « Territoire », diagram 3: black stones enclose 7 points against the edge of the board, which
    # serves as a border.
    (
        "seven points on the edge (FFG diag 3)",
        """
        a a a a X . . . .
        a a a X . . . . .
        X X X . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . O
        """,
        7,
    ),
    # Because the edge is a border, the same eight stones enclose 4 points in the centre, 8 on a side and 16 in
    # a corner.
    (
        "eight stones in the centre enclose 4",
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . X X . . . .
        . . X a a X . . .
        . . X a a X . . .
        . . . X X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . O
        """,
        4,
    ),
    (
        "eight stones on a side enclose 8",
        """
        . . X a a a a X .
        . . X a a a a X .
        . . . X X X X . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . O
        """,
        8,
    ),
    (
        "eight stones in a corner enclose 16",
        """
        a a a a X . . . .
        a a a a X . . . .
        a a a a X . . . .
        a a a a X . . . .
        X X X X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . O
        """,
        16,
    ),
]


def territory_points(text: str) -> tuple[str, set[int]]:
    """Replace the ``a`` marks (the expected territory) by empty points; return the diagram and the points."""
    rows = [line.replace(" ", "") for line in text.strip().splitlines()]
    size = len(rows)
    pts = {r * size + c for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "a"}
    return "\n".join(row.replace("a", ".") for row in rows), pts


@pytest.mark.parametrize(("name", "diagram", "count"), CASES, ids=[c[0] for c in CASES])
def test_enclosed_territory(name: str, diagram: str, count: int) -> None:
    text, expected = territory_points(diagram)
    assert len(expected) == count
    game, pos = setup_game(text)
    score = game.score()
    assert set(score.territory[BLACK]) == expected
    assert not score.territory[WHITE]
    # Everything else empty is dame: bordered by both colours.
    empties = {p for p, c in enumerate(pos.colors()) if c == 0}
    assert set(score.neutral) == empties - expected
    area = score.methods["area"].breakdown[BLACK]
    assert area.territory == count
    assert area.stones == len(pos.black)
    # The naive flood fill agrees that each expected point lies in a region bordered by black only.
    for region, border in regions(pos.colors(), pos.size):
        if region & expected:
            assert region == expected and border == {BLACK}


def test_dead_stones_are_removed_before_territory() -> None:
    """A player's territory is the empty points surrounded by his live stones only (EGC 2011 explanations,
    « méthode des aires »): a dead white stone inside Black's corner turns the corner back into territory."""
    game, pos = setup_game(
        """
        . . . . X . . . .
        . O . . X . . . .
        . . . . X . . . .
        . . . . X . . . .
        X X X X . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . O
        """
    )
    alive = game.score()
    assert not alive.territory[BLACK]
    dead = game.score(dead=[1 * 9 + 1])
    assert len(dead.territory[BLACK]) == 16
    assert dead.methods["area"].breakdown[BLACK].territory == 16
    assert dead.methods["japanese"].breakdown[BLACK].dead == 1
    assert dead.methods["area"].breakdown[WHITE].stones == 1
