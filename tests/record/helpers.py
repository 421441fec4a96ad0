"""Shared paths and comparisons for the record tests."""

from __future__ import annotations

from pathlib import Path

from keima.rules.game import Game

CORPUS = Path(__file__).resolve().parent.parent / "data" / "sgf"
GOOD = sorted(CORPUS.glob("*.sgf"))
BAD_DIR = CORPUS / "bad"


def same_game(a: Game, b: Game) -> None:
    """Assert that two games hold the same history and state."""
    assert a.size == b.size
    assert a.rules == b.rules
    assert a.komi == b.komi
    assert a.handicap == b.handicap
    assert a.handicap_stones == b.handicap_stones
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    assert a.board.colors == b.board.colors
    assert a.phase == b.phase
    assert a.result == b.result
    assert a.dead == b.dead
