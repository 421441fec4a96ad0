"""The errors of the referee, and the one place that words the refusal of an illegal move.

A ``GameError`` is an action that does not fit the game's state; an ``IllegalMove`` is a move the rules forbid.
Both carry a short machine-readable ``reason`` besides the sentence, so that a front end can react to the code and
show the sentence.
"""

from __future__ import annotations

from keima.rules.coords import to_gtp

REASONS = ("occupied", "suicide", "ko", "superko", "off-board", "wrong-phase", "wrong-turn")

_KO_WORDS = {
    "positional": "positional superko: no play may recreate an earlier board position",
    "situational": "situational superko: no play may recreate an earlier board position with the same player "
    "to move",
    "natural-situational": "natural situational superko (French rules): a player may not, by placing a stone, "
    "give the board a state it already had from one of his own stones",
}


class GameError(ValueError):
    """An action that does not fit the game's state; ``reason`` is a short machine-readable code."""

    def __init__(self, message: str, reason: str = "invalid") -> None:
        super().__init__(message)
        self.reason = reason


class IllegalMove(GameError):
    """A move the rules forbid. ``reason`` is one of ``REASONS``; ``str(e)`` is a sentence naming the rule."""

    def __init__(self, reason: str, message: str, move: int | None = None, color: int | None = None) -> None:
        super().__init__(message, reason)
        self.move = move
        self.color = color


def occupied(p: int, color: int, size: int) -> IllegalMove:
    """Return the refusal of a stone on the occupied point ``p``."""
    return IllegalMove(
        "occupied", f"{to_gtp(p, size)} is occupied: a stone may only be placed on an empty point", p, color
    )


def suicide(p: int, color: int, size: int, single: bool, rules_name: str) -> IllegalMove:
    """Return the refusal of a suicide at ``p``: of a single stone (forbidden everywhere) or, where the ruleset
    ``rules_name`` forbids it, of a larger chain."""
    gtp = to_gtp(p, size)
    if single:
        return IllegalMove(
            "suicide",
            f"{gtp} would be suicide: a single stone without liberties that captures nothing is forbidden "
            "under every ruleset (it would recreate the position)",
            p,
            color,
        )
    return IllegalMove(
        "suicide",
        f"{gtp} would be suicide: under the {rules_name} rules a play may not leave its own chain "
        "without liberties unless it captures",
        p,
        color,
    )


def repetition(p: int, color: int, size: int, simple_ko: bool, ko_rule: str, rules_name: str,
               start: bool = False) -> IllegalMove:
    """Return the refusal of a play at ``p`` that repeats a position: ``simple_ko`` when it retakes a single-stone
    ko at once (reason ``ko``, whichever rule forbids it), else a superko under ``ko_rule``; ``start`` when the
    board repeated is a starting position (set up, or after handicap), which the sentence then names: under
    natural-situational superko it counts as made by the mover (docs/rules.md), not by a stone they played."""
    gtp = to_gtp(p, size)
    if simple_ko:
        return IllegalMove(
            "ko",
            f"{gtp} retakes the ko at once: recapturing the single stone that just captured would repeat "
            "the previous position; play elsewhere first (ko rule)",
            p,
            color,
        )
    if start and ko_rule == "natural-situational":
        who = "Black" if color == 1 else "White"
        first = "White" if color == 1 else "Black"
        return IllegalMove(
            "superko",
            f"{gtp} is forbidden by natural situational superko ({rules_name} rules): it would give the board back "
            f"its starting position, which counts as {who}'s own, as if {who} had just made it (a starting "
            f"position counts as made by the opponent of the player to move first, here {first})",
            p,
            color,
        )
    if start:
        return IllegalMove(
            "superko",
            f"{gtp} is forbidden by {_KO_WORDS[ko_rule]} ({rules_name} rules): it would give the board back its "
            "starting position",
            p,
            color,
        )
    return IllegalMove(
        "superko", f"{gtp} is forbidden by {_KO_WORDS[ko_rule]} ({rules_name} rules)", p, color
    )
